package io.apiary.ingest.demo;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.sink.CassandraSink;
import io.apiary.ingest.topics.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.TopicPartition;

/**
 * Prints the demo's live progress every two seconds (records in, rows written, rows/s, lag of
 * the topology and of the sink) and decides when everything has been written: the feed is sent,
 * both consumer groups have no lag, the row topics and row counts stopped moving, and the
 * topology closed every hour the feed sent samples for.
 * Not thread-safe.
 */
final class DemoProgress {

    /**
     * What the progress loop saw.
     *
     * @param rowsWritten      rows acknowledged by Cassandra
     * @param peakRowsPerSecond highest rows/s over one two-second tick
     * @param elapsed          time from the first record sent to drained
     */
    record Result(long rowsWritten, double peakRowsPerSecond, Duration elapsed) {
        double averageRowsPerSecond() {
            return rowsWritten / Math.max(elapsed.toNanos() / 1e9, 1e-9);
        }
    }

    private static final Duration TICK = Duration.ofSeconds(2);

    private final PrintWriter out;
    private final IngestConfig config;
    private final Pipeline pipeline;
    private final GatewayProducer producer;
    private final LagProbe lag;

    DemoProgress(PrintWriter out, IngestConfig config, Pipeline pipeline, GatewayProducer producer, LagProbe lag) {
        this.out = out;
        this.config = config;
        this.pipeline = pipeline;
        this.producer = producer;
        this.lag = lag;
    }

    Result awaitDrained(CompletableFuture<DemoFeed.Totals> feed, Duration timeout)
            throws InterruptedException, ExecutionException {
        Topics topics = config.topics();
        List<String> inputs = List.of(topics.telemetry(), topics.entranceCounts());
        List<String> rows = List.of(topics.telemetryRows(), topics.activityRows());
        String appId = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
        String sinkGroup = config.getString(IngestConfig.SINK_GROUP_ID);
        CassandraSink sink = pipeline.sink();

        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long lastWritten = 0;
        long lastTick = start;
        Map<TopicPartition, Long> lastRowEnds = Map.of();
        double peak = 0;
        boolean announcedQuietWait = false;
        while (true) {
            waitTick(feed);
            if (feed.isCompletedExceptionally()) {
                feed.get();
            }
            if (pipeline.failure() != null) {
                throw new IllegalStateException("The pipeline failed: " + pipeline.failure());
            }
            long now = System.nanoTime();
            long written = Demo.tables().stream().mapToLong(sink::rowsWritten).sum();
            double rate = (written - lastWritten) / ((now - lastTick) / 1e9);
            peak = Math.max(peak, rate);
            long topologyLag = lag.lag(appId, inputs);
            long sinkLag = lag.lag(sinkGroup, rows);
            Map<TopicPartition, Long> rowEnds = lag.endOffsets(rows);
            out.printf(
                    "  [%5.1f s] records in %,11d | rows written %,10d | %,8.0f rows/s | lag: topology %,9d, sink %,9d%n",
                    (now - start) / 1e9, producer.acknowledged(), written, rate, topologyLag, sinkLag);
            out.flush();
            boolean drained = feed.isDone()
                    && topologyLag == 0
                    && sinkLag == 0
                    && written == lastWritten
                    && rowEnds.equals(lastRowEnds)
                    && hoursClosed() >= feed.getNow(null).hours();
            if (drained) {
                return new Result(written, peak, Duration.ofNanos(now - start));
            }
            if (!announcedQuietWait
                    && feed.isDone()
                    && topologyLag == 0
                    && sinkLag == 0
                    && hoursClosed() < feed.getNow(null).hours()) {
                announcedQuietWait = true;
                out.printf(
                        "  every record is processed; each hive's last open hour closes once it has sent no sample for"
                                + " %d s (activity.idle.timeout.ms, the quiet rule)...%n",
                        config.getLong(IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS) / 1000);
            }
            if (now > deadline) {
                throw new IllegalStateException(String.format(
                        "Not everything was written within %d s "
                                + "(topology lag %d, sink lag %d); see the logs above",
                        timeout.toSeconds(), topologyLag, sinkLag));
            }
            lastWritten = written;
            lastTick = now;
            lastRowEnds = rowEnds;
        }
    }

    /** Hours the topology closed so far (it runs in this JVM, on the global registry). */
    private static double hoursClosed() {
        return io.micrometer.core.instrument.Metrics.globalRegistry
                .find(MetricNames.TOPOLOGY_HOURS_CLOSED)
                .counters()
                .stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count)
                .sum();
    }

    private static void waitTick(CompletableFuture<DemoFeed.Totals> feed) throws InterruptedException {
        try {
            if (feed.isDone()) {
                TimeUnit.MILLISECONDS.sleep(TICK.toMillis());
            } else {
                feed.get(TICK.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (ExecutionException | TimeoutException e) {
            // a failed feed is reported by the caller; a timeout is the normal tick
        }
    }
}
