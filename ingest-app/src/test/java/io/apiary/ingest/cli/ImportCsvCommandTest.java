package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code import-csv}'s refusals of its sensor mapping: exit 2 before the file is read or Kafka is asked. */
class ImportCsvCommandTest {

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

    private int run(String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "import-csv",
                "--file",
                "no-such-file.csv",
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
}
