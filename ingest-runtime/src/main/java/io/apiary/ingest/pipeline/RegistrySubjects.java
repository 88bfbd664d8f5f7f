package io.apiary.ingest.pipeline;

import io.apiary.ingest.serde.SchemaRegistryClient;
import io.apiary.ingest.serde.SchemaSubjects;
import io.apiary.ingest.topics.Topics;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry step of starting the pipeline: every subject of its topics is checked against the
 * application's schemas (both directions, every version: {@link SchemaSubjects#check}) and, with
 * auto-registration, registered where missing. A subject that does not fit, or (without
 * auto-registration) is missing, stops the start with a message naming it. Stateless and
 * thread-safe.
 */
public final class RegistrySubjects {

    private static final Logger LOG = LoggerFactory.getLogger(RegistrySubjects.class);

    private RegistrySubjects() {}

    /**
     * @param topics the topics, in the configured wire format, not null
     * @return what each subject holds; empty when no registry is configured
     * @throws SchemaSubjects.IncompatibleSubjectException if a subject does not fit
     * @throws IllegalStateException if a subject is missing and auto-registration is off
     * @throws io.apiary.ingest.serde.SchemaRegistryException if the registry is unavailable or
     *         refuses a request
     */
    public static List<SchemaSubjects.Outcome> prepare(Topics topics) {
        SchemaRegistryClient registry = topics.wireFormat().registryClient().orElse(null);
        if (registry == null) {
            return List.of();
        }
        boolean register = topics.wireFormat().autoRegister();
        List<SchemaSubjects.Outcome> outcomes = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (SchemaSubjects.Subject subject : topics.avroSubjects()) {
            SchemaSubjects.check(registry, subject); // all first: a subject that does not fit changes nothing
        }
        for (SchemaSubjects.Subject subject : topics.avroSubjects()) {
            SchemaSubjects.Outcome outcome =
                    register ? SchemaSubjects.register(registry, subject) : SchemaSubjects.check(registry, subject);
            if (outcome.id() < 0) {
                missing.add(outcome.subject());
            }
            outcomes.add(outcome);
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException(
                    "The schema registry at " + registry.settings().urls() + " lacks this"
                            + " application's schema under " + missing + " and schema.registry.auto.register=false: run"
                            + " `ingest-app registry register` (with rights to change the registry) first");
        }
        LOG.info(
                "Schema registry {}: {} subjects fit this application's schemas{}",
                registry.settings().urls(),
                outcomes.size(),
                register ? " (missing ones registered)" : "");
        return outcomes;
    }
}
