package io.apiary.ingest.sink;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Checks each acknowledged write against the token map: was its coordinator a replica of its
 * partition (token-aware routing working)? Counts the answer ({@code apiary.sink.requests{coordinator}})
 * and warns, at most once per interval, when it was not. Not thread-safe: the sink's poll thread.
 */
final class RoutingAudit {

    private final CassandraWriter writer;
    private final SinkMetrics metrics;
    private final WarnThrottle throttle;
    private final Consumer<String> warn;

    /**
     * @param writer   where replicas are looked up, not null
     * @param metrics  where answers are counted, not null
     * @param throttle how often a non-replica coordinator is warned about, not null
     * @param warn     receives the warning text, not null
     */
    RoutingAudit(CassandraWriter writer, SinkMetrics metrics, WarnThrottle throttle, Consumer<String> warn) {
        this.writer = Objects.requireNonNull(writer);
        this.metrics = Objects.requireNonNull(metrics);
        this.throttle = Objects.requireNonNull(throttle);
        this.warn = Objects.requireNonNull(warn);
    }

    /**
     * @param group       an acknowledged write, not null
     * @param coordinator its coordinator, or null if unknown
     * @param nowNanos    the current time
     * @return the replicas of the group's partitions (combined groups share them), empty if unknown
     */
    Collection<?> check(WriteGroup group, Object coordinator, long nowNanos) {
        BoundRow first = group.rows.get(0);
        Collection<?> replicas = writer.replicas(first.table().keyspace(), first.routingKey());
        if (replicas == null || coordinator == null) {
            metrics.coordinator(null);
            return replicas == null ? List.of() : replicas;
        }
        boolean replica = replicas.contains(coordinator);
        metrics.coordinator(replica);
        if (!replica && throttle.allow(nowNanos)) {
            warn.accept("A write to " + group.table() + " was coordinated by " + writer.nodeName(coordinator)
                    + ", which is not a replica of its partition: check the driver's load-balancing policy "
                    + "(token-aware routing) and the local datacenter");
        }
        return replicas;
    }
}
