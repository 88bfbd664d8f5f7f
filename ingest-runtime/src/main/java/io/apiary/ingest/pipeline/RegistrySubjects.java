package io.apiary.ingest.pipeline;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.serde.SchemaRegistryClient;
import io.apiary.ingest.serde.SchemaSubjects;
import io.apiary.ingest.sink.ExtraTables;
import io.apiary.ingest.topics.Topics;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry step of starting the pipeline: every subject of its topics (and of the row topics
 * of the tables registered with {@code sink.extra.tables}, for a sink) is checked against the
 * application's schemas (both directions, every version: {@link SchemaSubjects#check}) and, with
 * auto-registration, registered where missing. A subject that does not fit, or (without
 * auto-registration) is missing, stops the start with a message naming it. Stateless and
 * thread-safe.
 */
public final class RegistrySubjects {

    private static final Logger LOG = LoggerFactory.getLogger(RegistrySubjects.class);

    private RegistrySubjects() {}

    /**
     * Every subject of a configuration: its topics' ({@link Topics#avroSubjects()}), then the
     * value subject of each table registered with {@code sink.extra.tables}, holding its row
     * schema. What {@code registry register} and {@code registry check} go through.
     *
     * @param config the configuration, not null
     * @return the subjects, the pipeline's own first
     * @throws IllegalArgumentException naming the file if a table registration cannot be used
     */
    public static List<SchemaSubjects.Subject> all(IngestConfig config) {
        List<SchemaSubjects.Subject> subjects = new ArrayList<>(config.topics().avroSubjects());
        for (ExtraTables.Registration extra : Pipeline.extraTables(config)) {
            subjects.add(extra.subject());
        }
        return subjects;
    }

    /**
     * @param topics the topics, in the configured wire format, not null
     * @return what each subject holds; empty when no registry is configured
     * @throws SchemaSubjects.IncompatibleSubjectException if a subject does not fit
     * @throws IllegalStateException if a subject is missing and auto-registration is off
     * @throws io.apiary.ingest.serde.SchemaRegistryException if the registry is unavailable or
     *         refuses a request
     */
    public static List<SchemaSubjects.Outcome> prepare(Topics topics) {
        return prepare(topics, List.of());
    }

    /**
     * @param topics the topics, in the configured wire format, not null
     * @param extra  more subjects to prepare after the topics' own (the row topics of registered
     *               tables, {@link ExtraTables.Registration#subject()}), not null
     * @return what each subject holds; empty when no registry is configured
     * @throws SchemaSubjects.IncompatibleSubjectException if a subject does not fit
     * @throws IllegalStateException if a subject is missing and auto-registration is off
     * @throws io.apiary.ingest.serde.SchemaRegistryException if the registry is unavailable or
     *         refuses a request
     */
    public static List<SchemaSubjects.Outcome> prepare(Topics topics, List<SchemaSubjects.Subject> extra) {
        SchemaRegistryClient registry = topics.wireFormat().registryClient().orElse(null);
        if (registry == null) {
            return List.of();
        }
        List<SchemaSubjects.Subject> subjects = new ArrayList<>(topics.avroSubjects());
        subjects.addAll(extra);
        boolean register = topics.wireFormat().autoRegister();
        List<SchemaSubjects.Outcome> outcomes = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<String> javaFlavoured = new ArrayList<>();
        for (SchemaSubjects.Subject subject : subjects) {
            SchemaSubjects.check(registry, subject); // all first: a subject that does not fit changes nothing
        }
        for (SchemaSubjects.Subject subject : subjects) {
            SchemaSubjects.Outcome outcome =
                    register ? SchemaSubjects.register(registry, subject) : SchemaSubjects.check(registry, subject);
            if (outcome.id() < 0 && outcome.equivalentId() < 0) {
                missing.add(outcome.subject());
            } else if (outcome.id() < 0) {
                javaFlavoured.add(outcome.subject());
            }
            outcomes.add(outcome);
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException(
                    "The schema registry at " + registry.settings().urls() + " lacks this"
                            + " application's schema under " + missing + " and schema.registry.auto.register=false: run"
                            + " `ingest-app registry register` (with rights to change the registry) first");
        }
        if (!javaFlavoured.isEmpty()) {
            LOG.warn(
                    "Schema registry {} holds this application's schema under {} only in the Java flavour of earlier"
                            + " releases: clients looking up the published schemas of schemas/ do not find it; run"
                            + " `ingest-app registry register` to migrate these subjects",
                    registry.settings().urls(),
                    javaFlavoured);
        }
        LOG.info(
                "Schema registry {}: {} subjects fit this application's schemas{}",
                registry.settings().urls(),
                outcomes.size(),
                register ? " (missing ones registered)" : "");
        return outcomes;
    }
}
