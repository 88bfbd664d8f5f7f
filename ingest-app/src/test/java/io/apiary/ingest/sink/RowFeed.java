package io.apiary.ingest.sink;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes hive_telemetry rows to a row topic as the topology would, interleaved in time order as
 * gateways send them: every hive takes one reading per {@value #READING_INTERVAL_MS} ms (1,000
 * readings per minute across its sensors, DESIGN.md's planned load), so consecutive records
 * belong to different hives and Cassandra partitions. Rows are distinct (hive, sensor, time), so
 * the table ends with exactly as many rows as were sent.
 */
final class RowFeed {

    static final long READING_INTERVAL_MS = 60;
    static final Instant START = Instant.parse("2026-11-02T06:00:00Z");
    static final int SHARDS = 96;
    private static final String[] SENSORS = {"TEMPERATURE", "HUMIDITY", "WEIGHT", "SOUND_LEVEL", "CO2"};
    private static final String[] UNITS = {"degC", "%RH", "kg", "dB", "ppm"};

    private RowFeed() {
    }

    /**
     * @param hive hive number
     * @return its id
     */
    static String hiveId(int hive) {
        return "hive-" + hive;
    }

    /**
     * Builds one row.
     *
     * @param hive    hive number
     * @param reading the hive's reading number
     * @return the row, in the shard the TIME strategy gives it
     */
    static HiveTelemetryRow row(int hive, int reading) {
        long time = START.toEpochMilli() + reading * READING_INTERVAL_MS + hive % 50;
        String sensor = SENSORS[reading % SENSORS.length];
        String hiveId = hiveId(hive);
        return new HiveTelemetryRow(hiveId, LocalDate.ofInstant(Instant.ofEpochMilli(time), ZoneOffset.UTC),
                ShardStrategy.TIME.shard(hiveId, sensor, time, SHARDS), sensor,
                Instant.ofEpochMilli(time), "gw-" + hive % 100, 20.0 + reading % 7, UNITS[reading % UNITS.length]);
    }

    /**
     * Producer settings for test feeds right after their topics were created.
     *
     * @param kafka Kafka client settings (bootstrap servers)
     * @return a new mutable map
     */
    static Map<String, Object> producerSettings(Map<String, Object> kafka) {
        Map<String, Object> settings = new java.util.HashMap<>(kafka);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        settings.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        settings.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
        // Not idempotent: right after topic creation, Kafka 4.4's idempotent producer was seen to
        // wedge a partition (OutOfOrderSequenceException on its first batch, retried forever).
        // One request in flight keeps order; a retry may duplicate a row, which the table absorbs.
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        settings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return settings;
    }

    /**
     * Sends {@code hives x readingsPerHive} rows, reading by reading across all hives, and waits
     * until Kafka acknowledged them.
     *
     * @param kafka           Kafka client settings (bootstrap servers)
     * @param topic           the row topic with its serdes
     * @param hives           number of hives
     * @param readingsPerHive readings per hive
     * @return rows sent
     * @throws Exception if a send fails
     */
    static long send(Map<String, Object> kafka, Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic, int hives,
            int readingsPerHive) throws Exception {
        Map<String, Object> settings = producerSettings(kafka);
        long startNanos = System.nanoTime();
        long sent = 0;
        java.util.concurrent.atomic.AtomicLong acknowledged = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicReference<Exception> failure = new java.util.concurrent.atomic.AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int reading = 0; reading < readingsPerHive; reading++) {
                for (int hive = 0; hive < hives; hive++) {
                    HiveTelemetryRow row = row(hive, reading);
                    HiveTelemetryPartitionKey key = new HiveTelemetryPartitionKey(row.getHiveId(), row.getDay(),
                            row.getShard());
                    producer.send(new ProducerRecord<>(topic.name(),
                            topic.keySerde().serializer().serialize(topic.name(), key),
                            topic.valueSerde().serializer().serialize(topic.name(), row)), (metadata, error) -> {
                                if (error == null) {
                                    acknowledged.incrementAndGet();
                                } else {
                                    failure.compareAndSet(null, error);
                                }
                            });
                    sent++;
                    if (sent % 100_000 == 0) {
                        producer.flush(); // bounded batches in flight on a small machine
                    }
                }
            }
            producer.flush();
        }
        System.out.printf("SINK-IT produced %,d rows to %s in %.1f s%n", acknowledged.get(), topic.name(),
                (System.nanoTime() - startNanos) / 1e9);
        if (failure.get() != null) {
            throw new IllegalStateException("Kafka refused " + (sent - acknowledged.get()) + " of " + sent
                    + " rows", failure.get());
        }
        return acknowledged.get();
    }
}
