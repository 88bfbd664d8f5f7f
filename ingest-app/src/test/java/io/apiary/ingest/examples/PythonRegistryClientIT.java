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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A gateway and an analyst in Python with Debian's {@code python3-confluent-kafka} and its
 * registry-aware Avro serializer ({@code confluent_kafka.avro}, on {@code python3-avro} and
 * {@code python3-requests}): {@code src/test/python/registry-client/client.py}, standard library
 * and those packages only. The gateway produces readings and entrance counts in registry framing to
 * the pipeline's topics; the pipeline writes the readings to Cassandra and the hourly results; the
 * analyst reads the results back, read committed. Skipped, with a message naming the packages, when
 * no {@code python3} imports them ({@link ExternalTools#requirePython}; {@code REQUIRE_TEST_TOOLS}
 * names them {@value #TOOL}).
 */
class PythonRegistryClientIT {

    static final String TOOL = "python3-confluent-kafka";
    private static final Path CLIENT = Path.of("src", "test", "python", "registry-client", "client.py");
    private static final Path WORK = Path.of("target", "python-registry-client");

    @Test
    void a_python_gateway_and_analyst_write_and_read_the_topics_with_exact_counts_and_hourly_sums() throws Exception {
        String python = ExternalTools.requirePython(
                "PythonRegistryClientIT (a Python registry-aware client)",
                "apt-get install python3-confluent-kafka python3-avro python3-requests; .ci/run installs them",
                TOOL,
                "confluent_kafka.avro",
                "avro",
                "requests");
        Files.createDirectories(WORK);
        IngestConfig config = RegistryClientChecks.config("python-client");
        Map<String, String> env = RegistryClientChecks.environment(config);
        env.put("PYTHONDONTWRITEBYTECODE", "1"); // no __pycache__ beside client.py in src/

        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
            // Registers the subjects the gateway looks its schema ids up in.
            try (Pipeline pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry())) {
                List<String> produced = client(python, "produce", env, Duration.ofMinutes(2));
                assertThat(produced).anyMatch(line -> line.contains("\"telemetry\": " + HIVES * SAMPLES));

                List<String> hours = client(python, "consume", env, Duration.ofMinutes(3));
                RegistryClientChecks.assertHourlySums(hours, "python");
                assertThat(hours).allMatch(line -> line.contains("\"timing\": \"ON_TIME\""));
                RegistryClientChecks.assertTelemetryRows(session, config);
            }
        }
    }

    private static List<String> client(String python, String mode, Map<String, String> env, Duration timeout)
            throws Exception {
        return RegistryClientChecks.run(List.of(python, CLIENT.toAbsolutePath().toString(), mode), WORK, env, timeout);
    }
}
