package io.apiary.ingest.sink;

import io.apiary.ingest.logging.RateLimitedLog;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Checks each acknowledged write against the token map: was its coordinator a replica of its
 * partition (token-aware routing working)? Counts the answer ({@code apiary.sink.requests{coordinator}})
 * and warns, at most once per interval, when it was not. Not thread-safe: the sink's poll thread.
 */
final class RoutingAudit {

    private final CassandraWriter writer;
    private final SinkMetrics metrics;
    private final RateLimitedLog warnings;

    /**
     * @param writer   where replicas are looked up, not null
     * @param metrics  where answers are counted, not null
     * @param warnings where a non-replica coordinator is warned about, and how often, not null
     */
    RoutingAudit(CassandraWriter writer, SinkMetrics metrics, RateLimitedLog warnings) {
        this.writer = Objects.requireNonNull(writer);
        this.metrics = Objects.requireNonNull(metrics);
        this.warnings = Objects.requireNonNull(warnings);
    }

    /**
     * @param group       an acknowledged write, not null
     * @param coordinator its coordinator, or null if unknown
     * @param nowNanos    the current time
     * @return the replicas of the group's partitions (combined groups share them), empty if unknown
     */
    Collection<?> check(WriteGroup group, Object coordinator, long nowNanos) {
        SinkRow first = group.rows.get(0);
        Collection<?> replicas = writer.replicas(first.table().keyspace(), first.routingKey());
        if (replicas == null || coordinator == null) {
            metrics.coordinator(null);
            return replicas == null ? List.of() : replicas;
        }
        boolean replica = replicas.contains(coordinator);
        metrics.coordinator(replica);
        if (!replica) {
            warnings.warn(
                    "",
                    nowNanos,
                    "A write to {} was coordinated by {}, which is not a replica of its partition: check the "
                            + "driver's load-balancing policy (token-aware routing) and the local datacenter",
                    group.table(),
                    writer.nodeName(coordinator));
        }
        return replicas;
    }
}
