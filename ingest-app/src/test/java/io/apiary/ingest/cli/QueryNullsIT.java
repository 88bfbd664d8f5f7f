package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.SharedStack;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code query} and {@code report} on rows whose numbers are null in Cassandra (written with CQL, as
 * another writer or a partial update leaves them), against the shared real stack: a null prints as
 * null in every format, a real 0 as 0.
 */
class QueryNullsIT {

    private static final String KEYSPACE = "it_query_nulls";
    private static final String HIVE = "qn-hive";
    private static final Instant NULL_AT = Instant.parse("2021-07-15T11:00:00Z");
    private static final Instant ZERO_AT = Instant.parse("2021-07-15T11:15:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Map<String, Object> settings;

    @BeforeAll
    static void insertRowsWithNullNumbers() {
        settings = SharedStack.get().clientSettings();
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
        IngestConfig config = ConfigLoader.load(null, Map.of(), settings);
        try (CqlSession session = CassandraSessions.open(config)) {
            SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
            // A writer that leaves the value out, and one that writes a real 0.
            insertTemperature(session, config, NULL_AT, null);
            insertTemperature(session, config, ZERO_AT, 0.0);
            // Hour 10: a partial update that set only bees_out, to 0; hour 11: real zeros and an explicit null.
            session.execute(
                    "UPDATE " + KEYSPACE
                            + ".hive_activity SET bees_out = 0 WHERE hive_id = ? AND day = ? AND hour = 10",
                    HIVE,
                    LocalDate.parse("2021-07-15"));
            session.execute(
                    "INSERT INTO " + KEYSPACE + ".hive_activity (hive_id, day, hour, bees_in, bees_out, samples)"
                            + " VALUES (?, ?, 11, 0, null, 0)",
                    HIVE,
                    LocalDate.parse("2021-07-15"));
        }
    }

    /** Inserts a reading of sensor TEMPERATURE:default; a null value is left out of the statement. */
    private static void insertTemperature(CqlSession session, IngestConfig config, Instant at, Double value) {
        long millis = at.toEpochMilli();
        int shard =
                config.shardStrategy().shard(HIVE, "TEMPERATURE", millis, config.getInt(IngestConfig.TELEMETRY_SHARDS));
        List<Object> values = new ArrayList<>(
                List.of(HIVE, DayBucket.of(millis), shard, "TEMPERATURE", "default", at, "qn-gw", "degC"));
        String columns = "hive_id, day, shard, sensor_type, sensor_id, reading_time, gateway_id, unit";
        if (value != null) {
            values.add(value);
            columns += ", value";
        }
        String marks = String.join(", ", Collections.nCopies(values.size(), "?"));
        session.execute(
                "INSERT INTO " + KEYSPACE + ".hive_telemetry_v2 (" + columns + ") VALUES (" + marks + ")",
                values.toArray());
    }

    @Test
    void should_print_a_null_value_as_null_and_a_zero_as_zero_in_every_format_when_querying_telemetry() {
        List<List<String>> table = cells(query("telemetry", "table"));
        List<CSVRecord> csv = csv(query("telemetry", "csv"));
        List<JsonNode> json = json(query("telemetry", "json"));

        assertThat(table.get(0))
                .containsExactly("hive_id", "sensor_type", "sensor_id", "reading_time", "value", "unit", "gateway_id");
        assertThat(table.subList(2, table.size()))
                .containsExactly(
                        List.of(HIVE, "TEMPERATURE", "default", "2021-07-15T11:00:00Z", "-", "degC", "qn-gw"),
                        List.of(HIVE, "TEMPERATURE", "default", "2021-07-15T11:15:00Z", "0.0", "degC", "qn-gw"));
        assertThat(csv.get(0).get(4)).isEqualTo("value");
        assertThat(csv.subList(1, csv.size())).extracting(r -> r.get(4)).containsExactly("", "0.0");
        assertThat(json).hasSize(2);
        assertThat(json.get(0).get("value").isNull()).isTrue();
        assertThat(json.get(1).get("value").isNumber()).isTrue();
        assertThat(json.get(1).get("value").doubleValue()).isZero();
    }

    @Test
    void should_print_null_counts_as_null_and_zeros_as_zero_in_every_format_when_querying_activity() {
        List<List<String>> table = cells(query("activity", "table"));
        List<CSVRecord> csv = csv(query("activity", "csv"));
        List<JsonNode> json = json(query("activity", "json"));

        assertThat(table.get(0)).containsExactly("hive_id", "day", "hour", "bees_in", "bees_out", "samples");
        assertThat(table.subList(2, table.size()))
                .containsExactly(
                        List.of(HIVE, "2021-07-15", "10", "-", "0", "-"),
                        List.of(HIVE, "2021-07-15", "11", "0", "-", "0"));
        assertThat(csv.subList(1, csv.size()))
                .extracting(r -> r.toList().subList(2, 6))
                .containsExactly(List.of("10", "", "0", ""), List.of("11", "0", "", "0"));
        assertThat(json).extracting(o -> o.get("bees_in").isNull()).containsExactly(true, false);
        assertThat(json).extracting(o -> o.get("bees_out").isNull()).containsExactly(false, true);
        assertThat(json).extracting(o -> o.get("samples").isNull()).containsExactly(true, false);
        assertThat(json.get(0).get("bees_out").isIntegralNumber()).isTrue();
        assertThat(json.get(0).get("bees_out").longValue()).isZero();
        assertThat(json.get(1).get("bees_in").longValue()).isZero();
        assertThat(json.get(1).get("samples").longValue()).isZero();
    }

    @Test
    void should_write_a_report_that_leaves_null_numbers_out(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("report.html");

        CliRun run = CliRun.of(withSettings(
                "report", "--hive", HIVE, "--from", "2021-07-15", "--to", "2021-07-15", "--output", file.toString()));

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(Files.readString(file)).contains("1 non-numeric values not plotted");
    }

    private static String query(String table, String format) {
        CliRun run = CliRun.of(withSettings(
                "query", table, "--hive", HIVE, "--from", "2021-07-15", "--to", "2021-07-15", "--format", format));
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).contains("2 rows of hive_");
        return run.out();
    }

    private static String[] withSettings(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        settings.forEach((key, value) -> all.addAll(List.of("--set", key + "=" + value)));
        return all.toArray(String[]::new);
    }

    /** @return the table format's lines, each cut into its cells (they hold no two blanks in a row here) */
    private static List<List<String>> cells(String table) {
        return table.lines().map(line -> List.of(line.split(" {2,}"))).toList();
    }

    private static List<CSVRecord> csv(String text) {
        try {
            return CSVFormat.DEFAULT.parse(new StringReader(text)).getRecords();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<JsonNode> json(String text) {
        return text.lines()
                .map(line -> {
                    try {
                        return JSON.readTree(line);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .toList();
    }
}
