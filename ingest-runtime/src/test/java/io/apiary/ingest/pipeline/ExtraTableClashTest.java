package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.serde.SchemaSubjects;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registered table may not take the name of a table of cql/ or a topic of the pipeline's own;
 * its row topic's value subject joins the pipeline's subjects.
 */
class ExtraTableClashTest {

    private static final String SCHEMA = "{\"type\":\"record\",\"name\":\"Row\",\"namespace\":\"t\",\"fields\":["
            + "{\"name\":\"hive_id\",\"type\":\"string\"},"
            + "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
            + "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}]}";

    @TempDir
    Path folder;

    private IngestConfig config(String table, String topic) throws Exception {
        Files.writeString(
                folder.resolve("t.cql"),
                "CREATE TABLE IF NOT EXISTS ${keyspace}." + table
                        + " (hive_id text, day date, at timestamp, PRIMARY KEY ((hive_id, day), at));\n",
                StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("Row.avsc"), SCHEMA, StandardCharsets.UTF_8);
        Path registration = folder.resolve("t.table.properties");
        Files.writeString(
                registration, "cql=t.cql\nrow.topic=" + topic + "\nrow.schema=Row.avsc\n", StandardCharsets.UTF_8);
        return new IngestConfig(Map.of(IngestConfig.SINK_EXTRA_TABLES, registration.toString()));
    }

    @Test
    void should_read_a_registration_of_its_own_name_and_topic() throws Exception {
        assertThat(Pipeline.extraTables(config("hive_scale", "rows.hive_scale.v1")))
                .singleElement()
                .satisfies(r -> assertThat(r.table().name()).isEqualTo("hive_scale"));
    }

    @Test
    void should_add_each_registered_tables_value_subject_after_the_pipelines_own() throws Exception {
        IngestConfig config = config("hive_scale", "rows.hive_scale.v1");
        List<SchemaSubjects.Subject> all = RegistrySubjects.all(config);
        assertThat(all.subList(0, all.size() - 1)).isEqualTo(config.topics().avroSubjects());
        SchemaSubjects.Subject extra = all.get(all.size() - 1);
        assertThat(extra.name()).isEqualTo("rows.hive_scale.v1-value");
        assertThat(extra.schema().getFullName()).isEqualTo("t.Row");
        assertThat(RegistrySubjects.all(new IngestConfig(Map.of()))).hasSize(14);
    }

    @Test
    void should_refuse_a_table_of_cql() throws Exception {
        for (String table : new String[] {"hive_activity", "hive_telemetry", "table_copy_progress"}) {
            IngestConfig config = config(table, "rows.hive_scale.v1");
            assertThatThrownBy(() -> Pipeline.extraTables(config))
                    .as(table)
                    .hasMessageContaining("table " + table + " is one of cql/'s");
        }
    }

    @Test
    void should_refuse_a_topic_of_the_pipeline() throws Exception {
        IngestConfig defaults = new IngestConfig(Map.of());
        for (String topic : defaults.topics().all()) {
            IngestConfig config = config("hive_scale", topic);
            assertThatThrownBy(() -> Pipeline.extraTables(config))
                    .as(topic)
                    .hasMessageContaining("row topic " + topic + " is one of the pipeline's topics");
        }
    }
}
