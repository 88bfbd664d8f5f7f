package io.apiary.ingest.sink;

import io.apiary.ingest.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The sink's Micrometer meters (names {@code apiary.sink.*}; tags {@code table}, {@code cause},
 * {@code coordinator}). Rates (rows written per second) come from the counters, as Micrometer
 * registries derive them. Dead-lettered rows are counted by
 * {@code apiary.dead.letter.records{stage=sink,reason}}. Thread-safe (Micrometer meters are).
 */
final class SinkMetrics {

    /** Gauges read on the sink's poll thread's published values. */
    record Gauges(
            Supplier<Number> inFlight,
            Supplier<Number> inFlightLimit,
            Supplier<Number> bufferedRows,
            Supplier<Number> bufferedBytes,
            Supplier<Number> lingeringRows,
            Supplier<Number> pausedPartitions,
            Supplier<Number> commitLag) {}

    private final MeterRegistry registry;
    private final java.util.concurrent.ConcurrentHashMap<String, Counter> rowsWritten =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final DistributionSummary batchRows;
    private final DistributionSummary batchBytes;
    private final DistributionSummary batchPartitions;
    private final Timer writeLatency;
    private final Timer linger;
    private final Counter toReplica;
    private final Counter toNonReplica;

    SinkMetrics(MeterRegistry registry, Gauges gauges) {
        this.registry = registry;
        this.batchRows = DistributionSummary.builder(MetricNames.SINK_BATCH_ROWS)
                .description("Rows per write request (1 = plain statement)")
                .baseUnit("rows")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .register(registry);
        this.batchBytes = DistributionSummary.builder(MetricNames.SINK_BATCH_BYTES)
                .description("Bytes per write request, as Cassandra counts them for batch_size_warn_threshold")
                .baseUnit("bytes")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .register(registry);
        this.batchPartitions = DistributionSummary.builder(MetricNames.SINK_BATCH_PARTITIONS)
                .description("Cassandra partitions per write request (above 1 only when combining by replicas)")
                .register(registry);
        this.writeLatency = Timer.builder(MetricNames.SINK_WRITE_LATENCY)
                .description("Time from sending a write request to Cassandra's answer")
                .publishPercentiles(0.5, 0.99)
                .publishPercentileHistogram()
                .register(registry);
        this.linger = Timer.builder(MetricNames.SINK_BATCH_LINGER)
                .description("Time from a batch's first row arriving to the batch being sent")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.toReplica = Counter.builder(MetricNames.SINK_REQUESTS)
                .tag(MetricNames.TAG_COORDINATOR, "replica")
                .description("Acknowledged write requests by whether their coordinator was a replica of the "
                        + "partition (token-aware routing); 'unknown' without token metadata")
                .register(registry);
        this.toNonReplica = registry.counter(MetricNames.SINK_REQUESTS, MetricNames.TAG_COORDINATOR, "non-replica");
        Gauge.builder(MetricNames.SINK_IN_FLIGHT, gauges.inFlight())
                .description("Write requests awaiting Cassandra")
                .register(registry);
        Gauge.builder(MetricNames.SINK_IN_FLIGHT_LIMIT, gauges.inFlightLimit())
                .description("The adaptive limit of requests in flight (lowered while Cassandra is overloaded)")
                .register(registry);
        Gauge.builder(MetricNames.SINK_BUFFERED_ROWS, gauges.bufferedRows())
                .description("Rows polled and not yet acknowledged")
                .register(registry);
        Gauge.builder(MetricNames.SINK_BUFFERED_BYTES, gauges.bufferedBytes())
                .baseUnit("bytes")
                .description("Key and value bytes of the rows polled and not yet acknowledged")
                .register(registry);
        Gauge.builder(MetricNames.SINK_LINGERING_ROWS, gauges.lingeringRows())
                .description("Rows waiting in open batches for more rows of their partition")
                .register(registry);
        Gauge.builder(MetricNames.SINK_PAUSED_PARTITIONS, gauges.pausedPartitions())
                .description("Kafka partitions paused by flow control")
                .register(registry);
        Gauge.builder(MetricNames.SINK_COMMIT_LAG, gauges.commitLag())
                .baseUnit("records")
                .description("Records consumed but not yet committed, over the assigned partitions")
                .register(registry);
    }

    /**
     * @param group        an acknowledged request
     * @param latencyNanos from its send to Cassandra's answer, as the driver's thread saw it
     */
    void written(WriteGroup group, long latencyNanos) {
        rowsWritten(group.table()).increment(group.rows.size()); // one topic, one table
        batchRows.record(group.rows.size());
        batchBytes.record(group.serverBytes);
        batchPartitions.record(group.partitionKeys);
        writeLatency.record(latencyNanos, TimeUnit.NANOSECONDS);
    }

    void sent(WriteGroup group, long nowNanos) {
        if (group.attempts == 0) {
            linger.record(nowNanos - group.openedNanos, TimeUnit.NANOSECONDS);
        }
    }

    void coordinator(Boolean replica) {
        if (replica == null) {
            registry.counter(MetricNames.SINK_REQUESTS, MetricNames.TAG_COORDINATOR, "unknown")
                    .increment();
        } else if (replica) {
            toReplica.increment();
        } else {
            toNonReplica.increment();
        }
    }

    /**
     * @param table a table name
     * @return its rows-written counter, looked up in the registry once per table (a registry
     *         look-up per acknowledged request was 5% of the poll thread's samples in a JFR profile)
     */
    Counter rowsWritten(String table) {
        return rowsWritten.computeIfAbsent(
                table, t -> registry.counter(MetricNames.SINK_ROWS_WRITTEN, MetricNames.TAG_TABLE, t));
    }

    /**
     * @param table a table name
     * @return the counter of conflicting rows the sink saw among rows waiting together
     *         ({@link MetricNames#WRITE_CONFLICTS})
     */
    Counter conflicts(String table) {
        return registry.counter(
                MetricNames.WRITE_CONFLICTS, MetricNames.TAG_TABLE, table, MetricNames.TAG_STAGE, "sink");
    }

    void retried(String cause, int rows) {
        registry.counter(MetricNames.SINK_RETRIES, MetricNames.TAG_CAUSE, cause).increment();
        registry.counter(MetricNames.SINK_RETRIED_ROWS, MetricNames.TAG_CAUSE, cause)
                .increment(rows);
    }
}
