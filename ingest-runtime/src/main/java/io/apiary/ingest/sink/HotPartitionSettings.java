package io.apiary.ingest.sink;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.config.IngestConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the sink's hot-partition detection ({@link HotPartitions}). Immutable and thread-safe.
 *
 * @param enabled         whether the sink tracks hot partitions and nodes at all
 * @param window          length of one window of wall-clock time, positive
 * @param partitionShare  share of a table's rows (or bytes) in a window above which a partition is
 *                        hot, in (0, 1]
 * @param skew            a partition is hot only above this many times an even share (1 / the
 *                        partitions written), at least 1
 * @param nodeShare       share of the rows written of which a node is a replica, above which it is
 *                        hot, in (0, 1]
 * @param nodeSkew        a node is hot only above this many times the mean share of the nodes that
 *                        own tokens, at least 1
 * @param shardStrategy   shard strategy of hive_telemetry and weather_readings (decides the life of
 *                        their partitions), not null
 * @param telemetryShards shards per day of hive_telemetry, at least 1
 * @param weatherShards   shards per day of weather_readings, at least 1
 */
public record HotPartitionSettings(
        boolean enabled,
        Duration window,
        double partitionShare,
        double skew,
        double nodeShare,
        double nodeSkew,
        ShardStrategy shardStrategy,
        int telemetryShards,
        int weatherShards) {

    /** The defaults of the configuration reference, detection on. */
    public static final HotPartitionSettings DEFAULTS =
            new HotPartitionSettings(true, Duration.ofSeconds(10), 0.05, 4, 0.5, 1.5, ShardStrategy.TIME, 96, 4);

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if a value is out of range (NaN included)
     * @throws NullPointerException     if the window or the strategy is null
     */
    public HotPartitionSettings {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(shardStrategy, "shardStrategy");
        if (window.isNegative()
                || window.isZero()
                || !(partitionShare > 0 && partitionShare <= 1)
                || !(nodeShare > 0 && nodeShare <= 1)
                || !(skew >= 1)
                || !(nodeSkew >= 1)
                || telemetryShards < 1
                || weatherShards < 1) {
            throw new IllegalArgumentException("hot-partition settings out of range: window " + window + ", shares "
                    + partitionShare + " and " + nodeShare + ", skews " + skew + " and " + nodeSkew + ", shards "
                    + telemetryShards + " and " + weatherShards);
        }
    }

    /**
     * The settings named by a configuration.
     *
     * @param config the configuration, not null
     * @return the settings
     */
    public static HotPartitionSettings from(IngestConfig config) {
        return new HotPartitionSettings(
                config.getBoolean(HotPartitionOptions.SINK_HOT_ENABLED),
                Duration.ofMillis(config.getLong(HotPartitionOptions.SINK_HOT_WINDOW_MS)),
                config.getDouble(HotPartitionOptions.SINK_HOT_PARTITION_SHARE),
                config.getDouble(HotPartitionOptions.SINK_HOT_SKEW),
                config.getDouble(HotPartitionOptions.SINK_HOT_NODE_SHARE),
                config.getDouble(HotPartitionOptions.SINK_HOT_NODE_SKEW),
                config.shardStrategy(),
                config.getInt(IngestConfig.TELEMETRY_SHARDS),
                config.getInt(IngestConfig.WEATHER_SHARDS));
    }

    /**
     * @param rowsShare      a partition's share of its table's rows in a window
     * @param bytesShare     its share of the bytes
     * @param partitionsSeen partitions of the table written in the window (at least 1 is assumed)
     * @return whether the partition is hot by either measure
     */
    boolean hotPartition(double rowsShare, double bytesShare, double partitionsSeen) {
        double floor = Math.max(partitionShare, skew / Math.max(1, partitionsSeen));
        return rowsShare > floor || bytesShare > floor;
    }

    /**
     * @param share     a node's share: rows of which it is a replica / rows written
     * @param meanShare the mean of that share over the nodes that own tokens
     * @return whether the node is hot
     */
    boolean hotNode(double share, double meanShare) {
        return share > nodeShare && share > nodeSkew * meanShare;
    }

    /**
     * @param table a table name, without keyspace
     * @return its shards per day: {@link #telemetryShards} for hive_telemetry_v2,
     *         {@link #weatherShards} for weather_readings, 0 (not known here) for any other
     */
    public int shards(String table) {
        return switch (table) {
            case io.apiary.ingest.tables.TableNames.HIVE_TELEMETRY -> telemetryShards;
            case io.apiary.ingest.tables.TableNames.WEATHER_READINGS -> weatherShards;
            default -> 0;
        };
    }
}
