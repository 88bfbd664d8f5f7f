package io.apiary.ingest.serde;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
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
 * <p>Stateless and thread-safe.
 */
public final class SchemaSubjects {

    /** The compatibility level set on every subject: both directions, against all versions. */
    public static final String COMPATIBILITY = "FULL_TRANSITIVE";

    private SchemaSubjects() {}

    /**
     * One subject of the pipeline: a topic's keys or values, the schema the pipeline writes and
     * reads there, and the versions of it that are kept (registered on a new subject).
     *
     * @param topic        the topic, not null
     * @param key          whether it holds the topic's keys ({@code <topic>-key}) or values
     * @param schema       the schema the pipeline writes (a generated class's), or reads into (a
     *                     registered table's row schema); not null
     * @param keptVersions the kept versions of the schema, oldest first, the last being the
     *                     current one (possibly {@code schema} in another text); not null
     */
    public record Subject(String topic, boolean key, Schema schema, List<Schema> keptVersions) {

        /** Checks the values and copies the list. */
        public Subject {
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(schema, "schema");
            keptVersions = List.copyOf(keptVersions);
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
     * @param id            the schema id of the pipeline's current schema there, or -1 if absent
     * @param versions      how many versions the subject holds
     * @param registered    how many versions this call registered
     * @param compatibility the subject's own compatibility level, or {@code (global)} when it has none
     */
    public record Outcome(String subject, int id, int versions, int registered, String compatibility) {}

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
     * registers the current schema if it is not there. Running it twice is harmless, also at once
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
        int registered = 0;
        if (versions.isEmpty()) {
            try {
                registered = registerKeptVersions(registry, subject);
            } catch (SchemaRegistryException e) {
                List<Integer> now = e.unavailable() ? List.of() : registry.versions(name);
                if (now.isEmpty()) {
                    throw e;
                }
                registered = registerOnExisting(registry, subject, now); // another process created it meanwhile
            }
        } else {
            registered = registerOnExisting(registry, subject, versions);
        }
        int id = registry.lookup(name, subject.schema()).orElse(-1);
        return new Outcome(
                name,
                id,
                registry.versions(name).size(),
                registered,
                registry.compatibility(name).orElse("(global)"));
    }

    /** @return how many versions it registered: every kept version, oldest first, the level set after the first */
    private static int registerKeptVersions(SchemaRegistryClient registry, Subject subject) {
        String name = subject.name();
        List<Schema> kept = new ArrayList<>(subject.keptVersions());
        // the current version as the generated class has it (the text lookups compare), not its kept file
        if (!kept.isEmpty()
                && SchemaNormalization.parsingFingerprint64(kept.get(kept.size() - 1))
                        == SchemaNormalization.parsingFingerprint64(subject.schema())) {
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

    /** @return how many versions it registered (0 or 1) on a subject that holds {@code versions} */
    private static int registerOnExisting(SchemaRegistryClient registry, Subject subject, List<Integer> versions) {
        String name = subject.name();
        checkVersions(registry, subject, versions);
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
        if (registry.lookup(name, subject.schema()).isEmpty()) {
            registry.register(name, subject.schema());
            return 1;
        }
        return 0;
    }

    /**
     * Checks a subject against the pipeline's schema without changing anything: every version it
     * holds must be readable by the pipeline's schema and able to read it.
     *
     * @param registry the registry, not null
     * @param subject  the subject, not null
     * @return what the subject holds; {@code id} is -1 if the current schema is not registered
     * @throws IncompatibleSubjectException naming the subject, the version, its id and Avro's reason
     * @throws SchemaRegistryException      if the registry refuses a request or is unavailable
     */
    public static Outcome check(SchemaRegistryClient registry, Subject subject) {
        String name = subject.name();
        List<Integer> versions = registry.versions(name);
        checkVersions(registry, subject, versions);
        OptionalInt id = versions.isEmpty() ? OptionalInt.empty() : registry.lookup(name, subject.schema());
        return new Outcome(
                name,
                id.orElse(-1),
                versions.size(),
                0,
                versions.isEmpty() ? "(none)" : registry.compatibility(name).orElse("(global)"));
    }

    private static void checkVersions(SchemaRegistryClient registry, Subject subject, List<Integer> versions) {
        Schema ours = subject.schema();
        for (int version : versions) {
            SchemaRegistryClient.SubjectVersion there = registry.version(subject.name(), version);
            String reason = incompatibility(ours, there.schema());
            if (reason != null) {
                throw new IncompatibleSubjectException("Subject " + subject.name() + " in the schema registry at "
                        + registry.settings().urls() + " holds version " + version + " (schema id " + there.id()
                        + ") that does not fit " + ours.getFullName() + " of this application, both directions being"
                        + " required: " + reason + ". Fix the subject (or the topic name) before starting.");
            }
        }
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
