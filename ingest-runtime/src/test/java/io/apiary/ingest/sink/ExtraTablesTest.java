package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.serde.SchemaRegistryException;
import io.apiary.ingest.serde.WireFormat;
import io.apiary.ingest.testing.SchemaIdServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
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

    /** Serves the writer schemas of registry-framed rows by id. */
    private SchemaIdServer registry;

    @BeforeEach
    void registry() {
        registry = SchemaIdServer.start();
    }

    @org.junit.jupiter.api.AfterEach
    void stopRegistry() {
        registry.close();
    }

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
    void should_refuse_a_table_in_another_keyspace_than_the_sinks() throws Exception {
        Path file = registration(GOOD);
        Files.writeString(
                folder.resolve("scale.cql"), CQL.replace("${keyspace}.scale", "other.scale"), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExtraTables.read(file))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("names the keyspace other; write ${keyspace}.scale");
    }

    @Test
    void should_refuse_two_registrations_of_one_table() throws Exception {
        Path file = registration(GOOD);
        assertThatThrownBy(() -> ExtraTables.readAll(List.of(file, file))).hasMessageContaining("registered twice");
    }

    @Test
    void should_report_a_value_that_is_not_a_row_as_undecodable() throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        var deserializer = ExtraTables.deserializer(registration, WireFormat.singleObject());
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", new byte[] {(byte) 0xC3, 0x01, 9}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Not Avro single-object encoding")
                .hasMessageContaining("ScaleRow");
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", new byte[] {'{', '}'}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Neither registry framing")
                .hasMessageContaining("starting 0x7B");
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", null))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("a row of rows.scale.v1 has no value");
    }

    private static final String AT_MILLIS =
            "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}";

    @Test
    void should_refuse_a_logical_type_of_another_unit_or_meaning() throws Exception {
        // each would be bound as its plain number: micros read as millis (a time 1,000 times later),
        // a time of day stored as days since the epoch, days as a count
        Map<String, String> wrong = Map.of(
                AT_MILLIS,
                "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}}",
                "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}}",
                "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}}",
                "{\"name\":\"grams\",\"type\":\"long\"}",
                "{\"name\":\"grams\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}}");
        for (Map.Entry<String, String> field : wrong.entrySet()) {
            assertThat(GOOD_FIELDS).contains(field.getKey());
            Files.writeString(
                    folder.resolve("Scale.avsc"),
                    schema(GOOD_FIELDS.replace(field.getKey(), field.getValue())),
                    StandardCharsets.UTF_8);
            assertThatThrownBy(() -> ExtraTables.read(registration(GOOD)))
                    .as(field.getValue())
                    .hasMessageContaining("has logical type")
                    .hasMessageContaining("does not fit");
        }
        Files.writeString(
                folder.resolve("Scale.avsc"),
                schema(GOOD_FIELDS.replace(
                        AT_MILLIS,
                        "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}}")),
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD))).hasMessageContaining("local-timestamp-millis");
    }

    @Test
    void should_take_varchar_as_text_and_quote_names_that_need_it() throws Exception {
        Files.writeString(
                folder.resolve("scale.cql"),
                CQL.replace("note text", "\"Note\" varchar").replace("scale (", "\"Scale\" ("),
                StandardCharsets.UTF_8);
        Files.writeString(
                folder.resolve("Scale.avsc"),
                schema(GOOD_FIELDS.replace("\"note\"", "\"Note\"")),
                StandardCharsets.UTF_8);
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        assertThat(registration.table().name()).isEqualTo("Scale");
        assertThat(registration.table().columns()).contains("Note");
        assertThat(io.apiary.ingest.cassandra.CqlTypes.name("Note")).isEqualTo("\"Note\"");
        assertThat(io.apiary.ingest.cassandra.CqlTypes.name("grams")).isEqualTo("grams");
    }

    @Test
    void should_refuse_a_key_given_twice() throws Exception {
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD + "row.topic=rows.other.v1\n")))
                .hasMessageContaining("row.topic given more than once");
    }

    @Test
    void should_refuse_a_row_topic_kafka_would_refuse() throws Exception {
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD.replace("rows.scale.v1", "rows/scale v1"))))
                .hasMessageContaining("row.topic")
                .hasMessageContaining("rows/scale v1");
    }

    @Test
    void should_say_which_schema_cannot_be_used() throws Exception {
        Files.writeString(folder.resolve("Scale.avsc"), "\"string\"", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Scale.avsc")
                .hasMessageContaining("not a record");
        Files.writeString(
                folder.resolve("Scale.avsc"),
                schema(GOOD_FIELDS.replace("[\"null\",\"string\"]", "[\"null\",\"string\",\"string\"]")),
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot read the row schema")
                .hasMessageContaining("Scale.avsc");
    }

    @Test
    void should_read_the_chosen_table_when_another_in_its_file_cannot_be_read() throws Exception {
        Files.writeString(
                folder.resolve("scale.cql"),
                CQL + "CREATE TABLE IF NOT EXISTS ${keyspace}.broken (a text, PRIMARY KEY (a), PRIMARY KEY (a));\n",
                StandardCharsets.UTF_8);
        assertThat(ExtraTables.read(registration(GOOD + "table=scale\n"))
                        .table()
                        .name())
                .isEqualTo("scale");
        assertThatThrownBy(() -> ExtraTables.read(registration(GOOD)))
                .hasMessageContaining("statements it cannot read")
                .hasMessageContaining("two primary keys");
    }

    @Test
    void should_refuse_trailing_bytes_and_strings_that_are_not_utf8() throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        org.apache.avro.generic.GenericRecord row =
                new org.apache.avro.generic.GenericData.Record(registration.rowSchema());
        row.put("hive_id", "hive-1");
        row.put("day", 19_000);
        row.put("at", 1_641_600_000_000L);
        row.put("grams", 41_250L);
        row.put("note", "ok");
        byte[] good = new org.apache.avro.message.BinaryMessageEncoder<org.apache.avro.generic.GenericRecord>(
                        org.apache.avro.generic.GenericData.get(), registration.rowSchema())
                .encode(row)
                .array();
        var deserializer = ExtraTables.deserializer(registration, WireFormat.singleObject());
        assertThat(deserializer.deserialize("rows.scale.v1", good).get("grams")).isEqualTo(41_250L);

        assertRefusesTrailingBytesAndBadText(deserializer, good, "3 bytes follow the ScaleRow record");
    }

    /**
     * Checks that a row {@code good} (its note "ok" the last two bytes of its body) is refused when 3
     * bytes follow it, with {@code trailingMessage}, and when its note is not valid UTF-8.
     */
    private static void assertRefusesTrailingBytesAndBadText(
            org.apache.kafka.common.serialization.Deserializer<GenericRecord> deserializer,
            byte[] good,
            String trailingMessage) {
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 3);
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", longer))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(trailingMessage);

        // put invalid UTF-8 (a lead byte and no continuation) where "ok" is
        byte[] badText = good.clone();
        badText[badText.length - 2] = (byte) 0xC3;
        badText[badText.length - 1] = (byte) 0x28;
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", badText))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("t.ScaleRow.note")
                .hasMessageContaining("not valid UTF-8");
    }

    // ---- the registry framing (byte 0, 4-byte schema id, the Avro body) of a registered table's row topic

    private GenericRecord scaleRow(Schema schema, String note) {
        GenericRecord row = new GenericData.Record(schema);
        row.put("hive_id", "hive-1");
        row.put("day", 19_000);
        row.put("at", 1_641_600_000_000L);
        row.put("grams", 41_250L);
        row.put("note", note);
        return row;
    }

    /** @return a record framed as any registry-aware serializer frames it, by Avro's own writer */
    private static byte[] framed(int id, GenericRecord row) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(java.nio.ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(row.getSchema()).write(row, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    private static byte[] singleObject(GenericRecord row) throws Exception {
        return new BinaryMessageEncoder<GenericRecord>(GenericData.get(), row.getSchema())
                .encode(row)
                .array();
    }

    @Test
    void should_name_the_row_topics_value_subject_holding_the_row_schema() throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        assertThat(registration.subject().name()).isEqualTo("rows.scale.v1-value");
        assertThat(registration.subject().key()).isFalse();
        assertThat(registration.subject().schema()).isEqualTo(registration.rowSchema());
        assertThat(registration.subject().keptVersions()).containsExactly(registration.rowSchema());
    }

    @Test
    void should_read_registry_framed_rows_resolving_the_writers_schema_to_the_row_schema() throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        var deserializer = ExtraTables.deserializer(registration, WireFormat.registry(registry.client()));
        int id = registry.add(registration.rowSchema());
        GenericRecord read =
                deserializer.deserialize("rows.scale.v1", framed(id, scaleRow(registration.rowSchema(), "ok")));
        assertThat(read.get("grams")).isEqualTo(41_250L);
        assertThat(read.get("note")).hasToString("ok");
        assertThat(read.getSchema()).isEqualTo(registration.rowSchema());

        // a producer's newer version (a field more, one less with its default): read as the row schema
        String newerFields = GOOD_FIELDS.substring(0, GOOD_FIELDS.indexOf(",{\"name\":\"note\""))
                + ",{\"name\":\"scale\",\"type\":\"string\"}";
        Schema newer = new Schema.Parser().parse(schema(newerFields));
        assertThat(newer.getField("note")).isNull();
        GenericRecord fromNewer = new GenericData.Record(newer);
        fromNewer.put("hive_id", "hive-2");
        fromNewer.put("day", 19_001);
        fromNewer.put("at", 1_641_700_000_000L);
        fromNewer.put("grams", 39_000L);
        fromNewer.put("scale", "front");
        GenericRecord resolved = deserializer.deserialize("rows.scale.v1", framed(registry.add(newer), fromNewer));
        assertThat(resolved.getSchema()).isEqualTo(registration.rowSchema());
        assertThat(resolved.get("hive_id")).hasToString("hive-2");
        assertThat(resolved.get("grams")).isEqualTo(39_000L);
        assertThat(resolved.get("note")).isNull();
    }

    @Test
    void should_dead_letter_registry_framed_rows_with_trailing_bytes_bad_text_or_an_unusable_schema() throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        var deserializer = ExtraTables.deserializer(registration, WireFormat.registry(registry.client()));
        int id = registry.add(registration.rowSchema());
        byte[] good = framed(id, scaleRow(registration.rowSchema(), "ok"));

        assertRefusesTrailingBytesAndBadText(
                deserializer, good, "Bytes follow the ScaleRow record (schema id " + id + ")");

        byte[] unknownId = good.clone();
        java.nio.ByteBuffer.wrap(unknownId, 1, 4).putInt(id + 1000);
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", unknownId))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Schema id " + (id + 1000));

        // a writer schema whose grams is a string: it cannot be read as the row schema
        Schema other = new Schema.Parser()
                .parse(schema(GOOD_FIELDS.replace(
                        "{\"name\":\"grams\",\"type\":\"long\"}", "{\"name\":\"grams\",\"type\":\"string\"}")));
        GenericRecord otherRow = new GenericData.Record(other);
        otherRow.put("hive_id", "hive-1");
        otherRow.put("day", 19_000);
        otherRow.put("at", 1_641_600_000_000L);
        otherRow.put("grams", "heavy");
        int otherId = registry.add(other);
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", framed(otherId, otherRow)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Schema id " + otherId)
                .hasMessageContaining("cannot be read as t.ScaleRow");

        byte[] header = {0, 0, 0};
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", header))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("needs at least 5 bytes");
    }

    @Test
    void should_read_single_object_rows_beside_the_registry_framing_only_while_the_setting_allows_it()
            throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        byte[] old = singleObject(scaleRow(registration.rowSchema(), "old"));
        var lenient = ExtraTables.deserializer(
                registration, new WireFormat(WireFormat.Framing.REGISTRY, true, registry.client(), true));
        var strict = ExtraTables.deserializer(
                registration, new WireFormat(WireFormat.Framing.REGISTRY, false, registry.client(), true));
        assertThat(lenient.deserialize("rows.scale.v1", old).get("note")).hasToString("old");
        assertThatThrownBy(() -> strict.deserialize("rows.scale.v1", old))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("wire.format.read.single.object=false");
        byte[] framed = framed(registry.add(registration.rowSchema()), scaleRow(registration.rowSchema(), "new"));
        assertThat(strict.deserialize("rows.scale.v1", framed).get("note")).hasToString("new");
        // a single-object row of another schema: its fingerprint is not the row schema's
        Schema other = new Schema.Parser().parse(schema(GOOD_FIELDS + ",{\"name\":\"x\",\"type\":\"int\"}"));
        GenericRecord otherRow = scaleRow(other, null);
        otherRow.put("x", 1);
        assertThatThrownBy(() -> ExtraTables.deserializer(registration, WireFormat.singleObject())
                        .deserialize("rows.scale.v1", singleObject(otherRow)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Unknown writer schema for ScaleRow")
                .hasMessageContaining("the row schema t.ScaleRow of " + registration.file());
    }

    @Test
    void should_not_dead_letter_a_row_when_the_registry_cannot_be_reached() throws Exception {
        ExtraTables.Registration registration = ExtraTables.read(registration(GOOD));
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        var gone = new io.apiary.ingest.serde.SchemaRegistryClient(new RegistrySettings(
                List.of(java.net.URI.create("http://127.0.0.1:" + port)),
                null,
                null,
                null,
                java.time.Duration.ofSeconds(1),
                java.time.Duration.ofMillis(1),
                0));
        var deserializer = ExtraTables.deserializer(registration, WireFormat.registry(gone));
        byte[] framed = framed(7, scaleRow(registration.rowSchema(), "ok"));
        assertThatThrownBy(() -> deserializer.deserialize("rows.scale.v1", framed))
                .isInstanceOf(SchemaRegistryException.class)
                .satisfies(e ->
                        assertThat(((SchemaRegistryException) e).unavailable()).isTrue());
    }
}
