package io.apiary.ingest.sink;

import io.apiary.ingest.metrics.MetricNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The sink's Micrometer meters (names {@code apiary.sink.*}; tags {@code table}, {@code cause},
 * {@code coordinator}). Rates (rows written per second) come from the counters, as Micrometer
 * registries derive them. Dead-lettered rows are counted by
 * {@code apiary.dead.letter.records{stage=sink,reason}}. The histograms have the small fixed bucket sets
 * below (the {@code le} labels of the series on {@code /metrics}), not Micrometer's percentile histogram (about 276
 * buckets a series); quantiles come from the buckets ({@code histogram_quantile}). Every gauge has a
 * base unit and reads a number, never NaN. Thread-safe (Micrometer meters are).
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

    /**
     * Bucket bounds of {@link MetricNames#SINK_BATCH_ROWS}, rows: 1 to 10,000, the range of
     * {@code sink.batch.max.rows} (default 100), in 1-2-5 steps.
     */
    static final double[] BATCH_ROWS_BUCKETS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000};

    /**
     * Bucket bounds of {@link MetricNames#SINK_BATCH_BYTES}, bytes: Cassandra's stock
     * {@code batch_size_warn_threshold} (5 KiB) and {@code batch_size_fail_threshold} (50 KiB), the
     * single-partition cap {@link SinkSettings#SINGLE_PARTITION_BATCH_BYTES} (512 KiB), and up to
     * {@link io.apiary.ingest.config.IngestConfig#SINK_BATCH_MAX_BYTES_LIMIT} (256 MiB).
     */
    static final double[] BATCH_BYTES_BUCKETS = {
        1 << 10, 5 << 10, 16 << 10, 50 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20,
        256 << 20
    };

    /**
     * Bucket bounds of {@link MetricNames#SINK_WRITE_LATENCY}: 1 ms to 10 s in 1-2.5-5 steps, around
     * the driver's and Cassandra's 2 s write timeout ({@code basic.request.timeout},
     * {@code write_request_timeout}).
     */
    static final Duration[] WRITE_LATENCY_BUCKETS =
            millis(1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_000, 5_000, 10_000);

    /**
     * Bucket bounds of {@link MetricNames#SINK_BATCH_LINGER}: 1 ms to 60 s, the range of
     * {@code sink.linger.ms} (default 1 s).
     */
    static final Duration[] BATCH_LINGER_BUCKETS =
            millis(1, 10, 50, 100, 250, 500, 1_000, 2_000, 5_000, 10_000, 60_000);

    /**
     * Registers the sink's meters.
     *
     * @param registry where the meters go, not null
     * @param gauges   the gauges' readings, not null; each returns a number, never null
     */
    SinkMetrics(MeterRegistry registry, Gauges gauges) {
        this.registry = registry;
        this.batchRows = DistributionSummary.builder(MetricNames.SINK_BATCH_ROWS)
                .description("Rows per write request (1 = plain statement)")
                .baseUnit(MetricNames.UNIT_ROWS)
                .serviceLevelObjectives(BATCH_ROWS_BUCKETS)
                .register(registry);
        this.batchBytes = DistributionSummary.builder(MetricNames.SINK_BATCH_BYTES)
                .description("Bytes per write request, as Cassandra counts them for batch_size_warn_threshold")
                .baseUnit(MetricNames.UNIT_BYTES)
                .serviceLevelObjectives(BATCH_BYTES_BUCKETS)
                .register(registry);
        this.batchPartitions = DistributionSummary.builder(MetricNames.SINK_BATCH_PARTITIONS)
                .description("Cassandra partitions per write request (above 1 only when combining by replicas)")
                .baseUnit(MetricNames.UNIT_PARTITIONS)
                .register(registry);
        this.writeLatency = Timer.builder(MetricNames.SINK_WRITE_LATENCY)
                .description("Time from sending a write request to Cassandra's answer")
                .serviceLevelObjectives(WRITE_LATENCY_BUCKETS)
                .register(registry);
        this.linger = Timer.builder(MetricNames.SINK_BATCH_LINGER)
                .description("Time from a batch's first row arriving to the batch being sent")
                .serviceLevelObjectives(BATCH_LINGER_BUCKETS)
                .register(registry);
        this.toReplica = Counter.builder(MetricNames.SINK_REQUESTS)
                .tag(MetricNames.TAG_COORDINATOR, "replica")
                .description("Acknowledged write requests by whether their coordinator was a replica of the "
                        + "partition (token-aware routing); 'unknown' without token metadata")
                .register(registry);
        this.toNonReplica = registry.counter(MetricNames.SINK_REQUESTS, MetricNames.TAG_COORDINATOR, "non-replica");
        gauge(
                MetricNames.SINK_IN_FLIGHT,
                MetricNames.UNIT_REQUESTS,
                gauges.inFlight(),
                "Write requests awaiting Cassandra");
        gauge(
                MetricNames.SINK_IN_FLIGHT_LIMIT,
                MetricNames.UNIT_REQUESTS,
                gauges.inFlightLimit(),
                "The adaptive limit of write requests in flight (lowered while Cassandra is overloaded)");
        gauge(
                MetricNames.SINK_BUFFERED_ROWS,
                MetricNames.UNIT_ROWS,
                gauges.bufferedRows(),
                "Rows polled and not yet acknowledged");
        gauge(
                MetricNames.SINK_BUFFERED_BYTES,
                MetricNames.UNIT_BYTES,
                gauges.bufferedBytes(),
                "Key and value bytes of the rows polled and not yet acknowledged");
        gauge(
                MetricNames.SINK_LINGERING_ROWS,
                MetricNames.UNIT_ROWS,
                gauges.lingeringRows(),
                "Rows waiting in open batches for more rows of their partition");
        gauge(
                MetricNames.SINK_PAUSED_PARTITIONS,
                MetricNames.UNIT_PARTITIONS,
                gauges.pausedPartitions(),
                "Kafka partitions paused by flow control");
        gauge(
                MetricNames.SINK_COMMIT_LAG,
                MetricNames.UNIT_RECORDS,
                gauges.commitLag(),
                "Records consumed but not yet committed, over the assigned partitions");
    }

    private void gauge(String name, String unit, Supplier<Number> value, String description) {
        // Gauge.builder(name, Supplier) holds the supplier strongly: the gauge never reads a collected object
        Gauge.builder(name, value).baseUnit(unit).description(description).register(registry);
    }

    private static Duration[] millis(double... bounds) {
        Duration[] out = new Duration[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            out[i] = Duration.ofNanos(Math.round(bounds[i] * 1e6));
        }
        return out;
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
     *         look-up per acknowledged request showed in the poll thread's JFR profile)
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
