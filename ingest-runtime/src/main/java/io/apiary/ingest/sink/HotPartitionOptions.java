package io.apiary.ingest.sink;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The options of the sink's hot-partition detection ({@code sink.hot.*}). They are part of
 * the {@link IngestConfig#definition() definition} (one definition, one reference); this package owns them and
 * {@link IngestConfig} loads them as an {@link OptionGroup}. Thread-safe (constants only).
 */
public final class HotPartitionOptions implements OptionGroup {

    public static final String SINK_HOT_ENABLED = "sink.hot.enabled";
    public static final String SINK_HOT_WINDOW_MS = "sink.hot.window.ms";
    public static final String SINK_HOT_PARTITION_SHARE = "sink.hot.partition.share";
    public static final String SINK_HOT_SKEW = "sink.hot.skew";
    public static final String SINK_HOT_NODE_SHARE = "sink.hot.node.share";
    public static final String SINK_HOT_NODE_SKEW = "sink.hot.node.skew";

    /** Instantiated by {@link java.util.ServiceLoader} (META-INF/services/io.apiary.ingest.config.OptionGroup). */
    public HotPartitionOptions() {}

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
                    + IngestConfig.SINK_LINGER_MS + " (" + linger + "), or the hot-partition rates measure bursts of "
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
