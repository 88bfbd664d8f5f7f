package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class PartitionsCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void plans_the_projects_own_cql_at_the_planned_load() {
        int exit = run("partitions", "plan", "--cql-dir", Path.of("..", "cql").toString());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString())
                .containsPattern(
                        "hive_telemetry_v2 +hive_id, day, shard +day +96 +1000/min +10,000 +15,000 +45,000 +104 "
                                + "+1\\.56 MB +ideal")
                .containsPattern("hive_activity +hive_id +none, TTL 730 d +- +1/h +10,000 +17,520 +52,560")
                .contains("Planned writes over the cluster: 167,769 rows/s");
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("Smallest shard count within the limits (no warning): 44.")
                .contains("Every planned table is within the limits.");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void a_table_over_the_limits_exits_1_with_the_suggestions() {
        int exit = run("partitions", "plan", "--rate", "hive_telemetry_v2=10000/min", "--shards", "weather_readings=1");

        assertThat(exit).isEqualTo(PartitionsCommand.OVER_LIMIT);
        // 14,400,000 rows a hive-day at 3 cells a row: at 432 shards a partition holds 33,334 rows (100,002
        // cells), at 433 it holds 33,257 (99,771 cells)
        assertThat(out.toString())
                .containsPattern("hive_telemetry_v2 .* 150,000 +450,000 .* over limit")
                .containsPattern("weather_readings .* day +1 +6/min .* 8,640 +60,480 .* ideal");
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("Smallest shard count within the limits (no warning): 433.")
                .contains("Or bucket by hour.")
                .contains("1 table over the limits");
        assertThat(err.toString()).contains("1 table is over the partition limits: hive_telemetry_v2");
    }

    @Test
    void reads_tables_from_a_folder_and_names_settings_for_unknown_tables() throws Exception {
        Files.writeString(
                dir.resolve("001-log.cql"),
                "-- a log\nCREATE TABLE ${keyspace}.log (source text, "
                        + "t timestamp, line text, PRIMARY KEY (source, t));\n");

        int exit = run(
                "partitions",
                "plan",
                "--cql-dir",
                dir.toString(),
                "--rate",
                "log=1/s",
                "--column-bytes",
                "log.line=120");

        assertThat(exit).isEqualTo(PartitionsCommand.OVER_LIMIT);
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("log source")
                .contains("unbounded")
                .contains("no time bucket and the table no default_time_to_live")
                .doesNotContain("Warning: settings name");
    }

    @Test
    void names_given_that_are_not_in_the_cql_files_exit_2() {
        int exit =
                run("partitions", "plan", "--rate", "hive_telemtry=1/s", "--column-bytes", "hive_telemetry_v2.unti=4");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("error: the settings or options name tables or columns that are not in "
                        + "cql/: hive_telemtry, hive_telemetry_v2.unti (its tables: hive_telemetry_v2, hive_activity, "
                        + "weather_readings, agent_alerts_v2)");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void empty_entries_are_skipped_and_shards_of_a_table_without_shard_column_noted() {
        int exit = run("partitions", "plan", "--shards", "", "--shards", "agent_alerts_v2=4");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString().replaceAll("\\s+", " "))
                .contains("agent_alerts_v2: 6/min per agent_id; day bucket (column day); a partition receives")
                .contains("Its partition key has no shard column, so partitions.plan.shards does not apply.");
    }

    @Test
    void a_folder_without_any_planned_table_exits_2() throws Exception {
        Files.writeString(
                dir.resolve("001-log.cql"), "CREATE TABLE log (source text, t timestamp, PRIMARY KEY (source, t));");

        assertThat(run("partitions", "plan", "--cql-dir", dir.toString())).isEqualTo(2);
        assertThat(err.toString())
                .contains("error: no table of " + dir + " has a planned rate")
                .contains("log");
    }

    @Test
    void unreadable_cql_files_are_named() throws Exception {
        Files.write(dir.resolve("junk.cql"), new byte[] {(byte) 0xC3, (byte) 0x28, 0, (byte) 0xFF});

        assertThat(run("partitions", "plan", "--cql-dir", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("junk.cql is not UTF-8 text");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--rate hive_telemetry_v2=fast                  | partitions.plan.rates: 'hive_telemetry_v2=fast': Invalid rate 'fast'",
                "--shards hive_telemetry_v2=0                   | 'hive_telemetry_v2=0': must be at least 1",
                "--bucket hive_telemetry_v2=fortnight           | Unknown bucket 'fortnight'",
                "--set partitions.plan.rates=hive_telemetry_v2  | Invalid value [hive_telemetry_v2] for configuration partitions.plan.rates",
                "--cql-dir /nonexistent/cql                  | Cannot read the CQL files: /nonexistent/cql: no such folder",
                "--rate hive_telemetry_v2=99999999999999999999/s | is above the accepted maximum of 1,000,000,000 rows/s",
                "--column-bytes hive_telemetry_v2=5             | 'hive_telemetry_v2' is not TABLE.COLUMN",
                "--entities hive_telemetry_v2=2147483648        | '2147483648' is above 2,147,483,647",
            })
    void invalid_input_exits_2_with_a_clear_error(String args, String message) {
        int exit = run(("partitions plan " + args.trim()).split("\\s+"));

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains(message);
        assertThat(out.toString()).isEmpty();
    }
}
