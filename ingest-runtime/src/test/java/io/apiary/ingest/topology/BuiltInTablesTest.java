package io.apiary.ingest.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.sink.ExtraTables;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuiltInTablesTest {

    @Test
    void the_specs_are_the_tables_of_cql_in_their_order() {
        assertThat(BuiltInTables.ALL.stream().map(spec -> spec.table().name()).toList())
                .isEqualTo(TableNames.CURRENT);
    }

    @Test
    void the_specs_row_topics_are_the_row_topics_the_sink_consumes() {
        Topics topics = Topics.defaults();
        assertThat(BuiltInTables.ALL.stream()
                        .map(spec -> spec.rowTopic().apply(topics).name())
                        .toList())
                .isEqualTo(topics.rowTopics());
    }

    @Test
    void only_hive_activity_has_no_gateway_input() {
        List<TableSpec<?, ?>> withoutInput =
                BuiltInTables.ALL.stream().filter(spec -> spec.input() == null).toList();
        assertThat(withoutInput).containsExactly(BuiltInTables.ACTIVITY);
    }

    @Test
    void a_registered_table_reads_its_own_row_topic_into_its_own_table(@TempDir Path folder) throws Exception {
        Files.writeString(
                folder.resolve("scale.cql"),
                "CREATE TABLE IF NOT EXISTS ${keyspace}.hive_weight (hive_id text, day date, shard int,"
                        + " weighed_at timestamp, weight_kg double,"
                        + " PRIMARY KEY ((hive_id, day, shard), weighed_at));\n");
        Files.writeString(
                folder.resolve("HiveWeightRow.avsc"),
                "{\"type\":\"record\",\"name\":\"HiveWeightRow\",\"fields\":["
                        + "{\"name\":\"hive_id\",\"type\":\"string\"},"
                        + "{\"name\":\"day\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
                        + "{\"name\":\"shard\",\"type\":\"int\"},"
                        + "{\"name\":\"weighed_at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
                        + "{\"name\":\"weight\",\"type\":\"double\"}]}");
        Path file = folder.resolve("hive_weight.table.properties");
        Files.writeString(
                file,
                "cql=scale.cql\nrow.topic=rows.hive_weight.v1\nrow.schema=HiveWeightRow.avsc\n"
                        + "column.weight_kg.field=weight\n");
        TableSpec<byte[], org.apache.avro.generic.GenericRecord> spec = TableSpec.registered(ExtraTables.read(file));
        assertThat(spec.table().name()).isEqualTo("hive_weight");
        assertThat(spec.rowTopic().apply(Topics.defaults()).name()).isEqualTo("rows.hive_weight.v1");
        assertThat(spec.binding().fields()).containsEntry("weight_kg", "weight");
        assertThat(spec.input()).isNull();
    }
}
