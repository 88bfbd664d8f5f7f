package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.bench.BenchWorkload;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.it.AppProcess;
import io.apiary.ingest.it.CommittedRows;
import io.apiary.ingest.it.GroupView;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM while the sink holds rows, as Kubernetes stops a pod: the sink sends what it holds,
 * waits for Cassandra up to {@code sink.drain.timeout.ms}, abandons the rest deliberately,
 * commits only acknowledged rows and exits within {@code shutdown.timeout.ms}; the next instance
 * writes the rest (what was abandoned, and what was never polled). Nothing is lost either way.
 */
class ShutdownDrainIT {

    private static final String KEYSPACE = "drain_it";
    private static final int ROWS = 30_000;
    private static final long SHUTDOWN_TIMEOUT_MS = 15_000;
    private static final long DRAIN_TIMEOUT_MS = 5_000;
    private static final int FIRST_BUFFER_ROWS = 2_000;
    private static final int FIRST_POLL_RECORDS = 500;

    @TempDir
    Path dir;

    private static Map<String, Object> settings(ItEndpoints stack, Map<String, Object> extra) {
        Map<String, Object> settings = new HashMap<>(stack.clientSettings());
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
        settings.put(IngestConfig.SINK_GROUP_ID, "drain-it-sink");
        settings.put(IngestConfig.TOPIC_PARTITIONS, 4);
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, "drain-it." + topic);
        }
        settings.put(IngestConfig.SINK_DRAIN_TIMEOUT_MS, DRAIN_TIMEOUT_MS);
        settings.put("shutdown.timeout.ms", SHUTDOWN_TIMEOUT_MS);
        settings.putAll(extra);
        return settings;
    }

    @Test
    void should_commit_only_written_rows_and_exit_within_the_shutdown_timeout_when_sigterm_comes_during_a_drain()
            throws Exception {
        ItEndpoints stack = SharedStack.get();
        IngestConfig config = ConfigLoader.load(null, Map.of(), settings(stack, Map.of()));
        Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic =
                config.topics().telemetryRowsTopic();
        try (CqlSession session = CassandraSessions.open(config);
                Admin admin = Admin.create(config.kafkaClientSettings())) {
            SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
            session.execute(SimpleStatement.newInstance("TRUNCATE " + KEYSPACE + ".hive_telemetry_v2")
                    .setTimeout(Duration.ofMinutes(1)));
            TopicProvisioner.createMissing(admin, config);
            TopicProvisioner.awaitLeaders(admin, List.of(topic.name()), Duration.ofMinutes(1));
        }
        new BenchWorkload(300, 96, ShardStrategy.TIME).sendRows(config.kafkaClientSettings(), topic, ROWS, "lz4");

        // Given a sink that may write only 150 rows/s, holding 1,000 to 2,000 rows (plus one poll of 500) when
        // stopped (it resumes polling below half its bound): more than the drain timeout's 750
        try (AppProcess first = AppProcess.start(
                "sink",
                settings(
                        stack,
                        Map.of(
                                IngestConfig.SINK_MAX_ROWS_PER_SECOND,
                                150,
                                IngestConfig.SINK_MAX_BUFFERED_ROWS,
                                FIRST_BUFFER_ROWS,
                                "sink.consumer.max.poll.records",
                                FIRST_POLL_RECORDS)),
                dir.resolve("first.log"))) {
            awaitWriting(first, 2_000);
            // When Kubernetes stops it: its drain cannot finish within sink.drain.timeout.ms
            double seconds = stop(first);
            // Then it exits within the shutdown timeout, having committed only rows Cassandra holds
            System.out.printf(
                    "DRAIN-IT cut short: exit %d %.1f s after SIGTERM (shutdown.timeout.ms %d)%n",
                    first.exitValue(), seconds, SHUTDOWN_TIMEOUT_MS);
            assertThat(seconds).isLessThan(SHUTDOWN_TIMEOUT_MS / 1000.0 + 5);
            assertThat(first.exitValue()).isEqualTo(143);
            assertThat(first.log())
                    .contains("Drain timeout (5000 ms) passed", "Cassandra sink stopped; offsets committed")
                    .doesNotContain("ERROR");
        }
        Set<String> stored = CommittedRows.stored(config);
        Map<TopicPartition, Long> committed = committed(config);
        long committedRows = CommittedRows.checkStored(config, committed, stored);
        System.out.printf(
                "DRAIN-IT cut short: %,d rows committed, %,d in Cassandra, of %,d%n",
                committedRows, stored.size(), ROWS);
        // The committed offsets trail the written rows by at most what the sink held: the rows of a
        // Kafka partition interleave hives, and an offset is committed once every row before it is written
        assertThat(committedRows)
                .isGreaterThanOrEqualTo(stored.size() - FIRST_BUFFER_ROWS - FIRST_POLL_RECORDS)
                .isPositive()
                .isLessThan(ROWS);

        // Given the next instance, faster, with time to drain, stopped as soon as it writes
        try (AppProcess second = AppProcess.start(
                "sink",
                settings(
                        stack,
                        Map.of(
                                IngestConfig.SINK_MAX_ROWS_PER_SECOND,
                                10_000,
                                IngestConfig.SINK_DRAIN_TIMEOUT_MS,
                                20_000,
                                "shutdown.timeout.ms",
                                30_000)),
                dir.resolve("second.log"))) {
            awaitWriting(second, 1_000);
            double heldAtSigterm = second.metric("apiary_sink_buffered_rows");
            double seconds = stop(second);
            System.out.printf(
                    "DRAIN-IT drained: %,.0f rows held at SIGTERM; exit %d %.1f s after it%n",
                    heldAtSigterm, second.exitValue(), seconds);
            assertThat(seconds).isLessThan(35);
            assertThat(second.exitValue()).isEqualTo(143);
            assertThat(second.log())
                    .contains("Cassandra sink stopped; offsets committed")
                    .doesNotContain("Drain timeout", "ERROR");
        }
        long committedAfterDrain = CommittedRows.checkStored(config, committed(config), CommittedRows.stored(config));
        System.out.printf("DRAIN-IT drained: %,d rows committed in all%n", committedAfterDrain);
        assertThat(committedAfterDrain).isGreaterThan(committedRows);

        // Then the next instance writes what neither had polled, and nothing is lost
        try (AppProcess third = AppProcess.start("sink", settings(stack, Map.of()), dir.resolve("third.log"));
                LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> third.status("/health/ready") == 200
                            && lag.lag("drain-it-sink", List.of(topic.name())) == 0);
            stop(third);
            assertThat(third.exitValue()).isEqualTo(143);
        }
        Set<String> all = CommittedRows.stored(config);
        Map<TopicPartition, Long> finalCommitted = committed(config);
        assertThat(CommittedRows.checkStored(config, finalCommitted, all))
                .as("rows below the committed offsets %s", finalCommitted)
                .isEqualTo(ROWS);
        assertThat(all).hasSize(ROWS);
    }

    /** Waits until the sink has written {@code rows} rows (from its {@code /metrics}). */
    private static void awaitWriting(AppProcess sink, long rows) {
        try {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> sink.metric("apiary_sink_rows_written_total") >= rows);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            String log = sink.log();
            throw new AssertionError(
                    String.format(
                            "The sink did not write %,d rows within 2 minutes; end of its " + "log:%n%s",
                            rows, log.substring(Math.max(0, log.length() - 4_000))),
                    e);
        }
    }

    /** @return seconds from SIGTERM to exit */
    private static double stop(AppProcess sink) throws InterruptedException {
        long start = System.nanoTime();
        sink.sigterm();
        assertThat(sink.waitFor(Duration.ofMillis(SHUTDOWN_TIMEOUT_MS * 2)))
                .as("exits after SIGTERM")
                .isTrue();
        return (System.nanoTime() - start) / 1e9;
    }

    private static Map<TopicPartition, Long> committed(IngestConfig config) {
        try (GroupView group = new GroupView(config.kafkaClientSettings(), "drain-it-sink")) {
            return group.committed();
        }
    }
}
