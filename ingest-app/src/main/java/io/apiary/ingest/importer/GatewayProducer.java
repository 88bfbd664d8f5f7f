package io.apiary.ingest.importer;

import io.apiary.ingest.topics.Topic;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.TelemetryReading;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces gateway records as a hive gateway does: key = hive id (UTF-8), value = Avro
 * single-object encoding. The event time travels in the value; the record timestamp is left to the
 * producer's clock (topics created by the application replace it with the broker's append time),
 * so years-old readings are not deleted by time-based retention, and readings before 1970 can be
 * sent (the topology then rejects them). Idempotent producer with
 * {@code acks=all}. Counts what Kafka acknowledged; after the first failed send, every further
 * {@code send} and {@link #flush()} throw it. Thread-safe (the Kafka producer is).
 */
public final class GatewayProducer implements AutoCloseable {

    /** Room kept under max.request.size for the batch and record framing. */
    private static final int RECORD_OVERHEAD_BYTES = 1024;

    private final Producer<byte[], byte[]> producer;
    private final Topic<String, TelemetryReading> telemetry;
    private final Topic<String, EntranceCount> entranceCounts;
    private final AtomicLong acknowledged = new AtomicLong();
    private final Map<TopicPartition, Long> lastOffsets = new ConcurrentHashMap<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final int maxRecordBytes;

    /**
     * @param kafkaSettings  Kafka client settings (bootstrap servers, security), not null
     * @param telemetry      the telemetry topic
     * @param entranceCounts the entrance-counter topic
     */
    public GatewayProducer(
            Map<String, Object> kafkaSettings,
            Topic<String, TelemetryReading> telemetry,
            Topic<String, EntranceCount> entranceCounts) {
        Map<String, Object> settings = new HashMap<>(kafkaSettings);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 20);
        settings.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        settings.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "apiary-gateway-producer");
        settings.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        this.maxRecordBytes = Integer.parseInt(
                        String.valueOf(settings.getOrDefault(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1024 * 1024)))
                - RECORD_OVERHEAD_BYTES;
        this.producer = new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer());
        this.telemetry = telemetry;
        this.entranceCounts = entranceCounts;
    }

    /**
     * Sends a reading asynchronously.
     *
     * @param reading the reading, not null
     * @throws RecordTooLargeException if the encoded record is too large for Kafka (nothing is sent)
     * @throws KafkaException if an earlier send failed
     */
    public void send(TelemetryReading reading) {
        send(telemetry, reading.getHiveId(), reading);
    }

    /**
     * Sends a reading asynchronously with record headers (for example, the import run and line that
     * its dead letter copy keeps); the offsets Kafka gives them are kept ({@link #lastOffsets()}).
     *
     * @param reading the reading, not null
     * @param headers headers of the record, not null
     * @throws RecordTooLargeException if the encoded record is too large for Kafka (nothing is sent)
     * @throws KafkaException if an earlier send failed
     */
    public void send(TelemetryReading reading, Headers headers) {
        send(telemetry, reading.getHiveId(), reading, Objects.requireNonNull(headers, "headers"));
    }

    /**
     * Sends an entrance-counter sample asynchronously.
     *
     * @param sample the sample, not null
     * @throws KafkaException if an earlier send failed
     */
    public void send(EntranceCount sample) {
        send(entranceCounts, sample.getHiveId(), sample, null);
    }

    /**
     * Sends an entrance-counter sample asynchronously with record headers (for example, those that
     * let an import find its samples on the late and dead letter topics again); the offsets Kafka
     * gives them are kept ({@link #lastOffsets()}).
     *
     * @param sample  the sample, not null
     * @param headers headers of the record, not null
     * @throws KafkaException if an earlier send failed
     */
    public void send(EntranceCount sample, Headers headers) {
        send(entranceCounts, sample.getHiveId(), sample, Objects.requireNonNull(headers, "headers"));
    }

    /**
     * The last offset acknowledged in each partition for records sent with headers; complete for
     * every record once {@link #flush()} has returned. A copy, not a view.
     *
     * @return partition to its last acknowledged offset
     */
    public Map<TopicPartition, Long> lastOffsets() {
        return Map.copyOf(lastOffsets);
    }

    private <V> void send(Topic<String, V> topic, String key, V value) {
        send(topic, key, value, null);
    }

    private <V> void send(Topic<String, V> topic, String key, V value, Headers headers) {
        Exception earlier = failure.get();
        if (earlier != null) {
            throw new KafkaException("Producing gateway records failed: " + earlier.getMessage(), earlier);
        }
        byte[] k = topic.keySerde().serializer().serialize(topic.name(), key);
        byte[] v = topic.valueSerde().serializer().serialize(topic.name(), value);
        if (k.length + v.length > maxRecordBytes) {
            throw new RecordTooLargeException("The record is " + (k.length + v.length) + " bytes, over the "
                    + maxRecordBytes + " bytes Kafka accepts (max.request.size)");
        }
        producer.send(new ProducerRecord<>(topic.name(), null, k, v, headers), (metadata, error) -> {
            if (error == null) {
                acknowledged.incrementAndGet();
                if (headers != null) {
                    lastOffsets.merge(
                            new TopicPartition(metadata.topic(), metadata.partition()), metadata.offset(), Math::max);
                }
            } else {
                failure.compareAndSet(null, error);
            }
        });
    }

    /** @return records Kafka has acknowledged so far */
    public long acknowledged() {
        return acknowledged.get();
    }

    /**
     * Waits until every record sent so far is acknowledged.
     *
     * @throws KafkaException if any send failed, with the first failure as cause
     */
    public void flush() {
        producer.flush();
        Exception error = failure.get();
        if (error != null) {
            throw new KafkaException("Producing gateway records failed: " + error.getMessage(), error);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(30));
    }
}
