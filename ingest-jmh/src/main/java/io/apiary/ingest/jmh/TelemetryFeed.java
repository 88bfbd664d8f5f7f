package io.apiary.ingest.jmh;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;

/**
 * The benchmarks' input data, shaped like the integration tests' feed ({@code RowFeed} in
 * ingest-app's tests): hive ids {@code hive-N}, five sensor types with their units, gateways
 * {@code gw-N} (one per 100 hives), one reading per hive every {@value #READING_INTERVAL_MS} ms,
 * readings of all hives interleaved in time order as gateways send them (consecutive records
 * belong to different hives, hence to different Cassandra partitions). Pure functions; thread-safe.
 */
public final class TelemetryFeed {

    /** Milliseconds between two readings of one hive (each reading is of the next sensor). */
    public static final long READING_INTERVAL_MS = 60;
    /** Time of every hive's first reading (plus {@code hive % 50} ms). */
    public static final Instant START = Instant.parse("2026-11-02T06:00:00Z");
    /** Shards per day bucket of hive_telemetry (the default of {@code telemetry.shards}). */
    public static final int SHARDS = 96;
    /** Hives of the planned load (DESIGN.md): 10,000. */
    public static final int HIVES = 10_000;

    private static final SensorType[] SENSORS = {SensorType.TEMPERATURE, SensorType.HUMIDITY, SensorType.WEIGHT,
            SensorType.SOUND_LEVEL, SensorType.CO2};
    private static final String[] UNITS = {"degC", "%RH", "kg", "dB", "ppm"};

    private TelemetryFeed() {
    }

    /**
     * @param hive hive number
     * @return its id, {@code hive-N}
     */
    public static String hiveId(int hive) {
        return "hive-" + hive;
    }

    /**
     * @param hive    hive number
     * @param reading the hive's reading number
     * @return the reading's time, ms since the epoch
     */
    public static long readingTime(int hive, int reading) {
        return START.toEpochMilli() + reading * READING_INTERVAL_MS + hive % 50;
    }

    /**
     * @param reading the hive's reading number
     * @return the sensor type name of that reading (the five sensors in turn)
     */
    public static String sensor(int reading) {
        return SENSORS[reading % SENSORS.length].name();
    }

    /**
     * One gateway reading (current schema, with a sequence number).
     *
     * @param hive    hive number
     * @param reading the hive's reading number
     * @return the reading
     */
    public static TelemetryReading reading(int hive, int reading) {
        return TelemetryReading.newBuilder()
                .setHiveId(hiveId(hive))
                .setGatewayId("gw-" + hive % 100)
                .setSensorType(SENSORS[reading % SENSORS.length])
                .setReadingTime(Instant.ofEpochMilli(readingTime(hive, reading)))
                .setValue(20.0 + reading % 7 + hive % 10 / 10.0)
                .setUnit(UNITS[reading % UNITS.length])
                .setSequenceNumber((long) reading)
                .build();
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
        long time = readingTime(hive, reading);
        String sensor = sensor(reading);
        String hiveId = hiveId(hive);
        return new HiveTelemetryRow(hiveId, LocalDate.ofInstant(Instant.ofEpochMilli(time), ZoneOffset.UTC),
                strategy.shard(hiveId, sensor, time, SHARDS), sensor, Instant.ofEpochMilli(time), "gw-" + hive % 100,
                20.0 + reading % 7 + hive % 10 / 10.0, UNITS[reading % UNITS.length]);
    }

    /**
     * @param row a row
     * @return its Cassandra partition key, the row topic's record key
     */
    public static HiveTelemetryPartitionKey partitionKey(HiveTelemetryRow row) {
        return new HiveTelemetryPartitionKey(row.getHiveId(), row.getDay(), row.getShard());
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
        key.putShort((short) 4).putInt((int) (row.getDay().toEpochDay() - Integer.MIN_VALUE)).put((byte) 0);
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
        int regular = row.getGatewayId().getBytes(StandardCharsets.UTF_8).length + 24 + Double.BYTES + 24
                + row.getUnit().getBytes(StandardCharsets.UTF_8).length + 24;
        return 40 + clustering + regular;
    }
}
