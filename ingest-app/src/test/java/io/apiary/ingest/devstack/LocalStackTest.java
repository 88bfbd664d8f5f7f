package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.demo.LocalStackSession;
import io.apiary.ingest.service.ServiceSettings;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When a stack's close keeps its work folder, and the settings file it writes for the other
 * commands; its servers are never started.
 */
class LocalStackTest {

    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final ServerRuntime RUNTIME = new ServerRuntime(
            JAVA,
            "test",
            List.of(Path.of("/m2/kafka_2.13-4.1.0.jar")),
            List.of(Path.of("/m2/cassandra-all-5.0.7.jar")));

    @Test
    void should_keep_work_folder_when_cassandra_roles_cannot_be_set_up(@TempDir Path tmp) throws IOException {
        Path work = Files.createDirectory(tmp.resolve("work"));
        LocalStackOptions options = LocalStackOptions.builder()
                .secure(true)
                .startTimeout(Duration.ofSeconds(1))
                .build();
        LocalStack stack = stack(options, work, StackSecurity.create(JAVA, work)); // no Cassandra listens

        assertThatThrownBy(stack::secureCassandra)
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("Cassandra's roles could not be set up")
                .hasMessageContaining("Work folder (kept for inspection): " + work);

        assertThat(work).isDirectory();
        assertThat(work.resolve("tls/truststore.p12")).isRegularFile();
        stack.close(); // again: does nothing
        assertThat(work).isDirectory();
    }

    @Test
    void should_delete_work_folder_when_closing_stack_whose_start_did_not_fail(@TempDir Path tmp) throws IOException {
        Path work = Files.createDirectory(tmp.resolve("work"));
        Files.writeString(work.resolve("some.log"), "x");
        LocalStack stack = stack(LocalStackOptions.defaults(), work, null);

        stack.close();

        assertThat(work).doesNotExist();
    }

    @Test
    void settings_file_gives_run_a_loopback_http_port_that_was_free_and_is_none_of_the_servers(@TempDir Path tmp)
            throws IOException {
        Path work = Files.createDirectory(tmp.resolve("work"));
        LocalStack stack = stack(LocalStackOptions.defaults(), work, null);

        Path file = LocalStackSession.writeSettings(stack);

        Properties written = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            written.load(reader);
        }
        int port = stack.appHttpPort();
        assertThat(written.getProperty("http.port")).isEqualTo(Integer.toString(port));
        assertThat(written.getProperty("http.host")).isEqualTo("127.0.0.1");
        assertThat(port)
                .isNotIn(
                        stack.kafka().port(),
                        stack.kafka().controllerPort(),
                        stack.cassandra().cqlPort(),
                        stack.cassandra().jmxPort());
        ServiceSettings service = ServiceSettings.from(ConfigLoader.load(file, Map.of(), Map.of()));
        assertThat(service.httpPort()).isEqualTo(port);
        try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(bound.getLocalPort()).as("free for run to bind").isEqualTo(port);
        }
        stack.close();
    }

    private static LocalStack stack(LocalStackOptions options, Path work, StackSecurity security) {
        int[] ports = StackFiles.freePorts(7);
        Path watchdog = work.resolve("watchdog");
        KafkaBroker kafka = new KafkaBroker(RUNTIME, options, work, watchdog, ports[0], ports[1], security);
        CassandraNode cassandra =
                new CassandraNode(RUNTIME, options, work, watchdog, ports[2], ports[3], ports[4], ports[5], security);
        return new LocalStack(options, work, kafka, cassandra, null, security, ports[6]);
    }
}
