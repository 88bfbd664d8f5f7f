package io.apiary.ingest.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.topics.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the integration tests of gateways and analysts outside the JVM share: the settings handed to
 * the client program, running it, and the checks of its results. A client produces {@value #SAMPLES}
 * readings and entrance counts, five minutes apart from 2021-07-15T10:00Z, for each of
 * {@value #HIVES} hives named {@code <prefix>-<h>}, with {@code bees_in = (h * 7 + s * 3) % 13} and
 * {@code bees_out = (h * 5 + s * 2) % 11} for sample {@code s}; its analyst prints one JSON line per
 * hourly result. Not thread-safe.
 */
final class RegistryClientChecks {

    static final int HIVES = 3;
    static final int SAMPLES = 12;

    private RegistryClientChecks() {}

    /**
     * @param name the test's short name for {@link ItPipelineSettings#of}, not null
     * @return the test's configuration: hours close 5 s after a hive's last sample
     */
    static IngestConfig config(String name) {
        return ItPipelineSettings.of(
                name,
                Map.of(
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                        5_000L,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS,
                        1_000L));
    }

    /**
     * @param config the test's configuration, not null
     * @return the client's environment: BOOTSTRAP, REGISTRY_URL, the three topics, HIVES, SAMPLES,
     *     EXPECT (one result per hive) and TIMEOUT_MS (150 s); a new mutable map
     */
    static Map<String, String> environment(IngestConfig config) {
        Topics topics = config.topics();
        Map<String, String> env = new HashMap<>();
        env.put("BOOTSTRAP", String.join(",", config.getList(IngestConfig.KAFKA_BOOTSTRAP_SERVERS)));
        env.put("REGISTRY_URL", config.getString(RegistrySettings.REGISTRY_URL));
        env.put("TELEMETRY_TOPIC", topics.telemetry());
        env.put("COUNTS_TOPIC", topics.entranceCounts());
        env.put("HOURLY_TOPIC", topics.hourlyActivity());
        env.put("HIVES", Integer.toString(HIVES));
        env.put("SAMPLES", Integer.toString(SAMPLES));
        env.put("EXPECT", Integer.toString(HIVES));
        env.put("TIMEOUT_MS", "150000");
        return env;
    }

    /**
     * Runs a program to its end; its standard output is also kept as {@code <last argument>.out} and
     * its standard error as {@code .err} in {@code dir}.
     *
     * @return its standard output's non-blank lines
     * @throws AssertionError if it does not end within {@code timeout} or exits other than 0 (the
     *     message holds both outputs)
     */
    static List<String> run(List<String> command, Path dir, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        String name = Path.of(command.get(command.size() - 1)).getFileName().toString();
        Path stderrFile = dir.resolve(name + ".err");
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(dir.toFile()).redirectError(stderrFile.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not end within " + timeout);
        }
        String stdout = new String(out, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(name + ".out"), stdout);
        String stderr = Files.readString(stderrFile);
        assertThat(process.exitValue())
                .as("%s\nstdout: %s\nstderr: %s", command, stdout, stderr)
                .isZero();
        return stdout.lines().filter(line -> !line.isBlank()).toList();
    }

    /**
     * Checks the analyst's lines: exactly one result per hive, keyed by the hive, for the hour of
     * 2021-07-15T10:00Z, with the exact sums of the formulas above and {@value #SAMPLES} samples.
     *
     * @param lines  the analyst's JSON lines ({@code key}, {@code hive_id}, {@code window_start} in
     *     epoch milliseconds, {@code entries}, {@code exits}, {@code samples}), not null
     * @param prefix the hive ids' prefix, e.g. {@code "node"}, not null
     */
    static void assertHourlySums(List<String> lines, String prefix) throws IOException {
        List<JsonNode> hours = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : lines) {
            hours.add(json.readTree(line));
        }
        assertThat(hours).hasSize(HIVES);
        for (int h = 0; h < HIVES; h++) {
            String hive = prefix + "-" + h;
            JsonNode hour = hours.stream()
                    .filter(n -> n.get("hive_id").asText().equals(hive))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no hourly result for " + hive + ": " + hours));
            long entries = 0;
            long exits = 0;
            for (int s = 0; s < SAMPLES; s++) {
                entries += (h * 7 + s * 3) % 13;
                exits += (h * 5 + s * 2) % 11;
            }
            assertThat(hour.get("key").asText()).isEqualTo(hive);
            assertThat(hour.get("window_start").asLong())
                    .isEqualTo(Instant.parse("2021-07-15T10:00:00Z").toEpochMilli());
            assertThat(hour.get("entries").asLong()).as(hive).isEqualTo(entries);
            assertThat(hour.get("exits").asLong()).as(hive).isEqualTo(exits);
            assertThat(hour.get("samples").asInt()).isEqualTo(SAMPLES);
        }
    }

    /**
     * Waits up to 2 min for every reading in {@code hive_telemetry_v2}, then checks their sensor id.
     *
     * @param session a session to the shared node, not null
     * @param config  the test's configuration (its keyspace), not null
     */
    static void assertTelemetryRows(CqlSession session, IngestConfig config) {
        String keyspace = config.getString(IngestConfig.CASSANDRA_KEYSPACE);
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(
                        () -> assertThat(session.execute("SELECT count(*) FROM " + keyspace + ".hive_telemetry_v2")
                                        .one()
                                        .getLong(0))
                                .isEqualTo((long) HIVES * SAMPLES));
        assertThat(session.execute("SELECT sensor_id FROM " + keyspace + ".hive_telemetry_v2 LIMIT 1")
                        .one()
                        .getString(0))
                .isEqualTo("brood");
    }
}
