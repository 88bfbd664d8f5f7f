package io.apiary.ingest.jmh;

import io.apiary.ingest.bench.BenchWorkload;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.TelemetryReading;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The benchmarks' input data: the workload of {@code ingest-app bench} ({@link BenchWorkload}:
 * hive ids {@code hive-N}, five sensor types with their units, one reading per hive every
 * {@value BenchWorkload#READING_INTERVAL_MS} ms, all hives interleaved in time order as gateways
 * send them), addressed by hive and reading number, plus the sink's derived figures. Pure
 * functions; thread-safe.
 */
public final class TelemetryFeed {

    /** Milliseconds between two readings of one hive (each reading is of the next sensor). */
    public static final long READING_INTERVAL_MS = BenchWorkload.READING_INTERVAL_MS;
    /** Time of every hive's first reading (plus {@code hive % 50} ms). */
    public static final Instant START = BenchWorkload.START;
    /** Shards per day bucket of hive_telemetry (the default of {@code telemetry.shards}). */
    public static final int SHARDS = 96;
    /** Hives of the planned load (docs/performance.md, "Capacity model"): 10,000. */
    public static final int HIVES = 10_000;

    private TelemetryFeed() {}

    /**
     * @param hive hive number
     * @return its id, {@code hive-N}
     */
    public static String hiveId(int hive) {
        return BenchWorkload.hiveId(hive);
    }

    /**
     * @param hive    hive number
     * @param reading the hive's reading number
     * @return the reading's time, ms since the epoch
     */
    public static long readingTime(int hive, int reading) {
        return row(hive, reading, ShardStrategy.TIME).getReadingTime().toEpochMilli();
    }

    /**
     * @param reading the hive's reading number
     * @return the sensor type name of that reading (the five sensors in turn)
     */
    public static String sensor(int reading) {
        return row(0, reading, ShardStrategy.TIME).getSensorType();
    }

    /**
     * One gateway reading (current schema, with a sequence number).
     *
     * @param hive    hive number
     * @param reading the hive's reading number
     * @return the reading
     */
    public static TelemetryReading reading(int hive, int reading) {
        return new BenchWorkload(HIVES, SHARDS, ShardStrategy.TIME).reading((long) reading * HIVES + hive);
    }

    /**
     * One hive_telemetry row, as the topology maps a reading.
     *
     * @param hive     hive number
     * @param reading  the hive's reading number
     * @param strategy shard strategy, at {@value #SHARDS} shards
     * @return the row
     */
    public static HiveTelemetryRow row(int hive, int reading, ShardStrategy strategy) {
        return new BenchWorkload(HIVES, SHARDS, strategy).row(hive, reading);
    }

    /**
     * @param row a row
     * @return its Cassandra partition key, the row topic's record key
     */
    public static HiveTelemetryPartitionKey partitionKey(HiveTelemetryRow row) {
        return BenchWorkload.partitionKey(row);
    }

    /**
     * The row's Cassandra routing key, serialized as the driver does for a composite partition
     * key (hive_id text, day date, shard int): per component a 2-byte length, the value, a 0 byte.
     *
     * @param row a row
     * @return a new buffer
     */
    public static ByteBuffer routingKey(HiveTelemetryRow row) {
        byte[] hive = row.getHiveId().getBytes(StandardCharsets.UTF_8);
        ByteBuffer key = ByteBuffer.allocate(3 + hive.length + 3 + 4 + 3 + 4);
        key.putShort((short) hive.length).put(hive).put((byte) 0);
        // CQL date: days since the epoch, offset by 2^31 (unsigned)
        key.putShort((short) 4)
                .putInt((int) (row.getDay().toEpochDay() - Integer.MIN_VALUE))
                .put((byte) 0);
        key.putShort((short) 4).putInt(row.getShard()).put((byte) 0);
        return key.flip();
    }

    /**
     * The row's size as the sink counts it against the batch byte cap once bound
     * ({@code SinkTable.serverBytes} of hive_telemetry): 40 per row, the clustering values
     * (sensor_type, reading_time), and each regular cell (gateway_id, value, unit) plus 24.
     *
     * @param row a row
     * @return bytes
     */
    public static int serverBytes(HiveTelemetryRow row) {
        int clustering = row.getSensorType().getBytes(StandardCharsets.UTF_8).length + Long.BYTES;
        int regular = row.getGatewayId().getBytes(StandardCharsets.UTF_8).length
                + 24
                + Double.BYTES
                + 24
                + row.getUnit().getBytes(StandardCharsets.UTF_8).length
                + 24;
        return 40 + clustering + regular;
    }
}
