package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.bench.BenchResult;
import io.apiary.ingest.bench.SparkPeerLaunch;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "--rows 0                          | --rows must be at least 1, was 0",
                "--gateway-readings 0              | --gateway-readings must be at least 1, was 0",
                "--runs sink-paced                 | the sink-paced run is paced from the sink run's rows/s",
                "--hives -1                        | --hives must be at least 1, was -1",
                "--warm-up-rows -1                 | --warm-up-rows must be at least 0, was -1",
                "--run-timeout-minutes 200000000   | --run-timeout-minutes must be between 1 and 1440",
                "--keyspace bad-name               | --keyspace 'bad-name' is not a keyspace name",
                "--replication garbage             | --replication must be a CQL replication map",
                "--runs bogus                      | Unknown run 'bogus'",
                "--table-options a;DROP            | --table-options must be the options of one ALTER TABLE",
                "--repeat 0                        | --repeat must be between 1 and 100, was 0",
                "--paced-hives 0                   | --paced-hives must be between 1 and 1000000, was 0",
                "--paced-hives 2147483647          | --paced-hives must be between 1 and 1000000, was 2147483647",
                "--paced-seconds 0                 | --paced-seconds must be between 1 and 86400, was 0",
                "--paced-seconds 86401             | --paced-seconds must be between 1 and 86400, was 86401",
                "--row-compression brotli          | row compression must be one of [none, gzip, snappy, lz4, zstd]: 'brotli'",
                "--shard-strategies foo            | Unknown shard strategy 'foo'",
                "-o /nonexistent/dir/x.json        | Cannot write the results to /nonexistent/dir/x.json",
                "--set sink.linger.ms=abc          | Invalid value abc for configuration sink.linger.ms",
                "--set kafka.bootstrap.servers=127.0.0.1:1 | Configure both kafka.bootstrap.servers and cassandra.contact.points",
                "--cassandra-nodes 2 --replication {'class':'NetworkTopologyStrategy','datacenter1':3} | --replication asks for 3 replicas, but the local Cassandra has 2 nodes",
                "--replication {'class':'NetworkTopologyStrategy','dc1':1} | --replication names data center 'dc1', but the local Cassandra's only data center is datacenter1",
                "--replication {'class':'SimpleStrategy','replication_factor':2} | --replication asks for 2 replicas, but the local Cassandra has 1 node",
                "--replication {'class':'SimpleStrategy','replication_factor':x} | --replication gives 'replication_factor' no replica count",
                "--cassandra-nodes 1 --set kafka.bootstrap.servers=127.0.0.1:1 --set cassandra.contact.points=127.0.0.1:2"
                        + " | --cassandra-nodes are for the local stack",
                "--cassandra-nodes 0               | --cassandra-nodes must be between 1 and 5, was 0",
                "--cassandra-nodes 6               | --cassandra-nodes must be between 1 and 5, was 6",
                "--cassandra-nodes 3 --set kafka.bootstrap.servers=127.0.0.1:1 --set cassandra.contact.points=127.0.0.1:2"
                        + " | --cassandra-nodes are for the local stack",
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
    void a_local_cluster_defaults_to_replication_factor_three_at_most_in_the_local_data_center() {
        assertThat(BenchCommand.defaultReplication(1))
                .isEqualTo("{'class': 'SimpleStrategy', 'replication_factor': 1}");
        assertThat(BenchCommand.defaultReplication(2))
                .isEqualTo("{'class': 'NetworkTopologyStrategy', 'datacenter1': 2}");
        assertThat(BenchCommand.defaultReplication(3))
                .isEqualTo("{'class': 'NetworkTopologyStrategy', 'datacenter1': 3}");
        assertThat(BenchCommand.defaultReplication(5))
                .isEqualTo("{'class': 'NetworkTopologyStrategy', 'datacenter1': 3}");
    }

    @Test
    void the_spark_run_alone_without_its_module_built_is_refused_naming_the_build_command() {
        String previous = System.getProperty(SparkPeerLaunch.DIR_PROPERTY);
        System.setProperty(
                SparkPeerLaunch.DIR_PROPERTY, dir.resolve("no-spark-build").toString());
        try {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cli = IngestApp.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));

            assertThat(cli.execute("bench", "--runs", "spark")).isEqualTo(2);
            assertThat(out.toString())
                    .contains("Skipping the spark run", SparkPeerLaunch.BUILD_COMMAND)
                    .doesNotContain("Starting");
            assertThat(err.toString().lines().findFirst().orElse(""))
                    .contains("Nothing left to run", SparkPeerLaunch.BUILD_COMMAND);
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
        Path settings = Files.writeString(
                dir.resolve("cluster-" + option.substring(2) + ".properties"),
                "kafka.bootstrap.servers=127.0.0.1:1\ncassandra.contact.points=127.0.0.1:2\n"
                        + "cassandra.local.datacenter=dc1\n");
        StringWriter err = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        String[] args = option.equals("--work-dir")
                ? new String[] {
                    "bench",
                    "--config",
                    settings.toString(),
                    option,
                    dir.resolve("w").toString()
                }
                : new String[] {"bench", "--config", settings.toString(), option};

        assertThat(cli.execute(args)).isEqualTo(2);
        assertThat(err.toString()).contains("are for the local stack");
    }

    private static BenchResult result(String run, double perSecond, boolean completed, String note) {
        return new BenchResult(
                run,
                "time",
                "rows",
                (long) (perSecond * 10),
                completed ? 10 : 0,
                6,
                20,
                2,
                Double.NaN,
                50,
                1000,
                5,
                20,
                300,
                120,
                completed,
                note);
    }

    @Test
    void a_bench_stopped_early_writes_the_runs_made_before_says_why_and_exits_1() throws Exception {
        List<List<BenchResult>> made = List.of(
                List.of(result("ceiling", 60_000, true, ""), result("sink", 50_000, true, "")),
                List.of(
                        result("ceiling", 62_000, true, ""),
                        result("sink", 0, false, "failed: AllNodesFailedException: All 1 node(s) tried failed")));
        Map<String, Object> context = new LinkedHashMap<>(Map.of("rows", 200_000));
        Path file = dir.resolve("stopped.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exit = BenchCommand.report(
                made,
                "AllNodesFailedException: All 1 node(s) tried failed",
                context,
                "heading",
                file,
                Instant.now(),
                new PrintWriter(out, true),
                new PrintWriter(err, true));

        assertThat(exit).isEqualTo(1);
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.at("/context/stopped_early").asBoolean()).isTrue();
        assertThat(json.at("/context/stopped_by").asText()).contains("All 1 node(s) tried failed");
        assertThat(json.at("/runs")).hasSize(4);
        assertThat(json.at("/runs/3/completed").asBoolean()).isFalse();
        assertThat(json.at("/runs/3/note").asText()).startsWith("failed: AllNodesFailedException");
        // the sink's checks come from the first repeat alone: the second's sink did not complete
        assertThat(json.at("/checks").findValuesAsText("name")).contains("sink/ceiling rows/s (time)");
        assertThat(out.toString()).contains("NOT COMPLETED: failed: AllNodesFailedException", "Results written to");
        assertThat(err.toString().lines().toList())
                .singleElement()
                .asString()
                .startsWith("error: the bench stopped early: AllNodesFailedException")
                .contains(file.toAbsolutePath().toString());
    }

    @Test
    void a_bench_that_made_every_run_says_so_in_its_context() throws Exception {
        Map<String, Object> context = new LinkedHashMap<>();
        Path file = dir.resolve("whole.json");
        StringWriter err = new StringWriter();

        int exit = BenchCommand.report(
                List.of(List.of(result("ceiling", 60_000, true, ""))),
                null,
                context,
                "heading",
                file,
                Instant.now(),
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));

        assertThat(exit).isZero();
        assertThat(new ObjectMapper()
                        .readTree(file.toFile())
                        .at("/context/stopped_early")
                        .asBoolean())
                .isFalse();
        assertThat(err.toString()).isEmpty();
    }
}
