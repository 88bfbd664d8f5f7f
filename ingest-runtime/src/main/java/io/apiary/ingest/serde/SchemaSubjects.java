package io.apiary.ingest.serde;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The pipeline's subjects in a schema registry: registering its schemas at setup, and checking at
 * start that a registry's subjects fit them.
 *
 * <p>The compatibility rule is the build's ({@code schemas/README.md}): a schema must read data
 * of every kept version and be readable by every one, both directions across all versions. In
 * the registry's terms that is {@value #COMPATIBILITY}, which {@link #register} sets on each
 * subject; {@link #check} tests the same rule itself, version by version with Avro's own
 * {@link SchemaCompatibility}, so a subject left at another level (or a registry whose levels
 * differ from Confluent's) is still held to it.
 *
 * <p>The schemas registered and looked up are the published ones ({@link PublishedSchemas}), as
 * a client in any language reads them from {@code schemas/}. Earlier releases registered the Java
 * flavour (with {@code avro.java.string}); {@link #register} migrates such a subject: it registers
 * the published text, keeps each replaced version's schema id under {@code <subject>}{@value
 * #SUPERSEDED_SUFFIX} (so records written with it stay readable, also where deleting a version
 * frees its id, as in Apicurio Registry 2.x) and then deletes that version, leaving one version
 * per parsing canonical form ({@link SupersededVersions}).
 *
 * <p>Stateless and thread-safe.
 */
public final class SchemaSubjects {

    /** The compatibility level set on every subject: both directions, against all versions. */
    public static final String COMPATIBILITY = "FULL_TRANSITIVE";

    /**
     * Suffix of the subject that holds the schemas of versions a migration replaced, keeping their
     * ids in use: {@code hive.telemetry.v1-value-superseded}.
     */
    public static final String SUPERSEDED_SUFFIX = "-superseded";

    private SchemaSubjects() {}

    /**
     * One subject of the pipeline: a topic's keys or values, the schema the pipeline writes and
     * reads there, and the versions of it that are kept (registered on a new subject).
     *
     * @param topic        the topic, not null
     * @param key          whether it holds the topic's keys ({@code <topic>-key}) or values
     * @param schema       the schema the pipeline writes (a generated class's), or reads into (a
     *                     registered table's row schema), kept in its published form ({@link
     *                     PublishedSchemas#of}); not null
     * @param keptVersions the kept versions of the schema, oldest first, the last being the
     *                     current one (possibly {@code schema} in another text), kept in their
     *                     published form; not null
     */
    public record Subject(String topic, boolean key, Schema schema, List<Schema> keptVersions) {

        /** Checks the values and copies the list. */
        public Subject {
            Objects.requireNonNull(topic, "topic");
            schema = PublishedSchemas.of(Objects.requireNonNull(schema, "schema"));
            keptVersions = keptVersions.stream().map(PublishedSchemas::of).toList();
        }

        /**
         * The subject of a generated class: its schema and the versions kept in {@code
         * schemas/versions/} ({@link SchemaVersions}).
         *
         * @param topic the topic, not null
         * @param key   whether for the topic's keys or values
         * @param type  the generated class of its records, not null
         * @throws IllegalStateException if a kept version cannot be read or parsed
         */
        public Subject(String topic, boolean key, Class<? extends SpecificRecord> type) {
            this(topic, key, SpecificData.get().getSchema(type), keptVersionsOf(type));
        }

        /**
         * The subject of a schema known only at run time, with no other kept version (a
         * registered table's row schema, {@code sink.extra.tables}).
         *
         * @param topic  the topic, not null
         * @param key    whether for the topic's keys or values
         * @param schema the schema, not null
         * @return the subject
         */
        public static Subject ofSchema(String topic, boolean key, Schema schema) {
            return new Subject(topic, key, schema, List.of(schema));
        }

        private static List<Schema> keptVersionsOf(Class<? extends SpecificRecord> type) {
            ClassLoader loader =
                    type.getClassLoader() == null ? ClassLoader.getSystemClassLoader() : type.getClassLoader();
            return SchemaVersions.load(type.getSimpleName(), loader);
        }

        /** @return the subject name, {@code <topic>-key} or {@code <topic>-value} */
        public String name() {
            return WireFormat.subject(topic, key);
        }
    }

    /**
     * What one subject holds after {@link #register} or {@link #check}.
     *
     * @param subject       the subject name
     * @param id            the schema id of the pipeline's current schema there in its published
     *                      text, or -1 if absent
     * @param equivalentId  the id of a version holding the current schema in another text (the Java
     *                      flavour of earlier releases, same parsing canonical form), or -1 if none
     * @param versions      how many versions the subject holds
     * @param registered    how many versions this call registered
     * @param superseded    how many versions in another text this call replaced by the published one
     * @param compatibility the subject's own compatibility level, or {@code (global)} when it has none
     */
    public record Outcome(
            String subject,
            int id,
            int equivalentId,
            int versions,
            int registered,
            int superseded,
            String compatibility) {}

    /** What one registration step did. */
    private record Step(int registered, int superseded, int equivalentId) {}

    /** A subject that does not fit the pipeline's schema: the pipeline must not start on it. */
    public static final class IncompatibleSubjectException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        IncompatibleSubjectException(String message) {
            super(message);
        }
    }

    /**
     * Registers a subject's schemas: on a new subject, registers every kept version oldest first
     * and sets {@value #COMPATIBILITY} after the first one, so that the registry's own check covers what the build's
     * does; on an existing one, checks it ({@link #check}), sets the level where it differs and
     * registers the current schema if it is not there, superseding a version that holds it in
     * another text (see the class comment). Running it twice is harmless, also at once
     * from two processes (the topology and the sink starting together): when the registry refuses a
     * registration of the new subject or its level (Apicurio Registry answers 409 "already exists"
     * to the one that lost the race to create the subject or its compatibility rule) and the
     * subject now holds versions, it goes on as with an existing subject.
     *
     * @param registry the registry, not null
     * @param subject  the subject, not null
     * @return what the subject holds now
     * @throws IncompatibleSubjectException if a version already there does not fit the pipeline's schema
     * @throws SchemaRegistryException      if the registry refuses a request or is unavailable
     */
    public static Outcome register(SchemaRegistryClient registry, Subject subject) {
        String name = subject.name();
        List<Integer> versions = registry.versions(name);
        Step step;
        if (versions.isEmpty()) {
            try {
                step = new Step(registerKeptVersions(registry, subject), 0, -1);
            } catch (SchemaRegistryException e) {
                List<Integer> now = e.unavailable() ? List.of() : registry.versions(name);
                if (now.isEmpty()) {
                    throw e;
                }
                step = registerOnExisting(registry, subject, now); // another process created it meanwhile
            }
        } else {
            step = registerOnExisting(registry, subject, versions);
        }
        int id = registry.lookup(name, subject.schema()).orElse(-1);
        return new Outcome(
                name,
                id,
                step.equivalentId(),
                registry.versions(name).size(),
                step.registered(),
                step.superseded(),
                registry.compatibility(name).orElse("(global)"));
    }

    /** @return how many versions it registered: every kept version, oldest first, the level set after the first */
    private static int registerKeptVersions(SchemaRegistryClient registry, Subject subject) {
        String name = subject.name();
        List<Schema> kept = new ArrayList<>(subject.keptVersions());
        // the current version as the generated class has it (the text lookups compare), not its kept file
        if (!kept.isEmpty() && PublishedSchemas.sameCanonicalForm(kept.get(kept.size() - 1), subject.schema())) {
            kept.remove(kept.size() - 1);
        }
        kept.add(subject.schema());
        int registered = 0;
        for (Schema schema : kept) {
            registry.register(name, schema);
            registered++;
            if (registered == 1) {
                // after the first version: Apicurio's API (unlike Confluent's) has no level for a subject that is
                // not there yet
                registry.setCompatibility(name, COMPATIBILITY);
            }
        }
        return registered;
    }

    /** @return what it did on a subject that holds {@code versions}: registered 0 or 1, superseded 0 or more */
    private static Step registerOnExisting(SchemaRegistryClient registry, Subject subject, List<Integer> versions) {
        String name = subject.name();
        List<SchemaRegistryClient.SubjectVersion> held = checkVersions(registry, subject, versions);
        if (!COMPATIBILITY.equals(registry.compatibility(name).orElse(""))) {
            try {
                registry.setCompatibility(name, COMPATIBILITY);
            } catch (SchemaRegistryException e) {
                // another process set it at the same moment (Apicurio: 409 "A rule named 'COMPATIBILITY' already
                // exists"): fine if the level is now the one wanted
                if (e.unavailable()
                        || !COMPATIBILITY.equals(registry.compatibility(name).orElse(""))) {
                    throw e;
                }
            }
        }
        OptionalInt found = registry.lookup(name, subject.schema());
        if (found.isPresent()) {
            if (SupersededVersions.equivalentId(subject.schema(), held, found.getAsInt()) < 0) {
                return new Step(0, 0, -1);
            }
            // the published text is there beside another text of it: a migration that stopped halfway, or a
            // registry that keeps deleted versions listed; finishing it again is harmless
            SupersededVersions.Replacement replaced =
                    SupersededVersions.replace(registry, name, subject.schema(), held, found.getAsInt());
            return new Step(0, replaced.superseded(), replaced.leftId());
        }
        int id;
        int registered = 1;
        try {
            id = registry.register(name, subject.schema());
        } catch (SchemaRegistryException e) {
            // another process registered it at the same moment (Apicurio: 409 "An artifact version
            // ... already exists"): fine if it is there now; a refusal by the level stands
            OptionalInt now = e.unavailable() ? OptionalInt.empty() : registry.lookup(name, subject.schema());
            if (now.isEmpty()) {
                throw e;
            }
            id = now.getAsInt();
            registered = 0;
        }
        SupersededVersions.Replacement replaced =
                SupersededVersions.replace(registry, name, subject.schema(), held, id);
        return new Step(registered, replaced.superseded(), replaced.leftId());
    }

    /**
     * Checks a subject against the pipeline's schema without changing anything: every version it
     * holds must be readable by the pipeline's schema and able to read it.
     *
     * @param registry the registry, not null
     * @param subject  the subject, not null
     * @return what the subject holds; {@code id} is -1 if the current schema is not registered in
     *         its published text, {@code equivalentId} the id of another text of it, if any
     * @throws IncompatibleSubjectException naming the subject, the version, its id and Avro's reason
     * @throws SchemaRegistryException      if the registry refuses a request or is unavailable
     */
    public static Outcome check(SchemaRegistryClient registry, Subject subject) {
        String name = subject.name();
        List<Integer> versions = registry.versions(name);
        List<SchemaRegistryClient.SubjectVersion> held = checkVersions(registry, subject, versions);
        OptionalInt id = versions.isEmpty() ? OptionalInt.empty() : registry.lookup(name, subject.schema());
        return new Outcome(
                name,
                id.orElse(-1),
                SupersededVersions.equivalentId(subject.schema(), held, id.orElse(-1)),
                versions.size(),
                0,
                0,
                versions.isEmpty() ? "(none)" : registry.compatibility(name).orElse("(global)"));
    }

    /** @return the versions, each checked against the subject's schema */
    private static List<SchemaRegistryClient.SubjectVersion> checkVersions(
            SchemaRegistryClient registry, Subject subject, List<Integer> versions) {
        Schema ours = subject.schema();
        List<SchemaRegistryClient.SubjectVersion> held = new ArrayList<>();
        for (int version : versions) {
            SchemaRegistryClient.SubjectVersion there = registry.version(subject.name(), version);
            held.add(there);
            String reason = incompatibility(ours, there.schema());
            if (reason != null) {
                throw new IncompatibleSubjectException("Subject " + subject.name() + " in the schema registry at "
                        + registry.settings().urls() + " holds version " + version + " (schema id " + there.id()
                        + ") that does not fit " + ours.getFullName() + " of this application, both directions being"
                        + " required: " + reason + ". Fix the subject (or the topic name) before starting.");
            }
        }
        return held;
    }

    /**
     * @param pair a result of Avro's compatibility check
     * @return its incompatibilities, each as type, location and message, at most 3 and 600
     *         characters (Avro's own text repeats whole schemas)
     */
    static String describe(SchemaCompatibility.SchemaPairCompatibility pair) {
        StringBuilder text = new StringBuilder();
        int shown = 0;
        for (SchemaCompatibility.Incompatibility i : pair.getResult().getIncompatibilities()) {
            if (shown++ == 3) {
                text.append("; ...");
                break;
            }
            text.append(shown > 1 ? "; " : "")
                    .append(i.getType())
                    .append(" at ")
                    .append(i.getLocation())
                    .append(": ")
                    .append(i.getMessage());
        }
        return text.length() > 600 ? text.substring(0, 600) + "..." : text.toString();
    }

    /**
     * @param ours   the pipeline's schema
     * @param theirs another schema
     * @return why the two cannot read each other's data, or null if both directions work
     */
    static String incompatibility(Schema ours, Schema theirs) {
        SchemaCompatibility.SchemaPairCompatibility read =
                SchemaCompatibility.checkReaderWriterCompatibility(ours, theirs);
        if (read.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return "it cannot read that version's data: " + describe(read);
        }
        SchemaCompatibility.SchemaPairCompatibility written =
                SchemaCompatibility.checkReaderWriterCompatibility(theirs, ours);
        if (written.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return "that version cannot read its data: " + describe(written);
        }
        return null;
    }
}
