package io.apiary.ingest.importer;

import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.topology.HourlyActivityProcessor;
import io.apiary.schema.EntranceCount;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Follows one import's records through the topology: which of them went to the late topic and
 * which to the dead letter topic; every other one was summed. Each record the import sends
 * carries two headers, {@value #RUN_HEADER} (a random id of this run) and {@value #LINES_HEADER}
 * (the file lines it came from), which the topology keeps on the late copy of a record and the
 * dead letter format keeps as original headers ({@link DeadLetterHeaders}). The audit notes the
 * end offsets of the two topics before anything is sent ({@link #begin}); once the topology's
 * consumer group has committed offsets past the import's last record in every partition
 * ({@link #awaitConsumed}), what the topology wrote for those records is on the two topics
 * (under exactly-once in the same transaction as the commit; under at-least-once flushed before
 * it), and {@link #collect} reads them, read committed, from the noted offsets to their ends.
 *
 * <p>A record the topology summed into a closed hour (a correction) or recognised as a re-send of a
 * sample it had already summed (an import run twice) is neither late nor rejected, and counts as
 * summed: its sample is in the sums once. Not thread-safe.
 */
public final class ImportAudit {

    /** Header with the id of the import run, UTF-8. */
    public static final String RUN_HEADER = "apiary.import.run";
    /** Header with the file lines a record came from, e.g. {@code 12} or {@code 12-40}, UTF-8. */
    public static final String LINES_HEADER = "apiary.import.lines";

    /**
     * A record the topology did not sum or store.
     *
     * @param lines     the lines it came from, as in {@link #LINES_HEADER}, or "?" if the header is missing
     * @param record    the record described for a person (e.g. {@code hive h-1 interval ending ... (3 in, 2
     *                  out)}), or null if a dead letter copy could not be decoded (cut to fit)
     * @param outcome   {@code LATE}, or the dead letter reason code (e.g. {@code EXPIRED_TIMESTAMP})
     * @param detail    what happened, for the user: the closed hour and close time, or the dead letter message
     */
    public record Flagged(String lines, String record, String outcome, String detail) {
        @Override
        public String toString() {
            return "line " + lines + ": " + outcome + (record == null ? "" : ", " + record) + ": " + detail;
        }
    }

    /**
     * Describes an entrance-count sample for {@link Flagged#record()}.
     *
     * @param sample the sample, not null
     * @return e.g. {@code hive h-1 interval ending 2021-06-01T10:00:00Z (3 in, 2 out)}
     */
    public static String describe(EntranceCount sample) {
        return "hive " + sample.getHiveId() + " interval ending " + sample.getEventTime() + " (" + sample.getBeesIn()
                + " in, " + sample.getBeesOut() + " out)";
    }

    /**
     * What the topology did with the import's records.
     *
     * @param late     samples that came after their hour's correction horizon, in line order (always
     *                 empty for a run without a late topic)
     * @param rejected records the topology dead-lettered, in line order
     */
    public record Outcome(List<Flagged> late, List<Flagged> rejected) {}

    private final Map<String, Object> kafkaSettings;
    private final String runId;
    private final Map<TopicPartition, Long> startOffsets;
    private final String lateTopic;
    private final Function<byte[], String> describe;

    private ImportAudit(
            Map<String, Object> kafkaSettings,
            String runId,
            Map<TopicPartition, Long> startOffsets,
            String lateTopic,
            Function<byte[], String> describe) {
        this.kafkaSettings = kafkaSettings;
        this.runId = runId;
        this.startOffsets = startOffsets;
        this.lateTopic = lateTopic;
        this.describe = describe;
    }

    /**
     * Notes where the late and dead letter topics end now, before the import sends anything.
     *
     * @param kafkaSettings   Kafka client settings, not null
     * @param lateTopic       the late topic, or null for records that are never late (telemetry)
     * @param deadLetterTopic the dead letter topic, not null
     * @param describe        decodes a value (the gateway topic's encoding) and describes it for a
     *                        person, not null; may throw on bytes it cannot read
     * @param timeout         how long Kafka may take to answer, positive
     * @return the audit of a new run, with a random run id
     * @throws KafkaException if a topic does not exist or Kafka does not answer in time
     */
    public static ImportAudit begin(
            Map<String, Object> kafkaSettings,
            String lateTopic,
            String deadLetterTopic,
            Function<byte[], String> describe,
            Duration timeout) {
        Map<TopicPartition, Long> start = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafkaSettings)) {
            List<String> topics = lateTopic == null ? List.of(deadLetterTopic) : List.of(lateTopic, deadLetterTopic);
            for (String topic : topics) {
                List<PartitionInfo> partitions = consumer.partitionsFor(topic, timeout);
                if (partitions == null || partitions.isEmpty()) {
                    throw new KafkaException("The topic " + topic + " does not exist (run 'topics create')");
                }
                List<TopicPartition> tps = partitions.stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition()))
                        .toList();
                start.putAll(consumer.endOffsets(tps, timeout));
            }
        }
        return new ImportAudit(
                Map.copyOf(kafkaSettings),
                UUID.randomUUID().toString(),
                start,
                lateTopic,
                Objects.requireNonNull(describe));
    }

    /** @return the id of this run, as in {@link #RUN_HEADER} */
    public String runId() {
        return runId;
    }

    /**
     * @param runId the run's id, not null
     * @param lines the lines a record comes from, e.g. {@code 12} or {@code 12-40}, not null
     * @return new headers for one record of that run
     */
    public static Headers headers(String runId, String lines) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(RUN_HEADER, runId.getBytes(StandardCharsets.UTF_8));
        headers.add(LINES_HEADER, lines.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    /**
     * Waits until a consumer group has committed offsets past the given ones.
     *
     * @param groupId     the topology's consumer group (its application id), not null
     * @param lastOffsets the last offset of the import in each partition, not null
     * @param timeout     how long to wait, not negative
     * @return the partitions still behind when the time was up (empty: all consumed), with the
     *         group's committed offset in each (-1 if it has none)
     * @throws InterruptedException if interrupted while waiting
     */
    public Map<TopicPartition, Long> awaitConsumed(
            String groupId, Map<TopicPartition, Long> lastOffsets, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> behind = new HashMap<>(lastOffsets);
        try (Admin admin = Admin.create(kafkaSettings)) {
            while (true) {
                Map<TopicPartition, OffsetAndMetadata> committed = committed(admin, groupId, deadline);
                behind.clear();
                lastOffsets.forEach((tp, last) -> {
                    OffsetAndMetadata c = committed.get(tp);
                    if (c == null || c.offset() <= last) {
                        behind.put(tp, c == null ? -1L : c.offset());
                    }
                });
                if (behind.isEmpty() || System.nanoTime() >= deadline) {
                    return behind;
                }
                Thread.sleep(500);
            }
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin, String groupId, long deadline)
            throws InterruptedException {
        long waitMs = Math.max(1_000, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata()
                    .get(waitMs, TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetAndMetadata> present = new HashMap<>();
            offsets.forEach((tp, o) -> {
                if (o != null) {
                    present.put(tp, o);
                }
            });
            return present;
        } catch (ExecutionException | TimeoutException e) {
            return Map.of(); // asked again until the deadline
        }
    }

    /**
     * Reads what the topology wrote to the late and dead letter topics for this run's records,
     * from the offsets noted at {@link #begin} to the topics' current ends.
     *
     * @param timeout how long reading may take, positive
     * @return the late and rejected samples of this run
     * @throws KafkaException if reading fails or does not reach the ends in time
     */
    public Outcome collect(Duration timeout) {
        List<Flagged> late = new ArrayList<>();
        List<Flagged> rejected = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafkaSettings)) {
            consumer.assign(startOffsets.keySet());
            startOffsets.forEach(consumer::seek);
            Map<TopicPartition, Long> ends = consumer.endOffsets(startOffsets.keySet(), timeout);
            while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() > deadline) {
                    throw new KafkaException("Reading the late and dead letter topics did not reach their ends within "
                            + timeout.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (!runId.equals(DeadLetterHeaders.text(record.headers(), RUN_HEADER))) {
                        continue;
                    }
                    String lines =
                            Objects.requireNonNullElse(DeadLetterHeaders.text(record.headers(), LINES_HEADER), "?");
                    if (lateTopic != null && record.topic().equals(lateTopic)) {
                        late.add(new Flagged(
                                lines,
                                decodeOrNull(record.value()),
                                "LATE",
                                "its hour "
                                        + DeadLetterHeaders.text(
                                                record.headers(), HourlyActivityProcessor.LATE_HOUR_HEADER)
                                        + " had closed beyond its correction horizon: the hive's close time was "
                                        + DeadLetterHeaders.text(
                                                record.headers(), HourlyActivityProcessor.LATE_CLOSE_TIME_HEADER)));
                    } else {
                        rejected.add(new Flagged(
                                lines,
                                decodeOrNull(record.value()),
                                Objects.requireNonNullElse(
                                        DeadLetterHeaders.text(record.headers(), DeadLetterHeaders.REASON), "?"),
                                Objects.requireNonNullElse(
                                        DeadLetterHeaders.text(record.headers(), DeadLetterHeaders.MESSAGE), "")));
                    }
                }
            }
        }
        Comparator<Flagged> byLine = Comparator.comparingLong(f -> firstLine(f.lines()));
        late.sort(byLine);
        rejected.sort(byLine);
        return new Outcome(List.copyOf(late), List.copyOf(rejected));
    }

    private String decodeOrNull(byte[] value) {
        try {
            return value == null ? null : describe.apply(value);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static long firstLine(String lines) {
        try {
            return Long.parseLong(lines.split("-")[0]);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(Map<String, Object> kafkaSettings) {
        Map<String, Object> settings = new HashMap<>(kafkaSettings);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
        settings.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "apiary-import-audit");
        return new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
