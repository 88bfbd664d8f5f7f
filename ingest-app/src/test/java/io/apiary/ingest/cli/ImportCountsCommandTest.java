package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.importer.CountLogParser;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code import-counts}' refusals: exit 2 before a file is read past its header or Kafka is asked. */
class ImportCountsCommandTest {

    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int execute(String... args) {
        List<String> all = new ArrayList<>(List.of("import-counts"));
        all.addAll(List.of(args));
        all.addAll(List.of("--set", "kafka.bootstrap.servers=127.0.0.1:1"));
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(all.toArray(String[]::new));
    }

    @Test
    void should_exit_2_without_a_layout_or_with_both() {
        assertThat(execute("--file", "x.csv", "--time-column", "t", "--hive-id", "h"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("Missing required argument", "--in-column", "--direction-column");

        err.getBuffer().setLength(0);
        assertThat(execute(
                        "--file",
                        "x.csv",
                        "--time-column",
                        "t",
                        "--hive-id",
                        "h",
                        "--in-column",
                        "i",
                        "--out-column",
                        "o",
                        "--interval-seconds",
                        "60",
                        "--direction-column",
                        "d"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("mutually exclusive");
    }

    @Test
    void should_exit_2_for_a_bucket_that_does_not_divide_the_hour_and_an_interval_over_an_hour() {
        assertThat(execute(
                        "--file",
                        "x.csv",
                        "--time-column",
                        "t",
                        "--hive-id",
                        "h",
                        "--direction-column",
                        "d",
                        "--bucket-seconds",
                        "7"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("divides an hour");

        err.getBuffer().setLength(0);
        assertThat(execute(
                        "--file",
                        "x.csv",
                        "--time-column",
                        "t",
                        "--hive-id",
                        "h",
                        "--in-column",
                        "i",
                        "--out-column",
                        "o",
                        "--interval-seconds",
                        "7200"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("1 to 3600 s");
    }

    @Test
    void should_exit_2_for_a_file_name_that_is_no_hive_id_and_for_a_header_without_the_count_columns()
            throws Exception {
        Path badName = Files.writeString(dir.resolve("hive 7.csv"), "t,i,o\n");
        assertThat(execute(
                        "--file",
                        badName.toString(),
                        "--time-column",
                        "t",
                        "--hive-id-from-file-name",
                        "--in-column",
                        "i",
                        "--out-column",
                        "o",
                        "--interval-seconds",
                        "60"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--hive-id-from-file-name: The hive id 'hive 7'");

        err.getBuffer().setLength(0);
        Path file = Files.writeString(dir.resolve("hive-7.csv"), "t,bees_in,o\n");
        assertThat(execute(
                        "--file",
                        file.toString(),
                        "--time-column",
                        "t",
                        "--hive-id-from-file-name",
                        "--in-column",
                        "i",
                        "--out-column",
                        "o",
                        "--interval-seconds",
                        "60"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains("hive-7.csv: The CSV header lacks column(s) 'i'; its columns are" + " [t, bees_in, o]");
    }

    @Test
    void should_exit_2_for_one_file_given_twice_and_an_await_timeout_past_a_week() throws Exception {
        Path file = Files.writeString(dir.resolve("h.csv"), "t,d\n");
        assertThat(execute(
                        "--file",
                        file.toString(),
                        "--file",
                        dir.resolve(".").resolve("h.csv").toString(),
                        "--time-column",
                        "t",
                        "--hive-id",
                        "h",
                        "--direction-column",
                        "d"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("is given twice; its passages or intervals would count twice");

        err.getBuffer().setLength(0);
        assertThat(execute(
                        "--file",
                        file.toString(),
                        "--time-column",
                        "t",
                        "--hive-id",
                        "h",
                        "--direction-column",
                        "d",
                        "--await",
                        "--await-timeout-seconds",
                        "9223372036854775807"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--await-timeout-seconds must be 1 to 604800 (a week)");
    }

    @Test
    void should_exit_2_when_import_csv_is_given_two_files() {
        CommandLine cli = IngestApp.commandLine();
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(
                "import-csv",
                "--file",
                "a.csv",
                "--file",
                "b.csv",
                "--time-column",
                "t",
                "--hive-id",
                "h",
                "--sensor",
                "t=TEMPERATURE:degC");
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("import-csv reads one --file, was given 2");
    }

    @Test
    void should_exit_0_for_files_of_no_data_rows_saying_so_before_kafka_is_asked() throws Exception {
        Path csv = dir.resolve("empty.csv");
        Files.writeString(csv, "time,in,out\n\n");

        int exit = execute(
                "--file",
                csv.toString(),
                "--time-column",
                "time",
                "--hive-id",
                "h",
                "--in-column",
                "in",
                "--out-column",
                "out",
                "--interval-seconds",
                "300",
                "--strict");

        assertThat(exit).isZero();
        assertThat(err.toString())
                .isEqualTo("empty.csv: the file has no data rows (a header and nothing after it but comment or blank"
                        + " lines): nothing to import, nothing was sent" + System.lineSeparator());
    }

    @Test
    void should_exit_3_saying_plainly_that_every_count_cell_was_empty() {
        StringWriter text = new StringWriter();

        int exit = ImportCountsCommand.explainNoSamples(
                new PrintWriter(text, true),
                "2 files",
                List.of(
                        new CountLogParser.FileTotals(2, 0, 2, 0, 0, 2),
                        new CountLogParser.FileTotals(1, 0, 1, 0, 0, 1)),
                false);

        assertThat(exit).as("an empty count cell rejects its line").isEqualTo(3);
        assertThat(text.toString())
                .isEqualTo("2 files: every line's count cells were empty (3 lines): an empty cell is no count, not 0"
                        + " (a counter that saw no bee writes 0), so every line was rejected and nothing was sent"
                        + System.lineSeparator());
    }

    @Test
    void should_exit_3_naming_the_empty_lines_among_other_rejected_ones_and_0_for_no_rows() {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text, true);

        assertThat(ImportCountsCommand.explainNoSamples(
                        out, "a.csv", List.of(new CountLogParser.FileTotals(3, 0, 3, 0, 0, 1)), true))
                .isEqualTo(3);
        assertThat(ImportCountsCommand.explainNoSamples(
                        out, "b.csv", List.of(new CountLogParser.FileTotals(0, 0, 0, 0, 2, 0)), true))
                .isZero();
        assertThat(text.toString())
                .isEqualTo("a.csv: no sample could be read: 3 of 3 lines rejected (each reported above; 1 of them with"
                        + " an empty direction cell); check --time-column, --time-format, --zone and the count or"
                        + " direction columns" + System.lineSeparator()
                        + "b.csv: the file has no data rows (a header and nothing after it but comment or blank"
                        + " lines): nothing to import, nothing was sent" + System.lineSeparator());
    }
}
