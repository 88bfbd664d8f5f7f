package io.apiary.ingest.service;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The options of running the application as a service: its HTTP endpoints (health probes and metrics), the health rules and the shutdown budget. They are part of {@link IngestConfig#definition()} (one definition, one reference), loaded as an
 * {@link OptionGroup} service. Thread-safe (constants only).
 */
public final class ServiceOptions implements OptionGroup {

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

    /** For the service loader. */
    public ServiceOptions() {}

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
