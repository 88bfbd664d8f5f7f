package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import io.apiary.ingest.bench.SparkPeerLaunch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** Usage errors of {@code bench} are found before anything starts: exit 2, one clear first line. */
class BenchCommandTest {

    @TempDir
    static Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--rows 0                          | --rows must be at least 1, was 0",
        "--hives -1                        | --hives must be at least 1, was -1",
        "--warm-up-rows -1                 | --warm-up-rows must be at least 0, was -1",
        "--run-timeout-minutes 200000000   | --run-timeout-minutes must be between 1 and 1440",
        "--keyspace bad-name               | --keyspace 'bad-name' is not a keyspace name",
        "--replication garbage             | --replication must be a CQL replication map",
        "--runs bogus                      | Unknown run 'bogus'",
        "--table-options a;DROP            | --table-options must be the options of one ALTER TABLE",
        "--repeat 0                        | --repeat must be between 1 and 100, was 0",
        "--shard-strategies foo            | Unknown shard strategy 'foo'",
        "-o /nonexistent/dir/x.json        | Cannot write the results to /nonexistent/dir/x.json",
        "--set sink.linger.ms=abc          | Invalid value abc for configuration sink.linger.ms",
        "--set kafka.bootstrap.servers=127.0.0.1:1 | Configure both kafka.bootstrap.servers and cassandra.contact.points",
    })
    void is_refused_before_anything_starts(String args, String message) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        long start = System.nanoTime();
        int exit = cli.execute(("bench " + args.trim()).split("\\s+"));

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString().lines().findFirst().orElse("")).contains(message);
        assertThat(out.toString()).doesNotContain("Starting");
        assertThat(System.nanoTime() - start).as("nothing was started").isLessThan(10_000_000_000L);
    }

    @Test
    void the_spark_run_alone_without_its_module_built_is_refused_naming_the_build_command() {
        String previous = System.getProperty(SparkPeerLaunch.DIR_PROPERTY);
        System.setProperty(SparkPeerLaunch.DIR_PROPERTY, dir.resolve("no-spark-build").toString());
        try {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cli = IngestApp.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));

            assertThat(cli.execute("bench", "--runs", "spark")).isEqualTo(2);
            assertThat(out.toString()).contains("Skipping the spark run", SparkPeerLaunch.BUILD_COMMAND)
                    .doesNotContain("Starting");
            assertThat(err.toString().lines().findFirst().orElse("")).contains("Nothing left to run",
                    SparkPeerLaunch.BUILD_COMMAND);
        } finally {
            if (previous == null) {
                System.clearProperty(SparkPeerLaunch.DIR_PROPERTY);
            } else {
                System.setProperty(SparkPeerLaunch.DIR_PROPERTY, previous);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"--keep-work-dir", "--work-dir"})
    void local_stack_options_are_refused_with_a_configured_cluster(String option) throws Exception {
        Path settings = Files.writeString(dir.resolve("cluster-" + option.substring(2) + ".properties"),
                "kafka.bootstrap.servers=127.0.0.1:1\ncassandra.contact.points=127.0.0.1:2\n"
                        + "cassandra.local.datacenter=dc1\n");
        StringWriter err = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        String[] args = option.equals("--work-dir")
                ? new String[] {"bench", "--config", settings.toString(), option, dir.resolve("w").toString()}
                : new String[] {"bench", "--config", settings.toString(), option};

        assertThat(cli.execute(args)).isEqualTo(2);
        assertThat(err.toString()).contains("are for the local stack");
    }
}
