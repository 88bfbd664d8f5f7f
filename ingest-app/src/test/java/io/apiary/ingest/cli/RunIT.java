package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingest-app run} as a separate process configured by a file and an environment variable,
 * stopped with SIGTERM.
 */
class RunIT {

    private static final String KEYSPACE = "run_it";
    private static final int READINGS = 500;

    @TempDir
    Path dir;

    @Test
    void should_write_what_gateways_send_and_stop_cleanly_with_offsets_committed_on_sigterm() throws Exception {
        ItEndpoints stack = SharedStack.get();
        String contactPoint = stack.cassandraContactPointSetting();
        Path configFile = dir.resolve("app.properties");
        Files.writeString(
                configFile,
                String.join(
                        "\n",
                        "kafka.bootstrap.servers=" + stack.kafkaBootstrapServers(),
                        "cassandra.contact.points=" + contactPoint,
                        "cassandra.local.datacenter=" + stack.cassandraLocalDatacenter(),
                        "topology.application.id=run-it",
                        "topology.state.dir=" + dir.resolve("state"),
                        "sink.group.id=run-it-sink",
                        "topic.telemetry=run-it.telemetry",
                        "topic.entrance.counts=run-it.counts",
                        "topic.hourly.activity=run-it.hourly",
                        "topic.telemetry.rows=run-it.rows.telemetry",
                        "topic.activity.rows=run-it.rows.activity",
                        "topic.dead.letter=run-it.dead-letter",
                        "topic.activity.late=run-it.late",
                        "topic.weather=run-it.weather",
                        "topic.alerts=run-it.alerts",
                        "topic.weather.rows=run-it.rows.weather",
                        "topic.alert.rows=run-it.rows.alerts",
                        "validation.max.age.ms=" + Duration.ofDays(365 * 20).toMillis(),
                        registrySetting(stack),
                        ""));
        // The keyspace comes from the environment, as in a container.
        IngestConfig config = ConfigLoader.load(configFile, Map.of("APIARY_CASSANDRA_KEYSPACE", KEYSPACE), Map.of());
        try (CqlSession session = CassandraSessions.open(config);
                Admin admin = Admin.create(config.kafkaClientSettings())) {
            SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
            TopicProvisioner.createMissing(admin, config);
        }

        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        IngestApp.class.getName(),
                        "run",
                        "--config",
                        configFile.toString(),
                        "--set",
                        "http.port=0")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("run.log").toFile());
        builder.environment().put("APIARY_CASSANDRA_KEYSPACE", KEYSPACE);
        Process run = builder.start();
        try {
            Topics topics = config.topics();
            try (GatewayProducer producer = new GatewayProducer(
                    config.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic())) {
                Instant start = Instant.parse("2021-07-15T10:00:00Z");
                for (int i = 0; i < READINGS; i++) {
                    producer.send(new TelemetryReading(
                            "run-hive",
                            "gw",
                            SensorType.WEIGHT,
                            "default",
                            start.plusSeconds(i),
                            40.0 + i / 10.0,
                            "kg",
                            null));
                }
                producer.flush();
            }
            try (CqlSession session = CassandraSessions.open(config)) {
                await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofSeconds(1))
                        .ignoreExceptions()
                        .untilAsserted(() -> assertThat(session.execute(
                                                "SELECT COUNT(*) FROM " + KEYSPACE
                                                        + ".hive_telemetry_v2 WHERE hive_id = 'run-hive' AND day = '2021-07-15' AND shard = 40")
                                        .one()
                                        .getLong(0))
                                .isEqualTo(READINGS));
            }

            run.destroy(); // SIGTERM
            assertThat(run.waitFor(60, TimeUnit.SECONDS))
                    .as("exits within 60 s of SIGTERM")
                    .isTrue();

            try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
                assertThat(lag.lag("run-it-sink", List.of(topics.telemetryRows(), topics.activityRows())))
                        .isZero();
                assertThat(lag.lag("run-it", List.of(topics.telemetry(), topics.entranceCounts())))
                        .isZero();
            }
            assertThat(Files.readString(dir.resolve("run.log")))
                    .contains("Cassandra sink stopped; offsets committed")
                    .doesNotContain("ERROR");
        } finally {
            run.destroyForcibly();
        }
    }

    /** @return the stack's wire format setting as a properties line */
    private static String registrySetting(ItEndpoints stack) {
        return stack.registrySettings().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining("\n"));
    }
}
