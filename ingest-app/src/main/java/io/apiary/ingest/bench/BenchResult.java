package io.apiary.ingest.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one benchmark run measured. Immutable and thread-safe. A figure that could not be measured
 * (the Cassandra CPU of a remote cluster, the batch latency of the topology) is {@code NaN}.
 *
 * @param run                  which writer or stage: {@code sink}, {@code naive}, {@code ceiling}, {@code spark},
 *                             {@code topology} or {@code end-to-end}
 * @param shardStrategy        the hive_telemetry shard strategy of the rows ({@code time}, {@code hash})
 * @param unit                 what {@code items} counts: {@code rows} written to Cassandra, or gateway
 *                             {@code records} processed by the topology
 * @param items                items done in the measured window ({@link RunMeter})
 * @param seconds              length of the measured window, seconds
 * @param clientCpuMicros      CPU of the benchmark's JVM (the writer or stage under test), microseconds per item
 * @param cassandraCpuMicros   CPU of the Cassandra node, microseconds per item, over the measured window
 * @param cassandraAfterCpuMicros CPU of the Cassandra node from the window's close until no compaction or flush
 *                             was left (all of it: also its collector and JIT after the load; {@code
 *                             RunMeter.settle}), microseconds per
 *                             item of the window; NaN when not measured (a run that writes nothing, a remote
 *                             cluster)
 * @param kafkaCpuMicros       CPU of the Kafka broker, microseconds per item
 * @param rowsPerRequest       rows per write request sent to Cassandra, averaged over the run
 * @param requests             write requests sent
 * @param p50Millis            median write request latency (send to acknowledgement), milliseconds
 * @param p99Millis            99th percentile write request latency, milliseconds
 * @param peakHeapMiB          peak heap used in the window, sampled every poll, MiB (2^20 bytes)
 * @param peakLiveHeapMiB      peak live heap, MiB: heap used right after a full collection forced 2 s into the
 *                             window and every 10 s after ({@link RunMeter}); NaN for shorter runs
 * @param completed            whether the run reached its target without failing
 * @param note                 what else to know about the run (why it did not complete), or empty
 */
public record BenchResult(
        String run,
        String shardStrategy,
        String unit,
        long items,
        double seconds,
        double clientCpuMicros,
        double cassandraCpuMicros,
        double cassandraAfterCpuMicros,
        double kafkaCpuMicros,
        double rowsPerRequest,
        long requests,
        double p50Millis,
        double p99Millis,
        double peakHeapMiB,
        double peakLiveHeapMiB,
        boolean completed,
        String note) {

    /** @return items per second over the measured window */
    public double perSecond() {
        return seconds > 0 ? items / seconds : Double.NaN;
    }

    /**
     * @return the Cassandra node's CPU per item over the window and after it, microseconds: all the
     *         node's work that the run's writes caused, NaN when either part was not measured
     */
    public double cassandraAllCpuMicros() {
        return cassandraCpuMicros + cassandraAfterCpuMicros;
    }

    /**
     * @return the result as an ordered map for JSON or CSV: every component plus {@code per_second},
     *         with {@code null} for figures that were not measured
     */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("run", run);
        map.put("shard_strategy", shardStrategy);
        map.put("unit", unit);
        map.put("items", items);
        map.put("seconds", figure(seconds));
        map.put("per_second", figure(perSecond()));
        map.put("client_cpu_us_per_item", figure(clientCpuMicros));
        map.put("cassandra_cpu_us_per_item", figure(cassandraCpuMicros));
        map.put("cassandra_after_cpu_us_per_item", figure(cassandraAfterCpuMicros));
        map.put("cassandra_all_cpu_us_per_item", figure(cassandraAllCpuMicros()));
        map.put("kafka_cpu_us_per_item", figure(kafkaCpuMicros));
        map.put("rows_per_request", figure(rowsPerRequest));
        map.put("requests", requests);
        map.put("p50_ms", figure(p50Millis));
        map.put("p99_ms", figure(p99Millis));
        map.put("peak_heap_mib", figure(peakHeapMiB));
        map.put("peak_live_heap_mib", figure(peakLiveHeapMiB));
        map.put("completed", completed);
        map.put("note", note);
        return map;
    }

    /**
     * @param value a figure
     * @return the figure rounded to 3 decimals, or null if NaN or infinite
     */
    static Double figure(double value) {
        return Double.isFinite(value) ? Math.round(value * 1000) / 1000.0 : null;
    }
}
