package io.apiary.ingest.serde;

import java.util.List;
import org.apache.avro.Schema;

/**
 * The versions of a subject that hold its current schema in another text than the published one
 * (the Java flavour earlier releases registered: same parsing canonical form, other properties),
 * and their replacement by the published text ({@link SchemaSubjects#register}).
 *
 * <p>Replacing one must not lose its schema id: records written with it stay on the topics. Deleting
 * a version (Confluent's API has no other way to drop it) keeps the id readable in Confluent Schema
 * Registry (its soft delete), but Apicurio Registry 2.x then answers 40403 for it unless another
 * subject holds the same schema, since it names schemas by content. So the old schema is first
 * registered under {@code <subject>}{@value SchemaSubjects#SUPERSEDED_SUFFIX}, and the version is
 * deleted only when that registration returned the same id; otherwise (a registry naming schemas
 * per subject) it stays. A version the registry still lists after its (soft) delete was answered
 * (Apicurio Registry 2.4 only disables it) is deleted for good ({@code ?permanent=true}); one
 * still listed after that counts as left, not superseded. Stateless and thread-safe.
 */
final class SupersededVersions {

    /**
     * What {@link #replace} did.
     *
     * @param superseded how many versions it deleted, each id kept under the superseded subject
     * @param leftId     the id of a version still on the subject (its id is not kept elsewhere, or the
     *                   registry kept the version listed after its delete), or -1
     */
    record Replacement(int superseded, int leftId) {}

    private SupersededVersions() {}

    /**
     * @param schema      the subject's current schema, published form, not null
     * @param held        the subject's versions, not null
     * @param publishedId the id of {@code schema}'s published text there, or -1 if absent
     * @return the id of the newest version with {@code schema}'s parsing canonical form and another
     *         id than {@code publishedId}, or -1 if there is none
     */
    static int equivalentId(Schema schema, List<SchemaRegistryClient.SubjectVersion> held, int publishedId) {
        int found = -1;
        for (SchemaRegistryClient.SubjectVersion version : held) {
            if (version.id() != publishedId && PublishedSchemas.sameCanonicalForm(version.schema(), schema)) {
                found = version.id();
            }
        }
        return found;
    }

    /**
     * Replaces the versions equivalent to the published text, just registered with {@code
     * publishedId} (see the class comment).
     *
     * @param registry    the registry, not null
     * @param subject     the subject, not null
     * @param schema      the subject's current schema, published form, not null
     * @param held        the subject's versions before the published text was registered, not null
     * @param publishedId the id of the published text under {@code subject}
     * @return what it did
     * @throws SchemaRegistryException if the registry refuses a request or is unavailable
     */
    static Replacement replace(
            SchemaRegistryClient registry,
            String subject,
            Schema schema,
            List<SchemaRegistryClient.SubjectVersion> held,
            int publishedId) {
        int superseded = 0;
        int left = -1;
        for (SchemaRegistryClient.SubjectVersion old : held) {
            if (old.id() == publishedId || !PublishedSchemas.sameCanonicalForm(old.schema(), schema)) {
                continue;
            }
            int kept = registry.register(subject + SchemaSubjects.SUPERSEDED_SUFFIX, old.schema());
            if (kept == old.id()) {
                registry.deleteVersion(subject, old.version()); // false: another process deleted it meanwhile
                boolean listed = registry.versions(subject).contains(old.version());
                if (listed) {
                    // answered, yet still listed (Apicurio Registry 2.4 only disables it): for good, then; the id
                    // stays readable through the superseded subject
                    registry.deleteVersion(subject, old.version(), true);
                    listed = registry.versions(subject).contains(old.version());
                }
                if (listed) {
                    left = old.id();
                } else {
                    superseded++;
                }
            } else {
                left = old.id();
            }
        }
        return new Replacement(superseded, left);
    }
}
