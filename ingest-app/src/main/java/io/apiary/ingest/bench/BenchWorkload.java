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
    /** A hive's reading is {@code hive mod} this many milliseconds after its round's start. */
    private static final int HIVE_OFFSETS_MS = 50;
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
        return START.toEpochMilli() + round * READING_INTERVAL_MS + hive % HIVE_OFFSETS_MS;
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
                producerSettings(kafka), count, i -> readingRecord(telemetry, i), i -> entranceCountRecord(counts, i));
    }

    private ProducerRecord<byte[], byte[]> readingRecord(Topic<String, TelemetryReading> telemetry, long index) {
        TelemetryReading reading = reading(index);
        return new ProducerRecord<>(
                telemetry.name(),
                reading.getHiveId().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                telemetry.valueSerde().serializer().serialize(telemetry.name(), reading));
    }

    private ProducerRecord<byte[], byte[]> entranceCountRecord(Topic<String, EntranceCount> counts, long index) {
        EntranceCount sample = entranceCountAfter(index);
        return sample == null
                ? null
                : new ProducerRecord<>(
                        counts.name(),
                        sample.getHiveId().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        counts.valueSerde().serializer().serialize(counts.name(), sample));
    }

    /**
     * How many readings are due {@code elapsedMillis} after {@link #START} when they are sent in
     * index order, live: reading {@code i} goes once its own event time and that of every reading
     * before it have come ({@code readingTimeMillis(j) <= START + elapsedMillis} for all
     * {@code j <= i}). Round {@code r} is whole once {@code r x 60 + min(hives - 1, 49)} ms have
     * passed; within it, hive {@code h}'s reading is offset by {@code h mod 50} ms, so the due
     * prefix of a round ends before the first hive whose offset is still to come. A reading is
     * thereby at most 49 ms late, and every hive sends one reading every
     * {@value #READING_INTERVAL_MS} ms.
     *
     * @param elapsedMillis milliseconds of event time since {@link #START}; negative for none
     * @return readings due, from 0 (not capped: the caller caps at the readings it sends)
     */
    public long dueReadings(long elapsedMillis) {
        if (elapsedMillis < 0) {
            return 0;
        }
        long round = elapsedMillis / READING_INTERVAL_MS;
        long offset = elapsedMillis % READING_INTERVAL_MS;
        // hives 0 .. offset are due (hive h's offset is h mod 50); past the largest offset, all of them
        long inRound = offset >= HIVE_OFFSETS_MS - 1 ? hives : Math.min(hives, offset + 1);
        return round * hives + inRound;
    }

    /**
     * The readings of a paced run: {@code hives x seconds x 1000 / 60} (1,000 readings per hive
     * per minute), rounded down.
     *
     * @param seconds seconds of event time, at least 1
     * @return readings sent in that time
     */
    public long pacedReadings(int seconds) {
        return (long) hives * seconds * 1000 / READING_INTERVAL_MS;
    }

    /**
     * Sends readings {@code 0 .. count - 1} and their entrance-counter samples as
     * {@link #sendGatewayRecords} does, but live, as the gateways would: every {@code slice} of
     * wall time since the call, the readings then {@linkplain #dueReadings due} (wall time since
     * the call taken as event time since {@link #START}), so that every hive sends at the planned
     * rate, {@code 1000 / }{@value #READING_INTERVAL_MS} readings per second. Records fall behind
     * their time only when this thread or Kafka cannot keep up; Kafka's back-pressure then
     * slows the sending. Waits at the end until Kafka acknowledged every record. Runs on the
     * calling thread; the producer's {@code client.id} is {@code clientId}, so that its network
     * thread is {@code kafka-producer-network-thread | <clientId>}.
     *
     * @param kafka     Kafka client settings, not null
     * @param telemetry the telemetry topic
     * @param counts    the entrance-counter topic
     * @param count     readings to send, at least 0
     * @param slice     wall time between two sends, positive (e.g. 10 ms)
     * @param clientId  the producer's {@code client.id}, not null
     * @param sent      set to the readings sent so far after every slice (for the caller's lag), not null
     * @param stop      true to stop sending early (polled before every record), not null
     * @return records acknowledged, readings and samples
     * @throws KafkaException if Kafka refused a record
     * @throws InterruptedException if interrupted while waiting for the next slice
     */
    public long sendGatewayRecordsPaced(
            Map<String, Object> kafka,
            Topic<String, TelemetryReading> telemetry,
            Topic<String, EntranceCount> counts,
            long count,
            Duration slice,
            String clientId,
            AtomicLong sent,
            java.util.function.BooleanSupplier stop)
            throws InterruptedException {
        Map<String, Object> settings = producerSettings(kafka);
        settings.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        Acks callback = new Acks();
        long records = 0;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer())) {
            long start = System.nanoTime();
            long next = 0;
            while (next < count && !stop.getAsBoolean() && callback.failure.get() == null) {
                long due = Math.min(count, dueReadings((System.nanoTime() - start) / 1_000_000));
                for (; next < due && !stop.getAsBoolean(); next++) {
                    producer.send(readingRecord(telemetry, next), callback);
                    records++;
                    ProducerRecord<byte[], byte[]> sample = entranceCountRecord(counts, next);
                    if (sample != null) {
                        producer.send(sample, callback);
                        records++;
                    }
                }
                sent.set(next);
                if (next < count) { // until the next slice's start
                    java.util.concurrent.TimeUnit.NANOSECONDS.sleep(
                            slice.toNanos() - (System.nanoTime() - start) % slice.toNanos());
                }
            }
            producer.flush();
        }
        return callback.acknowledged(records);
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
        Acks callback = new Acks();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(producerSettings, new ByteArraySerializer(), new ByteArraySerializer())) {
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
        return callback.acknowledged(sent);
    }

    /** Counts a producer's acknowledgements and keeps its first failure. Thread-safe. */
    private static final class Acks implements org.apache.kafka.clients.producer.Callback {
        private final AtomicLong acknowledged = new AtomicLong();
        private final AtomicReference<Exception> failure = new AtomicReference<>();

        @Override
        public void onCompletion(org.apache.kafka.clients.producer.RecordMetadata metadata, Exception error) {
            if (error == null) {
                acknowledged.incrementAndGet();
            } else {
                failure.compareAndSet(null, error);
            }
        }

        /**
         * @param sent records sent, after the producer was flushed
         * @return records acknowledged
         * @throws KafkaException naming how many were refused, if Kafka refused one
         */
        long acknowledged(long sent) {
            if (failure.get() != null) {
                throw new KafkaException(
                        "Kafka refused " + (sent - acknowledged.get()) + " of " + sent + " records: "
                                + failure.get().getMessage(),
                        failure.get());
            }
            return acknowledged.get();
        }
    }
}
