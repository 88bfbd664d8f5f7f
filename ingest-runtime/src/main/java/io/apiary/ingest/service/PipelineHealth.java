package io.apiary.ingest.service;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.serde.RegistryAvailability;
import io.apiary.ingest.sink.CassandraSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Liveness and readiness of a running {@link Pipeline}, as Kubernetes probes ask for them.
 *
 * <ul>
 *   <li><b>Ready</b> (traffic, rolling updates): the topology is {@code RUNNING} (not while it
 *       rebalances or restores state); the sink has a Cassandra node connected and, while it
 *       holds rows, Cassandra acknowledged a write within the stall timeout; the schema registry,
 *       if one is configured, is in no outage ({@link RegistryAvailability}: records that need a
 *       schema from it would wait). Neither is ready once shutdown began.</li>
 *   <li><b>Live</b> (restart): no component failed; the topology is not in {@code ERROR} or
 *       stopped on its own; the sink's poll loop turned within the liveness timeout. A Cassandra
 *       outage does not make the process dead: restarting would not help, and the sink retries.</li>
 * </ul>
 *
 * <p>Thread-safe: reads the components' thread-safe state only.
 */
public final class PipelineHealth {

    private final Pipeline pipeline;
    private final long stallNanos;
    private final long livenessNanos;
    private final LongSupplier nanoClock;
    private final RegistryAvailability registry;

    /** The component name of the schema registry in health reports. */
    public static final String SCHEMA_REGISTRY = "schemaRegistry";

    /**
     * @param pipeline        the running pipeline, not null
     * @param sinkStall       how long the sink may hold rows without an acknowledgement and stay ready
     * @param livenessTimeout how long the sink's poll loop may stand still and stay live
     * @param nanoClock       {@link System#nanoTime()} or a test clock
     * @param registry        the schema registry client's availability, or null without a registry
     */
    public PipelineHealth(
            Pipeline pipeline,
            Duration sinkStall,
            Duration livenessTimeout,
            LongSupplier nanoClock,
            RegistryAvailability registry) {
        this.pipeline = Objects.requireNonNull(pipeline);
        this.stallNanos = sinkStall.toNanos();
        this.livenessNanos = livenessTimeout.toNanos();
        this.nanoClock = Objects.requireNonNull(nanoClock);
        this.registry = registry;
    }

    /** @return the readiness of every running component */
    public HealthReport readiness() {
        List<ComponentHealth> out = new ArrayList<>();
        boolean stopping = pipeline.stopping();
        if (pipeline.streams() != null) {
            out.add(
                    stopping
                            ? new ComponentHealth("topology", false, "shutting down")
                            : topologyReadiness(pipeline.streams().state()));
        }
        if (pipeline.sink() != null) {
            out.add(
                    stopping
                            ? new ComponentHealth("sink", false, "shutting down")
                            : sinkReadiness(
                                    pipeline.sink().activity(),
                                    connectedNodes(pipeline.session()),
                                    nanoClock.getAsLong(),
                                    stallNanos));
        }
        if (registry != null) {
            out.add(registryReadiness(registry.outage(), registry.nowNanos()));
        }
        return new HealthReport(out);
    }

    /**
     * The schema registry's part of readiness: down while its requests fail (records that need a
     * schema from it wait; none is dead-lettered for it). Not part of liveness: a restart would
     * not bring the registry back.
     *
     * @param outage   the registry's current outage, or empty; not null
     * @param nowNanos now, on the clock of the outage's times
     * @return {@value #SCHEMA_REGISTRY}: down with the outage's length and last error, else up
     */
    public static ComponentHealth registryReadiness(Optional<RegistryAvailability.Outage> outage, long nowNanos) {
        if (outage.isEmpty()) {
            return new ComponentHealth(SCHEMA_REGISTRY, true, "no request failing");
        }
        RegistryAvailability.Outage o = outage.get();
        return new ComponentHealth(
                SCHEMA_REGISTRY,
                false,
                String.format(
                        "unavailable for %d s (%,d failed requests): %s",
                        TimeUnit.NANOSECONDS.toSeconds(nowNanos - o.sinceNanos()), o.failures(), o.lastError()));
    }

