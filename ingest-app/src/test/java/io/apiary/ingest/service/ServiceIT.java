package io.apiary.ingest.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.AppProcess;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} as Kubernetes runs it, on a local stack of its own (this test stops its Cassandra
 * node): the three HTTP endpoints, readiness through a Cassandra outage, and SIGTERM.
 */
class ServiceIT {

    private static final String KEYSPACE = "service_it";
    private static final int HIVES = 10;
    private static LocalStack stack;

    @TempDir
    Path dir;

    @BeforeAll
    static void startStack() {
        stack = LocalStack.start(LocalStackOptions.defaults());
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    private static Map<String, Object> settings() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(IngestConfig.KAFKA_BOOTSTRAP_SERVERS, stack.kafkaBootstrapServers());
        settings.put(
                IngestConfig.CASSANDRA_CONTACT_POINTS,
                stack.cassandraContactPoint().getHostString() + ":"
                        + stack.cassandraContactPoint().getPort());
        settings.put(IngestConfig.CASSANDRA_LOCAL_DATACENTER, stack.cassandraLocalDatacenter());
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
        settings.put(
                io.apiary.ingest.serde.RegistrySettings.REGISTRY_URL,
                stack.registry().orElseThrow().confluentApiUrl());
        settings.put(IngestConfig.TOPIC_PARTITIONS, 2);
        settings.put("shutdown.timeout.ms", 30_000);
        settings.put(IngestConfig.SINK_DRAIN_TIMEOUT_MS, 10_000);
        return settings;
    }

    private static long rows(IngestConfig config) {
        try (CqlSession session = CassandraSessions.open(config)) {
            return session.execute("SELECT COUNT(*) FROM " + KEYSPACE + ".hive_telemetry_v2")
                    .one()
                    .getLong(0);
        }
    }

    private static void send(IngestConfig config, Instant start, int perHive) {
        try (GatewayProducer producer = new GatewayProducer(
                config.kafkaClientSettings(),
                config.topics().telemetryTopic(),
                config.topics().entranceCountsTopic())) {
            for (int i = 0; i < perHive; i++) {
                for (int hive = 0; hive < HIVES; hive++) {
                    producer.send(new TelemetryReading(
                            "service-hive-" + hive,
                            "gw",
                            SensorType.TEMPERATURE,
                            "default",
                            start.plusSeconds(i),
                            30.0 + i % 10,
                            "degC",
                            null));
                }
            }
            producer.flush();
        }
    }

    @Test
    void should_serve_health_and_metrics_and_turn_unready_while_cassandra_is_down_and_ready_when_it_returns()
            throws Exception {
        IngestConfig config = ConfigLoader.load(null, Map.of(), settings());
        try (CqlSession session = CassandraSessions.open(config);
                Admin admin = Admin.create(config.kafkaClientSettings())) {
            SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
            TopicProvisioner.createMissing(admin, config);
        }
        Instant start = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES);
        try (AppProcess app = AppProcess.start("all", settings(), dir.resolve("run.log"))) {
            // Given a running application
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> app.status("/health/ready") == 200);
            HttpResponse<String> live = app.get("/health/live");
            HttpResponse<String> ready = app.get("/health/ready");
            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(ready.body())
                    .contains(
                            "\"topology\":{\"status\":\"UP\",\"detail\":\"state RUNNING\"}",
                            "\"sink\":{\"status\":\"UP\"",
                            "1 Cassandra node(s) connected");
            send(config, start, 100);
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(() -> rows(config) == 100L * HIVES);
            HttpResponse<String> metrics = app.get("/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.headers().firstValue("Content-Type"))
                    .hasValue("text/plain; version=0.0.4; charset=utf-8");
            assertThat(metrics.body())
                    .containsPattern(
                            "apiary_sink_rows_written_total\\{[^}]*component=\"all\"[^}]*table=\"hive_telemetry_v2\"[^}]*} 1000.0")
                    .contains(
                            "kafka_stream_thread_process_total",
                            "kafka_consumer_fetch_manager_records_consumed_total",
                            "cassandra_session_cql_requests_seconds",
                            "cassandra_nodes_pool_open_connections",
                            "jvm_memory_used_bytes",
                            "process_cpu_usage");

            // When Cassandra stops
            stack.cassandra().stop();
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> app.status("/health/ready") == 503);
            HttpResponse<String> unready = app.get("/health/ready");
            System.out.printf("SERVICE-IT readiness with Cassandra stopped: %s", unready.body());
            assertThat(unready.body()).contains("\"topology\":{\"status\":\"UP\"", "\"sink\":{\"status\":\"DOWN\"");
            assertThat(app.status("/health/live"))
                    .as("an outage is not a reason to restart")
                    .isEqualTo(200);
            send(config, start.plusSeconds(100), 50);

            // Then it turns ready again when Cassandra returns, and writes what came meanwhile
            stack.cassandra().start();
            long back = System.nanoTime();
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> app.status("/health/ready") == 200);
            System.out.printf(
                    "SERVICE-IT ready again %.1f s after Cassandra was ready: %s",
                    (System.nanoTime() - back) / 1e9, app.get("/health/ready").body());
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(() -> rows(config) == 150L * HIVES);

            // And SIGTERM stops it cleanly within the shutdown timeout
            long term = System.nanoTime();
            app.sigterm();
            assertThat(app.waitFor(Duration.ofSeconds(40)))
                    .as("exits within shutdown.timeout.ms + 10 s")
                    .isTrue();
            System.out.printf(
                    "SERVICE-IT exit %d, %.1f s after SIGTERM%n", app.exitValue(), (System.nanoTime() - term) / 1e9);
            assertThat(app.exitValue()).isEqualTo(143);
            assertThat(app.log())
                    .contains("Cassandra sink stopped; offsets committed", "Stopped cleanly")
                    .doesNotContain("ERROR");
        }
    }

    @Test
    void should_wait_live_and_unready_for_cassandra_when_it_is_down_at_start() throws Exception {
        // Given no Cassandra node when the sink starts (as when its pods start first)
        stack.cassandra().stop();
        try (AppProcess sink = AppProcess.start("sink", settings(), dir.resolve("sink.log"))) {
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> sink.get("/health/ready").body().contains("waiting for Cassandra"));
            assertThat(sink.status("/health/ready")).isEqualTo(503);
            assertThat(sink.status("/health/live")).isEqualTo(200);
            // When Cassandra starts, then the sink starts and turns ready
            stack.cassandra().start();
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> sink.status("/health/ready") == 200);
            System.out.printf(
                    "SERVICE-IT sink started after Cassandra: %s",
                    sink.get("/health/ready").body());
            sink.sigterm();
            assertThat(sink.waitFor(Duration.ofSeconds(40))).isTrue();
            assertThat(sink.exitValue()).isEqualTo(143);
            assertThat(sink.log()).contains("No Cassandra node answers yet").doesNotContain("ERROR");
        } finally {
            stack.cassandra().start();
        }
    }
}
