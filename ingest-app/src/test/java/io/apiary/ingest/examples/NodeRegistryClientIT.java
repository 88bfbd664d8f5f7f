package io.apiary.ingest.examples;

import static io.apiary.ingest.examples.RegistryClientChecks.HIVES;
import static io.apiary.ingest.examples.RegistryClientChecks.SAMPLES;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.testing.ExternalTools;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
        IngestConfig config = RegistryClientChecks.config("node-client");
        Map<String, String> env = RegistryClientChecks.environment(config);

        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
            // Registers the subjects the gateway looks its schema ids up in.
            try (Pipeline pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry())) {
                List<String> produced = node(env, "produce", Duration.ofMinutes(2));
                assertThat(produced).anyMatch(line -> line.contains("\"telemetry\":" + HIVES * SAMPLES));

                RegistryClientChecks.assertHourlySums(node(env, "consume", Duration.ofMinutes(3)), "node");
                RegistryClientChecks.assertTelemetryRows(session, config);
            }
        }
    }

    private static void install() throws IOException, InterruptedException {
        Files.createDirectories(WORK);
        for (String file : List.of("package.json", "package-lock.json", "client.js")) {
            Files.copy(SOURCE.resolve(file), WORK.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        RegistryClientChecks.run(
                List.of("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"),
                WORK,
                Map.of(),
                Duration.ofMinutes(5));
    }

    private static List<String> node(Map<String, String> env, String mode, Duration timeout)
            throws IOException, InterruptedException {
        return RegistryClientChecks.run(List.of("node", "client.js", mode), WORK, env, timeout);
    }
}
