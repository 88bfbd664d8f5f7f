package io.apiary.ingest.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.apiary.ingest.deadletter.DeadLetterHeaders;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.Pipeline;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code run}: the topology, the sink, or both, against a configured Kafka and Cassandra, until
 * SIGTERM or Ctrl-C (then the sink drains and commits, and the topology closes cleanly) or until a
 * component fails (exit code 1).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the topology and/or the Cassandra sink against the configured Kafka and Cassandra.")
public final class RunCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);

    /** Which parts to run. */
    enum Component { all, topology, sink }

    @Mixin
    ConfigOptions config;

    @Option(names = "--component", defaultValue = "all",
            description = "What to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Component component;

    /** Logs, every {@link #PROGRESS_EVERY}, what the running components did since the last time. */
    private static final class ProgressLog implements Runnable {
        private final Pipeline pipeline;
        private final SimpleMeterRegistry registry;
        private long lastRows;
        private long lastNanos = System.nanoTime();

        ProgressLog(Pipeline pipeline, SimpleMeterRegistry registry) {
            this.pipeline = pipeline;
            this.registry = registry;
        }

        @Override
        public void run() {
            long now = System.nanoTime();
            double deadLettered = registry.find(DeadLetterHeaders.COUNTER).counters().stream()
                    .mapToDouble(c -> c.count()).sum();
            StringBuilder line = new StringBuilder();
            if (pipeline.streams() != null) {
                line.append("topology ").append(pipeline.streams().state()).append("; ");
            }
            if (pipeline.sink() != null) {
                long rows = (long) registry.find("apiary.sink.rows.written").counters().stream()
                        .mapToDouble(c -> c.count()).sum();
                var batchRows = registry.find("apiary.sink.batch.rows").summary();
                line.append(String.format("sink %,d rows written (%,.0f rows/s, %.1f rows per request), "
                                + "%,.0f in flight (limit %,.0f), %,.0f buffered, %,.0f partitions paused; ",
                        rows, (rows - lastRows) / ((now - lastNanos) / 1e9),
                        batchRows == null ? 0.0 : batchRows.mean(), gauge("apiary.sink.in.flight"),
                        gauge("apiary.sink.in.flight.limit"), gauge("apiary.sink.buffered.rows"),
                        gauge("apiary.sink.paused.partitions")));
                lastRows = rows;
            }
            lastNanos = now;
            LOG.info("{}{} record(s) dead-lettered", line, (long) deadLettered);
        }

        private double gauge(String name) {
            var gauge = registry.find(name).gauge();
            return gauge == null ? 0 : gauge.value();
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        IngestConfig cfg = config.load();
        LOG.info("Starting {} with {}", component, cfg.describe());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        Pipeline pipeline = Pipeline.start(cfg, component != Component.sink, component != Component.topology, registry);
        Thread hook = new Thread(pipeline::close, "apiary-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "apiary-progress");
            t.setDaemon(true);
            return t;
        });
        progress.scheduleAtFixedRate(new ProgressLog(pipeline, registry), PROGRESS_EVERY.toSeconds(),
                PROGRESS_EVERY.toSeconds(), TimeUnit.SECONDS);
        String failure = pipeline.awaitTermination();
        progress.shutdownNow();
        if (failure != null) {
            LOG.error("Stopping: {}", failure);
            pipeline.close();
            return 1;
        }
        return 0;
    }
}
