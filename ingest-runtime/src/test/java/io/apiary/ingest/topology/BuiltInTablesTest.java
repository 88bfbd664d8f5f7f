package io.apiary.ingest.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.sink.ExtraTables;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topics;
import java.util.List;
import org.junit.jupiter.api.Test;

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
    void a_registered_table_reads_its_own_row_topic_into_its_own_table() throws Exception {
        java.nio.file.Path file = java.nio.file.Path.of(BuiltInTablesTest.class
                .getResource("/extra-table/hive_weight.table.properties")
                .toURI());
        TableSpec<byte[], org.apache.avro.generic.GenericRecord> spec = TableSpec.registered(ExtraTables.read(file));
        assertThat(spec.table().name()).isEqualTo("hive_weight");
        assertThat(spec.rowTopic().apply(Topics.defaults()).name()).isEqualTo("rows.hive_weight.v1");
        assertThat(spec.binding().fields()).containsEntry("weight_kg", "weight");
        assertThat(spec.input()).isNull();
    }
}
