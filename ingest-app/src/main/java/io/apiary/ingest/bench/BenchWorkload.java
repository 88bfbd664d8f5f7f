package io.apiary.ingest.bench;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.identity.Identifiers;
import io.apiary.ingest.simulator.EntranceCountSimulator;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The planned gateway load as data: {@code hives} hives, each taking one reading every
 * {@value #READING_INTERVAL_MS} ms in turn across 5 sensors (1,000 readings per hive per minute,
 * the planned load (docs/performance.md, "Capacity model"): 10,000 hives make about 167,000 readings/s), sent interleaved in time
 * order as gateways send them: reading round {@code r} of every hive, then round {@code r + 1}.
 * So consecutive records belong to different hives and Cassandra partitions, and 2,000,000
 * rows of 10,000 hives span 12 s of event time.
 *
 * <p>Reading number {@code i} (from 0) is round {@code i / hives} of hive {@code i % hives}. Its
 * time is {@link #START} plus {@code round x 60 ms} plus {@code hive mod 50} ms, so every (hive,
 * sensor, time) is distinct and the table ends with exactly as many rows as were sent.
 * Immutable and thread-safe.
 *
 * @param hives         number of hives, at least 1
 * @param shards        shards per day bucket of hive_telemetry, at least 1
 * @param shardStrategy how a reading's shard is chosen, not null
 */
public record BenchWorkload(int hives, int shards, ShardStrategy shardStrategy) {

    /** Milliseconds between two readings of one hive (across its sensors). */
    public static final long READING_INTERVAL_MS = 60;
    /** Event time of the first round. */
    public static final Instant START = Instant.parse("2026-11-02T06:00:00Z");

    private static final SensorType[] SENSORS = {
        SensorType.TEMPERATURE, SensorType.HUMIDITY, SensorType.WEIGHT, SensorType.SOUND_LEVEL, SensorType.CO2
    };
    private static final String[] UNITS = {"degC", "%RH", "kg", "dB", "ppm"};

    /** Validates the arguments. */
    public BenchWorkload {
        if (hives < 1 || shards < 1) {
            throw new IllegalArgumentException("hives and shards must be at least 1, were " + hives + " and " + shards);
        }
        java.util.Objects.requireNonNull(shardStrategy, "shardStrategy");
    }

    /**
     * @param hive hive number, from 0
     * @return its id, {@code hive-<number>}
     */
    public static String hiveId(int hive) {
        return "hive-" + hive;
    }

    /**
     * @param index reading number, from 0
     * @return its event time, milliseconds since 1970-01-01T00:00:00Z
     */
    public long readingTimeMillis(long index) {
        return time((int) (index % hives), index / hives);
    }

    /**
     * The gateway record of one reading, as sent to {@code hive.telemetry.v1}.
     *
     * @param index reading number, from 0
     * @return the reading (value within the sensor's physical range)
     */
    public TelemetryReading reading(long index) {
        int hive = (int) (index % hives);
        long round = index / hives;
        return new TelemetryReading(
                hiveId(hive),
                "gw-" + hive % 100,
                SENSORS[(int) (round % SENSORS.length)],
                Identifiers.DEFAULT_SENSOR_ID,
                Instant.ofEpochMilli(time(hive, round)),
                20.0 + round % 7,
                UNITS[(int) (round % UNITS.length)],
                round);
    }

    /**
     * The {@code hive_telemetry} row the topology makes of reading {@code index}.
     *
     * @param index reading number, from 0
     * @return the row, in the day bucket and shard of this workload's strategy
     */
    public HiveTelemetryRow row(long index) {
        return row((int) (index % hives), index / hives);
    }

    /**
     * The {@code hive_telemetry} row of one hive's reading round.
     *
     * @param hive  hive number, from 0 (may exceed {@link #hives()})
     * @param round the hive's reading number, from 0
     * @return the row, in the day bucket and shard of this workload's strategy
     */
    public HiveTelemetryRow row(int hive, long round) {
        long time = time(hive, round);
        String hiveId = hiveId(hive);
        String sensor = SENSORS[(int) (round % SENSORS.length)].name();
        return new HiveTelemetryRow(
                hiveId,
                LocalDate.ofInstant(Instant.ofEpochMilli(time), ZoneOffset.UTC),
                shardStrategy.shard(hiveId, sensor, time, shards),
                sensor,
                Identifiers.DEFAULT_SENSOR_ID,
                Instant.ofEpochMilli(time),
                "gw-" + hive % 100,
                20.0 + round % 7,
                UNITS[(int) (round % UNITS.length)]);
    }

    private static long time(int hive, long round) {
        return START.toEpochMilli() + round * READING_INTERVAL_MS + hive % 50;
    }

    /**
     * @param row a row of this workload
     * @return its Cassandra partition key
     */
    public static HiveTelemetryPartitionKey partitionKey(HiveTelemetryRow row) {
        return new HiveTelemetryPartitionKey(row.getHiveId(), row.getDay(), row.getShard());
    }

    /**
     * The entrance-counter samples that go with the readings: one per hive per second of event
     * time, sent right after the first reading round of that second.
     *
     * @param index reading number, from 0
     * @return the sample to send after reading {@code index}, or null if none
     */
    public EntranceCount entranceCountAfter(long index) {
        long round = index / hives;
        long second = round * READING_INTERVAL_MS / 1000;
        if (round > 0 && (round - 1) * READING_INTERVAL_MS / 1000 == second) {
            return null;
        }
        return COUNTER.sample(hiveId((int) (index % hives)), START.toEpochMilli() + (second + 1) * 1000);
    }

