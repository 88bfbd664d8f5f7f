package io.apiary.ingest.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.cassandra.SchemaApplier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CqlScriptTest {

    @Test
    void should_split_statements_and_drop_every_kind_of_comment() {
        String text = """
                -- a comment; with a semicolon
                CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy'}; // trailing
                /* block; comment */ CREATE TABLE IF NOT EXISTS ks.t (a int PRIMARY KEY)
                  WITH comment = 'it''s; fine';
                """;

        CqlScript script = CqlScript.parse("x.cql", text, Map.of());

        assertThat(script.statements()).hasSize(2);
        assertThat(script.statements().get(1)).startsWith("CREATE TABLE").endsWith("'it''s; fine'");
    }

    @Test
    void should_substitute_placeholders() {
        CqlScript script = CqlScript.parse(
                "x.cql",
                "CREATE KEYSPACE ${keyspace} WITH replication = ${replication};",
                Map.of("keyspace", "apiary", "replication", "{'class': 'SimpleStrategy', 'replication_factor': 1}"));

        assertThat(script.statements())
                .containsExactly(
                        "CREATE KEYSPACE apiary WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @Test
    void should_name_the_file_and_placeholder_when_a_value_is_missing() {
        assertThatThrownBy(() -> CqlScript.parse("010-t.cql", "SELECT * FROM ${ks}.t;", Map.of()))
                .hasMessage("010-t.cql: no value for placeholder ${ks}");
    }

    @Test
    void should_read_the_projects_own_cql_files_in_order_with_only_idempotent_statements() {
        List<CqlScript> scripts = SchemaApplier.load(null, "apiary_test", SchemaApplier.DEV_REPLICATION);

        assertThat(scripts)
                .extracting(CqlScript::name)
                .containsExactly(
                        "000-keyspace.cql",
                        "010-hive_telemetry_v2.cql",
                        "020-hive_activity.cql",
                        "030-weather_readings.cql",
                        "040-agent_alerts_v2.cql");
        assertThat(scripts)
                .flatExtracting(CqlScript::statements)
                .allSatisfy(s -> assertThat(s).contains("IF NOT EXISTS").doesNotContain("${"));
    }

    @Test
    void should_refuse_a_keyspace_name_that_is_not_a_plain_identifier() {
        assertThatThrownBy(() -> SchemaApplier.load(null, "bad; DROP", SchemaApplier.DEV_REPLICATION))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Invalid keyspace name");
    }
}
