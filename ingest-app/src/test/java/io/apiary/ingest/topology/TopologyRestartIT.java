package io.apiary.ingest.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.apiary.ingest.cli.IngestApp;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.HourlyFinals;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once across a crash: the topology runs as a child process ({@code ingest-app run
 * --component topology}) on the real broker, is killed with SIGKILL in the middle of an hour, and
 * restarted on the same state folder; every (hive, hour) then has exactly one final result on
 * hive.activity.hourly.v1, equal to the sums of the samples sent.
 */
class TopologyRestartIT {

    private static final String PREFIX = "restart-it.";
    private static final List<String> HIVES = List.of("r-1", "r-2", "r-3", "r-4", "r-5");
    private static final Instant FIRST = Instant.parse("2021-07-15T10:00:00Z");
    /** Samples every 30 s for 3 hours per hive: 10:00 to 12:59:30. */
    private static final int SAMPLES = 360;

    @TempDir
    Path dir;

    @Test
    void should_emit_exactly_the_input_sums_once_per_hour_after_a_kill_in_the_middle_of_an_hour() throws Exception {
        ItEndpoints stack = SharedStack.get();
        Path configFile = dir.resolve("app.properties");
        List<String> lines = new ArrayList<>(List.of(
                "kafka.bootstrap.servers=" + stack.kafkaBootstrapServers(),
                "topology.application.id=restart-it",
                "topology.state.dir=" + dir.resolve("state"),
                "topic.partitions=4",
                "activity.idle.timeout.ms=5000",
                "activity.update.interval.ms=1000",
                "validation.max.age.ms=" + Duration.ofDays(365 * 20).toMillis()));
        for (String key : IngestConfig.TOPIC_NAME_SETTINGS) {
            lines.add(key + "=" + PREFIX + key);
        }
        stack.registrySettings().forEach((k, v) -> lines.add(k + "=" + v));
        Files.write(configFile, lines);
        IngestConfig config = ConfigLoader.load(configFile, Map.of(), Map.of());
        Topics topics = config.topics();
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.createMissing(admin, config);
        }

        List<EntranceCount> samples = HourlyFinals.samples(HIVES, FIRST, SAMPLES, 20211115L);
        Map<String, List<Long>> expected = HourlyFinals.sums(samples);
        int half = samples.size() / 2 + 7 * HIVES.size(); // up to 11:33:30, in the middle of hour 11

        Process first = startTopology(configFile, "run-1.log");
        try {
            try (GatewayProducer producer = producer(config, topics)) {
                samples.subList(0, half).forEach(producer::send);
                producer.flush();
            }
            // Hour 10 closed (stream time >= 11:10) proves the topology is inside hour 11 now.
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() ->
                            HourlyFinals.read(config, Duration.ofSeconds(2)).size() >= HIVES.size());
        } finally {
            first.destroyForcibly(); // SIGKILL: no close, no commit, the open transaction is aborted
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        Process second = startTopology(configFile, "run-2.log");
        try {
            try (GatewayProducer producer = producer(config, topics)) {
                samples.subList(half, samples.size()).forEach(producer::send);
                producer.flush();
            }
            // The last hour closes by the quiet-partition rule (5 s idle timeout).
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() ->
                            HourlyFinals.read(config, Duration.ofSeconds(2)).size() >= expected.size());
            Thread.sleep(3_000);
            List<HourlyActivity> finals = HourlyFinals.read(config, Duration.ofSeconds(5));

            HourlyFinals.assertExactlyOnce(finals, expected);
            // After a SIGKILL, RocksDB stores without a checkpoint cannot be trusted under exactly-once:
            // Kafka Streams wipes them and restores them from their changelogs, logging the
            // TaskCorruptedException it recovers from at ERROR. Nothing else may be an error.
            assertThat(Files.readAllLines(dir.resolve("run-2.log")).stream()
                            .filter(line -> line.contains("ERROR") && !line.contains("TaskCorruptedException")))
                    .isEmpty();
        } finally {
            second.destroy();
            if (!second.waitFor(60, TimeUnit.SECONDS)) {
                second.destroyForcibly();
            }
        }
    }

    private static GatewayProducer producer(IngestConfig config, Topics topics) {
        return new GatewayProducer(config.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic());
    }

    private Process startTopology(Path configFile, String log) throws Exception {
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        IngestApp.class.getName(),
                        "run",
                        "--component",
                        "topology",
                        "--config",
                        configFile.toString(),
                        "--set",
                        "http.port=0")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(log).toFile())
                .start();
    }
}