    /** @return the liveness of every running component */
    public HealthReport liveness() {
        List<ComponentHealth> out = new ArrayList<>();
        if (pipeline.failure() != null) {
            out.add(new ComponentHealth("process", false, "a component failed: " + pipeline.failure()));
        }
        boolean stopping = pipeline.stopping();
        if (pipeline.streams() != null) {
            out.add(topologyLiveness(pipeline.streams().state(), stopping));
        }
        if (pipeline.sink() != null) {
            out.add(sinkLiveness(pipeline.sink().activity(), nanoClock.getAsLong(), livenessNanos));
        }
        return new HealthReport(out);
    }

    /**
     * @param state the Kafka Streams client's state, not null
     * @return up when {@code RUNNING}
     */
    static ComponentHealth topologyReadiness(KafkaStreams.State state) {
        return new ComponentHealth("topology", state == KafkaStreams.State.RUNNING, "state " + state);
    }

    /**
     * @param state    the Kafka Streams client's state, not null
     * @param stopping whether the application is shutting down (then stopped states are expected)
     * @return down in {@code ERROR} and {@code PENDING_ERROR}, and when not running without a shutdown
     */
    static ComponentHealth topologyLiveness(KafkaStreams.State state, boolean stopping) {
        boolean up = switch (state) {
            case ERROR, PENDING_ERROR -> false;
            case PENDING_SHUTDOWN, NOT_RUNNING -> stopping;
            default -> true;
        };
        return new ComponentHealth("topology", up, "state " + state);
    }

    /**
     * @param activity       the sink's progress, not null
     * @param connectedNodes Cassandra nodes the session is connected to
     * @param nowNanos       the clock's now
     * @param stallNanos     the stall timeout
     * @return the sink's readiness and why
     */
    static ComponentHealth sinkReadiness(
            CassandraSink.Activity activity, int connectedNodes, long nowNanos, long stallNanos) {
        if (activity.failed()) {
            return new ComponentHealth("sink", false, "the sink stopped on an error");
        }
        if (connectedNodes == 0) {
            return new ComponentHealth("sink", false, "no Cassandra node connected");
        }
        long sinceAck = nowNanos - activity.lastAcknowledgementNanos();
        if (activity.heldRows() > 0 && sinceAck > stallNanos) {
            return new ComponentHealth(
                    "sink",
                    false,
                    String.format(
                            "holding %,d rows; no write acknowledged " + "for %d s",
                            activity.heldRows(), TimeUnit.NANOSECONDS.toSeconds(sinceAck)));
        }
        return new ComponentHealth(
                "sink",
                true,
                String.format("%d Cassandra node(s) connected, %,d rows held", connectedNodes, activity.heldRows()));
    }

    /**
     * @param activity      the sink's progress, not null
     * @param nowNanos      the clock's now
     * @param livenessNanos how long the poll loop may stand still
     * @return down when the sink failed or its poll loop stood still too long
     */
    static ComponentHealth sinkLiveness(CassandraSink.Activity activity, long nowNanos, long livenessNanos) {
        long sinceLoop = nowNanos - activity.lastLoopNanos();
        if (activity.failed()) {
            return new ComponentHealth("sink", false, "the sink stopped on an error");
        }
        if (!activity.stopping() && sinceLoop > livenessNanos) {
            return new ComponentHealth(
                    "sink",
                    false,
                    "the poll loop has not turned for " + TimeUnit.NANOSECONDS.toSeconds(sinceLoop) + " s");
        }
        return new ComponentHealth("sink", true, "poll loop turning");
    }

    private static int connectedNodes(CqlSession session) {
        if (session == null) {
            return 0;
        }
        return (int) session.getMetadata().getNodes().values().stream()
                .filter(node -> node.getState() == NodeState.UP && node.getOpenConnections() > 0)
                .count();
    }
}
