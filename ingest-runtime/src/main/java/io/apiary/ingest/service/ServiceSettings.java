package io.apiary.ingest.service;

import io.apiary.ingest.config.IngestConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of running the application as a service ({@link ServiceOptions}): its HTTP endpoints,
 * the health rules and the shutdown budget. Immutable and thread-safe.
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
            throw new IllegalArgumentException(ServiceOptions.HTTP_PORT + " (" + httpPort + ") is outside [-1, 65535]");
        }
        IngestConfig.requireWait(
                ServiceOptions.HEALTH_SINK_STALL_TIMEOUT_MS, sinkStall, 1_000, IngestConfig.MAX_WAIT_MS);
        IngestConfig.requireWait(
                ServiceOptions.HEALTH_LIVENESS_TIMEOUT_MS, livenessTimeout, 10_000, IngestConfig.MAX_WAIT_MS);
        IngestConfig.requireWait(ServiceOptions.SHUTDOWN_TIMEOUT_MS, shutdownTimeout, 1_000, IngestConfig.MAX_WAIT_MS);
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
                config.getInt(ServiceOptions.HTTP_PORT),
                config.getString(ServiceOptions.HTTP_HOST),
                Duration.ofMillis(config.getLong(ServiceOptions.HEALTH_SINK_STALL_TIMEOUT_MS)),
                Duration.ofMillis(config.getLong(ServiceOptions.HEALTH_LIVENESS_TIMEOUT_MS)),
                Duration.ofMillis(config.getLong(ServiceOptions.SHUTDOWN_TIMEOUT_MS)));
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
}
