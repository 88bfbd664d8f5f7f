package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema evolution rules of {@code schemas/README.md}, checked on every build: every current
 * schema is published under {@code schemas/versions/}, the newest kept version is the current
 * schema, and every two kept versions of a record can read each other's data (Avro's own
 * compatibility checker, both directions).
 */
class SchemaEvolutionTest {

    private static final Pattern VERSION_FILE = Pattern.compile("v([1-9][0-9]*)\\.avsc");

    /** The repository's {@code schemas/} folder (the tests run in ingest-app/). */
    static Path schemasDir() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("schemas/versions"))) {
                return dir.resolve("schemas");
            }
        }
        throw new IllegalStateException(
                "No schemas/versions folder above " + Path.of("").toAbsolutePath());
    }

    static List<String> currentRecordNames() throws IOException {
        try (Stream<Path> files = Files.list(schemasDir())) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".avsc"))
                    .map(n -> n.substring(0, n.length() - ".avsc".length()))
                    .sorted()
                    .toList();
        }
    }

    static List<String> versionedRecordNames() throws IOException {
        try (Stream<Path> dirs = Files.list(schemasDir().resolve("versions"))) {
            return dirs.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }

    /** The kept versions of a record, read from the repository folder, oldest first. */
    static List<Schema> keptVersions(String recordName) throws IOException {
        Path dir = schemasDir().resolve("versions").resolve(recordName);
        List<Schema> versions = new ArrayList<>();
        for (int v = 1; Files.exists(dir.resolve("v" + v + ".avsc")); v++) {
            versions.add(
                    new Schema.Parser().parse(dir.resolve("v" + v + ".avsc").toFile()));
        }
        return versions;
    }

    static Schema current(String recordName) throws IOException {
        return new Schema.Parser()
                .parse(schemasDir().resolve(recordName + ".avsc").toFile());
    }

    /**
     * @return Avro's description of why {@code reader} cannot read data written with {@code writer},
     *         or empty if it can
     */
    static Optional<String> incompatibilities(Schema reader, Schema writer) {
        SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return Optional.empty();
        }
        return Optional.of(result.getResult().getIncompatibilities().stream()
                .map(i -> i.getType() + " at " + i.getLocation() + ": " + i.getMessage())
                .collect(Collectors.joining("; ")));
    }

    static Stream<Arguments> versionPairs() throws IOException {
        List<Arguments> pairs = new ArrayList<>();
        for (String name : versionedRecordNames()) {
            int count = keptVersions(name).size();
            for (int older = 1; older <= count; older++) {
                for (int newer = older + 1; newer <= count; newer++) {
                    pairs.add(Arguments.of(name, older, newer));
                }
            }
        }
        return pairs.stream();
    }

    @Test
    void should_keep_every_current_schema_as_its_newest_published_version() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String name : currentRecordNames()) {
            List<Schema> kept = keptVersions(name);
            if (kept.isEmpty()) {
                problems.add(name + ": no schemas/versions/" + name + "/v1.avsc; publish the current schema");
                continue;
            }
            Schema newest = kept.get(kept.size() - 1);
            Schema current = current(name);
            if (SchemaNormalization.parsingFingerprint64(newest) != SchemaNormalization.parsingFingerprint64(current)
                    || !newest.equals(current)) {
                problems.add(name + ": schemas/" + name + ".avsc differs from its newest kept version v" + kept.size()
                        + ".avsc; publish it as v" + (kept.size() + 1) + ".avsc (see schemas/README.md)");
            }
        }
        assertThat(problems).as("schemas not published").isEmpty();
    }

    @Test
    void should_number_kept_versions_from_1_without_gaps_or_other_files() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String name : versionedRecordNames()) {
            Path dir = schemasDir().resolve("versions").resolve(name);
            int count = keptVersions(name).size();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Matcher m = VERSION_FILE.matcher(file.getFileName().toString());
                    if (!m.matches() || Integer.parseInt(m.group(1)) > count) {
                        problems.add(dir.relativize(file) + " in schemas/versions/" + name + " (expected v1.avsc .. v"
                                + count + ".avsc, no gaps)");
                    }
                }
            }
            for (Schema version : keptVersions(name)) {
                if (!version.getName().equals(name)) {
                    problems.add("schemas/versions/" + name + " holds a version of " + version.getFullName());
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void should_ship_every_kept_version_on_the_classpath() throws IOException {
        for (String name : versionedRecordNames()) {
            assertThat(SchemaVersions.load(name, getClass().getClassLoader()))
                    .as("kept versions of %s in the jar", name)
                    .isEqualTo(keptVersions(name));
        }
    }

    @Test
    void should_give_every_enum_of_every_kept_version_a_default_symbol() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String name : versionedRecordNames()) {
            List<Schema> kept = keptVersions(name);
            for (int v = 1; v <= kept.size(); v++) {
                for (Schema e : enums(kept.get(v - 1))) {
                    if (e.getEnumDefault() == null) {
                        problems.add(name + " v" + v + ": enum " + e.getFullName() + " has no default symbol, so"
                                + " old readers would fail on a symbol added later");
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @ParameterizedTest(name = "{0} v{1} and v{2} read each other''s data")
    @MethodSource("versionPairs")
    void should_read_data_of_every_other_kept_version_in_both_directions(String name, int older, int newer)
            throws IOException {
        List<Schema> kept = keptVersions(name);
        Schema old = kept.get(older - 1);
        Schema neu = kept.get(newer - 1);

        incompatibilities(neu, old)
                .ifPresent(why -> fail(name + " v" + newer + " cannot read data written with v" + older
                        + " (new readers must read old data): " + why));
        incompatibilities(old, neu)
                .ifPresent(why -> fail(name + " v" + older + " cannot read data written with v" + newer
                        + " (old readers must read new data): " + why));
    }

    @Test
    void should_check_at_least_the_published_version_2_of_telemetry_reading() throws IOException {
        assertThat(versionPairs()).extracting(a -> List.of(a.get())).contains(List.of("TelemetryReading", 1, 2));
    }

    // The checker above would catch an incompatible change: the same helper on broken versions.

    @Test
    void should_catch_an_enum_without_default_gaining_a_symbol() throws IOException {
        Schema v1 = keptVersions("TelemetryReading").get(0);
        Schema v1WithoutDefault = parse(v1.toString().replace("\"default\":\"UNKNOWN\"", "\"x\":\"y\""));
        Schema v2 = keptVersions("TelemetryReading").get(1);
        assertThat(enums(v1WithoutDefault).iterator().next().getEnumDefault()).isNull();

        assertThat(incompatibilities(v1WithoutDefault, v2))
                .hasValueSatisfying(
                        why -> assertThat(why).contains("MISSING_ENUM_SYMBOLS").contains("LIGHT"));
    }

    @Test
    void should_catch_a_new_field_without_default() throws IOException {
        Schema v1 = keptVersions("TelemetryReading").get(0);
        String json = v1.toString();
        Schema withRequiredField =
                parse(json.substring(0, json.lastIndexOf("]}")) + ",{\"name\":\"battery_mv\",\"type\":\"int\"}]}");

        assertThat(incompatibilities(withRequiredField, v1))
                .hasValueSatisfying(why -> assertThat(why)
                        .contains("READER_FIELD_MISSING_DEFAULT_VALUE")
                        .contains("battery_mv"));
        assertThat(incompatibilities(v1, withRequiredField)).isEmpty();
    }

    @Test
    void should_catch_a_field_changing_type() throws IOException {
        Schema v2 = keptVersions("TelemetryReading").get(1);
        Schema valueAsString = parse(v2.toString()
                .replace("{\"name\":\"value\",\"type\":\"double\"", "{\"name\":\"value\",\"type\":\"string\""));

        assertThat(incompatibilities(valueAsString, v2))
                .hasValueSatisfying(
                        why -> assertThat(why).contains("TYPE_MISMATCH").contains("/fields/4"));
    }

    private static Schema parse(String json) {
        return new Schema.Parser().parse(json);
    }

    /** Every enum schema reachable from {@code schema}. */
    private static Set<Schema> enums(Schema schema) {
        Set<Schema> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Schema> found = Collections.newSetFromMap(new IdentityHashMap<>());
        collectEnums(schema, seen, found);
        return found;
    }

    private static void collectEnums(Schema schema, Set<Schema> seen, Set<Schema> found) {
        if (!seen.add(schema)) {
            return;
        }
        switch (schema.getType()) {
            case ENUM -> found.add(schema);
            case RECORD -> schema.getFields().forEach(f -> collectEnums(f.schema(), seen, found));
            case UNION -> schema.getTypes().forEach(t -> collectEnums(t, seen, found));
            case ARRAY -> collectEnums(schema.getElementType(), seen, found);
            case MAP -> collectEnums(schema.getValueType(), seen, found);
            default -> {}
        }
    }
}
