package io.apiary.ingest.devstack;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Starts real Kafka, Cassandra and schema registry servers through {@link LocalStack}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LocalStackIT {

    private LocalStack stack;

    @BeforeAll
    void startStack() {
        stack = LocalStack.start(LocalStackOptions.builder().registry(true).build());
    }

    @AfterAll
    void closeStack() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void should_list_cluster_and_create_topic_when_stack_started() throws Exception {
        try (Admin admin = admin()) {
            assertThat(admin.describeCluster().nodes().get(30, SECONDS)).hasSize(1);
            admin.createTopics(List.of(new NewTopic("devstack-it", 2, (short) 1)))
                    .all()
                    .get(30, SECONDS);
            // CreateTopics returns once the controller has committed the topic; the broker that
            // answers ListTopics learns of it a moment later (KRaft metadata propagation).
            awaitTopicListed(admin, "devstack-it");
        }
    }

    @Test
    @Order(2)
    void should_answer_cql_with_cassandra_5_0_when_stack_started() {
        assertThat(releaseVersion()).startsWith("5.0");
        assertThat(stack.cassandraLocalDatacenter()).isEqualTo("datacenter1");
    }

    @Test
    @Order(3)
    void should_report_servers_and_files_when_stack_started() {
        assertThat(stack.kafkaBootstrapServers()).matches("127\\.0\\.0\\.1:\\d+");
        assertThat(stack.cassandraContactPoint().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        RegistryServer registry = stack.registry().orElseThrow();
        assertThat(List.of(
                        stack.kafka().port(),
                        stack.kafka().controllerPort(),
                        stack.cassandra().cqlPort(),
                        stack.cassandra().jmxPort(),
                        registry.port()))
                .doesNotHaveDuplicates();
        assertThat(registry.confluentApiUrl()).isEqualTo("http://127.0.0.1:" + registry.port() + "/apis/ccompat/v7");
        assertThat(registry.version()).startsWith("2.4.");
        assertThat(registry.isRunning()).isTrue();
        assertThat(registry.logFile()).isRegularFile().startsWith(stack.workDir());
        assertThat(stack.kafkaStartupTime()).isPositive();
        assertThat(stack.cassandraStartupTime()).isPositive();
        assertThat(stack.kafka().isRunning()).isTrue();
        assertThat(stack.cassandra().isRunning()).isTrue();
        assertThat(stack.kafka().logFile()).isRegularFile().startsWith(stack.workDir());
        assertThat(stack.cassandra().logFile()).isRegularFile().startsWith(stack.workDir());
        assertThat(stack.workDir().resolve("watchdog/io/apiary/ingest/devstack/ParentWatchdog.class"))
                .isRegularFile();
    }

    @Test
    @Order(4)
    void should_serve_cql_again_on_same_port_when_cassandra_restarted() {
        long oldPid = stack.cassandra().pid();
        stack.stop(LocalStack.Server.CASSANDRA, false);

        assertThat(stack.isRunning(LocalStack.Server.CASSANDRA)).isFalse();
        assertThat(ServerProcesses.alive(oldPid)).isFalse();
        assertThat(acceptsConnection(stack.cassandra().cqlPort())).isFalse();

        assertThat(stack.start(LocalStack.Server.CASSANDRA)).isPositive();

        assertThat(stack.cassandra().pid()).isNotEqualTo(oldPid);
        assertThat(releaseVersion()).startsWith("5.0");
    }

    @Test
    @Order(5)
    void should_keep_topics_and_records_when_kafka_killed_with_sigkill_and_restarted() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("devstack-restart", 1, (short) 1)))
                    .all()
                    .get(30, SECONDS);
        }
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, String>(
                Map.of("bootstrap.servers", stack.kafkaBootstrapServers(), "acks", "all"),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.StringSerializer())) {
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>("devstack-restart", "k", "before"))
                    .get(30, SECONDS);
        }
        long oldPid = stack.kafka().pid();
        String bootstrap = stack.kafkaBootstrapServers();

        Duration startup = stack.restart(LocalStack.Server.KAFKA, true);

        assertThat(ServerProcesses.alive(oldPid)).isFalse();
        assertThat(stack.kafka().pid()).isNotEqualTo(oldPid);
        assertThat(stack.kafkaBootstrapServers()).isEqualTo(bootstrap);
        assertThat(startup).isPositive();
        try (Admin admin = admin()) {
            awaitTopicListed(admin, "devstack-restart");
        }
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<String, String>(
                Map.of("bootstrap.servers", bootstrap, "auto.offset.reset", "earliest", "group.id", "devstack-it"),
                new org.apache.kafka.common.serialization.StringDeserializer(),
                new org.apache.kafka.common.serialization.StringDeserializer())) {
            consumer.subscribe(List.of("devstack-restart"));
            List<String> values = new java.util.ArrayList<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
                return !values.isEmpty();
            });
            assertThat(values).containsExactly("before");
        }
    }

    @Test
    @Order(5)
    void should_keep_written_rows_when_cassandra_killed_with_sigkill_and_restarted() {
        try (CqlSession session = session()) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS devstack_it WITH replication = "
                    + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE IF NOT EXISTS devstack_it.kv (k text PRIMARY KEY, v text)");
            session.execute("INSERT INTO devstack_it.kv (k, v) VALUES ('k', 'before the kill')");
        }
        long oldPid = stack.cassandra().pid();
        int port = stack.cassandra().cqlPort();

        stack.restart(LocalStack.Server.CASSANDRA, true);

        assertThat(ServerProcesses.alive(oldPid)).isFalse();
        assertThat(stack.cassandra().cqlPort()).isEqualTo(port);
        try (CqlSession session = session()) {
            // the commit log is replayed at the start: SIGKILL ends the process, not the page cache
            assertThat(session.execute("SELECT v FROM devstack_it.kv WHERE k = 'k'")
                            .one()
                            .getString("v"))
                    .isEqualTo("before the kill");
        }
    }

    @Test
    @Order(5)
    void should_stop_start_and_restart_one_server_when_asked_by_the_devstack_command() {
        try (StackControl control = StackControl.serve(stack)) {
            long registryPid = stack.registry().orElseThrow().pid();

            assertThat(devstack(
                            "restart",
                            "registry",
                            "--kill",
                            "--work-dir",
                            stack.workDir().toString()))
                    .startsWith("registry restarted (SIGKILL) and ready in ");
            assertThat(ServerProcesses.alive(registryPid)).isFalse();

            assertThat(devstack("stop", "kafka", "--work-dir", stack.workDir().toString()))
                    .startsWith("kafka stopped (SIGTERM)");
            assertThat(stack.isRunning(LocalStack.Server.KAFKA)).isFalse();
            assertThat(acceptsConnection(stack.kafka().port())).isFalse();

            assertThat(devstack("start", "kafka", "--work-dir", stack.workDir().toString()))
                    .startsWith("kafka started and ready in ");
            assertThat(stack.isRunning(LocalStack.Server.KAFKA)).isTrue();
        }
        assertThat(stack.workDir().resolve(StackControl.FOLDER).resolve(StackControl.PID_FILE))
                .doesNotExist();
    }

    /** @return what {@code ingest-app devstack ARGS} printed, after checking it exited 0 */
    private static String devstack(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "devstack";
        System.arraycopy(args, 0, all, 1, args.length);

        io.apiary.ingest.cli.CliRun run = io.apiary.ingest.cli.CliRun.of(all);

        assertThat(run.exit())
                .as("devstack %s: %s", String.join(" ", args), run.err())
                .isZero();
        return run.out().trim();
    }

    @Test
    @Order(5)
    void should_keep_schemas_and_their_ids_and_check_compatibility_when_registry_restarted() throws Exception {
        RegistryServer registry = stack.registry().orElseThrow();
        String v1 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";
        String id = registryCall(registry, "POST", "/subjects/devstack-it-value/versions", schemaBody(v1))
                .replaceAll("\\D", "");
        assertThat(id).isNotEmpty();
        assertThat(registryCall(
                        registry, "PUT", "/config/devstack-it-value", "{\"compatibility\":\"FULL_TRANSITIVE\"}"))
                .contains("FULL_TRANSITIVE");
        long oldPid = registry.pid();

        registry.stop();
        assertThat(ServerProcesses.alive(oldPid)).isFalse();
        assertThat(acceptsConnection(registry.port())).isFalse();
        registry.start();

        assertThat(registry.pid()).isNotEqualTo(oldPid);
        assertThat(registryCall(registry, "GET", "/schemas/ids/" + id, null)).contains("\\\"name\\\":\\\"a\\\"");
        assertThat(registryCall(registry, "GET", "/config/devstack-it-value", null))
                .contains("FULL_TRANSITIVE");
        // a field replaced by another of another type: neither direction reads the other
        String incompatible = v1.replace("\"a\",\"type\":\"int\"", "\"b\",\"type\":\"string\"");
        assertThat(registryCall(
                        registry,
                        "POST",
                        "/compatibility/subjects/devstack-it-value/versions/latest",
                        schemaBody(incompatible)))
                .contains("\"is_compatible\":false");
    }

    @Test
    @Order(5)
    void should_serve_the_registry_on_the_loopback_address_only() throws Exception {
        RegistryServer registry = stack.registry().orElseThrow();
        assertThat(acceptsConnection(registry.port())).isTrue();
        io.apiary.ingest.it.ListeningSockets.of(registry.pid())
                .ifPresent(lines -> assertThat(lines)
                        .as("the registry's listening sockets (ss -ltnp)")
                        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                        .containsPattern("127\\.0\\.0\\.1\\]?:" + registry.port() + "\\s"));
        Optional<java.net.InetAddress> other = java.net.NetworkInterface.networkInterfaces()
                .filter(i -> {
                    try {
                        return i.isUp() && !i.isLoopback();
                    } catch (java.net.SocketException e) {
                        return false;
                    }
                })
                .flatMap(java.net.NetworkInterface::inetAddresses)
                .filter(a -> a instanceof java.net.Inet4Address)
                .findFirst();
        org.junit.jupiter.api.Assumptions.assumeTrue(
                other.isPresent(), "this machine has no non-loopback IPv4 address to try the registry's port on");
        try (Socket s = new Socket()) {
            assertThatThrownBy(() -> s.connect(new java.net.InetSocketAddress(other.get(), registry.port()), 1_000))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    @Order(6)
    void should_kill_servers_when_parent_jvm_is_killed(@TempDir Path temp) throws Exception {
        Path out = temp.resolve("child.out");
        Process child = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-D" + ServerRuntime.DIR_PROPERTY + "=" + System.getProperty(ServerRuntime.DIR_PROPERTY, ""),
                        OrphanCheckMain.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        Map<String, String> started;
        try {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(250))
                    .failFast("the child JVM exited", () -> !child.isAlive())
                    .until(() -> stackLine(out).isPresent());
            started = stackLine(out).orElseThrow();
        } finally {
            child.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs in the child
        }
        long kafkaPid = Long.parseLong(started.get("kafkaPid"));
        long cassandraPid = Long.parseLong(started.get("cassandraPid"));
        long registryPid = Long.parseLong(started.get("registryPid"));
        Path childWorkDir = Path.of(started.get("workDir"));
        assertThat(started.get("bootstrap")).isNotEqualTo(stack.kafkaBootstrapServers());

        await().atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !ServerProcesses.alive(kafkaPid)
                        && !ServerProcesses.alive(cassandraPid)
                        && !ServerProcesses.alive(registryPid));

        assertThat(ServerProcesses.mentioning(childWorkDir)).isEmpty();
        StackFiles.deleteRecursively(childWorkDir); // nobody else will: its owner was killed
    }

    @Test
    @Order(7)
    void should_fail_with_log_tail_and_stop_kafka_when_cassandra_jvm_option_is_bogus() {
        LocalStackOptions bogus = LocalStackOptions.builder()
                .registry(false)
                .addCassandraJvmOption("-XX:+ApiaryNoSuchJvmOption")
                .build();

        LocalStackException e = catchThrowableOfType(
                LocalStackException.class, () -> LocalStack.start(bogus).close());

        assertThat(e).isNotNull();
        assertThat(e.workDir()).isPresent();
        Path workDir = e.workDir().orElseThrow();
        assertThat(workDir).isDirectory();
        assertThat(e.getMessage())
                .contains(
                        "Cassandra 5.0",
                        "exited with code",
                        "Work folder (kept for inspection): " + workDir,
                        "Last ",
                        "ApiaryNoSuchJvmOption");
        assertThat(ServerProcesses.mentioning(workDir)).isEmpty();
        StackFiles.deleteRecursively(workDir);
    }

    @Test
    @Order(8)
    void should_fail_with_timeout_reason_and_stop_servers_when_start_timeout_is_too_short() {
        LocalStackOptions hasty = LocalStackOptions.builder()
                .registry(false)
                .startTimeout(Duration.ofSeconds(1))
                .build();

        LocalStackException e = catchThrowableOfType(
                LocalStackException.class, () -> LocalStack.start(hasty).close());

        assertThat(e).isNotNull();
        assertThat(e.getMessage()).containsPattern("(not ready|did not finish) within 1");
        Path workDir = e.workDir().orElseThrow();
        assertThat(e.getMessage()).contains(workDir.toString());
        assertThat(ServerProcesses.mentioning(workDir)).isEmpty();
        StackFiles.deleteRecursively(workDir);
    }

    @Test
    @Order(9)
    void should_fail_with_rebuild_hint_when_classpath_file_lists_missing_jar(@TempDir Path dir) throws IOException {
        Path real = Path.of(System.getProperty(ServerRuntime.DIR_PROPERTY, "target/devstack"));
        Files.createDirectories(dir.resolve("kafka-server"));
        Files.writeString(dir.resolve("kafka-server/classpath.txt"), "/nonexistent/kafka_2.13-4.4.0.jar");
        Files.createDirectories(dir.resolve("cassandra-server"));
        Files.copy(real.resolve("cassandra-server/classpath.txt"), dir.resolve("cassandra-server/classpath.txt"));

        assertThatThrownBy(() -> LocalStack.start(
                        LocalStackOptions.builder().devstackDir(dir).build()))
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("kafka-server classpath file")
                .hasMessageContaining("/nonexistent/kafka_2.13-4.4.0.jar")
                .hasMessageContaining("./mvnw -DskipTests package");
    }

    @Test
    @Order(10)
    void should_fail_with_rebuild_hint_when_classpath_folder_is_missing(@TempDir Path dir) {
        assertThatThrownBy(() -> LocalStack.start(LocalStackOptions.builder()
                        .devstackDir(dir.resolve("missing"))
                        .build()))
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("./mvnw -DskipTests package");
    }

    @Test
    @Order(100)
    void should_stop_servers_and_delete_work_dir_when_closed() {
        long kafkaPid = stack.kafka().pid();
        long cassandraPid = stack.cassandra().pid();
        Path workDir = stack.workDir();

        stack.close();
        stack.close(); // idempotent

        assertThat(ServerProcesses.alive(kafkaPid)).isFalse();
        assertThat(ServerProcesses.alive(cassandraPid)).isFalse();
        assertThat(workDir).doesNotExist();
        assertThat(ServerProcesses.mentioning(workDir)).isEmpty();
    }

    private static void awaitTopicListed(Admin admin, String topic) {
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() ->
                        assertThat(admin.listTopics().names().get(30, SECONDS)).contains(topic));
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers());
        return Admin.create(p);
    }

    private CqlSession session() {
        return CqlSession.builder()
                .addContactPoint(stack.cassandraContactPoint())
                .withLocalDatacenter(stack.cassandraLocalDatacenter())
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .build())
                .build();
    }

    private String releaseVersion() {
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(stack.cassandraContactPoint())
                .withLocalDatacenter(stack.cassandraLocalDatacenter())
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .build())
                .build()) {
            return session.execute("SELECT release_version FROM system.local")
                    .one()
                    .getString("release_version");
        }
    }

    /** @return the body of a call to the registry's Confluent-compatible API; fails on a status other than 200 */
    private static String registryCall(RegistryServer registry, String method, String path, String body)
            throws Exception {
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(registry.confluentApiUrl() + path))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null
                                ? java.net.http.HttpRequest.BodyPublishers.noBody()
                                : java.net.http.HttpRequest.BodyPublishers.ofString(body))
                .build();
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("%s %s: %s", method, path, response.body())
                .isEqualTo(200);
        return response.body();
    }

    /** @return {@code {"schema": "<schema as a JSON string>"}} */
    private static String schemaBody(String schema) {
        return "{\"schema\":\"" + schema.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
    }

    private static boolean acceptsConnection(int port) {
        try (Socket s = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Optional<Map<String, String>> stackLine(Path out) throws IOException {
        if (!Files.exists(out)) {
            return Optional.empty();
        }
        return Files.readAllLines(out).stream()
                .filter(l -> l.startsWith(OrphanCheckMain.STACK_LINE))
                .findFirst()
                .map(l -> {
                    Map<String, String> m = new java.util.HashMap<>();
                    for (String kv :
                            l.substring(OrphanCheckMain.STACK_LINE.length()).split(" ")) {
                        String[] parts = kv.split("=", 2);
                        m.put(parts[0], parts[1]);
                    }
                    return m;
                });
    }
}
