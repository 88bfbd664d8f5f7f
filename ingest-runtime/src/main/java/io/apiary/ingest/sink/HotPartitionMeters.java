package io.apiary.ingest.sink;

import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.sink.HotPartitionReport.PartitionLoad;
import io.apiary.ingest.sink.HotPartitionReport.TableLoad;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The meters of the hot-partition detection. No partition key is ever a tag (unbounded
 * cardinality): gauges show the hottest partition's figures per table; node tags are bounded by
 * the cluster's size. Gauges read the last published {@link HotPartitionReport} and read 0, never
 * NaN, before the first window and for a table without writes in the last window. One unit per
 * series (names from {@link MetricNames}, as Prometheus scrapes them):
 *
 * <ul>
 *   <li>{@code apiary_sink_partition_hottest_share_ratio{table,measure=rows|bytes}}: the heaviest
 *       partition's share of the table's rows (bytes) in the last window, 0 to 1;</li>
 *   <li>{@code apiary_sink_partition_hottest_rows_per_second{table}} and
 *       {@code apiary_sink_partition_hottest_bytes_per_second{table}}: the heaviest partition's rate;</li>
 *   <li>{@code apiary_sink_partition_hottest_projected_bytes{table}}: the largest projected size at
 *       the end of a bucket among the heavy partitions, bytes (0 when none is projected);</li>
 *   <li>{@code apiary_sink_written_partitions{table}}: distinct partitions written in the last
 *       window (HyperLogLog estimate);</li>
 *   <li>{@code apiary_sink_hot_partitions_total{table}}: hot findings (one per hot partition per
 *       window);</li>
 *   <li>{@code apiary_sink_projected_over_limit_total{table}}: partitions projected past a limit
 *       without being hot (one per partition per window);</li>
 *   <li>{@code apiary_sink_node_share_ratio{node}}: share of the last window's rows of which the node
 *       is a replica, 0 to 1; {@code apiary_sink_node_replica_rows_total{node}}: those rows;</li>
 *   <li>{@code apiary_sink_hot_nodes_total}: hot node findings (one per node per window).</li>
 * </ul>
 * Confined to the sink's poll thread except the gauges' reads (Micrometer meters are thread-safe).
 */
final class HotPartitionMeters {

    private final MeterRegistry registry;
    private final Set<String> nodes = new HashSet<>();

    /** @param registry where the meters go, not null */
    HotPartitionMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Registers the per-table meters, reading the published report.
     *
     * @param tables the tables written, not null
     * @param report the last published report, not null, returning a report, never null
     */
    void register(Collection<String> tables, Supplier<HotPartitionReport> report) {
        for (String table : tables) {
            hottest(
                    table,
                    MetricNames.SINK_PARTITION_HOTTEST_SHARE,
                    MetricNames.UNIT_RATIO,
                    "rows",
                    report,
                    PartitionLoad::rowsShare,
                    "The heaviest partition's share (0 to 1) of the table's rows (bytes) written in the last window");
            hottest(
                    table,
                    MetricNames.SINK_PARTITION_HOTTEST_SHARE,
                    MetricNames.UNIT_RATIO,
                    "bytes",
                    report,
                    PartitionLoad::bytesShare,
                    null);
            hottest(
                    table,
                    MetricNames.SINK_PARTITION_HOTTEST_ROWS_PER_SECOND,
                    MetricNames.UNIT_ROWS_PER_SECOND,
                    null,
                    report,
                    PartitionLoad::rowsPerSecond,
                    "The heaviest partition's rows per second in the last window");
            hottest(
                    table,
                    MetricNames.SINK_PARTITION_HOTTEST_BYTES_PER_SECOND,
                    MetricNames.UNIT_BYTES_PER_SECOND,
                    null,
                    report,
                    PartitionLoad::bytesPerSecond,
                    "The heaviest partition's bytes per second in the last window");
            Gauge.builder(MetricNames.SINK_PARTITION_HOTTEST_PROJECTED_BYTES, () -> projected(report.get(), table))
                    .tag(MetricNames.TAG_TABLE, table)
                    .baseUnit(MetricNames.UNIT_BYTES)
                    .description("Largest size a heavy partition reaches at the end of its bucket at the last "
                            + "window's rate (limit 100 MB); 0 when none is projected")
                    .register(registry);
            Gauge.builder(MetricNames.SINK_WRITTEN_PARTITIONS, () -> {
                        TableLoad load = report.get().tables().get(table);
                        return load == null ? 0 : load.partitions();
                    })
                    .tag(MetricNames.TAG_TABLE, table)
                    .baseUnit(MetricNames.UNIT_PARTITIONS)
                    .description("Distinct partitions written in the last window (estimate)")
                    .register(registry);
            io.micrometer.core.instrument.Counter.builder(MetricNames.SINK_HOT_PARTITIONS)
                    .tag(MetricNames.TAG_TABLE, table)
                    .description("Hot partitions found, one per hot partition per window (sink.hot.partition.share "
                            + "and sink.hot.skew); the keys are in the WARN lines")
                    .register(registry);
            io.micrometer.core.instrument.Counter.builder(MetricNames.SINK_PROJECTED_OVER_LIMIT)
                    .tag(MetricNames.TAG_TABLE, table)
                    .description("Heavy partitions (the sketches' heaviest, up to 1/sink.hot.partition.share + 1 "
                            + "by rows and by bytes) projected past 100 MB or 100,000 cells at the end of their bucket "
                            + "at a window's rate without being hot, one per partition per window")
                    .register(registry);
        }
        io.micrometer.core.instrument.Counter.builder(MetricNames.SINK_HOT_NODES)
                .description("Hot Cassandra nodes found, one per hot node per window (sink.hot.node.share and "
                        + "sink.hot.node.skew)")
                .register(registry);
    }

