package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.bench.BenchWorkload;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.AppProcess;
import io.apiary.ingest.it.HourlyFinals;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker killed with SIGKILL and started again on its ports with its data
 * ({@link LocalStack#restart}) while a topology process and a sink process run, records in flight:
 * both recover by themselves, without a restart, and the output is exact: every reading is one row
 * of {@code hive_telemetry_v2}, every (hive, hour) has one final on {@code hive.activity.hourly.v1}
 * (read committed) with the sums of its samples, nothing is late or dead-lettered.
 *
 * <p>It restarts the shared broker. Integration tests run one class at a time in one failsafe JVM
 * (no parallel execution is configured), and this test returns only once the broker is running and
 * every partition of its topics has a leader again, so the classes after it find the broker as
 * before (the registry keeps its schemas in a database of its own, not in Kafka). Skipped on
 * Testcontainers, whose broker cannot be restarted on the same port.
 *
 * <p>Figures, on a line starting with {@code BROKER-RESTART-IT}, in seconds from the SIGKILL: the
 * broker ready again (and its start alone), both processes ready, and every row written and every
 * hour's final committed (the input's second half is sent once the broker is back).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BrokerRestartIT {

    private static final String NAME = "broker-restart";
    private static final String READY = "/health/ready";
    private static final int HIVES = 10;
    /** Readings of the telemetry topic, each a distinct row. */
    private static final int READINGS = 2_000;

    private static final Instant HOUR = Instant.parse("2021-07-15T10:00:00Z");
    /** Entrance-counter samples of each hive, one every 30 s: the whole hour. */
    private static final int SAMPLES_PER_HIVE = 120;

    @TempDir
    Path dir;

    @Test
    void a_topology_and_a_sink_recover_by_themselves_from_a_broker_restart_and_the_output_stays_exact()
            throws Exception {
        LocalStack local = SharedStack.localStackOrSkip("restart the broker");
        Map<String, Object> settings = ItPipelineSettings.settings(
                NAME,
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS, 2,
                        // hours close by stream time only
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                                Duration.ofMinutes(30).toMillis(),
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS, 1_000));
        IngestConfig config = ItPipelineSettings.of(NAME, settings);
        Topics topics = config.topics();
        String table = config.getString(IngestConfig.CASSANDRA_KEYSPACE) + ".hive_telemetry_v2";
        BenchWorkload workload = new BenchWorkload(HIVES, 96, ShardStrategy.TIME);
        List<String> hives =
                IntStream.range(0, HIVES).mapToObj(BenchWorkload::hiveId).toList();
        List<EntranceCount> hour = HourlyFinals.samples(hives, HOUR, SAMPLES_PER_HIVE, 20211205L);
        Map<String, List<Long>> expected = HourlyFinals.sums(hour);

        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
            session.execute(SimpleStatement.newInstance("TRUNCATE " + table).setTimeout(Duration.ofMinutes(1)));
            awaitLeaders(config);
            try (AppProcess topology = AppProcess.start("topology", settings, dir.resolve("topology.log"));
                    AppProcess sink = AppProcess.start("sink", settings, dir.resolve("sink.log"))) {
                AppProcess.await(
                        "topology and sink ready",
                        Duration.ofMinutes(3),
                        () -> topology.status(READY) == 200 && sink.status(READY) == 200,
                        topology,
                        sink);
                // Given the first half of the input sent, and rows being written
                send(config, workload, 0, READINGS / 2, hour.subList(0, hour.size() / 2));
                AppProcess.await(
                        "the first rows written",
                        Duration.ofMinutes(2),
                        () -> sink.metric("apiary_sink_rows_written_total") > 0,
                        topology,
                        sink);

                // When the broker is killed and started again on its ports, with its data
                long killedAt = System.nanoTime();
                Duration startup;
                try {
                    startup = local.restart(LocalStack.Server.KAFKA, true);
                } finally {
                    local.start(LocalStack.Server.KAFKA); // nothing if it runs: never leave the shared broker down
                }
                double back = secondsSince(killedAt);
                send(config, workload, READINGS / 2, READINGS, hour.subList(hour.size() / 2, hour.size()));
                // a sample at 11:15 of each hive: every partition's stream time passes 10:00 + 1 h + 10 min grace
                try (GatewayProducer producer = producer(config)) {
                    for (String hive : hives) {
                        producer.send(new EntranceCount(hive, "gw", HOUR.plus(Duration.ofMinutes(75)), 1, 1, 30));
                    }
                    producer.flush();
                }

                // Then both recover by themselves and the output is exact
                AppProcess.await(
                        "topology and sink ready again",
                        Duration.ofMinutes(2),
                        () -> topology.status(READY) == 200 && sink.status(READY) == 200,
                        topology,
                        sink);
                double ready = secondsSince(killedAt);
                AppProcess.await(
                        "every reading a row in Cassandra and every hour's final committed",
                        Duration.ofMinutes(2),
                        () -> count(session, table) >= READINGS
                                && HourlyFinals.read(config, Duration.ofSeconds(1))
                                                .size()
                                        >= expected.size(),
                        topology,
                        sink);
                double complete = secondsSince(killedAt);
                List<HourlyActivity> finals = HourlyFinals.read(config, Duration.ofSeconds(3));
                long rows = count(session, table);
                long late;
                long deadLetters;
                try (LagProbe probe = new LagProbe(config.kafkaClientSettings())) {
                    late = probe.countRecords(topics.activityLate());
                    deadLetters = probe.countRecords(topics.deadLetter());
                }
                System.out.printf(
                        "BROKER-RESTART-IT broker back %.1f s after the SIGKILL (its start %.1f s); topology and "
                                + "sink ready %.1f s after it, every row and final there %.1f s after it; %,d rows "
                                + "of %,d readings, %d finals of %d (hive, hour), %d late, %d dead letters; log lines "
                                + "at WARN or ERROR: topology %d, sink %d%n",
                        back,
                        startup.toMillis() / 1e3,
                        ready,
                        complete,
                        rows,
                        READINGS,
                        finals.size(),
                        expected.size(),
                        late,
                        deadLetters,
                        warnings(topology),
                        warnings(sink));
                assertThat(topology.isAlive())
                        .as("the topology process runs on")
                        .isTrue();
                assertThat(sink.isAlive()).as("the sink process runs on").isTrue();
                assertThat(topology.status("/health/live")).as("topology live").isEqualTo(200);
                assertThat(sink.status("/health/live")).as("sink live").isEqualTo(200);
                assertThat(rows).as("rows of hive_telemetry_v2").isEqualTo(READINGS);
                HourlyFinals.assertExactlyOnce(finals, expected);
                assertThat(late).as("late samples").isZero();
                assertThat(deadLetters).as("dead letters").isZero();
            }
        } finally {
            awaitLeaders(config); // the shared broker serves the next test class as before
        }
    }

    /** Sends readings {@code from .. to - 1} of the workload and the samples, and waits for Kafka's acknowledgement. */
    private static void send(
            IngestConfig config, BenchWorkload workload, int from, int to, List<EntranceCount> samples) {
        try (GatewayProducer producer = producer(config)) {
            for (int i = from; i < to; i++) {
                producer.send(workload.reading(i));
            }
            samples.forEach(producer::send);
            producer.flush();
        }
    }

    private static GatewayProducer producer(IngestConfig config) {
        return new GatewayProducer(
                config.kafkaClientSettings(),
                config.topics().telemetryTopic(),
                config.topics().entranceCountsTopic());
    }

    private static void awaitLeaders(IngestConfig config) {
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.awaitLeaders(admin, config.topics().all(), Duration.ofMinutes(1));
        }
    }

    private static long count(CqlSession session, String table) {
        return session.execute(SimpleStatement.newInstance("SELECT COUNT(*) FROM " + table)
                        .setTimeout(Duration.ofSeconds(30)))
                .one()
                .getLong(0);
    }

    /** @return the process's log lines at WARN or ERROR (Kafka's clients warn while the broker is away) */
    private static long warnings(AppProcess process) {
        return process.log()
                .lines()
                .filter(l -> l.contains(" WARN ") || l.contains(" ERROR "))
                .count();
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }
}
