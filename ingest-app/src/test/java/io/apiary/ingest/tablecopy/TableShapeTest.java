package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.tables.CqlScript;
import io.apiary.ingest.tables.CqlTableDefinition;
import io.apiary.ingest.tables.TableNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each known layout is exactly a table of cql/ or cql/legacy/: the files stay the description, these follow. */
class TableShapeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "LEGACY_TELEMETRY, legacy/010-hive_telemetry.cql",
        "TELEMETRY, 010-hive_telemetry_v2.cql",
        "LEGACY_ALERTS, legacy/040-agent_alerts.cql",
        "ALERTS, 040-agent_alerts_v2.cql",
        "WEATHER, 030-weather_readings.cql"
    })
    void should_have_the_columns_types_and_key_of_its_cql_file(TableShape shape, String file) throws Exception {
        String text = Files.readString(Path.of("..", "cql", file));
        CqlTableDefinition table =
                CqlScript.parse(file, text, Map.of("keyspace", "k", "replication", "{}")).statements().stream()
                        .map(CqlTableDefinition::parse)
                        .flatMap(java.util.Optional::stream)
                        .findFirst()
                        .orElseThrow();
        Map<String, String> types = new LinkedHashMap<>();
        shape.columns().forEach(column -> types.put(column, shape.type(column).asCql(false, true)));

        assertThat(table.partitionKey()).isEqualTo(shape.partitionKey());
        assertThat(table.clusteringColumns()).isEqualTo(shape.clustering());
        assertThat(table.regularColumns()).containsExactlyInAnyOrderElementsOf(shape.regular());
        assertThat(table.columns()).containsExactlyInAnyOrderEntriesOf(types);
        assertThat(table.columns()).containsKey(shape.eventTime());
        assertThat(TableNames.CURRENT.contains(table.name())
                        || table.name().equals(TableNames.LEGACY_HIVE_TELEMETRY)
                        || table.name().equals(TableNames.LEGACY_AGENT_ALERTS))
                .as(table.name())
                .isTrue();
    }
}
