package io.apiary.ingest.deadletter;

import io.apiary.ingest.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The dead letter record format shared by every stage: key and value are the original bytes,
 * the original headers are kept, and these headers (UTF-8 text) say what happened:
 * <pre>
 *   apiary.dlq.stage             deserialize | process | sink
 *   apiary.dlq.reason            a {@link RejectReason} code
 *   apiary.dlq.message           what was wrong, for an operator
 *   apiary.dlq.exception         class name of the underlying exception
 *   apiary.dlq.source.topic      topic the record was read from
 *   apiary.dlq.source.partition  its partition
 *   apiary.dlq.source.offset     its offset
 *   apiary.dlq.truncated         "true" when key and value were cut to fit (see below)
 *   apiary.dlq.original.key.bytes / apiary.dlq.original.value.bytes   their sizes before cutting
 * </pre>
 * A dead letter record must itself fit in Kafka, also when the original was rejected for its size:
 * keys over {@value #MAX_KEY_BYTES} bytes and values beyond {@value #MAX_PAYLOAD_BYTES} bytes of key
 * plus value are cut to those sizes (the first bytes are kept), the original headers beyond
 * {@value #MAX_ORIGINAL_HEADER_BYTES} bytes are left out, and the message is cut to
 * {@value #MAX_MESSAGE_CHARS} characters.
 * Each dead-lettered record also increments the Micrometer counter
 * {@value io.apiary.ingest.metrics.MetricNames#DEAD_LETTER_RECORDS} tagged with {@code stage} and {@code reason}. Thread-safe (stateless).
 */
public final class DeadLetterHeaders {

    public static final String STAGE = "apiary.dlq.stage";
    public static final String REASON = "apiary.dlq.reason";
    public static final String MESSAGE = "apiary.dlq.message";
    public static final String EXCEPTION = "apiary.dlq.exception";
    public static final String SOURCE_TOPIC = "apiary.dlq.source.topic";
    public static final String SOURCE_PARTITION = "apiary.dlq.source.partition";
    public static final String SOURCE_OFFSET = "apiary.dlq.source.offset";

    public static final String TRUNCATED = "apiary.dlq.truncated";
    public static final String ORIGINAL_KEY_BYTES = "apiary.dlq.original.key.bytes";
    public static final String ORIGINAL_VALUE_BYTES = "apiary.dlq.original.value.bytes";

    /** Longest key kept, in bytes. */
    public static final int MAX_KEY_BYTES = 16 * 1024;
    /** Most key plus value bytes kept: half of Kafka's default 1 MiB request size, leaving room for headers. */
    public static final int MAX_PAYLOAD_BYTES = 512 * 1024;
    /** Most bytes of the original record's headers kept on its dead letter copy (names plus values). */
    public static final int MAX_ORIGINAL_HEADER_BYTES = 64 * 1024;
    /** Longest message header kept, in characters. */
    public static final int MAX_MESSAGE_CHARS = 2_000;

    private DeadLetterHeaders() {}

    /**
     * Builds one dead letter record and counts it.
     *
     * @param deadLetterTopic the dead letter topic, not null
     * @param stage           pipeline stage that rejected the record, not null
     * @param reason          reason code, not null
     * @param error           the failure; its message becomes the message header, not null
     * @param sourceTopic     topic of the original record, not null
     * @param sourcePartition partition of the original record
     * @param sourceOffset    offset of the original record
     * @param key             original key bytes, may be null
     * @param value           original value bytes, may be null
     * @param originalHeaders headers of the original record, may be null
     * @return the record to produce
     */
    public static ProducerRecord<byte[], byte[]> record(
            String deadLetterTopic,
            String stage,
            RejectReason reason,
            Throwable error,
            String sourceTopic,
            int sourcePartition,
            long sourceOffset,
            byte[] key,
            byte[] value,
            Headers originalHeaders) {
        Headers headers = new RecordHeaders();
        int originalHeaderBytes = 0;
        boolean headersCut = false;
        if (originalHeaders != null) {
            for (Header h : originalHeaders) {
                int size = h.key().length() + (h.value() == null ? 0 : h.value().length);
                if (originalHeaderBytes + size > MAX_ORIGINAL_HEADER_BYTES) {
                    headersCut = true; // the copy must fit Kafka's record size, so large headers are left out
                    continue;
                }
                originalHeaderBytes += size;
                headers.add(h);
            }
        }
        put(headers, STAGE, stage);
        put(headers, REASON, reason.name());
        String message = String.valueOf(error.getMessage());
        put(
                headers,
                MESSAGE,
                message.length() > MAX_MESSAGE_CHARS
                        ? message.substring(0, MAX_MESSAGE_CHARS) + "... (" + message.length() + " characters)"
                        : message);
        put(headers, EXCEPTION, error.getClass().getName());
        put(headers, SOURCE_TOPIC, sourceTopic);
        put(headers, SOURCE_PARTITION, Integer.toString(sourcePartition));
        put(headers, SOURCE_OFFSET, Long.toString(sourceOffset));
        byte[] keptKey = cut(key, MAX_KEY_BYTES);
        byte[] keptValue = cut(value, MAX_PAYLOAD_BYTES - (keptKey == null ? 0 : keptKey.length));
        if (keptKey != key || keptValue != value || headersCut) {
            put(headers, TRUNCATED, "true");
            put(headers, ORIGINAL_KEY_BYTES, Integer.toString(key == null ? 0 : key.length));
            put(headers, ORIGINAL_VALUE_BYTES, Integer.toString(value == null ? 0 : value.length));
        }
        counter(stage, reason).increment();
        return new ProducerRecord<>(deadLetterTopic, null, keptKey, keptValue, headers);
    }

    /**
     * The counter of one stage and reason, in Micrometer's global registry.
     *
     * @param stage  pipeline stage
     * @param reason reason code
     * @return the counter
     */
    public static Counter counter(String stage, RejectReason reason) {
        return Metrics.counter(
                MetricNames.DEAD_LETTER_RECORDS, MetricNames.TAG_STAGE, stage, MetricNames.TAG_REASON, reason.name());
    }

    /**
     * Reads one text header.
     *
     * @param headers record headers, not null
     * @param name    header name
     * @return the last value of that header as UTF-8 text, or null if absent
     */
    public static String text(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static byte[] cut(byte[] bytes, int max) {
        return bytes == null || bytes.length <= max ? bytes : java.util.Arrays.copyOf(bytes, Math.max(0, max));
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
