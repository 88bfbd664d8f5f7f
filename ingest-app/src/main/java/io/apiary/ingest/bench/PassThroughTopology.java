package io.apiary.ingest.bench;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.RegistrySubjects;
import io.apiary.ingest.pipeline.StreamsProperties;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.serde.SchemaSubjects;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.TelemetryReading;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The floor under the topology ({@code pass-through} run of {@link Bench}): a Kafka Streams
 * application with the topology's settings ({@link StreamsProperties#from}: processing guarantee,
 * commit interval, threads, producer and consumer overrides, exception handlers) that reads the two
 * gateway topics with their own serdes ({@link Topics#telemetryTopic()},
 * {@link Topics#entranceCountsTopic()}: the configured wire format, registry framing by default) and
 * writes each record, decoded and encoded again by the same serde, to an output topic of its own
 * ({@link #outputTopic}). No validation, timestamp extraction of event times, bucketing,
 * aggregation or state store: what a Kafka Streams application with these topics, serdes and
 * guarantee costs when it does nothing else.
 *
 * <p>The running application is thread-safe: {@link #failure()} and {@link #close()} may be called
 * from any thread.
 */
final class PassThroughTopology implements AutoCloseable {

    /** Appended to an input topic's name (after the application id) to name its output topic. */
    static final String OUTPUT_SUFFIX = "-pass-through";

    private final KafkaStreams streams;
    private final KafkaStreamsMetrics metrics;
    private volatile String failure;

    private PassThroughTopology(KafkaStreams streams, KafkaStreamsMetrics metrics) {
        this.streams = streams;
        this.metrics = metrics;
    }

    /**
     * The output topic of an input: named under the application id, as Kafka Streams' internal
     * topics are, so that deleting a Streams application's topics ({@code <application id>-*})
     * deletes it too.
     *
     * @param applicationId the Kafka Streams application id, not null
     * @param input         the input topic's name, not null
     * @return {@code <applicationId>-<input>}{@value #OUTPUT_SUFFIX}
     */
    static String outputTopic(String applicationId, String input) {
        return applicationId + "-" + input + OUTPUT_SUFFIX;
    }

    /**
     * Builds the topology: per gateway topic, source {@code <name>-source} straight into sink
     * {@code <name>-sink} writing to {@link #outputTopic}, with the input's key and value serdes.
     *
     * @param topics        the pipeline's topics, in the configured wire format, not null
     * @param applicationId the application id that names the output topics, not null
     * @param properties    the Kafka Streams properties, for the topology-level options, not null
     * @return a new topology
     */
    static Topology build(Topics topics, String applicationId, Properties properties) {
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(properties)));
        passThrough(builder, topics.telemetryTopic(), applicationId, "telemetry");
        passThrough(builder, topics.entranceCountsTopic(), applicationId, "entrance-counts");
        return builder.build();
    }

    private static <V> void passThrough(
            StreamsBuilder builder, Topic<String, V> input, String applicationId, String name) {
        builder.stream(
                        input.name(),
                        Consumed.with(input.keySerde(), input.valueSerde()).withName(name + "-source"))
                .to(
                        outputTopic(applicationId, input.name()),
                        Produced.with(input.keySerde(), input.valueSerde()).withName(name + "-sink"));
    }

    /**
     * Creates the output topics (partitions, replication and topic configs as the pipeline's own,
     * {@link TopicProvisioner#newTopic}), prepares every registry subject as the pipeline does on
     * start ({@link RegistrySubjects#prepare}, the output topics' value subjects included), binds
     * Kafka Streams' meters to {@code registry} as the pipeline does, and starts the application.
     *
     * @param config   the configuration (topics, application id, state folder, Kafka settings), not null
     * @param admin    an admin client of the same cluster, not null
     * @param registry where the Kafka Streams meters go, not null
     * @return the running application
     * @throws KafkaException if an output topic cannot be created or has no leader within a minute
     * @throws IllegalStateException if a registry subject is missing without auto-registration
     * @throws SchemaSubjects.IncompatibleSubjectException if a subject does not fit the schemas
     */
    static PassThroughTopology start(IngestConfig config, Admin admin, MeterRegistry registry) {
        Topics topics = config.topics();
        String applicationId = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
        String telemetry = outputTopic(applicationId, topics.telemetry());
        String entranceCounts = outputTopic(applicationId, topics.entranceCounts());
        createTopics(admin, config, List.of(telemetry, entranceCounts));
        RegistrySubjects.prepare(
                topics,
                List.of(
                        new SchemaSubjects.Subject(telemetry, false, TelemetryReading.class),
                        new SchemaSubjects.Subject(entranceCounts, false, EntranceCount.class)));
        Properties properties = StreamsProperties.from(config);
        KafkaStreams streams = new KafkaStreams(build(topics, applicationId, properties), properties);
        KafkaStreamsMetrics metrics = new KafkaStreamsMetrics(streams);
        metrics.bindTo(registry);
        PassThroughTopology app = new PassThroughTopology(streams, metrics);
        streams.setUncaughtExceptionHandler(e -> {
            app.fail("pass-through: " + e);
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.ERROR) {
                app.fail("pass-through entered state ERROR");
            }
        });
        streams.start();
        return app;
    }

    private static void createTopics(Admin admin, IngestConfig config, List<String> names) {
        try {
            admin.createTopics(names.stream()
                            .map(name -> TopicProvisioner.newTopic(name, config))
                            .toList())
                    .all()
                    .get(1, TimeUnit.MINUTES);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaException("Cannot create the pass-through's output topics " + names + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while creating the pass-through's output topics", e);
        }
        TopicProvisioner.awaitLeaders(admin, names, Duration.ofMinutes(1));
    }

    private void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
    }

    /** @return the first failure of a stream thread or of the client, or null while there is none */
    String failure() {
        return failure;
    }

    /** Closes the application (it commits its transaction) within 60 s, and unbinds its meters. Idempotent. */
    @Override
    public void close() {
        streams.close(Duration.ofSeconds(60));
        metrics.close();
    }
}
