package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code table copy} and {@code table verify}: usage errors exit 2 before any connection (the
 * contact point is a closed port, so reaching Cassandra would fail differently).
 */
class TableCommandTest {

    private static final String NOWHERE = "cassandra.contact.points=127.0.0.1:1";

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void should_exit_2_when_copying_a_table_onto_itself() {
        assertThat(run(
                        "table",
                        "copy",
                        "--from",
                        "hive_telemetry_v2",
                        "--to",
                        "apiary.HIVE_TELEMETRY_V2",
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(run("table", "verify", "--from", "x", "--to", "x", "--set", NOWHERE))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--from and --to name the same table, apiary.hive_telemetry_v2");
    }

    @Test
    void should_exit_2_for_a_worker_index_outside_the_workers_or_fewer_splits_than_workers() {
        assertThat(run(
                        "table",
                        "copy",
                        "--from",
                        "a",
                        "--to",
                        "b",
                        "--workers",
                        "4",
                        "--worker-index",
                        "4",
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(run(
                        "table",
                        "copy",
                        "--from",
                        "a",
                        "--to",
                        "b",
                        "--workers",
                        "8",
                        "--splits",
                        "4",
                        "--set",
                        NOWHERE))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains(
                        "--worker-index must be from 0 to 3 (--workers 4), was 4",
                        "--splits must be from --workers (8)");
    }

    @Test
    void should_exit_2_for_a_malformed_table_name_time_or_limit() {
        assertThat(run("table", "copy", "--from", "a-b", "--to", "b", "--set", NOWHERE))
                .isEqualTo(2);
        assertThat(run("table", "verify", "--from", "a", "--to", "b", "--before", "soon", "--set", NOWHERE))
                .isEqualTo(2);
        assertThat(run("table", "verify", "--from", "a", "--to", "b", "--max-held-rows", "10", "--set", NOWHERE))
                .isEqualTo(2);
        assertThat(run("table", "copy", "--from", "a", "--to", "b", "--max-rows-per-second", "-1", "--set", NOWHERE))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains(
                        "--from: 'a-b' is not a table name",
                        "--before 'soon' is not a time",
                        "--max-held-rows must be at least 100,000");
    }
}