    private static final EntranceCountSimulator COUNTER = new EntranceCountSimulator(Duration.ofSeconds(1), "gw-bench");

    /**
     * Producer settings for feeds into topics created just before: {@code acks=all}, lz4, large
     * batches, not idempotent with one request in flight (right after topic creation Kafka 4.4's
     * idempotent producer was seen to wedge a partition with {@code OutOfOrderSequenceException};
     * one request in flight keeps order, and a retried duplicate is absorbed by the tables' upserts).
     *
     * @param kafka Kafka client settings (bootstrap servers, security), not null
     * @return a new mutable map
     */
    public static Map<String, Object> producerSettings(Map<String, Object> kafka) {
        return producerSettings(kafka, "lz4");
    }

    /**
     * {@link #producerSettings(Map)} with another compression type.
     *
     * @param kafka       Kafka client settings, not null
     * @param compression Kafka's {@code compression.type}: none, gzip, snappy, lz4 or zstd
     * @return a new mutable map
     */
    public static Map<String, Object> producerSettings(Map<String, Object> kafka, String compression) {
        Map<String, Object> settings = new HashMap<>(kafka);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        settings.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        settings.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        settings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return settings;
    }

    /**
     * Sends rows {@code 0 .. count - 1} to a row topic, keyed by partition key as the topology
     * does, and waits until Kafka acknowledged them.
     *
     * @param kafka Kafka client settings, not null
     * @param topic the hive_telemetry row topic with its serdes
     * @param count rows to send, at least 0
     * @param compression Kafka's {@code compression.type} of the producer: none, gzip, snappy, lz4 or zstd
     * @return records acknowledged
     * @throws KafkaException if Kafka refused a record
     */
    public long sendRows(
            Map<String, Object> kafka,
            Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic,
            long count,
            String compression) {
        return send(
                producerSettings(kafka, compression),
                count,
                i -> {
                    HiveTelemetryRow row = row(i);
                    return new ProducerRecord<>(
                            topic.name(),
                            topic.keySerde().serializer().serialize(topic.name(), partitionKey(row)),
                            topic.valueSerde().serializer().serialize(topic.name(), row));
                },
                null);
    }

    /**
     * Sends readings {@code 0 .. count - 1} to the telemetry topic and their entrance-counter
     * samples ({@link #entranceCountAfter}) to the entrance-counter topic, as gateways do, and
     * waits until Kafka acknowledged them.
     *
     * @param kafka     Kafka client settings, not null
     * @param telemetry the telemetry topic
     * @param counts    the entrance-counter topic
     * @param count     readings to send
     * @return records acknowledged, readings and samples
     * @throws KafkaException if Kafka refused a record
     */
    public long sendGatewayRecords(
            Map<String, Object> kafka,
            Topic<String, TelemetryReading> telemetry,
            Topic<String, EntranceCount> counts,
            long count) {
        return send(
                producerSettings(kafka),
                count,
                i -> {
                    TelemetryReading reading = reading(i);
                    return new ProducerRecord<>(
                            telemetry.name(),
                            reading.getHiveId().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            telemetry.valueSerde().serializer().serialize(telemetry.name(), reading));
                },
                i -> {
                    EntranceCount sample = entranceCountAfter(i);
                    return sample == null
                            ? null
                            : new ProducerRecord<>(
                                    counts.name(),
                                    sample.getHiveId().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                    counts.valueSerde().serializer().serialize(counts.name(), sample));
                });
    }

    /**
     * Sends {@code records.apply(i)} and, when not null, {@code extra.apply(i)} for every {@code i}
     * from 0 to {@code count - 1}, flushing every 100,000, and waits until Kafka acknowledged them.
     *
     * @param producerSettings the producer's settings, such as {@link #producerSettings(Map)}
     * @param count            indexes to send
     * @param records          the record of an index, not null
     * @param extra            a second record of an index or null for none; may itself be null
     * @return records acknowledged
     * @throws KafkaException if Kafka refused a record
     */
    static long send(
            Map<String, Object> producerSettings,
            long count,
            LongFunction<ProducerRecord<byte[], byte[]>> records,
            LongFunction<ProducerRecord<byte[], byte[]>> extra) {
        AtomicLong acknowledged = new AtomicLong();
        AtomicReference<Exception> failure = new AtomicReference<>();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(producerSettings, new ByteArraySerializer(), new ByteArraySerializer())) {
            org.apache.kafka.clients.producer.Callback callback = (metadata, error) -> {
                if (error == null) {
                    acknowledged.incrementAndGet();
                } else {
                    failure.compareAndSet(null, error);
                }
            };
            for (long i = 0; i < count; i++) {
                producer.send(records.apply(i), callback);
                sent++;
                ProducerRecord<byte[], byte[]> more = extra == null ? null : extra.apply(i);
                if (more != null) {
                    producer.send(more, callback);
                    sent++;
                }
                if (i % 100_000 == 99_999) {
                    producer.flush(); // bounded batches in flight on a small machine
                }
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new KafkaException(
                    "Kafka refused " + (sent - acknowledged.get()) + " of " + sent + " records: "
                            + failure.get().getMessage(),
                    failure.get());
        }
        return acknowledged.get();
    }
}
