package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registrations of tables beside cql/: what is read, and the clear error for each fault. */
class ExtraTablesTest {

    private static final String CQL = "CREATE TABLE IF NOT EXISTS ${keyspace}.scale (\n"
            + "  hive_id text, day date, at timestamp, grams bigint, note text,\n"
            + "  PRIMARY KEY ((hive_id, day), at)) WITH CLUSTERING ORDER BY (at DESC);\n";

    @TempDir
    Path folder;

    private static String schema(String fields) {
        return "{\"type\":\"record\",\"name\":\"ScaleRow\",\"namespace\":\"t\",\"fields\":[" + fields + "]}";
    }

    private static final String GOOD_FIELDS = "{\"name\":\"hive_id\",\"type\":\"string\"},"
            + "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
            + "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
            + "{\"name\":\"grams\",\"type\":\"long\"},"
            + "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}";

    @BeforeEach
    void files() throws Exception {
        Files.writeString(folder.resolve("scale.cql"), CQL, StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("Scale.avsc"), schema(GOOD_FIELDS), StandardCharsets.UTF_8);
    }

    private Path registration(String text) throws Exception {
        Path file = folder.resolve("scale.table.properties");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private static final String GOOD = "cql=scale.cql\nrow.topic=rows.scale.v1\nrow.schema=Scale.avsc\n";

    @Test
    void should_read_the_table_its_topic_and_schema() throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        assertThat(registration.table().name()).isEqualTo("scale");
        assertThat(registration.table().columns()).containsExactly("hive_id", "day", "at", "grams", "note");
        assertThat(registration.rowTopic()).isEqualTo("rows.scale.v1");
        assertThat(registration.rowSchema().getFullName()).isEqualTo("t.ScaleRow");
        assertThat(registration.updates()).isFalse();
        // a nullable regular field: the row is deleted before it is written, so no old cell survives
        assertThat(new RowBinder<>(registration.binding()).hasOptionalRegularColumn())
                .isTrue();
    }

    @Test
    void should_fill_a_column_from_a_field_of_another_name() throws Exception {
        Files.writeString(
                folder.resolve("Scale.avsc"),
                schema(GOOD_FIELDS.replace("\"grams\"", "\"weight_g\"")),
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column grams")
                .hasMessageContaining("has no field grams");
        ExtraTables.Registration renamed = ExtraTables.read(registration(GOOD + "column.grams.field=weight_g\n"));
        assertThat(renamed.fields()).isEqualTo(Map.of("grams", "weight_g"));
    }

    @Test
    void should_refuse_unknown_and_missing_keys() throws Exception {
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD + "row.topics=x\n")))
                .hasMessageContaining("unknown key row.topics");
        assertThatThrownBy(() -> ExtraTables.read(registration("cql=scale.cql\nrow.schema=Scale.avsc\n")))
                .hasMessageContaining("row.topic is missing");
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD + "rows.are.updates=yes\n")))
                .hasMessageContaining("rows.are.updates must be true or false");
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD.replace("scale.cql", "none.cql"))))
                .hasMessageContaining("cannot read")
                .hasMessageContaining("none.cql");
    }

    @Test
    void should_refuse_a_field_that_does_not_fit_its_column() throws Exception {
        Files.writeString(
                folder.resolve("Scale.avsc"),
                schema(GOOD_FIELDS.replace(
                        "{\"name\":\"grams\",\"type\":\"long\"}", "{\"name\":\"grams\",\"type\":\"string\"}")),
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD)))
                .hasMessageContaining("column grams (bigint)")
                .hasMessageContaining("does not fit");
    }

    @Test
    void should_refuse_a_nullable_key_field() throws Exception {
        Files.writeString(
                folder.resolve("Scale.avsc"),
                schema(GOOD_FIELDS.replace(
                        "{\"name\":\"hive_id\",\"type\":\"string\"}",
                        "{\"name\":\"hive_id\",\"type\":[\"null\",\"string\"],\"default\":null}")),
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD)))
                .hasMessageContaining("column hive_id is part of the primary key")
                .hasMessageContaining("may be null");
    }

    @Test
    void should_refuse_a_table_without_a_time_column() throws Exception {
        Files.writeString(folder.resolve("scale.cql"), CQL.replace("at timestamp", "at int"), StandardCharsets.UTF_8);
        Files.writeString(
                folder.resolve("Scale.avsc"),
                schema(GOOD_FIELDS.replace(
                        "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}",
                        "{\"name\":\"at\",\"type\":\"int\"}")),
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD)))
                .hasMessageContaining("no timestamp clustering column");
    }

    @Test
    void should_refuse_two_registrations_of_one_table() throws Exception {
        Path file = registration(GOOD);
        assertThatThrownBy(() -> ExtraTables.readAll(List.of(file, file))).hasMessageContaining("registered twice");
    }

    @Test
    void should_report_a_value_that_is_not_a_row_as_undecodable() throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        assertThatThrownBy(() -> ExtraTables.deserializer(registration.rowSchema())
                        .deserialize("rows.scale.v1", new byte[] {(byte) 0xC3, 0x01, 9}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("not a single-object encoded t.ScaleRow record");
    }
}
