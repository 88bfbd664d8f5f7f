package io.apiary.ingest.bucket;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.kafka.common.utils.Utils;

/**
 * Chooses the shard of a time-series row within its day bucket: a deterministic function of the
 * row (never random), so a replay writes the same Cassandra row again.
 *
 * <p>The shard count is configuration: more shards keep partitions smaller (see the partition
 * math in {@code cql/}); the strategy decides whether the sink can batch at all:
 * <ul>
 *   <li>{@link #TIME}: {@code shard = floor(millisOfDay x shards / 86,400,000)}, that is the UTC day
 *       cut into {@code shards} contiguous slices (15 minutes each at 96 shards). Readings of one
 *       hive taken at about the same time share one partition, so the sink fills batches within
 *       a short linger; a whole day still spreads evenly over all shards; a short time-range
 *       query touches one or two shards. The partition being written moves every slice.</li>
 *   <li>{@link #HASH}: {@code shard = murmur2(hive_id, sensor_type, reading_time) mod shards}. Spreads
 *       every second's readings of a hive over all of its partitions: uniform load, but almost
 *       nothing left for the sink to batch, and every time-range query touches all shards.</li>
 * </ul>
 * Thread-safe: both strategies are stateless.
 */
public enum ShardStrategy {

    /** Contiguous time slices of the UTC day. */
    TIME {
        @Override
        public int shard(String hiveId, String sensorType, long readingTimeMillis, int shards) {
            checkShards(shards);
            return (int) (DayBucket.millisOfDay(readingTimeMillis) * shards / DayBucket.MILLIS_PER_DAY);
        }
    },

    /** Uniform hashing of the reading's identity. */
    HASH {
        @Override
        public int shard(String hiveId, String sensorType, long readingTimeMillis, int shards) {
            checkShards(shards);
            byte[] hive = hiveId.getBytes(StandardCharsets.UTF_8);
            byte[] sensor = sensorType.getBytes(StandardCharsets.UTF_8);
            byte[] identity = new byte[hive.length + 1 + sensor.length + 1 + Long.BYTES];
            System.arraycopy(hive, 0, identity, 0, hive.length);
            System.arraycopy(sensor, 0, identity, hive.length + 1, sensor.length);
            int at = hive.length + 1 + sensor.length + 1;
            for (int i = 0; i < Long.BYTES; i++) {
                identity[at + i] = (byte) (readingTimeMillis >>> (56 - 8 * i));
            }
            return Utils.toPositive(Utils.murmur2(identity)) % shards;
        }
    };

    /**
     * What weather readings pass to {@link #shard} as their sensor type (it only matters to
     * {@code hash}): the topology's row mapping, the read path and the table copy use it alike.
     */
    public static final String WEATHER_SHARD_SENSOR = "WEATHER";

    /**
     * The shard of one reading.
     *
     * @param hiveId            hive id, not null
     * @param sensorType        sensor type name, not null
     * @param readingTimeMillis reading time, milliseconds since 1970-01-01T00:00:00Z
     * @param shards            number of shards per day bucket, at least 1
     * @return a shard number from 0 to {@code shards - 1}
     * @throws IllegalArgumentException if {@code shards < 1}
     */
    public abstract int shard(String hiveId, String sensorType, long readingTimeMillis, int shards);

    /**
     * Parses a strategy name, case-insensitively.
     *
     * @param name "time" or "hash"
     * @return the strategy
     * @throws IllegalArgumentException naming the accepted values if {@code name} is unknown
     */
    public static ShardStrategy parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("Unknown shard strategy '" + name + "': use 'time' or 'hash'", e);
        }
    }

    private static void checkShards(int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("shard count must be at least 1, was " + shards);
        }
    }
}
