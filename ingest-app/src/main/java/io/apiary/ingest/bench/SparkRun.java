package io.apiary.ingest.bench;

import io.apiary.ingest.config.IngestConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code spark} run's process: starts the Spark peer ({@link SparkPeerLaunch}) as a JVM of its
 * own, draining the row topic from its start into the table, and measures it with
 * {@link RunMeter}: rows from the progress file the peer replaces after each micro-batch, client
 * CPU that JVM's, rows per request and latency from the connector's metrics when it reports them.
 * The peer's write tuning follows the sink's settings (rows per batch, requests in flight,
 * consistency). Not thread-safe: one run at a time.
 */
final class SparkRun {

    /**
     * What the run measured.
     *
     * @param window         the measured window; the client is the Spark JVM
     * @param rowsPerRequest rows per write request from the connector's metrics, NaN if not reported
     * @param requests       write requests from the connector's metrics, 0 if not reported
     * @param p50Millis      median write latency from the connector's metrics, NaN if not reported
     * @param p99Millis      99th percentile write latency, NaN if not reported
     * @param note           why the run failed, or what was not reported; empty if nothing
     */
    record Outcome(
            RunMeter.Window window,
            double rowsPerRequest,
            long requests,
            double p50Millis,
            double p99Millis,
            String note) {}

    /** The peer's progress file is replaced after each micro-batch: read it less often than the other runs poll. */
    private static final Duration POLL = Duration.ofMillis(100);

    private static final int HEAP_MIB = 1024;

    private final SparkPeerLaunch peer;
    private final RunMeter meter;
    private final PrintWriter out;

    /**
     * @param peer  the built peer
     * @param meter measures the run
     * @param out   where progress goes
     */
    SparkRun(SparkPeerLaunch peer, RunMeter meter, PrintWriter out) {
        this.peer = peer;
        this.meter = meter;
        this.out = out;
    }

    /**
     * Runs the peer until it has written {@code rows} rows, failed, or {@code timeout} passed, and
     * stops it.
     *
     * @param config   the run's settings: Kafka and Cassandra addresses, the row topic, the sink's tuning
     * @param keyspace the benchmark's keyspace
     * @param table    the table to write
     * @param rows     rows to write
     * @param hives    hives of the workload (one open batch per hive in the connector's grouping)
     * @param work     a folder of the run's own: progress file, checkpoint, the peer's log
     * @param timeout  longest measured window
     * @return what was measured
     * @throws Exception if the peer cannot be started or waited for
     */
    Outcome run(IngestConfig config, String keyspace, String table, long rows, int hives, Path work, Duration timeout)
            throws Exception {
        Path progress = work.resolve("progress.properties");
        Files.deleteIfExists(progress);
        List<String> args = List.of(
                "bootstrap=" + String.join(",", config.getList(IngestConfig.KAFKA_BOOTSTRAP_SERVERS)),
                "topic=" + config.topics().telemetryRows(),
                "cassandra="
                        + config.getList(IngestConfig.CASSANDRA_CONTACT_POINTS).get(0),
                "dc=" + config.getString(IngestConfig.CASSANDRA_LOCAL_DATACENTER),
                "keyspace=" + keyspace,
                "table=" + table,
                "rows=" + rows,
                "progress=" + progress,
                "checkpoint=" + work.resolve("checkpoint"),
                // tuned as the sink is: its rows per batch, its concurrent requests, its consistency
                "batch-rows=" + config.getInt(IngestConfig.SINK_BATCH_MAX_ROWS),
                "concurrent-writes=" + config.getInt(IngestConfig.SINK_MAX_IN_FLIGHT),
                "consistency=" + config.getString(IngestConfig.SINK_CONSISTENCY),
                // micro-batches of a quarter of the rows: the window opens when the first one is written,
                // and a batch large enough gives the connector several rows per partition to group
                "max-offsets-per-trigger=" + Math.max(1_000, rows / 4),
                // the connector groups rows into at most this many open batches per task: one per hive
                // (each hive's readings of a moment share a partition), so that grouping is not cut short
                "grouping-buffer=" + Math.max(1_000, hives));
        Path log = work.resolve("spark.log");
        Process process = new ProcessBuilder(peer.command(HEAP_MIB, args))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        out.printf("  started the Spark peer (pid %d, log %s)%n", process.pid(), log);
        out.flush();
        RunMeter.Window window;
        Map<String, String> last;
        try {
            window = meter.measure(
                    process.toHandle(),
                    () -> (long) SparkPeerLaunch.number(SparkPeerLaunch.progress(progress), "rows"), // NaN: 0
                    rows,
                    () -> !process.isAlive()
                            || SparkPeerLaunch.progress(progress).containsKey("failed"),
                    POLL,
                    timeout);
            last = SparkPeerLaunch.progress(progress);
        } finally {
            // the peer waits for the end of its input once done, so that its CPU time could be read
            process.getOutputStream().close();
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                process.destroyForcibly();
            }
        }
        double requests = SparkPeerLaunch.number(last, "requests");
        double connectorRows = SparkPeerLaunch.number(last, "connector_rows");
        String note = last.containsKey("failed")
                ? "Spark peer failed: " + last.get("failed") + ", see " + log
                : !window.completed() && !process.isAlive() && process.exitValue() != 0
                        ? "Spark peer exited with " + process.exitValue() + ", see " + log
                        : "";
        if (note.isEmpty() && !(requests > 0)) {
            note = "rows/request and latency n/a: the connector's streaming sink records no batch metrics";
        }
        return new Outcome(
                window,
                requests > 0 ? connectorRows / requests : Double.NaN,
                requests > 0 ? (long) requests : 0,
                SparkPeerLaunch.number(last, "p50_ms"),
                SparkPeerLaunch.number(last, "p99_ms"),
                note);
    }
}
