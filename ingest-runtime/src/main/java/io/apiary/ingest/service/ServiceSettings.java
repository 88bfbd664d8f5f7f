package io.apiary.ingest.service;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The settings of running the application as a service: its HTTP endpoints, the health rules and
 * the shutdown budget. The option names are this record's constants, their definitions
 * {@link Options}, and {@link #from} reads them. Immutable and thread-safe.
 *
 * @param httpPort        port of the HTTP endpoints, 1 to 65,535; 0 picks a free port, -1 serves no HTTP
 * @param httpHost        address the endpoints listen on, not null
 * @param sinkStall       how long the sink may hold rows without an acknowledgement and stay ready,
 *                        1 s to {@link IngestConfig#MAX_WAIT_MS}
 * @param livenessTimeout how long the sink's poll loop may stand still and stay live, 10 s to
 *                        {@link IngestConfig#MAX_WAIT_MS}
 * @param shutdownTimeout the whole shutdown's budget after SIGTERM, 1 s to {@link IngestConfig#MAX_WAIT_MS}
 */
public record ServiceSettings(
        int httpPort, String httpHost, Duration sinkStall, Duration livenessTimeout, Duration shutdownTimeout) {

    /** Option name: {@value}. */
    public static final String HTTP_PORT = "http.port";
    /** Option name: {@value}. */
    public static final String HTTP_HOST = "http.host";
    /** Option name: {@value}. */
    public static final String HEALTH_SINK_STALL_TIMEOUT_MS = "health.sink.stall.timeout.ms";
    /** Option name: {@value}. */
    public static final String HEALTH_LIVENESS_TIMEOUT_MS = "health.liveness.timeout.ms";
    /** Option name: {@value}. */
    public static final String SHUTDOWN_TIMEOUT_MS = "shutdown.timeout.ms";

    /**
     * Checks the values: the configuration's ranges refuse the same values at load, naming the setting; these
     * checks hold for settings built in code.
     *
     * @throws IllegalArgumentException naming the setting of a value out of its range
     * @throws NullPointerException     if the host or a duration is null
     */
    public ServiceSettings {
        Objects.requireNonNull(httpHost, "httpHost");
        if (httpPort < -1 || httpPort > 65_535) {
            throw new IllegalArgumentException(HTTP_PORT + " (" + httpPort + ") is outside [-1, 65535]");
        }
        IngestConfig.requireWait(HEALTH_SINK_STALL_TIMEOUT_MS, sinkStall, 1_000, IngestConfig.MAX_WAIT_MS);
        IngestConfig.requireWait(HEALTH_LIVENESS_TIMEOUT_MS, livenessTimeout, 10_000, IngestConfig.MAX_WAIT_MS);
        IngestConfig.requireWait(SHUTDOWN_TIMEOUT_MS, shutdownTimeout, 1_000, IngestConfig.MAX_WAIT_MS);
    }

    /**
     * The settings named by a configuration.
     *
     * @param config the configuration, not null
     * @return the settings
     * @throws IllegalArgumentException as the constructor
     */
    public static ServiceSettings from(IngestConfig config) {
        return new ServiceSettings(
                config.getInt(HTTP_PORT),
                config.getString(HTTP_HOST),
                Duration.ofMillis(config.getLong(HEALTH_SINK_STALL_TIMEOUT_MS)),
                Duration.ofMillis(config.getLong(HEALTH_LIVENESS_TIMEOUT_MS)),
                Duration.ofMillis(config.getLong(SHUTDOWN_TIMEOUT_MS)));
    }

    /**
     * @param drainTimeout the sink's drain timeout ({@value IngestConfig#SINK_DRAIN_TIMEOUT_MS}), not negative,
     *                     at most {@link IngestConfig#MAX_WAIT_MS}
     * @param margin       what the sink needs beyond its drain to commit and close, not negative
     * @return whether the shutdown budget leaves less than {@code margin} beyond the drain (then the drain
     *         may be cut short); no overflow for any drain and margin of their ranges
     */
    public boolean shutdownCutsDrain(Duration drainTimeout, Duration margin) {
        return shutdownTimeout.compareTo(drainTimeout.plus(margin)) < 0;
    }

    /**
     * The definitions of the service's options: its HTTP endpoints (health probes and metrics), the
     * health rules and the shutdown budget. Part of the application's one {@link IngestConfig#definition() definition}: {@link IngestConfig}
     * loads it as an {@link OptionGroup} (listed in
     * {@code META-INF/services/io.apiary.ingest.config.OptionGroup}, hence public with a public
     * no-argument constructor). Stateless and thread-safe.
     */
    public static final class Options implements OptionGroup {
        /** Instantiated by {@link java.util.ServiceLoader}. */
        public Options() {}

        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(
                            HTTP_PORT,
                            Type.INT,
                            8080,
                            Range.between(-1, 65_535),
                            Importance.HIGH,
                            "Port of the HTTP endpoints of 'run': /health/live, /health/ready and /metrics "
                                    + "(Prometheus text format). 0 picks a free port (logged); -1 serves no HTTP.")
                    .define(
                            HTTP_HOST,
                            Type.STRING,
                            "0.0.0.0",
                            Importance.LOW,
                            "Address the HTTP endpoints listen on; 0.0.0.0 (the default) is every interface, as "
                                    + "Kubernetes probes and Prometheus need.")
                    .define(
                            HEALTH_SINK_STALL_TIMEOUT_MS,
                            Type.LONG,
                            60_000L,
                            Range.between(1_000, IngestConfig.MAX_WAIT_MS),
                            Importance.MEDIUM,
                            "The sink is not ready while it holds rows of which Cassandra acknowledged none for this "
                                    + "long, ms, or while no Cassandra node is connected; it is ready again with the "
                                    + "next acknowledgement. Keep it above the longest retry backoff you expect to ride out "
                                    + "without being taken out of service. "
                                    + IngestConfig.MAX_WAIT_DOC)
                    .define(
                            HEALTH_LIVENESS_TIMEOUT_MS,
                            Type.LONG,
                            300_000L,
                            Range.between(10_000, IngestConfig.MAX_WAIT_MS),
                            Importance.LOW,
                            "The process is not live (and Kubernetes restarts it) when the sink's poll loop has not "
                                    + "turned for this long, ms, which only a hang can cause: the loop turns at least "
                                    + "every 100 ms, and a revocation or shutdown drain holds it at most "
                                    + "sink.drain.timeout.ms. A component that failed is not live either. "
                                    + IngestConfig.MAX_WAIT_DOC)
                    .define(
                            SHUTDOWN_TIMEOUT_MS,
                            Type.LONG,
                            60_000L,
                            Range.between(1_000, IngestConfig.MAX_WAIT_MS),
                            Importance.HIGH,
                            "After SIGTERM, the most time the application takes to stop, ms: the sink sends what it "
                                    + "holds and waits for Cassandra up to sink.drain.timeout.ms, commits what was "
                                    + "acknowledged, then the topology commits and closes with what is left. Keep "
                                    + "Kubernetes' terminationGracePeriodSeconds above it, and it above "
                                    + "sink.drain.timeout.ms plus about 10 s. "
                                    + IngestConfig.MAX_WAIT_DOC);
        }
    }
}
