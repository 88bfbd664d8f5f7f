package io.apiary.ingest.serde;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * The published versions of the Avro schemas, as kept in {@code schemas/versions/} of the
 * repository and copied into the jar under the same path: {@code schemas/versions/<RecordName>/v1.avsc},
 * {@code v2.avsc}, ... numbered from 1 without gaps, the highest being the current version
 * (the one the Java classes are generated from, {@code schemas/<RecordName>.avsc}). See
 * {@code schemas/README.md} for the release rule.
 *
 * <p>Each version file is self-contained (it defines every named type it uses) and is parsed on
 * its own, so two versions of one record do not clash. Stateless and thread-safe.
 */
public final class SchemaVersions {

    /** Classpath folder (and repository folder under {@code schemas/}) of the kept versions. */
    public static final String RESOURCE_ROOT = "schemas/versions/";

    private SchemaVersions() {}

    /**
     * The classpath resource name of one kept version.
     *
     * @param recordName simple name of the record, e.g. {@code TelemetryReading}, not null
     * @param version    version number, 1 or more
     * @return e.g. {@code schemas/versions/TelemetryReading/v2.avsc}
     */
    public static String resourceName(String recordName, int version) {
        return RESOURCE_ROOT + Objects.requireNonNull(recordName) + "/v" + version + ".avsc";
    }

    /**
     * Every kept version of a record, read from the classpath: {@code v1.avsc}, {@code v2.avsc},
     * ... up to the first missing number.
     *
     * @param recordName simple name of the record, e.g. {@code TelemetryReading}, not null
     * @param loader     class loader to read the resources with, not null
     * @return the versions, oldest first (index 0 is version 1); empty when none is kept
     * @throws IllegalStateException naming the resource if a kept version cannot be read or parsed
     */
    public static List<Schema> load(String recordName, ClassLoader loader) {
        Objects.requireNonNull(loader);
        List<Schema> versions = new ArrayList<>();
        for (int v = 1; ; v++) {
            String name = resourceName(recordName, v);
            try (InputStream in = loader.getResourceAsStream(name)) {
                if (in == null) {
                    return List.copyOf(versions);
                }
                versions.add(new Schema.Parser().parse(in));
            } catch (IOException e) {
                throw new IllegalStateException(
                        "Cannot read the kept schema version " + name + ": " + e.getMessage(),
                        new UncheckedIOException(e));
            } catch (SchemaParseException e) {
                throw new IllegalStateException(
                        "The kept schema version " + name + " is not a valid Avro schema: " + e.getMessage(), e);
            }
        }
    }
}
