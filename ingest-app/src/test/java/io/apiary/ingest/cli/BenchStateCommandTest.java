package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Usage errors of {@code bench state} are found before anything starts: exit 2, one clear first line. */
class BenchStateCommandTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--hives 0                       | --hives must be from 1 to 10,000,000, was 0",
                "--sample-interval-seconds 0     | --sample-interval-seconds must be from 1 to 3600, was 0",
                "--sample-interval-seconds 7200  | --sample-interval-seconds must be from 1 to 3600, was 7200",
                "--grace-minutes -5              | --grace-minutes must be from 0 to 1051200, was -5",
                "--heap-mib 64                   | --heap-mib must be at least 128 (the topology's JVM), was 64",
                "--timeout-minutes 0             | --timeout-minutes must be from 1 to 1440, was 0",
                "-o /nonexistent/dir/x.json      | Cannot write the results to /nonexistent/dir/x.json",
                "--set topology.store.type=disk  | Invalid value disk for configuration topology.store.type",
                "--hives x                       | Invalid value for option '--hives': 'x' is not an int",
            })
    void is_refused_before_anything_starts(String args, String message) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        long start = System.nanoTime();
        int exit = cli.execute(("bench state " + args.trim()).split("\\s+"));

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().lines().findFirst().orElse("")).contains(message);
        assertThat(out.toString()).doesNotContain("Starting");
        assertThat(System.nanoTime() - start).as("nothing was started").isLessThan(10_000_000_000L);
    }

    @Test
    void its_help_names_what_it_measures_and_bench_s_help_points_to_it() {
        StringWriter out = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));

        assertThat(cli.execute("bench", "state", "--help")).isZero();
        assertThat(out.toString())
                .contains("--hives=N", "--sample-interval-seconds=S", "--grace-minutes=MIN", "--heap-mib=MIB")
                .contains("SIGKILL")
                .contains("topology.rocksdb.memory.bytes");
        StringWriter benchHelp = new StringWriter();
        cli.setOut(new PrintWriter(benchHelp, true));
        assertThat(cli.execute("bench", "--help")).isZero();
        assertThat(benchHelp.toString()).contains("state").contains("bench state --help");
    }
}
