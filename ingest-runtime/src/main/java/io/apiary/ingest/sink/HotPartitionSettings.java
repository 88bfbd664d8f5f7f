package io.apiary.ingest.sink;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * Settings of the sink's hot-partition detection ({@link HotPartitions}). The option names
 * ({@code sink.hot.*}) are this record's constants, their definitions {@link Options}, and
 * {@link #from} reads them. Immutable and thread-safe.
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

    public static final String SINK_HOT_ENABLED = "sink.hot.enabled";
    public static final String SINK_HOT_WINDOW_MS = "sink.hot.window.ms";
    public static final String SINK_HOT_PARTITION_SHARE = "sink.hot.partition.share";
    public static final String SINK_HOT_SKEW = "sink.hot.skew";
    public static final String SINK_HOT_NODE_SHARE = "sink.hot.node.share";
    public static final String SINK_HOT_NODE_SKEW = "sink.hot.node.skew";

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
                config.getBoolean(SINK_HOT_ENABLED),
                Duration.ofMillis(config.getLong(SINK_HOT_WINDOW_MS)),
                config.getDouble(SINK_HOT_PARTITION_SHARE),
                config.getDouble(SINK_HOT_SKEW),
                config.getDouble(SINK_HOT_NODE_SHARE),
                config.getDouble(SINK_HOT_NODE_SKEW),
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

    /**
     * The definitions of the hot-partition detection's options ({@code sink.hot.*}). Part of the application's one {@link IngestConfig#definition() definition}: {@link IngestConfig}
     * loads it as an {@link OptionGroup} (listed in
     * {@code META-INF/services/io.apiary.ingest.config.OptionGroup}, hence public with a public
     * no-argument constructor). Stateless and thread-safe.
     */
    public static final class Options implements OptionGroup {
        /** Instantiated by {@link java.util.ServiceLoader}. */
        public Options() {}

        /** A share: a number above 0 and at most 1 (NaN refused). */
        private static ConfigDef.Validator share() {
            return ConfigDef.LambdaValidator.with(
                    (name, value) -> {
                        double share = (Double) value;
                        if (!(share > 0 && share <= 1)) {
                            throw new ConfigException(name, value, "must be a share above 0 and at most 1");
                        }
                    },
                    () -> "(0,...,1]");
        }

        /**
         * Refuses a hot-partition window shorter than twice {@code sink.linger.ms} while the detection is on: a
         * partition is acknowledged about once a linger, so a shorter window measures bursts of batches, not
         * rates ({@link SinkSettings} refuses it too).
         *
         * @param config the validated configuration, not null
         * @throws ConfigException naming both settings and their values
         */
        @Override
        public void check(IngestConfig config) {
            long window = config.getLong(SINK_HOT_WINDOW_MS);
            long linger = config.getLong(IngestConfig.SINK_LINGER_MS);
            if (config.getBoolean(SINK_HOT_ENABLED) && window < 2 * linger) {
                throw new ConfigException(SINK_HOT_WINDOW_MS + " (" + window + ") must be at least twice "
                        + IngestConfig.SINK_LINGER_MS + " (" + linger
                        + "), or the hot-partition rates measure bursts of "
                        + "batches; raise it, lower the linger or set " + SINK_HOT_ENABLED + "=false");
            }
        }

        /**
         * Adds the options to a definition.
         *
         * @param definition the application's definition, not null
         */
        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(
                            SINK_HOT_ENABLED,
                            Type.BOOLEAN,
                            true,
                            Importance.LOW,
                            "Track the Cassandra partitions and nodes that take the most writes (heavy-hitter "
                                    + "sketches of bounded memory), publish apiary.sink.partition.* and apiary.sink.node.* "
                                    + "metrics, and log one WARN per partition or node found hot.")
                    .define(
                            SINK_HOT_WINDOW_MS,
                            Type.LONG,
                            10_000L,
                            Range.between(100, 3_600_000),
                            Importance.LOW,
                            "Length of the hot-partition detection's window, ms of wall-clock time: shares, rates and "
                                    + "projections are computed over the rows acknowledged in each window. At least twice "
                                    + "sink.linger.ms while sink.hot.enabled (checked at load).")
                    .define(
                            SINK_HOT_PARTITION_SHARE,
                            Type.DOUBLE,
                            0.05,
                            share(),
                            Importance.LOW,
                            "A partition is hot when it takes more than this share of its table's rows (or bytes) "
                                    + "written in a window, and also more than sink.hot.skew times an even share.")
                    .define(
                            SINK_HOT_SKEW,
                            Type.DOUBLE,
                            4.0,
                            IngestConfig.finiteBetween(1, 1_000),
                            Importance.LOW,
                            "A partition is hot only when its share is also more than this many times an even share "
                                    + "(1 / the partitions of its table written in the window), so that a table with few "
                                    + "partitions (a dev stack of 3 hives) is not reported.")
                    .define(
                            SINK_HOT_NODE_SHARE,
                            Type.DOUBLE,
                            0.5,
                            share(),
                            Importance.LOW,
                            "A Cassandra node is hot when it is a replica of more than this share of the rows "
                                    + "written in a window, and also more than sink.hot.node.skew times the mean of "
                                    + "the nodes that own tokens of the keyspace.")
                    .define(
                            SINK_HOT_NODE_SKEW,
                            Type.DOUBLE,
                            1.5,
                            IngestConfig.finiteBetween(1, 1_000),
                            Importance.LOW,
                            "A node is hot only when its share is also more than this many times the nodes' mean "
                                    + "(replication factor / nodes), so that one node, or every node at a replication "
                                    + "factor equal to the node count, is never reported.");
        }
    }
}
