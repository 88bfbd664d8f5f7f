package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark on the real local stack, small: every run completes, measures something, and the
 * rows it says it wrote are in Cassandra.
 */
class BenchIT {

    private static final String KEYSPACE = "it_bench";

    @TempDir
    Path dir;

    @Test
    void every_run_completes_with_figures_and_the_end_to_end_rows_are_all_in_cassandra() throws Exception {
        ItEndpoints stack = SharedStack.get();
        Map<String, Object> settings = stack.clientSettings();
        settings.put(IngestConfig.TOPIC_PARTITIONS, 3);
        IngestConfig base = ConfigLoader.load(null, Map.of(), settings);
        long rows = 30_000;
        long readings = 6_000;
        Bench.Options options = new Bench.Options(
                rows,
                readings,
                1_000,
                List.of(ShardStrategy.TIME, ShardStrategy.HASH),
                // the Spark peer is built only on demand (its own profile): not part of this test
                EnumSet.complementOf(EnumSet.of(Bench.Run.SPARK)),
                64,
                100,
                8,
                2_000,
                Duration.ofMinutes(3),
                KEYSPACE,
                SchemaApplier.DEV_REPLICATION,
                1,
                Optional.empty(),
                // the local node's cassandra.yaml defines 5.0's stock memtable configurations
                Optional.of("memtable = 'trie'"),
                "zstd",
                // the paced run: 100 hives x 5 s of live gateway records, 8,333 rows
                100,
                5);
        List<Long> cassandraPids =
                stack.localStack().map(s -> List.of(s.cassandra().pid())).orElse(List.of());
        OptionalLong kafkaPid =
                stack.localStack().map(s -> OptionalLong.of(s.kafka().pid())).orElse(OptionalLong.empty());
        StringWriter progress = new StringWriter();

        List<List<BenchResult>> repeats =
                new Bench(base, options, cassandraPids, kafkaPid, dir, new PrintWriter(progress)).run();
        assertThat(repeats).hasSize(1);
        List<BenchResult> results = repeats.get(0);
        System.out.println(progress);
        assertThat(progress.toString())
                .doesNotContain("could not delete")
                .contains("Warmed up the gateway runs (pass-through, topology and sink) with 2,000 readings")
                .contains(
                        "Table options of " + KEYSPACE + ".hive_telemetry_v2: WITH memtable = 'trie' (memtable trie,");
        try (Admin admin = Admin.create(base.kafkaClientSettings())) {
            assertThat(admin.listTopics().names().get()).noneMatch(name -> name.startsWith("apiary-bench-"));
            assertThat(admin.listConsumerGroups().all().get())
                    .extracting(g -> g.groupId())
                    .noneMatch(id -> id.startsWith("apiary-bench-"));
        }

        assertThat(results)
                .extracting(r -> r.run() + "/" + r.shardStrategy())
                .containsExactly(
                        "ceiling/time",
                        "naive/time",
                        "sink/time",
                        "sink-paced/time",
                        "sink/hash",
                        "sink-paced/hash",
                        "pass-through/time",
                        "topology/time",
                        "end-to-end/time",
                        "end-to-end-paced/time");
        for (BenchResult r : results) {
            assertThat(r.completed())
                    .as("%s/%s: %s", r.run(), r.shardStrategy(), r.note())
                    .isTrue();
            assertThat(r.items()).as("%s items in the window", r.run()).isPositive();
            assertThat(r.perSecond()).isPositive();
            assertThat(r.clientCpuMicros()).as("%s client CPU", r.run()).isPositive();
            if (!cassandraPids.isEmpty() && !r.unit().equals("records")) { // topology and pass-through write no rows
                assertThat(r.cassandraCpuMicros())
                        .as("%s Cassandra CPU", r.run())
                        .isPositive();
                // the node's compactions and flushes after the window, read from its system_views.thread_pools
                assertThat(r.cassandraAfterCpuMicros())
                        .as("%s Cassandra CPU after the window", r.run())
                        .isFinite()
                        .isNotNegative();
            }
            assertThat(r.peakHeapMiB()).isPositive();
        }
        assertThat(progress.toString()).contains("Run sink-paced (shard strategy time)...\n  paced at ");
        for (BenchResult r : results.subList(0, 6)) {
            assertThat(r.p99Millis())
                    .as("%s p99", r.run())
                    .isGreaterThanOrEqualTo(r.p50Millis())
                    .isPositive();
            assertThat(r.rowsPerRequest()).isGreaterThanOrEqualTo(1);
        }
        // the ceiling writes whole partitions: 1,000 hives x 30 readings of one 15-minute shard
        assertThat(results.get(0).rowsPerRequest()).isEqualTo(30.0);
        assertThat(results.get(1).rowsPerRequest()).isEqualTo(1.0);
        assertThat(progress.toString())
                .contains("client CPU leaves out the gateway producer's sending and network threads");
        // the last write run was end to end, paced: every gateway reading is a row in Cassandra
        try (CqlSession session = CassandraSessions.open(base)) {
            long count = session.execute(
                            SimpleStatement.newInstance("SELECT COUNT(*) FROM " + KEYSPACE + ".hive_telemetry_v2")
                                    .setTimeout(Duration.ofMinutes(1)))
                    .one()
                    .getLong(0);
            assertThat(count).isEqualTo(new BenchWorkload(100, 1, ShardStrategy.TIME).pacedReadings(5));
        }

        Path file = dir.resolve("bench.json");
        BenchReport.ofSingleRepeat(results, Map.of("test", "BenchIT")).write(file);
        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("runs")).hasSize(10);
        assertThat(json.get("checks").findValuesAsText("name"))
                .contains(
                        "sink/naive rows/s (time)",
                        "sink/ceiling Cassandra CPU per row (hash)",
                        "sink-paced p99 write ms (time)",
                        "topology/pass-through client CPU per record (time)",
                        "sink-paced/sink rows/s (hash)");
    }
}
