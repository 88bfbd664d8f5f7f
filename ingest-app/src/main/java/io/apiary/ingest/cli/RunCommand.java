package io.apiary.ingest.cli;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import io.apiary.ingest.cassandra.CassandraTls;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.serde.RegistryAvailability;
import io.apiary.ingest.serde.SchemaRegistryClient;
import io.apiary.ingest.serde.SchemaRegistryException;
import io.apiary.ingest.service.ComponentHealth;
import io.apiary.ingest.service.HealthReport;
import io.apiary.ingest.service.HttpEndpoints;
import io.apiary.ingest.service.PipelineHealth;
import io.apiary.ingest.service.ServiceMetrics;
import io.apiary.ingest.service.ServiceSettings;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code run}: the topology, the sink, or both, against a configured Kafka and Cassandra, until
 * SIGTERM or Ctrl-C (then the sink drains and commits, and the topology closes cleanly, within
 * {@code shutdown.timeout.ms}) or until a component fails (exit code 1). Serves
 * {@code /health/live}, {@code /health/ready} and {@code /metrics} on {@code http.port}.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = "Runs the topology and/or the Cassandra sink against the configured Kafka and Cassandra.")
public final class RunCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);
    /** Time the shutdown needs beyond the sink's drain: the final commit, the topology's close. */
    private static final Duration SHUTDOWN_MARGIN = Duration.ofSeconds(10);

    private static final Duration STARTUP_RETRY_FIRST = Duration.ofSeconds(2);
    private static final Duration STARTUP_RETRY_MAX = Duration.ofSeconds(30);

    /** Which parts to run. */
    enum Component {
        all,
        topology,
        sink
    }

    @Mixin
    ConfigOptions config;

    /** What the probes say before the pipeline runs. */
    private volatile String startingDetail = "starting";

    /** The schema registry client's availability, or null without a registry. */
    private volatile RegistryAvailability registryAvailability;

    @Option(
            names = "--component",
            defaultValue = "all",
            description = "What to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Component component;

    /** Logs, every {@link #PROGRESS_EVERY}, what the running components did since the last time. */
    private static final class ProgressLog implements Runnable {
        private final Pipeline pipeline;
        private final MeterRegistry registry;
        private long lastRows;
        private long lastNanos = System.nanoTime();

        ProgressLog(Pipeline pipeline, MeterRegistry registry) {
            this.pipeline = pipeline;
            this.registry = registry;
        }

        @Override
        public void run() {
            long now = System.nanoTime();
            double deadLettered = registry.find(MetricNames.DEAD_LETTER_RECORDS).counters().stream()
                    .mapToDouble(c -> c.count())
                    .sum();
            StringBuilder line = new StringBuilder();
            if (pipeline.streams() != null) {
                line.append("topology ").append(pipeline.streams().state()).append("; ");
            }
            if (pipeline.sink() != null) {
                long rows = (long) registry.find(MetricNames.SINK_ROWS_WRITTEN).counters().stream()
                        .mapToDouble(c -> c.count())
                        .sum();
                var batchRows = registry.find(MetricNames.SINK_BATCH_ROWS).summary();
                line.append(String.format(
                        "sink %,d rows written (%,.0f rows/s, %.1f rows per request), "
                                + "%,.0f in flight (limit %,.0f), %,.0f buffered, %,.0f partitions paused; ",
                        rows,
                        (rows - lastRows) / ((now - lastNanos) / 1e9),
                        batchRows == null ? 0.0 : batchRows.mean(),
                        gauge(MetricNames.SINK_IN_FLIGHT),
                        gauge(MetricNames.SINK_IN_FLIGHT_LIMIT),
                        gauge(MetricNames.SINK_BUFFERED_ROWS),
                        gauge(MetricNames.SINK_PAUSED_PARTITIONS)));
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
        if (component != Component.topology) { // only the sink writes them
            checkExtraTables(cfg);
        }
        ServiceSettings service = ServiceSettings.from(cfg);
        Duration shutdownTimeout = service.shutdownTimeout();
        long drainMs = cfg.getLong(IngestConfig.SINK_DRAIN_TIMEOUT_MS);
        if (component != Component.topology && service.shutdownCutsDrain(Duration.ofMillis(drainMs), SHUTDOWN_MARGIN)) {
            LOG.warn(
                    "{} ({} ms) leaves less than {} s beyond {} ({} ms) to commit and close; the sink's drain may be "
                            + "cut short",
                    ServiceSettings.SHUTDOWN_TIMEOUT_MS,
                    shutdownTimeout.toMillis(),
                    SHUTDOWN_MARGIN.toSeconds(),
                    IngestConfig.SINK_DRAIN_TIMEOUT_MS,
                    drainMs);
        }
        if (component != Component.topology) {
            CassandraTls.check(cfg);
        }
        LOG.info("Starting {} with {}", component, cfg.describe());
        ServiceMetrics metrics = new ServiceMetrics(component.name());
        registryAvailability = cfg.wireFormat()
                .registryClient()
                .map(SchemaRegistryClient::availability)
                .orElse(null);
        if (registryAvailability != null) {
            Gauge.builder(
                            MetricNames.SCHEMA_REGISTRY_OUTAGE,
                            registryAvailability,
                            a -> a.outage()
                                    .map(o -> (a.nowNanos() - o.sinceNanos()) / 1e9)
                                    .orElse(0.0))
                    .description("How long the schema registry's current outage has lasted; 0 while it serves")
                    .baseUnit("seconds")
                    .strongReference(true)
                    .register(metrics.registry());
        }
        AtomicReference<PipelineHealth> health = new AtomicReference<>();
        HttpEndpoints http = startHttp(service, metrics, health);
        Pipeline pipeline;
        try {
            pipeline = startPipeline(cfg, metrics.registry());
        } catch (RuntimeException | InterruptedException e) {
            closeQuietly(http);
            metrics.close();
            throw e;
        }
        health.set(new PipelineHealth(
                pipeline, service.sinkStall(), service.livenessTimeout(), System::nanoTime, registryAvailability));
        Thread hook = new Thread(
                () -> {
                    LOG.info(
                            "Stopping (SIGTERM or Ctrl-C): draining within {} ms ({})",
                            shutdownTimeout.toMillis(),
                            ServiceSettings.SHUTDOWN_TIMEOUT_MS);
                    long start = System.nanoTime();
                    boolean clean = pipeline.close(shutdownTimeout);
                    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    if (clean) {
                        LOG.info("Stopped cleanly in {} ms", ms);
                    } else {
                        LOG.warn(
                                "Stopped in {} ms, not cleanly: a component did not finish within {}; what it had not "
                                        + "committed is processed again after a restart",
                                ms,
                                ServiceSettings.SHUTDOWN_TIMEOUT_MS);
                    }
                    closeQuietly(http);
                    metrics.close();
                },
                "apiary-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "apiary-progress");
            t.setDaemon(true);
            return t;
        });
        progress.scheduleAtFixedRate(
                new ProgressLog(pipeline, metrics.registry()),
                PROGRESS_EVERY.toSeconds(),
                PROGRESS_EVERY.toSeconds(),
                TimeUnit.SECONDS);
        String failure = pipeline.awaitTermination();
        progress.shutdownNow();
        if (failure != null) {
            LOG.error("Stopping: {}", failure);
            try {
                // this path closes the pipeline itself; the hook would close it again as if signalled
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException alreadyStopping) {
                // a signal came at the same time: the hook is running and closes it too (idempotent)
            }
            pipeline.close(shutdownTimeout);
            closeQuietly(http);
            return 1;
        }
        return 0;
    }

    /**
     * Starts the pipeline; while no Cassandra node answers, or the schema registry cannot serve
     * requests (either may start after this process), retries with backoff, live and not ready
     * meanwhile. Wrong credentials, an untrusted certificate and a subject that does not fit are
     * not retried.
     */
    private Pipeline startPipeline(IngestConfig cfg, MeterRegistry registry) throws InterruptedException {
        long backoffMs = STARTUP_RETRY_FIRST.toMillis();
        while (true) {
            try {
                return Pipeline.start(cfg, component != Component.sink, component != Component.topology, registry);
            } catch (SchemaRegistryException e) {
                if (!e.serverUnavailable() || tlsFailure(e) != null) {
                    throw e; // a refusal, or a certificate no retry makes trusted: stop with the reason
                }
                String reason = e.getMessage().lines().findFirst().orElse("");
                startingDetail = "waiting for the schema registry: " + reason;
                LOG.warn(
                        "The schema registry cannot serve requests yet ({}); retrying in {} s",
                        reason,
                        backoffMs / 1000);
                TimeUnit.MILLISECONDS.sleep(backoffMs);
                backoffMs = Math.min(backoffMs * 2, STARTUP_RETRY_MAX.toMillis());
            } catch (AllNodesFailedException e) {
                boolean refused = e.getAllErrors().values().stream()
                        .flatMap(List::stream)
                        .anyMatch(error -> error instanceof AuthenticationException);
                if (refused) {
                    throw e;
                }
                Throwable tls = e.getAllErrors().values().stream()
                        .flatMap(List::stream)
                        .map(RunCommand::tlsFailure)
                        .filter(java.util.Objects::nonNull)
                        .findFirst()
                        .orElse(null);
                if (tls != null) {
                    // a certificate no retry can make trusted: stop with the reason, as for a wrong password
                    throw new IllegalStateException(
                            "TLS to Cassandra failed, which no retry mends: " + tls
                                    + " (check cassandra.ssl.truststore.location and password, or the driver's"
                                    + " advanced.ssl-engine-factory settings)",
                            e);
                }
                startingDetail = "waiting for Cassandra: "
                        + e.getMessage().lines().findFirst().orElse("");
                LOG.warn(
                        "No Cassandra node answers yet ({}); retrying in {} s",
                        e.getMessage().lines().findFirst().orElse(""),
                        backoffMs / 1000);
                TimeUnit.MILLISECONDS.sleep(backoffMs);
                backoffMs = Math.min(backoffMs * 2, STARTUP_RETRY_MAX.toMillis());
            }
        }
    }

    /**
     * Reads the registrations of {@code sink.extra.tables} before anything starts.
     *
     * @param cfg the configuration, not null
     * @throws org.apache.kafka.common.config.ConfigException (exit 2) naming the file and its fault
     */
    static void checkExtraTables(IngestConfig cfg) {
        try {
            io.apiary.ingest.pipeline.Pipeline.extraTables(cfg);
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new org.apache.kafka.common.config.ConfigException(
                    IngestConfig.SINK_EXTRA_TABLES + ": " + e.getMessage());
        }
    }

    /**
     * @param error a node's connection error, not null
     * @return the TLS failure in its causes that no retry mends (a certificate the trust store does
     *         not trust: PKIX path building or validation failed), or null
     */
    static Throwable tlsFailure(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // a handshake cut short (a node restarting) is transient: only a certificate failure is not
            if (t instanceof java.security.cert.CertificateException
                    || t instanceof java.security.cert.CertPathValidatorException
                    || t instanceof java.security.cert.CertPathBuilderException) {
                return t;
            }
        }
        return null;
    }

    /**
     * Binds the HTTP endpoints before anything starts, so a port in use fails fast; until the
     * pipeline runs, the process is live and not ready.
     */
    private HttpEndpoints startHttp(
            ServiceSettings service, ServiceMetrics metrics, AtomicReference<PipelineHealth> health) {
        int port = service.httpPort();
        if (port < 0) {
            return null;
        }
        String host = service.httpHost();
        if (new java.net.InetSocketAddress(host, Math.max(port, 0)).isUnresolved()) {
            metrics.close();
            throw new org.apache.kafka.common.config.ConfigException(
                    ServiceSettings.HTTP_HOST, host, "not an address of this host, nor a name that resolves");
        }
        try {
            return HttpEndpoints.start(
                    host,
                    port,
                    () -> health.get() == null ? starting(true) : health.get().liveness(),
                    () -> health.get() == null ? starting(false) : health.get().readiness(),
                    metrics.registry());
        } catch (IOException e) {
            metrics.close();
            throw new org.apache.kafka.common.config.ConfigException(
                    ServiceSettings.HTTP_PORT,
                    port,
                    "cannot listen on " + host + ":" + port + " (" + e.getMessage() + "); choose a free port or -1");
        }
    }

    /**
     * @return the answer of a probe before the pipeline runs: live, not ready; readiness also
     *         gives the schema registry's state, if one is configured
     */
    private HealthReport starting(boolean up) {
        ComponentHealth process = new ComponentHealth("process", up, startingDetail);
        RegistryAvailability registry = registryAvailability;
        if (up || registry == null) {
            return new HealthReport(List.of(process));
        }
        return new HealthReport(
                List.of(process, PipelineHealth.registryReadiness(registry.outage(), registry.nowNanos())));
    }

    private static void closeQuietly(HttpEndpoints http) {
        if (http != null) {
            http.close();
        }
    }
}
