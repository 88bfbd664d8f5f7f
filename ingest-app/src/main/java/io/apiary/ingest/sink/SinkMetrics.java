package io.apiary.ingest.sink;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The sink's Micrometer meters. Names: {@code apiary.sink.*}; tags: {@code table}, {@code cause}.
 * Thread-safe (Micrometer meters are).
 */
final class SinkMetrics {

    private final MeterRegistry registry;
    private final DistributionSummary batchRows;
    private final DistributionSummary batchBytes;
    private final Timer writeLatency;

    SinkMetrics(MeterRegistry registry, Supplier<Number> inFlight, Supplier<Number> bufferedRows,
            Supplier<Number> bufferedBytes, Supplier<Number> pausedPartitions) {
        this.registry = registry;
        this.batchRows = DistributionSummary.builder("apiary.sink.batch.rows")
                .description("Rows per write request (1 = plain statement)").baseUnit("rows")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.batchBytes = DistributionSummary.builder("apiary.sink.batch.bytes")
                .description("Bound-value bytes per write request").baseUnit("bytes")
                .publishPercentiles(0.5, 0.99).register(registry);
        this.writeLatency = Timer.builder("apiary.sink.write.latency")
                .description("Time from sending a write request to Cassandra's answer")
                .publishPercentiles(0.5, 0.99).register(registry);
        Gauge.builder("apiary.sink.in.flight", inFlight).description("Write requests awaiting Cassandra")
                .register(registry);
        Gauge.builder("apiary.sink.buffered.rows", bufferedRows)
                .description("Rows polled and not yet acknowledged").register(registry);
        Gauge.builder("apiary.sink.buffered.bytes", bufferedBytes).baseUnit("bytes")
                .description("Key and value bytes of the rows polled and not yet acknowledged").register(registry);
        Gauge.builder("apiary.sink.paused.partitions", pausedPartitions)
                .description("Kafka partitions paused by flow control").register(registry);
    }

    void written(WriteGroup group, long elapsedNanos) {
        rowsWritten(group.table).increment(group.rows.size());
        batchRows.record(group.rows.size());
        batchBytes.record(group.boundBytes);
        writeLatency.record(elapsedNanos, TimeUnit.NANOSECONDS);
    }

    Counter rowsWritten(String table) {
        return registry.counter("apiary.sink.rows.written", "table", table);
    }

    void retried(String cause, int rows) {
        registry.counter("apiary.sink.retries", "cause", cause).increment();
        registry.counter("apiary.sink.retried.rows", "cause", cause).increment(rows);
    }
}
