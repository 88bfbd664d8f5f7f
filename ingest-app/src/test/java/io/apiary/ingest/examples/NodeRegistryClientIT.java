package io.apiary.ingest.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.RegistryOptions;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.testing.ExternalTools;
import io.apiary.ingest.topics.Topics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A gateway and an analyst outside the JVM, with the standard registry-aware serializer of their
 * ecosystem: Node.js, {@code kafkajs} and {@code @kafkajs/confluent-schema-registry}, installed
 * from the npm registry by {@code npm ci} (versions pinned by {@code src/test/node/registry-client/
 * package-lock.json}). The gateway produces readings and entrance counts in registry framing to
 * the pipeline's topics; the pipeline writes the readings to Cassandra and the hourly results; the
 * analyst reads the results back with the same library. Skipped, with a message naming them, when
 * {@code node} or {@code npm} is not on the PATH.
 */
class NodeRegistryClientIT {

    private static final int HIVES = 3;
    private static final int SAMPLES = 12;
    private static final Path SOURCE = Path.of("src", "test", "node", "registry-client");
    private static final Path WORK = Path.of("target", "node-registry-client");

    @Test
    void a_node_gateway_and_analyst_write_and_read_the_topics_with_exact_counts_and_hourly_sums() throws Exception {
        ExternalTools.require(
                "NodeRegistryClientIT (a non-JVM registry-aware client)",
                "install Node.js 18 or later with npm; .ci/run's machines have it",
                "node",
                "npm");
        install();
        IngestConfig config = ItPipelineSettings.of(
                "node-client",
                Map.of(
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                        5_000L,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS,
                        1_000L));
        Topics topics = config.topics();
        Map<String, String> env = new HashMap<>();
        env.put("BOOTSTRAP", String.join(",", config.getList(IngestConfig.KAFKA_BOOTSTRAP_SERVERS)));
        env.put("REGISTRY_URL", config.getString(RegistryOptions.REGISTRY_URL));
        env.put("TELEMETRY_TOPIC", topics.telemetry());
        env.put("COUNTS_TOPIC", topics.entranceCounts());
        env.put("HOURLY_TOPIC", topics.hourlyActivity());
        env.put("HIVES", Integer.toString(HIVES));
        env.put("SAMPLES", Integer.toString(SAMPLES));

        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
            // Registers the subjects the gateway looks its schema ids up in.
            try (Pipeline pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry())) {
                List<String> produced = node(env, "produce", Duration.ofMinutes(2));
                assertThat(produced).anyMatch(line -> line.contains("\"telemetry\":" + HIVES * SAMPLES));

                env.put("EXPECT", Integer.toString(HIVES));
                env.put("TIMEOUT_MS", "150000");
                List<JsonNode> hours = new ArrayList<>();
                ObjectMapper json = new ObjectMapper();
                for (String line : node(env, "consume", Duration.ofMinutes(3))) {
                    hours.add(json.readTree(line));
                }
                assertThat(hours).hasSize(HIVES);
                for (int h = 0; h < HIVES; h++) {
                    String hive = "node-" + h;
                    JsonNode hour = hours.stream()
                            .filter(n -> n.get("hive_id").asText().equals(hive))
                            .findFirst()
                            .orElseThrow(() -> new AssertionError("no hourly result for " + hive + ": " + hours));
                    long entries = 0;
                    long exits = 0;
                    for (int s = 0; s < SAMPLES; s++) {
                        entries += (h * 7 + s * 3) % 13; // client.js's formulas
                        exits += (h * 5 + s * 2) % 11;
                    }
                    assertThat(hour.get("key").asText()).isEqualTo(hive);
                    assertThat(hour.get("window_start").asLong())
                            .isEqualTo(Instant.parse("2021-07-15T10:00:00Z").toEpochMilli());
                    assertThat(hour.get("entries").asLong()).as(hive).isEqualTo(entries);
                    assertThat(hour.get("exits").asLong()).as(hive).isEqualTo(exits);
                    assertThat(hour.get("samples").asInt()).isEqualTo(SAMPLES);
                }
                String keyspace = config.getString(IngestConfig.CASSANDRA_KEYSPACE);
                await().atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofSeconds(1))
                        .untilAsserted(() -> assertThat(
                                        session.execute("SELECT count(*) FROM " + keyspace + ".hive_telemetry_v2")
                                                .one()
                                                .getLong(0))
                                .isEqualTo((long) HIVES * SAMPLES));
                assertThat(session.execute("SELECT sensor_id FROM " + keyspace + ".hive_telemetry_v2 LIMIT 1")
                                .one()
                                .getString(0))
                        .isEqualTo("brood");
            }
        }
    }

    private static void install() throws IOException, InterruptedException {
        Files.createDirectories(WORK);
        for (String file : List.of("package.json", "package-lock.json", "client.js")) {
            Files.copy(SOURCE.resolve(file), WORK.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        run(List.of("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"), Map.of(), Duration.ofMinutes(5));
    }

    private static List<String> node(Map<String, String> env, String mode, Duration timeout)
            throws IOException, InterruptedException {
        return run(List.of("node", "client.js", mode), env, timeout);
    }

    private static List<String> run(List<String> command, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(WORK.toFile())
                .redirectError(
                        WORK.resolve(command.get(command.size() - 1) + ".err").toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not end within " + timeout);
        }
        String stdout = new String(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(WORK.resolve(command.get(command.size() - 1) + ".err"));
        assertThat(process.exitValue())
                .as("%s\nstdout: %s\nstderr: %s", command, stdout, stderr)
                .isZero();
        return stdout.lines().filter(line -> !line.isBlank()).toList();
    }
}
