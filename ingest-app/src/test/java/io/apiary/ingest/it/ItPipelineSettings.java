package io.apiary.ingest.it;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.serde.SchemaSubjects;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * The settings of an integration test that runs the pipeline on the shared stack with names of
 * its own, so tests do not see each other's data: keyspace {@code it_<name>}, topics
 * {@code <name>-it.<setting>}, application id {@code <name>-it}, sink group {@code <name>-it-sink},
 * and a topology state folder under {@code target/} that is emptied first (state left by an
 * earlier local run, its stream time and closed hours, would send samples to the late topic).
 * Replays of history are accepted (maximum age 20 years). Not thread-safe.
 */
public final class ItPipelineSettings {

    private ItPipelineSettings() {}

    /**
     * @param name      the test's short name, lower case with '-' (e.g. {@code pipeline}), not null
     * @param overrides settings on top of these, not null
     * @return the validated configuration
     */
    public static IngestConfig of(String name, Map<String, Object> overrides) {
        Map<String, Object> settings = settings(name, overrides);
        io.apiary.ingest.devstack.StackFiles.deleteRecursively(
                Path.of(String.valueOf(settings.get(IngestConfig.TOPOLOGY_STATE_DIR))));
        return ConfigLoader.load(null, Map.of(), settings);
    }

    /**
     * The settings of {@link #of} as a map, e.g. for the settings file of an {@link AppProcess}; the
     * state folder is named, not emptied.
     *
     * @param name      the test's short name, lower case with '-' (e.g. {@code pipeline}), not null
     * @param overrides settings on top of these, not null
     * @return a new mutable map
     */
    public static Map<String, Object> settings(String name, Map<String, Object> overrides) {
        Map<String, Object> settings = new HashMap<>(SharedStack.get().clientSettings());
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, "it_" + name.replace('-', '_'));
        settings.put(IngestConfig.TOPOLOGY_APPLICATION_ID, name + "-it");
        settings.put(IngestConfig.SINK_GROUP_ID, name + "-it-sink");
        settings.put(
                IngestConfig.TOPOLOGY_STATE_DIR,
                Path.of("target", name + "-it-state").toAbsolutePath().toString());
        settings.put(
                IngestConfig.VALIDATION_MAX_AGE_MS, Duration.ofDays(365 * 20).toMillis());
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, name + "-it." + topic);
        }
        settings.putAll(overrides);
        return settings;
    }

    /**
     * Applies {@code cql/} to the configuration's keyspace, creates its topics and registers its
     * subjects ({@link #registerSubjects}): the setup Jobs of deploy/, in this process.
     *
     * @param config  the configuration, not null
     * @param session a session to the shared node, not null
     */
    public static void prepare(IngestConfig config, CqlSession session) {
        SchemaApplier.apply(
                session,
                SchemaApplier.load(
                        null, config.getString(IngestConfig.CASSANDRA_KEYSPACE), SchemaApplier.DEV_REPLICATION));
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.createMissing(admin, config);
        }
        registerSubjects(config);
    }

    /**
     * Registers the subjects of the configuration's topics one at a time, as {@code registry register}
     * (deploy/'s registry Job) does, before a test starts processes together: each would register
     * the missing subjects at once, and two concurrent registrations of one schema can leave
     * Apicurio Registry 2.x with the schema twice under the subject, after which its look-ups fail
     * with HTTP 500 ("Expected only one result but got multiple"; SecureStackIT in CI, 2026-12-05).
     * The row subjects of {@code sink.extra.tables} are left to the sink's start (ExtraTableIT checks
     * that it registers them). Does nothing without a registry (single-object wire format).
     *
     * @param config the configuration, not null
     */
    public static void registerSubjects(IngestConfig config) {
        config.wireFormat().registryClient().ifPresent(registry -> {
            for (SchemaSubjects.Subject subject : config.topics().avroSubjects()) {
                SchemaSubjects.register(registry, subject);
            }
        });
    }
}
