package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

/** The published form of a schema: the {@code .avsc} file's schema, without Java-only properties. */
class PublishedSchemasTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Schema generatedClassSchema(Schema fileSchema) {
        Class<?> type = SpecificData.get().getClass(fileSchema);
        assertThat(type).as("generated class of " + fileSchema.getFullName()).isNotNull();
        return SpecificData.get().getSchema(type);
    }

    @Test
    void every_schema_of_schemas_is_its_generated_class_schema_without_java_properties() throws IOException {
        List<String> checked = new ArrayList<>();
        for (String name : SchemaEvolutionTest.currentRecordNames()) {
            Schema file = new Schema.Parser()
                    .parse(SchemaEvolutionTest.schemasDir()
                            .resolve(name + ".avsc")
                            .toFile());
            Schema generated = generatedClassSchema(file);
            Schema published = PublishedSchemas.of(generated);

            assertThat(PublishedSchemas.sameCanonicalForm(published, generated))
                    .as(name)
                    .isTrue();
            assertThat(published.toString()).as(name).isEqualTo(file.toString());
            assertThat(PublishedSchemas.hasJavaProperties(published)).as(name).isFalse();
            for (String property : PublishedSchemas.JAVA_PROPERTIES) {
                assertThat(published.toString()).as(name).doesNotContain("\"" + property + "\"");
            }
            checked.add(name);
        }
        assertThat(checked).contains("TelemetryReading", "HourlyActivityState").hasSizeGreaterThan(10);
    }

    @Test
    void the_generated_classes_carry_the_java_string_property_the_published_form_drops() {
        Schema generated = io.apiary.schema.TelemetryReading.getClassSchema();
        assertThat(generated.toString()).contains("\"avro.java.string\":\"String\"");
        assertThat(PublishedSchemas.hasJavaProperties(generated)).isTrue();
        assertThat(PublishedSchemas.of(generated).toString()).doesNotContain("avro.java.string");
    }

    @Test
    void the_published_text_is_the_avsc_file_as_compact_json_so_a_client_sending_the_file_finds_it()
            throws IOException {
        for (String name : SchemaEvolutionTest.currentRecordNames()) {
            String fileText = Files.readString(SchemaEvolutionTest.schemasDir().resolve(name + ".avsc"));
            String compact = JSON.readTree(fileText).toString(); // keys as the file orders them
            Schema published = PublishedSchemas.of(generatedClassSchema(new Schema.Parser().parse(fileText)));
            assertThat(compact).as(name).isEqualTo(published.toString());
        }
    }

    @Test
    void the_newest_kept_version_is_the_current_file_byte_for_byte() throws IOException {
        for (String name : SchemaEvolutionTest.currentRecordNames()) {
            java.nio.file.Path dir =
                    SchemaEvolutionTest.schemasDir().resolve("versions").resolve(name);
            int newest = SchemaVersions.load(name, getClass().getClassLoader()).size();
            assertThat(dir.resolve("v" + newest + ".avsc"))
                    .as(name)
                    .hasSameBinaryContentAs(SchemaEvolutionTest.schemasDir().resolve(name + ".avsc"));
        }
    }

    @Test
    void stripping_keeps_docs_defaults_logical_types_aliases_and_other_properties() {
        Schema javaFlavoured = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"t\",\"doc\":\"record doc\","
                        + "\"aliases\":[\"Old\"],\"owner\":\"team\",\"java-class\":\"t.Custom\",\"fields\":["
                        + "{\"name\":\"s\",\"type\":{\"type\":\"string\",\"avro.java.string\":\"String\"},"
                        + "\"doc\":\"a string\",\"default\":\"x\"},"
                        + "{\"name\":\"d\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,"
                        + "\"scale\":2,\"java-class\":\"java.math.BigDecimal\"},\"doc\":\"money\"},"
                        + "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"string\","
                        + "\"avro.java.string\":\"String\"},\"avro.java.string\":\"String\","
                        + "\"java-key-class\":\"java.lang.String\"},\"default\":{\"java-class\":\"kept\"}},"
                        + "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"long\","
                        + "\"java-element-class\":\"java.util.List\"}},"
                        + "{\"name\":\"u\",\"type\":[\"null\",{\"type\":\"string\",\"avro.java.string\":\"String\"}],"
                        + "\"default\":null},"
                        + "{\"name\":\"t\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"},"
                        + "\"note\":\"field property\"}]}");

        Schema published = PublishedSchemas.of(javaFlavoured);

        assertThat(PublishedSchemas.hasJavaProperties(javaFlavoured)).isTrue();
        assertThat(PublishedSchemas.hasJavaProperties(published)).isFalse();
        assertThat(PublishedSchemas.sameCanonicalForm(published, javaFlavoured)).isTrue();
        assertThat(published.getDoc()).isEqualTo("record doc");
        assertThat(published.getAliases()).containsExactly("t.Old");
        assertThat(published.getProp("owner")).isEqualTo("team");
        assertThat(published.getProp("java-class")).isNull();
        assertThat(published.getFields()).extracting(Schema.Field::name).containsExactly("s", "d", "m", "a", "u", "t");
        assertThat(published.getField("s").doc()).isEqualTo("a string");
        assertThat(published.getField("s").defaultVal()).isEqualTo("x");
        assertThat(published.getField("s").schema().getProp("avro.java.string")).isNull();
        assertThat(published.getField("d").schema().getLogicalType()).isEqualTo(LogicalTypes.decimal(9, 2));
        assertThat(published.getField("d").schema().getProp("java-class")).isNull();
        assertThat(published.getField("m").schema().getProp("java-key-class")).isNull();
        assertThat(published.getField("m").defaultVal()).isEqualTo(java.util.Map.of("java-class", "kept"));
        assertThat(published.getField("a").schema().getProp("java-element-class"))
                .isNull();
        assertThat(published.getField("u").schema().getTypes().get(1).getProp("avro.java.string"))
                .isNull();
        assertThat(published.getField("u").hasDefaultValue()).isTrue();
        assertThat(published.getField("t").schema().getLogicalType()).isEqualTo(LogicalTypes.timestampMillis());
        assertThat(published.getField("t").getProp("note")).isEqualTo("field property");
    }

    @Test
    void a_schema_without_java_properties_is_returned_as_it_is() {
        Schema plain = new Schema.Parser()
                .parse("{\"type\":\"record\",\"name\":\"P\",\"fields\":[{\"name\":\"s\"," + "\"type\":\"string\"}]}");
        assertThat(PublishedSchemas.of(plain)).isSameAs(plain);
        assertThat(PublishedSchemas.hasJavaProperties(plain)).isFalse();
    }
}