    /** A gauge of the table's heaviest partition by {@code value}; {@code measure} (a tag) may be null. */
    private void hottest(
            String table,
            String name,
            String unit,
            String measure,
            Supplier<HotPartitionReport> report,
            ToDoubleFunction<PartitionLoad> value,
            String description) {
        Tags tags = measure == null
                ? Tags.of(MetricNames.TAG_TABLE, table)
                : Tags.of(MetricNames.TAG_TABLE, table, MetricNames.TAG_MEASURE, measure);
        Gauge.builder(name, () -> {
                    TableLoad load = report.get().tables().get(table);
                    return load == null
                            ? 0
                            : load.top().stream().mapToDouble(value).max().orElse(0);
                })
                .tags(tags)
                .baseUnit(unit)
                .description(description)
                .register(registry);
    }

    private static double projected(HotPartitionReport report, String table) {
        TableLoad load = report.tables().get(table);
        return load == null
                ? 0
                : load.top().stream()
                        .filter(p -> p.projection() != null)
                        .mapToDouble(p -> p.projection().bytes())
                        .max()
                        .orElse(0);
    }

    /** Registers the share gauge of nodes seen for the first time. */
    void nodes(Collection<String> seen, Supplier<HotPartitionReport> report) {
        for (String node : seen) {
            if (nodes.add(node)) {
                Gauge.builder(
                                MetricNames.SINK_NODE_SHARE,
                                () -> report.get().nodeShares().getOrDefault(node, 0.0))
                        .tag(MetricNames.TAG_NODE, node)
                        .baseUnit(MetricNames.UNIT_RATIO)
                        .description(
                                "Share (0 to 1) of the last window's rows of which this Cassandra node is a replica")
                        .register(registry);
            }
        }
    }

    void replicaRows(String node, long rows) {
        registry.counter(MetricNames.SINK_NODE_REPLICA_ROWS, MetricNames.TAG_NODE, node)
                .increment(rows);
    }

    void hotPartition(String table) {
        registry.counter(MetricNames.SINK_HOT_PARTITIONS, MetricNames.TAG_TABLE, table)
                .increment();
    }

    void hotNode() {
        registry.counter(MetricNames.SINK_HOT_NODES).increment();
    }

    /**
     * Counts a partition projected past a limit without being hot.
     *
     * @param table its table
     */
    void projectedOverLimit(String table) {
        registry.counter(MetricNames.SINK_PROJECTED_OVER_LIMIT, MetricNames.TAG_TABLE, table)
                .increment();
    }
}
