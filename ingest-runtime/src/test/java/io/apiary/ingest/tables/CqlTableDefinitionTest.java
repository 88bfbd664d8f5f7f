package io.apiary.ingest.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.cassandra.SchemaApplier;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CqlTableDefinitionTest {

    static List<CqlTableDefinition> projectTables() {
        Path folder = Path.of("..", "cql");
        return SchemaApplier.load(folder, "apiary", SchemaApplier.DEV_REPLICATION).stream()
                .map(CqlScript::statements)
                .flatMap(List::stream)
                .map(CqlTableDefinition::parse)
                .flatMap(java.util.Optional::stream)
                .toList();
    }

    @Test
    void reads_the_projects_own_tables() {
        List<CqlTableDefinition> tables = projectTables();

        assertThat(tables)
                .extracting(CqlTableDefinition::name)
                .containsExactly("hive_telemetry_v2", "hive_activity", "weather_readings", "agent_alerts_v2");
        CqlTableDefinition telemetry = tables.get(0);
        assertThat(telemetry.keyspace()).isEqualTo("apiary");
        assertThat(telemetry.partitionKey()).containsExactly("hive_id", "day", "shard");
        assertThat(telemetry.clusteringColumns()).containsExactly("sensor_type", "sensor_id", "reading_time");
        assertThat(telemetry.regularColumns()).containsExactly("gateway_id", "value", "unit");
        assertThat(telemetry.columns())
                .containsEntry("day", "date")
                .containsEntry("value", "double")
                .hasSize(9);
        assertThat(telemetry.defaultTtlSeconds()).isEqualTo(7_776_000);
        CqlTableDefinition activity = tables.get(1);
        assertThat(activity.partitionKey()).containsExactly("hive_id");
        assertThat(activity.clusteringColumns()).containsExactly("day", "hour");
        assertThat(activity.defaultTtlSeconds()).isEqualTo(63_072_000);
    }

    @Test
    void reads_inline_keys_static_columns_quoted_names_and_collection_types() {
        CqlTableDefinition inline = CqlTableDefinition.parse(
                        "CREATE TABLE IF NOT EXISTS ks.\"Devices\" (id uuid PRIMARY KEY, tags set<text>, "
                                + "attrs map<text, frozen<list<int>>>)")
                .orElseThrow();
        assertThat(inline.keyspace()).isEqualTo("ks");
        assertThat(inline.name()).isEqualTo("Devices");
        assertThat(inline.partitionKey()).containsExactly("id");
        assertThat(inline.columns())
                .containsExactly(
                        Map.entry("id", "uuid"),
                        Map.entry("tags", "set<text>"),
                        Map.entry("attrs", "map<text,frozen<list<int>>>"));

        CqlTableDefinition compound = CqlTableDefinition.parse(
                        "create table t (\"Key\" text, c int, owner text static, v blob, primary key (\"Key\", c)) "
                                + "with comment = 'a, (b)' and default_time_to_live = 60")
                .orElseThrow();
        assertThat(compound.partitionKey()).containsExactly("Key");
        assertThat(compound.clusteringColumns()).containsExactly("c");
        assertThat(compound.staticColumns()).containsExactly("owner");
        assertThat(compound.regularColumns()).containsExactly("v");
        assertThat(compound.defaultTtlSeconds()).isEqualTo(60);
    }

    @Test
    void reads_tables_behind_comments_quotes_and_a_byte_order_mark() {
        String cql = "\uFEFFCREATE TABLE/* new */ks.lost (id text, ts/*c*/timestamp, \"it's\" int, \"a;b--c\" int, "
                + "primarykey int, PRIMARY KEY (id, ts)) WITH comment = 'was default_time_to_live = 60 before; (' "
                + "AND default_time_to_live = 86400;\nCREATE TABLE ks.\"we\"\"ird\" (k int PRIMARY KEY);";
        List<CqlTableDefinition> tables = CqlScript.parse("x.cql", cql, Map.of()).statements().stream()
                .map(CqlTableDefinition::parse)
                .flatMap(java.util.Optional::stream)
                .toList();

        assertThat(tables).extracting(CqlTableDefinition::name).containsExactly("lost", "we\"ird");
        CqlTableDefinition lost = tables.get(0);
        assertThat(lost.columns()).containsOnlyKeys("id", "ts", "it's", "a;b--c", "primarykey");
        assertThat(lost.columns()).containsEntry("ts", "timestamp");
        assertThat(lost.clusteringColumns()).containsExactly("ts");
        assertThat(lost.defaultTtlSeconds())
                .as("not the figure in the comment's string")
                .isEqualTo(86_400);
    }

    @Test
    void ignores_other_statements_and_refuses_broken_tables() {
        assertThat(CqlTableDefinition.parse("CREATE KEYSPACE ks WITH replication = {}"))
                .isEmpty();
        assertThat(CqlTableDefinition.parse("CREATE INDEX i ON t (v)")).isEmpty();
        assertThatThrownBy(() -> CqlTableDefinition.parse("CREATE TABLE t (a text, PRIMARY KEY ((a, b)))"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'b' is not declared");
        assertThatThrownBy(() -> CqlTableDefinition.parse("CREATE TABLE t (a text, b int)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no PRIMARY KEY");
        assertThatThrownBy(() -> CqlTableDefinition.parse("CREATE TABLE t (a text PRIMARY KEY"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unbalanced");
    }
}
