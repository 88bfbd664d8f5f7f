package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.importer.CsvReadingParser;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code import-csv}'s refusals of its options and of a header: exit 2 before Kafka is asked. */
class ImportCsvCommandTest {

    /** The long format's options for a file with the columns sensor, value and unit (CliIT's too). */
    static final List<String> LONG_FORMAT =
            List.of("--sensor-column", "sensor", "--value-column", "value", "--unit-column", "unit");

    private final StringWriter err = new StringWriter();

    private int importCsv(String... sensors) {
        List<String> args = new ArrayList<>(List.of(
                "import-csv",
                "--file",
                "no-such-file.csv",
                "--time-column",
                "t",
                "--hive-column",
                "h",
                "--set",
                "kafka.bootstrap.servers=127.0.0.1:1"));
        for (String sensor : sensors) {
            args.addAll(List.of("--sensor", sensor));
        }
        return execute(args);
    }

    private int execute(List<String> args) {
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args.toArray(String[]::new));
    }

    @Test
    void should_exit_2_for_an_invalid_explicit_sensor_id() {
        assertThat(importCsv("t=TEMPERATURE:degC:in side")).isEqualTo(2);
        assertThat(err.toString())
                .contains("Sensor column 't=TEMPERATURE:degC:in side': the sensor id 'in side' has"
                        + " the character U+0020 at position 3");
    }

    @Test
    void should_exit_2_for_two_columns_of_one_series_naming_both() {
        assertThat(importCsv("Temp (in)=TEMPERATURE:degC", "Temp in=TEMPERATURE:degC"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains(
                        "Sensor columns 'Temp (in)' and 'Temp in' would both be TEMPERATURE" + " sensor 'Temp_in'",
                        "'Temp in=TEMPERATURE:degC:SENSOR_ID'");
    }

    @Test
    void should_exit_2_for_a_column_name_that_gives_no_id_when_one_is_needed() {
        assertThat(importCsv("°=TEMPERATURE:degC", "t2=TEMPERATURE:degC")).isEqualTo(2);
        assertThat(err.toString())
                .contains("Sensor column '°': 2 columns hold TEMPERATURE", "'°=TEMPERATURE:degC:SENSOR_ID'");
    }

    @Test
    void should_exit_2_for_a_negative_duplicate_check_limit() {
        List<String> args = List.of(
                "import-csv",
                "--file",
                "x.csv",
                "--time-column",
                "t",
                "--hive-column",
                "h",
                "--sensor",
                "t=TEMPERATURE:degC",
                "--duplicate-check-limit",
                "-1");
        CommandLine cli = IngestApp.commandLine();
        cli.setErr(new PrintWriter(err, true));

        assertThat(cli.execute(args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString()).contains("The duplicate check's limit must be 0 to 805306368");
    }

    /** The file {@link #run} imports: none, unless a test writes one. */
    private String file = "no-such-file.csv";

    private int run(String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "import-csv",
                "--file",
                file,
                "--time-column",
                "t",
                "--sensor",
                "t=TEMPERATURE:degC",
                "--set",
                "kafka.bootstrap.servers=127.0.0.1:1"));
        args.addAll(List.of(extra));
        return execute(args);
    }

    @Test
    void should_exit_2_unless_exactly_one_of_hive_column_and_hive_id_is_given() {
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required argument", "--hive-column", "--hive-id");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-column", "h", "--hive-id", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("mutually exclusive");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-id", "hive 1")).isEqualTo(2);
        assertThat(err.toString()).contains("The hive id 'hive 1' has the character U+0020");
    }

    @Test
    void should_exit_2_for_a_bad_dst_resolution_comment_prefix_or_time_start() {
        assertThat(run("--hive-id", "h", "--dst", "guess")).isEqualTo(2);
        assertThat(err.toString()).contains("--dst must be reject, earlier, later or infer, was 'guess'");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-id", "h", "--comment-prefix", "//")).isEqualTo(2);
        assertThat(err.toString()).contains("--comment-prefix must be one character, was '//'");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-id", "h", "--time-format", "elapsed-s")).isEqualTo(2);
        assertThat(err.toString()).contains("counts from a start: give it with --time-start");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-id", "h", "--time-format", "elapsed-s", "--time-start", "2021-02-30T00:00:00Z"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--time-start: ");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-id", "h", "--time-start", "2021-06-01T00:00:00Z"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--time-start is for the elapsed-* time formats only");
    }

    @Test
    void should_exit_2_for_a_unit_of_another_quantity() {
        assertThat(importCsv("w=WEIGHT:V")).isEqualTo(2);
        assertThat(err.toString())
                .contains("the pipeline takes WEIGHT in kg, and 'V' is not a unit of the same quantity");
    }

    @TempDir
    Path dir;

    @Test
    void should_exit_2_for_a_value_or_unit_column_without_the_sensor_column_and_the_other_way_round() {
        assertThat(run("--hive-id", "h", "--value-column", "value")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required argument", "--sensor-column");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-id", "h", "--unit-column", "unit")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required argument", "--sensor-column", "--value-column");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-id", "h", "--sensor-column", "sensor")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing required argument", "--value-column");
    }

    @Test
    void should_exit_2_for_a_long_format_column_that_is_the_time_column_or_another_long_format_column() {
        assertThat(run("--hive-id", "h", "--sensor-column", "t", "--value-column", "v"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("The column 't' cannot be both the time column and a column of the long");
        err.getBuffer().setLength(0);
        assertThat(run("--hive-id", "h", "--sensor-column", "s", "--value-column", "v", "--unit-column", "v"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("sensor, value and unit columns must be three columns");
    }

    @Test
    void should_exit_2_naming_the_missing_long_format_column_and_the_header_before_kafka_is_asked() throws Exception {
        Path csv = dir.resolve("long.csv");
        Files.writeString(csv, "# export\nt,sensor,_value\n2021-07-15T11:00:00Z,t,35\n");
        file = csv.toString();

        List<String> args = new ArrayList<>(List.of("--hive-id", "h", "--comment-prefix", "#"));
        args.addAll(LONG_FORMAT);

        int exit = run(args.toArray(String[]::new));

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("long.csv: The CSV header lacks column(s) 'value', 'unit'; its columns are [t, sensor,"
                        + " _value]")
                .doesNotContain("Kafka");
    }

    @Test
    void should_describe_the_long_format_options_in_the_help() {
        StringWriter help = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(help, true));

        assertThat(cli.execute("import-csv", "--help")).isZero();
        assertThat(help.toString()).contains("--sensor-column=NAME", "--value-column=NAME", "--unit-column=NAME");
        CommandLine.Model.CommandSpec spec =
                cli.getSubcommands().get("import-csv").getCommandSpec();
        assertThat(String.join(" ", spec.findOption("--sensor").description()))
                .contains("in the long format (--sensor-column) COLUMN is a sensor name of that column");
        for (String option : List.of("--sensor-column", "--value-column", "--unit-column")) {
            assertThat(String.join(" ", spec.findOption(option).description()))
                    .as(option)
                    .startsWith("Long format");
        }
    }

    @Test
    void should_exit_0_for_a_file_of_no_data_rows_saying_so_before_kafka_is_asked() throws Exception {
        Path csv = dir.resolve("empty.csv");
        Files.writeString(csv, "# export of a day without data\nt,t2\n\n# end\n");
        file = csv.toString();

        int exit = run("--hive-id", "h", "--comment-prefix", "#", "--sensor", "t2=HUMIDITY:%RH", "--strict");

        assertThat(exit).isZero();
        assertThat(err.toString())
                .isEqualTo("empty.csv: the file has no data rows (a header and nothing after it but comment or blank"
                        + " lines): nothing to import, nothing was sent" + System.lineSeparator());
    }

    private static CsvReadingParser.Totals totals(long rows, long rejectedRows, long rejectedCells, long missing) {
        return new CsvReadingParser.Totals(rows, 0, rejectedRows, rejectedCells, 0, 0, missing);
    }

    @Test
    void should_exit_0_when_every_sensor_cell_was_missing_saying_so_with_the_counts() {
        PrintWriter out = new PrintWriter(err, true);

        int exit = ImportCsvCommand.explainNoReadings(out, "a.csv", totals(3, 0, 0, 6), Map.of("-100", 4L));

        assertThat(exit)
                .as("missing values are no problem of the input: not exit 3")
                .isZero();
        assertThat(err.toString())
                .isEqualTo("a.csv: every sensor cell was missing: 6 cells missing (2 empty, 4 matching a"
                        + " --missing-values marker) in 3 rows, so the file holds no reading and nothing was sent;"
                        + " nothing was rejected either. If the readings are in other columns, check --sensor; if a"
                        + " marker matched real readings, check --missing-values" + System.lineSeparator())
                .doesNotContain("--time-column");
    }

    @Test
    void should_exit_3_when_nothing_could_be_read_because_rows_or_cells_were_rejected() {
        PrintWriter out = new PrintWriter(err, true);

        int exit = ImportCsvCommand.explainNoReadings(out, "a.csv", totals(3, 2, 1, 3), Map.of());

        assertThat(exit).isEqualTo(3);
        assertThat(err.toString())
                .isEqualTo("a.csv: no reading could be read: 2 rows and 1 cells rejected (each reported above), 3"
                        + " cells missing (3 empty, 0 matching a --missing-values marker); check --time-column,"
                        + " --time-format, --zone and --sensor" + System.lineSeparator());
    }

    @Test
    void should_exit_0_naming_a_file_without_data_rows_after_the_parse_too() {
        PrintWriter out = new PrintWriter(err, true);

        assertThat(ImportCsvCommand.explainNoReadings(out, "a.csv", totals(0, 0, 0, 0), Map.of()))
                .isZero();
        assertThat(err.toString()).contains("a.csv: the file has no data rows");
    }

    @Test
    void should_give_the_summary_the_values_a_double_cannot_hold_and_the_cells_each_marker_matched() {
        CsvReadingParser.Totals totals = new CsvReadingParser.Totals(5, 1, 0, 4, 0, 0, 7, 1, 2);
        java.util.SortedMap<RejectReason, Long> withheld =
                new java.util.TreeMap<>(Map.of(RejectReason.OUT_OF_RANGE, 1L));
        Map<String, Long> matches = new java.util.LinkedHashMap<>();
        matches.put("0", 5L);
        matches.put("NA", 0L);

        assertThat(ImportCsvCommand.rejectedReasons(totals, 1, withheld))
                .isEqualTo(" (values a double cannot hold: 1 too large, 2 too small; 1 readings the topology would"
                        + " dead-letter, not sent: OUT_OF_RANGE 1)");
        assertThat(ImportCsvCommand.rejectedReasons(totals(1, 0, 0, 0), 0, new java.util.TreeMap<>()))
                .isEmpty();
        assertThat(ImportCsvCommand.missingMarkers(totals, matches))
                .isEqualTo(" (2 empty; --missing-values '0' 5, 'NA' 0)");
        assertThat(ImportCsvCommand.missingMarkers(totals, Map.of())).isEmpty();
    }
}
