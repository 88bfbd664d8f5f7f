package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.read.TimeRange;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code query} and {@code report}: usage errors exit 2 before any connection (the contact point
 * is a closed port, so reaching Cassandra would fail differently), and the time arguments.
 */
class QueryCommandTest {

    private static final String NOWHERE = "cassandra.contact.points=127.0.0.1:1";

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void should_exit_2_for_a_malformed_or_reversed_range() {
        assertThat(run(
                        "query",
                        "telemetry",
                        "--hive",
                        "h",
                        "--from",
                        "yesterday",
                        "--to",
                        "2021-07-15",
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(run(
                        "query",
                        "telemetry",
                        "--hive",
                        "h",
                        "--from",
                        "2021-07-16",
                        "--to",
                        "2021-07-15T00:00Z",
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains(
                        "--from 'yesterday' is not a time",
                        "--to 2021-07-15T00:00Z "
                                + "(2021-07-15T00:00:00Z) must be after --from 2021-07-16 (2021-07-16T00:00:00Z)");
    }

    @Test
    void should_exit_2_naming_the_accepted_values_for_a_bad_sensor_format_order_or_limit() {
        String[] range = {"--from", "2021-07-15", "--to", "2021-07-15", "--set", NOWHERE};
        assertThat(run(concat(
                        new String[] {"query", "telemetry", "--hive", "h", "--sensor", "TEMPERATURE,NOISE"}, range)))
                .isEqualTo(2);
        assertThat(run(concat(new String[] {"query", "activity", "--hive", "h", "--format", "xml"}, range)))
                .isEqualTo(2);
        assertThat(run(concat(new String[] {"query", "weather", "--station", "s", "--order", "up"}, range)))
                .isEqualTo(2);
        assertThat(run(concat(new String[] {"query", "alerts", "--agent", "a", "--limit", "0"}, range)))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains(
                        "--sensor NOISE is not a sensor type: use one of",
                        "TEMPERATURE",
                        "table, csv, json",
                        "use 'asc' or 'desc'",
                        "--limit must be at least 1");
    }

    @Test
    void should_exit_2_before_connecting_naming_what_is_wrong_with_a_sensor_id() {
        String[] range = {"--from", "2021-07-15", "--to", "2021-07-15", "--set", NOWHERE};

        assertThat(run(concat(
                        new String[] {"query", "telemetry", "--hive", "h", "--sensor", "HUMIDITY,TEMPERATURE:in/side"},
                        range)))
                .isEqualTo(2);
        assertThat(run(concat(new String[] {"query", "telemetry", "--hive", "h", "--sensor", "TEMPERATURE:"}, range)))
                .isEqualTo(2);
        for (String empty : new String[] {",", "TEMPERATURE,", "TEMPERATURE,,HUMIDITY", " "}) {
            assertThat(run(concat(new String[] {"query", "telemetry", "--hive", "h", "--sensor", empty}, range)))
                    .as(empty)
                    .isEqualTo(2);
        }
        assertThat(run(concat(new String[] {"query", "telemetry", "--hive", "h", "--sensor", ":x"}, range)))
                .isEqualTo(2);
        assertThat(run(concat(
                        new String[] {"query", "telemetry", "--hive", "h", "--sensor", "WEIGHT:" + "x".repeat(65)},
                        range)))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("--sensor TEMPERATURE:in/side: the sensor id has the character '/' at "
                        + "position 3; only ASCII letters, digits, '_', '-' and '.' are accepted")
                .contains("--sensor TEMPERATURE:: the sensor id is empty")
                .contains("--sensor 'TEMPERATURE,': an empty selector; expected TYPE[:SENSOR_ID], comma-separated")
                .contains("--sensor ':x': the sensor type is missing")
                .contains("the sensor id is 65 characters long; at most 64 are accepted")
                .doesNotContain("no Cassandra node");
    }

    @Test
    void should_exit_2_before_connecting_for_a_page_token_of_the_format_before_sensor_ids() {
        // A token printed by the version that read hive_telemetry (format 1).
        assertThat(run(
                        "query",
                        "telemetry",
                        "--hive",
                        "3627",
                        "--from",
                        "2021-07-15",
                        "--to",
                        "2021-07-16",
                        "--order",
                        "desc",
                        "--page-token",
                        "MQpoaXZlX3RlbGVtZXRyeQpERVNDCjE2MjY0Nzc0NDQwMDAKVEVNUEVSQVRVUkU",
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("is a page token of an earlier version of ingest-app (format 1, before " + "sensor ids)")
                .contains("run the query again without --page-token")
                .doesNotContain("no Cassandra node");
    }

    @Test
    void should_exit_2_for_a_blank_hive_or_a_bad_reading_cap_in_the_report() {
        assertThat(run("report", "--hive", " ", "--from", "2021-07-15", "--to", "2021-07-15", "--set", NOWHERE))
                .isEqualTo(2);
        assertThat(run(
                        "report",
                        "--hive",
                        "h",
                        "--from",
                        "2021-07-15",
                        "--to",
                        "2021-07-15",
                        "--max-readings",
                        "0",
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--hive must not be blank", "--max-readings must be at least 1");
    }

    @Test
    void should_read_a_date_as_a_whole_utc_day_and_times_without_offset_as_utc() {
        TimeRange day = TimeArgument.range("2021-01-31", "2021-01-31");
        TimeRange hours = TimeArgument.range("2021-01-31T23:00", "2021-02-01T01:30:00+01:00");

        assertThat(day)
                .isEqualTo(new TimeRange(Instant.parse("2021-01-31T00:00:00Z"), Instant.parse("2021-02-01T00:00:00Z")));
        assertThat(hours)
                .isEqualTo(new TimeRange(Instant.parse("2021-01-31T23:00:00Z"), Instant.parse("2021-02-01T00:30:00Z")));
    }

    @Test
    void should_read_dates_and_local_times_in_the_zone_when_one_is_given() {
        java.time.ZoneId toronto = java.time.ZoneId.of("America/Toronto");

        assertThat(TimeArgument.range("2021-07-12", "2021-07-18", toronto))
                .isEqualTo(new TimeRange(Instant.parse("2021-07-12T04:00:00Z"), Instant.parse("2021-07-19T04:00:00Z")));
        assertThat(TimeArgument.range("2021-11-07T00:00", "2021-11-08T00:00", toronto))
                .as("the day daylight saving time ends has 25 hours")
                .isEqualTo(new TimeRange(Instant.parse("2021-11-07T04:00:00Z"), Instant.parse("2021-11-08T05:00:00Z")));
        assertThat(TimeArgument.range("2021-07-12T10:00Z", "2021-07-12T14:00+02:00", toronto))
                .as("an instant keeps its own offset")
                .isEqualTo(new TimeRange(Instant.parse("2021-07-12T10:00:00Z"), Instant.parse("2021-07-12T12:00:00Z")));
    }

    @Test
    void should_say_a_local_time_does_not_exist_when_a_spring_gap_skips_it() {
        assertThatThrownBy(() -> TimeArgument.range(
                        "2024-03-31T02:30", "2024-03-31T03:30", java.time.ZoneId.of("Europe/Berlin")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--from 2024-03-31T02:30 does not exist in Europe/Berlin: its clocks went from 02:00 to"
                        + " 03:00 that day; write a time after the change or an instant with its offset");
    }

    @Test
    void should_name_the_accepted_forms_for_a_time_it_cannot_read() {
        assertThatThrownBy(() -> TimeArgument.instant("--to", "2021-13-01", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "--to '2021-13-01' is not a time: write a date (2021-07-15), a date and time (2021-07-15T10:00), both read in UTC");
    }

    @Test
    void should_make_a_file_name_without_path_separators_from_the_hive_and_range() {
        assertThat(io.apiary.ingest.report.HiveReportFile.fileName("../x/y", "2021-07-12", "2021-07-18T10:00+02:00"))
                .isEqualTo("hive-.._x_y-2021-07-12-2021-07-18T10_00_02_00.html");
    }

    @Test
    void should_exit_2_before_reading_for_a_report_path_that_is_a_folder_or_below_a_file(@TempDir Path dir)
            throws Exception {
        Path file = Files.writeString(dir.resolve("plain.txt"), "x");

        assertThat(run(
                        "report",
                        "--hive",
                        "h",
                        "--from",
                        "2021-07-15",
                        "--to",
                        "2021-07-15",
                        "-o",
                        dir.toString(),
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(run(
                        "report",
                        "--hive",
                        "h",
                        "--from",
                        "2021-07-15",
                        "--to",
                        "2021-07-15",
                        "-o",
                        file.resolve("sub.html").toString(),
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(err.toString()).contains("exists and is not a regular file", "plain.txt is not a folder");
        assertThat(io.apiary.ingest.report.HiveReportFile.checkTarget(file)).isEqualTo(file.toRealPath());
    }

    @Test
    void should_exit_2_before_connecting_for_a_page_token_that_is_not_one() {
        assertThat(run(
                        "query",
                        "telemetry",
                        "--hive",
                        "h",
                        "--from",
                        "2021-07-15",
                        "--to",
                        "2021-07-15",
                        "--page-token",
                        "!!!",
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(err.toString()).contains("'!!!' is not a page token");
    }

    @Test
    void should_exit_1_saying_where_it_looked_and_how_to_point_it_elsewhere_when_cassandra_is_unreachable() {
        assertThat(run(
                        "query",
                        "activity",
                        "--hive",
                        "h",
                        "--from",
                        "2021-07-15",
                        "--to",
                        "2021-07-15",
                        "--set",
                        NOWHERE))
                .isEqualTo(1);
        assertThat(err.toString())
                .startsWith("error: no Cassandra node accepted a connection: ")
                .contains("127.0.0.1")
                .contains(":1,")
                .contains("cassandra.contact.points")
                .contains("--config");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
