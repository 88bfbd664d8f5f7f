package io.apiary.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import io.apiary.ingest.devstack.RegistryServer;
import io.apiary.ingest.devstack.StackCertificates;
import io.apiary.ingest.devstack.StackSecurity;
import io.apiary.ingest.devstack.StackSecurity.Credentials;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.serde.SchemaRegistryClient;
import io.apiary.ingest.serde.SchemaSubjects;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The prod overlay's security against real servers: one secured local stack of this class's own
 * ({@link LocalStackOptions#secure()}: Kafka 4.4 SASL_SSL with SCRAM-SHA-512 and {@code
 * StandardAuthorizer}, Cassandra 5.0 with client TLS required and {@code PasswordAuthenticator}
 * plus {@code CassandraAuthorizer}, a CA made for the run), started once for all its tests.
 *
 * <ol>
 *   <li>The topology and the sink run as separate processes with the settings of {@code
 *       deploy/overlays/prod/apiary.properties} (only addresses, file paths, sizes for one broker
 *       and the wire format are replaced; the security settings are the file's), their secrets
 *       given as the {@code APIARY_*} variables the Deployments take from Secrets, each with its own
 *       Kafka user, whose ACLs are exactly those of {@code
 *       deploy/components/strimzi/kafka-user-{topology,sink}.yaml}; the sink with a Cassandra role
 *       that may only SELECT and MODIFY the keyspace. Every reading sent lands in Cassandra and an
 *       hour's sums are exact, without one authorization denied to either user.
 *   <li>KEDA's lag reader, as its own Kafka user with exactly the ACLs of {@code
 *       deploy/components/strimzi/kafka-user-keda.yaml}: it computes the sink group's lag the way
 *       KEDA's Kafka scaler does (committed offsets, topic partitions, latest offsets), 0 once
 *       everything was written, without an authorization denied; and it may not join the sink's
 *       group, commit its offsets, read its records or write the dead letter topic.
 *   <li>Refusals: no or wrong credentials (Kafka SASL, Cassandra authentication), the sink's
 *       user on the topology's internal topics and group, clients trusting another CA (TLS
 *       handshake of both servers).
 *   <li>No password of the run appears in the processes' output, {@code config show}'s output or
 *       the servers' logs.
 * </ol>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecureStackIT {

    private static final Logger LOG = LoggerFactory.getLogger(SecureStackIT.class);

    private static final String TOPOLOGY_USER = "apiary-ingest-topology";
    private static final String SINK_USER = "apiary-ingest-sink";
    private static final String KEDA_USER = "apiary-ingest-keda";
    private static final String CASSANDRA_ROLE = "apiary_ingest";
    private static final int READINGS = 400;
    private static final int SAMPLES = 12; // one hour of 5-minute entrance counts
    private static final String HIVE = "secure-hive";
    private static final Instant HOUR = Instant.parse("2021-07-15T10:00:00Z");

    private static Path repo;
    private static Path dir;
    private static LocalStack stack;
    private static StackSecurity security;
    private static StackCertificates otherCa;
    private static Credentials topologyUser;
    private static Credentials sinkUser;
    private static Credentials kedaUser;
    private static Credentials cassandraUser;
    private static IngestConfig adminConfig;
    private static String keyspace;
    private static final List<Path> outputs = new ArrayList<>();

    @BeforeAll
    static void startSecuredStack() throws Exception {
        repo = Path.of("").toAbsolutePath().getParent();
        dir = Files.createDirectories(Path.of("target", "secure-stack-it").toAbsolutePath());
        try (Stream<Path> old = Files.list(dir)) {
            old.forEach(io.apiary.ingest.devstack.StackFiles::deleteRecursively);
        }
        long t0 = System.nanoTime();
        stack = LocalStack.start(
                LocalStackOptions.builder().secure(true).registry(true).build());
        security = stack.security().orElseThrow();
        LOG.info("Secured stack started in {} ms", (System.nanoTime() - t0) / 1_000_000);
        otherCa = StackCertificates.create(
                Path.of(System.getProperty("java.home"), "bin", "java"), dir.resolve("other-ca"), "Another CA");

        topologyUser = security.createKafkaUser(TOPOLOGY_USER);
        sinkUser = security.createKafkaUser(SINK_USER);
        kedaUser = security.createKafkaUser(KEDA_USER);
        try (Admin admin = Admin.create(security.kafkaClientSettings(security.kafkaAdmin()))) {
            List<AclBinding> acls = new ArrayList<>();
            acls.addAll(strimziAcls("kafka-user-topology.yaml", TOPOLOGY_USER));
            acls.addAll(strimziAcls("kafka-user-sink.yaml", SINK_USER));
            acls.addAll(strimziAcls("kafka-user-keda.yaml", KEDA_USER));
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
            LOG.info("Granted the {} ACLs of the three KafkaUsers", acls.size());
        }

        // topics create, schema apply and registry register, as the Jobs would with administrative credentials
        adminConfig = ConfigLoader.load(null, Map.of(), adminSettings());
        keyspace = adminConfig.getString(IngestConfig.CASSANDRA_KEYSPACE);
        try (Admin admin = Admin.create(adminConfig.kafkaClientSettings())) {
            TopicProvisioner.createMissing(admin, adminConfig);
        }
        // registry register, as the registry Job would, over TLS: the topology and the sink start together
        ItPipelineSettings.registerSubjects(adminConfig);
        try (CqlSession session = adminSession()) {
            SchemaApplier.apply(session, SchemaApplier.load(null, keyspace, SchemaApplier.DEV_REPLICATION));
            cassandraUser = security.createCassandraRole(session, CASSANDRA_ROLE);
            session.execute("GRANT SELECT, MODIFY ON KEYSPACE " + keyspace + " TO " + CASSANDRA_ROLE);
        }
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void should_run_the_pipeline_with_the_prod_security_settings_and_the_kafka_users_acls() throws Exception {
        Map<String, String> settings = prodSettings();
        assertThat(settings)
                .containsEntry("kafka.security.protocol", "SASL_SSL")
                .containsEntry("kafka.sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("kafka.ssl.truststore.type", "PKCS12")
                .containsEntry("cassandra.ssl.enabled", "true")
                .containsEntry("cassandra.ssl.hostname.validation", "true")
                .containsEntry(
                        RegistrySettings.REGISTRY_URL,
                        stack.registry().orElseThrow().confluentApiUrl());
        assertThat(settings.get(RegistrySettings.REGISTRY_URL)).startsWith("https://127.0.0.1:");
        Path topologyLog = dir.resolve("topology.log");
        Path sinkLog = dir.resolve("sink.log");
        outputs.add(topologyLog);
        outputs.add(sinkLog);
        long t0 = System.nanoTime();
        try (AppProcess topology = AppProcess.start("topology", settings, workloadSecrets(topologyUser), topologyLog);
                AppProcess sink = AppProcess.start("sink", settings, sinkSecrets(), sinkLog)) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(topology.isAlive()).as(topology.log()).isTrue();
                        assertThat(sink.isAlive()).as(sink.log()).isTrue();
                        assertThat(topology.status("/health/ready")).isEqualTo(200);
                        assertThat(sink.status("/health/ready")).isEqualTo(200);
                    });
            LOG.info("Topology and sink ready in {} ms", (System.nanoTime() - t0) / 1_000_000);

            long[] sums = send();

            try (CqlSession session = adminSession()) {
                await().atMost(Duration.ofMinutes(3))
                        .pollInterval(Duration.ofSeconds(1))
                        .untilAsserted(() -> {
                            assertThat(topology.isAlive()).as(topology.log()).isTrue();
                            assertThat(sink.isAlive()).as(sink.log()).isTrue();
                            assertThat(session.execute("SELECT COUNT(*) FROM " + keyspace + ".hive_telemetry_v2")
                                            .one()
                                            .getLong(0))
                                    .isEqualTo(READINGS);
                            Row hour = session.execute(
                                            "SELECT bees_in, bees_out, samples FROM " + keyspace
                                                    + ".hive_activity WHERE hive_id = ? AND day = ? AND hour = ?",
                                            HIVE,
                                            LocalDate.of(2021, 7, 15),
                                            10)
                                    .one();
                            assertThat(hour).isNotNull();
                            assertThat(new long[] {
                                        hour.getLong("bees_in"), hour.getLong("bees_out"), hour.getInt("samples")
                                    })
                                    .containsExactly(sums);
                        });
            }
            LOG.info(
                    "{} readings and one hour's sums in Cassandra {} ms after start",
                    READINGS,
                    (System.nanoTime() - t0) / 1_000_000);
            topology.sigterm();
            sink.sigterm();
            assertThat(topology.waitFor(Duration.ofSeconds(60))).isTrue();
            assertThat(sink.waitFor(Duration.ofSeconds(60))).isTrue();
            assertThat(sink.log()).contains("Cassandra sink stopped; offsets committed");
        }
        // the ACLs sufficed: the authorizer (kafka.authorizer.logger, INFO) denied neither user anything
        List<String> denied = new ArrayList<>(deniedTo(TOPOLOGY_USER));
        denied.addAll(deniedTo(SINK_USER));
        assertThat(denied)
                .as("operations the authorizer denied to the pipeline's users")
                .isEmpty();
    }

    @Test
    @Order(2)
    void should_let_kedas_user_read_the_sink_groups_lag_and_nothing_more() throws Exception {
        String group = adminConfig.getString(IngestConfig.SINK_GROUP_ID);
        Topics topics = adminConfig.topics();
        String rows = topics.telemetryRows();
        Map<TopicPartition, PartitionLag> lag;
        try (Admin keda = Admin.create(security.kafkaClientSettings(kedaUser))) {
            lag = kedaLag(keda, group);
        }
        LOG.info("Lag of group {} read as {}: {}", group, KEDA_USER, lag);
        assertThat(lag.keySet())
                .extracting(TopicPartition::topic)
                .as("topics group %s has offsets on, read as %s", group, KEDA_USER)
                .contains(rows)
                .isSubsetOf(topics.rowTopics());
        assertThat(lag.entrySet().stream()
                        .filter(e -> e.getKey().topic().equals(rows))
                        .mapToLong(e -> e.getValue().end())
                        .sum())
                .as("records (and transaction markers) in %s", rows)
                .isGreaterThanOrEqualTo(READINGS);
        lag.forEach((partition, offsets) -> assertThat(offsets.lag())
                .as("lag of group %s on %s once everything was written (%s)", group, partition, offsets)
                .isZero());
        // Describe alone sufficed: the authorizer denied KEDA's user nothing so far
        assertThat(deniedTo(KEDA_USER))
                .as("operations the authorizer denied to %s", KEDA_USER)
                .isEmpty();

        Map<String, Object> consumer = new HashMap<>(security.kafkaClientSettings(kedaUser));
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // joining the sink's group (JoinGroup needs Read on the group)
        Map<String, Object> member = new HashMap<>(consumer);
        member.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(member)) {
            reader.subscribe(List.of(rows));
            assertThatThrownBy(() -> reader.poll(Duration.ofSeconds(20)))
                    .isInstanceOf(GroupAuthorizationException.class)
                    .hasMessageContaining(group);
        }
        // committing or resetting the group's offsets (OffsetCommit needs Read on the group)
        try (Admin keda = Admin.create(security.kafkaClientSettings(kedaUser))) {
            assertThatThrownBy(() -> keda.alterConsumerGroupOffsets(
                                    group, Map.of(new TopicPartition(rows, 0), new OffsetAndMetadata(0)))
                            .all()
                            .get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
        }
        // reading the records, without a group (Fetch needs Read on the topic)
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(consumer)) {
            reader.assign(List.of(new TopicPartition(rows, 0)));
            assertThatThrownBy(() -> reader.poll(Duration.ofSeconds(20)))
                    .isInstanceOf(TopicAuthorizationException.class)
                    .hasMessageContaining(rows);
        }
        // writing the dead letter topic (the sink's user may)
        Map<String, Object> producer = new HashMap<>(security.kafkaClientSettings(kedaUser));
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
        try (KafkaProducer<byte[], byte[]> writer = new KafkaProducer<>(producer)) {
            assertThatThrownBy(() -> writer.send(new ProducerRecord<>(topics.deadLetter(), new byte[] {1}))
                            .get(30, TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(TopicAuthorizationException.class);
        }
        // the authorizer logged these refusals: the check of no denial above reads the right lines
        assertThat(deniedTo(KEDA_USER))
                .as("refusals the authorizer logged for %s", KEDA_USER)
                .isNotEmpty();
    }

    @Test
    @Order(3)
    void should_refuse_kafka_clients_without_valid_credentials() {
        Credentials nobody = new Credentials("nobody", StackCertificates.randomSecret());
        assertThat(describeCluster(security.kafkaClientSettings(nobody)))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("invalid credentials");
        Credentials wrongPassword = new Credentials(SINK_USER, StackCertificates.randomSecret());
        assertThat(describeCluster(security.kafkaClientSettings(wrongPassword)))
                .isInstanceOf(SaslAuthenticationException.class)
                .hasMessageContaining("invalid credentials");
    }

    @Test
    @Order(4)
    void should_refuse_cassandra_sessions_without_valid_credentials() {
        assertThatThrownBy(() -> CqlSession.builder()
                        .addContactPoint(stack.cassandraContactPoint())
                        .withLocalDatacenter(stack.cassandraLocalDatacenter())
                        .withSslContext(security.certificates().clientSslContext())
                        .build()
                        .close())
                .isInstanceOf(AllNodesFailedException.class)
                .hasMessageContaining("requires authentication");
        assertThatThrownBy(() -> security.openCassandraSession(
                                stack.cassandraContactPoint(),
                                stack.cassandraLocalDatacenter(),
                                new Credentials(CASSANDRA_ROLE, StackCertificates.randomSecret()))
                        .close())
                .isInstanceOf(AllNodesFailedException.class)
                .hasMessageContaining("Provided username " + CASSANDRA_ROLE + " and/or password are incorrect");
        // the default superuser is gone
        assertThatThrownBy(() -> security.openCassandraSession(
                                stack.cassandraContactPoint(),
                                stack.cassandraLocalDatacenter(),
                                new Credentials("cassandra", "cassandra"))
                        .close())
                .isInstanceOf(AllNodesFailedException.class)
                .hasMessageContaining("and/or password are incorrect");
        // the sink's role may write its keyspace's tables, not create or drop anything
        try (CqlSession session = security.openCassandraSession(
                stack.cassandraContactPoint(), stack.cassandraLocalDatacenter(), cassandraUser)) {
            assertThatThrownBy(() -> session.execute("CREATE KEYSPACE intruder WITH replication = "
                            + "{'class': 'SimpleStrategy', 'replication_factor': 1}"))
                    .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.UnauthorizedException.class);
        }
    }

    @Test
    @Order(5)
    void should_refuse_the_sinks_user_the_topologys_internal_topics_and_group() throws Exception {
        String changelog;
        try (Admin admin = Admin.create(security.kafkaClientSettings(security.kafkaAdmin()))) {
            changelog = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(TOPOLOGY_USER + "-") && t.endsWith("-changelog"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("the topology created no changelog topic"));
        }
        Map<String, Object> consumer = new HashMap<>(security.kafkaClientSettings(sinkUser));
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(consumer)) {
            reader.assign(List.of(new TopicPartition(changelog, 0)));
            assertThatThrownBy(() -> reader.poll(Duration.ofSeconds(20)))
                    .isInstanceOf(TopicAuthorizationException.class)
                    .hasMessageContaining(changelog);
        }
        Map<String, Object> producer = new HashMap<>(security.kafkaClientSettings(sinkUser));
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
        try (KafkaProducer<byte[], byte[]> writer = new KafkaProducer<>(producer)) {
            assertThatThrownBy(() -> writer.send(new ProducerRecord<>(changelog, new byte[] {1}))
                            .get(30, TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(TopicAuthorizationException.class);
        }
        // the topology's consumer group, on a topic the sink's user may read
        Map<String, Object> member = new HashMap<>(consumer);
        member.put(ConsumerConfig.GROUP_ID_CONFIG, TOPOLOGY_USER);
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(member)) {
            reader.subscribe(List.of(adminConfig.topics().telemetryRows()));
            assertThatThrownBy(() -> reader.poll(Duration.ofSeconds(20)))
                    .isInstanceOf(GroupAuthorizationException.class)
                    .hasMessageContaining(TOPOLOGY_USER);
        }
    }

    @Test
    @Order(6)
    void should_refuse_clients_that_trust_another_ca() {
        Map<String, Object> otherTrust = security.kafkaClientSettings(sinkUser);
        otherTrust.put("ssl.truststore.location", otherCa.trustStore().toString());
        otherTrust.put("ssl.truststore.password", otherCa.trustStorePassword());
        assertThat(describeCluster(otherTrust)).isInstanceOf(SslAuthenticationException.class);

        assertThatThrownBy(() -> CqlSession.builder()
                        .addContactPoint(stack.cassandraContactPoint())
                        .withLocalDatacenter(stack.cassandraLocalDatacenter())
                        .withAuthCredentials(cassandraUser.user(), cassandraUser.password())
                        .withSslContext(otherCa.clientSslContext())
                        .build()
                        .close())
                .isInstanceOf(AllNodesFailedException.class)
                .satisfies(e -> assertThat(causes(e)).anyMatch(c -> c instanceof javax.net.ssl.SSLHandshakeException));
    }

    @Test
    @Order(7)
    void should_serve_the_registry_over_https_only_and_refuse_a_pipeline_that_does_not_trust_its_ca() throws Exception {
        RegistryServer registry = stack.registry().orElseThrow();
        String url = registry.confluentApiUrl();
        assertThat(url).isEqualTo("https://127.0.0.1:" + registry.port() + RegistryServer.CONFLUENT_API_PATH);
        // one listener, HTTPS on 127.0.0.1: no plain HTTP port, and its port does not answer plain HTTP
        ListeningSockets.of(registry.pid())
                .ifPresent(lines -> assertThat(lines)
                        .as("the registry's listening sockets (ss -ltnp)")
                        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                        .containsPattern("127\\.0\\.0\\.1\\]?:" + registry.port() + "\\s"));
        HttpClient plain =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> plain.send(
                        HttpRequest.newBuilder(URI.create(url.replace("https://", "http://") + "/subjects"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
        // the key store's password is only in the registry's owner-only settings file
        Path secretSettings = registry.directory().resolve("config/application.properties");
        assertThat(Files.readString(secretSettings))
                .contains("key-store-password=" + security.certificates().serverKeyStorePassword());
        assertThat(Files.getPosixFilePermissions(secretSettings))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

        // the topology and the sink of test 1 checked their subjects at start, over TLS (registered before, over TLS)
        for (String log : List.of("topology.log", "sink.log")) {
            assertThat(Files.readString(dir.resolve(log)))
                    .as(log)
                    .contains("Schema registry [" + url + "]: 14 subjects fit this application's schemas");
        }
        SchemaRegistryClient client = adminConfig.wireFormat().registry();
        for (SchemaSubjects.Subject subject : adminConfig.topics().avroSubjects()) {
            assertThat(SchemaSubjects.check(client, subject).id())
                    .as(subject.name())
                    .isNotNegative();
        }
        // and used them: the rows the topology wrote are registry-framed, with the id of HiveTelemetryRow there
        List<byte[]> rows = firstValues(adminConfig.topics().telemetryRows(), 20);
        assertThat(rows).hasSize(20).allSatisfy(value -> {
            assertThat(value[0]).isZero();
            assertThat(client.schemaById(java.nio.ByteBuffer.wrap(value, 1, 4).getInt())
                            .getFullName())
                    .isEqualTo("io.apiary.schema.HiveTelemetryRow");
        });

        // A topology trusting another CA for the registry (Kafka's trust unchanged) is refused at start
        Map<String, String> otherTrust = new LinkedHashMap<>(prodSettings());
        otherTrust.put(
                RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PATH,
                otherCa.trustStore().toString());
        Map<String, String> otherSecrets = workloadSecrets(topologyUser);
        otherSecrets.put("APIARY_SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD", otherCa.trustStorePassword());
        Path refusedLog = dir.resolve("topology-other-ca.log");
        outputs.add(refusedLog);
        long t0 = System.nanoTime();
        try (AppProcess refused = AppProcess.start("topology", otherTrust, otherSecrets, refusedLog)) {
            assertThat(refused.waitFor(Duration.ofMinutes(2))).as(refused.log()).isTrue();
            assertThat(refused.exitValue()).as(refused.log()).isEqualTo(1);
            assertThat(refused.log())
                    .contains(
                            "the TLS handshake with the schema registry at " + url + " failed (SSLHandshakeException:")
                    .contains("Trust the CA of the registry's certificate (schema.registry.ssl.truststore.path");
        }
        LOG.info("A topology not trusting the registry's CA exited in {} ms", (System.nanoTime() - t0) / 1_000_000);
        // and so is `registry check` with the JVM's default trust store (no trust store set)
        Map<String, String> jvmTrust = new LinkedHashMap<>(prodSettings());
        jvmTrust.remove(RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PATH);
        Path checkSettings = dir.resolve("registry-check.properties");
        StringBuilder text = new StringBuilder();
        jvmTrust.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(checkSettings, text);
        Path checkLog = dir.resolve("registry-check.log");
        outputs.add(checkLog);
        try (AppProcess check = AppProcess.command(
                workloadSecrets(topologyUser), checkLog, "registry", "check", "--config", checkSettings.toString())) {
            assertThat(check.waitFor(Duration.ofMinutes(1))).as(check.log()).isTrue();
            assertThat(check.exitValue()).as(check.log()).isEqualTo(1);
            assertThat(check.log())
                    .contains("error: Cannot list the versions of subject ")
                    .contains("the TLS handshake with the schema registry at " + url + " failed")
                    .contains("PKIX path building failed");
        }
    }

    /** @return the values of the first {@code count} records of a topic (all partitions), read as Kafka's super user */
    private static List<byte[]> firstValues(String topic, int count) {
        Map<String, Object> consumer = new HashMap<>(security.kafkaClientSettings(security.kafkaAdmin()));
        consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer.put(ConsumerConfig.GROUP_ID_CONFIG, "secure-stack-it-reader");
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, count);
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> reader =
                new KafkaConsumer<>(consumer, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            reader.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < count && System.nanoTime() < deadline) {
                reader.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
            }
        }
        return values.size() > count ? values.subList(0, count) : values;
    }

    @Test
    @Order(8)
    void should_print_no_password_in_config_show_the_processes_output_or_the_servers_logs() throws Exception {
        Path settingsFile = dir.resolve("config-show.properties");
        StringBuilder text = new StringBuilder();
        prodSettings().forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(settingsFile, text);
        Path showLog = dir.resolve("config-show.log");
        outputs.add(showLog);
        try (AppProcess show =
                AppProcess.command(sinkSecrets(), showLog, "config", "show", "--config", settingsFile.toString())) {
            assertThat(show.waitFor(Duration.ofMinutes(1))).isTrue();
            assertThat(show.exitValue()).as(show.log()).isZero();
            assertThat(show.log())
                    .contains("kafka.security.protocol=SASL_SSL")
                    .contains("cassandra.auth.username=" + CASSANDRA_ROLE)
                    .containsPattern("kafka\\.sasl\\.jaas\\.config=\\S+")
                    .containsPattern("cassandra\\.auth\\.password=\\S+");
        }
        List<String> secrets = List.of(
                security.kafkaAdmin().password(),
                security.cassandraAdmin().password(),
                topologyUser.password(),
                sinkUser.password(),
                kedaUser.password(),
                cassandraUser.password(),
                security.certificates().serverKeyStorePassword(),
                security.certificates().trustStorePassword(),
                otherCa.trustStorePassword());
        List<Path> logs = new ArrayList<>(outputs);
        // the servers' logs and output (not Kafka's data: its segment files end in .log too)
        for (Path serverLogs : List.of(
                stack.workDir().resolve("kafka"),
                stack.workDir().resolve("kafka/logs"),
                stack.workDir().resolve("cassandra"),
                stack.workDir().resolve("cassandra/logs"),
                stack.workDir().resolve("registry"),
                stack.workDir().resolve("registry/logs"))) {
            try (Stream<Path> files = Files.list(serverLogs)) {
                files.filter(f -> f.toString().endsWith(".log")).forEach(logs::add);
            }
        }
        try (Stream<Path> files = Files.list(security.certificates().dir())) {
            files.filter(f -> f.toString().endsWith(".log")).forEach(logs::add);
        }
        assertThat(logs).hasSizeGreaterThanOrEqualTo(11);
        for (Path log : logs) {
            String content = new String(Files.readAllBytes(log), java.nio.charset.StandardCharsets.ISO_8859_1);
            for (String secret : secrets) {
                assertThat(content).as("%s holds a password of the run", log).doesNotContain(secret);
            }
        }
        LOG.info("No password in {} files: {}", logs.size(), logs);
    }

    // ---------------------------------------------------------------------------------------

    /** @return the prod overlay's settings for this stack: its security settings unchanged */
    private static Map<String, String> prodSettings() throws IOException {
        Properties prod = new Properties();
        try (Reader in = Files.newBufferedReader(repo.resolve("deploy/overlays/prod/apiary.properties"))) {
            prod.load(in);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        prod.stringPropertyNames().forEach(k -> settings.put(k, prod.getProperty(k)));
        // addresses and paths of this machine
        settings.put(IngestConfig.KAFKA_BOOTSTRAP_SERVERS, stack.kafkaBootstrapServers());
        settings.put(
                "kafka.ssl.truststore.location",
                security.certificates().trustStore().toString());
        settings.put(
                IngestConfig.CASSANDRA_CONTACT_POINTS,
                "127.0.0.1:" + stack.cassandraContactPoint().getPort());
        settings.put(IngestConfig.CASSANDRA_LOCAL_DATACENTER, stack.cassandraLocalDatacenter());
        settings.put(
                "cassandra.ssl.truststore.path",
                security.certificates().trustStore().toString());
        settings.put(
                IngestConfig.TOPOLOGY_STATE_DIR, dir.resolve("topology-state").toString());
        // one broker, small machine
        settings.put("topic.partitions", "2");
        settings.put("topic.replication.factor", "1");
        settings.put("streams.replication.factor", "1");
        settings.put("streams.topic.min.insync.replicas", "1");
        settings.put("streams.num.standby.replicas", "0");
        settings.put("streams.num.stream.threads", "1");
        // the stack's registry, HTTPS only with the run's certificate: its CA is a private CA to the pipeline
        settings.put(
                RegistrySettings.REGISTRY_URL, stack.registry().orElseThrow().confluentApiUrl());
        settings.put(
                RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PATH,
                security.certificates().trustStore().toString());
        settings.put(
                IngestConfig.VALIDATION_MAX_AGE_MS,
                Long.toString(Duration.ofDays(365 * 20).toMillis()));
        return settings;
    }

    /**
     * @return the secrets of a workload, as its Deployment's secretKeyRef env gives them: Kafka's
     *     and the registry trust store's password
     */
    private static Map<String, String> workloadSecrets(Credentials user) {
        Map<String, String> env = new HashMap<>();
        env.put("APIARY_KAFKA_SASL_JAAS_CONFIG", user.kafkaJaasConfig());
        env.put("APIARY_KAFKA_SSL_TRUSTSTORE_PASSWORD", security.certificates().trustStorePassword());
        env.put(
                "APIARY_SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD",
                security.certificates().trustStorePassword());
        return env;
    }

    /** @return the sink's secrets: the workload's, and Cassandra's credentials and trust store password */
    private static Map<String, String> sinkSecrets() {
        Map<String, String> env = workloadSecrets(sinkUser);
        env.put("APIARY_CASSANDRA_AUTH_USERNAME", cassandraUser.user());
        env.put("APIARY_CASSANDRA_AUTH_PASSWORD", cassandraUser.password());
        env.put(
                "APIARY_CASSANDRA_SSL_TRUSTSTORE_PASSWORD",
                security.certificates().trustStorePassword());
        return env;
    }

    /** @return the settings of the Jobs and the gateways' stand-in: the super users */
    private static Map<String, Object> adminSettings() throws IOException {
        Map<String, Object> settings = new LinkedHashMap<>(prodSettings());
        security.kafkaClientSettings(security.kafkaAdmin()).forEach((k, v) -> {
            if (!k.equals("bootstrap.servers")) {
                settings.put("kafka." + k, v);
            }
        });
        settings.put(
                "cassandra.ssl.truststore.password", security.certificates().trustStorePassword());
        settings.put(
                RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PASSWORD,
                security.certificates().trustStorePassword());
        settings.put("cassandra.auth.username", security.cassandraAdmin().user());
        settings.put("cassandra.auth.password", security.cassandraAdmin().password());
        return settings;
    }

    private static CqlSession adminSession() {
        return security.openCassandraSession(
                stack.cassandraContactPoint(), stack.cassandraLocalDatacenter(), security.cassandraAdmin());
    }

    /**
     * Sends {@link #READINGS} readings (distinct times) and {@link #SAMPLES} entrance counts of one
     * hour, then one sample two hours later so that stream time moves on, as a gateway would.
     *
     * @return the hour's bees in, bees out and samples
     */
    private static long[] send() {
        Topics topics = adminConfig.topics();
        long in = 0;
        long out = 0;
        try (GatewayProducer producer = new GatewayProducer(
                adminConfig.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic())) {
            for (int i = 0; i < READINGS; i++) {
                producer.send(new TelemetryReading(
                        HIVE, "gw", SensorType.WEIGHT, "default", HOUR.plusSeconds(i), 40.0 + i / 10.0, "kg", null));
            }
            for (int i = 1; i <= SAMPLES; i++) {
                int beesIn = 10 + i;
                int beesOut = 20 + 2 * i;
                in += beesIn;
                out += beesOut;
                producer.send(new EntranceCount(HIVE, "gw", HOUR.plusSeconds(300L * i - 1), beesIn, beesOut, 300));
            }
            producer.flush();
        }
        return new long[] {in, out, SAMPLES};
    }

    /**
     * Reads the ACLs of a Strimzi KafkaUser file ({@code spec.authorization.acls}: resource type,
     * name, patternType; operations; host, {@code *} when absent; type allow, the default).
     */
    private static List<AclBinding> strimziAcls(String file, String user) throws IOException {
        Path path = repo.resolve("deploy/components/strimzi").resolve(file);
        assertThat(path).as("the KafkaUser of %s (branch strimzi)", user).exists();
        JsonNode root = new YAMLMapper().readTree(Files.readString(path));
        assertThat(root.path("kind").asString()).isEqualTo("KafkaUser");
        assertThat(root.path("metadata").path("name").asString()).isEqualTo(user);
        assertThat(root.path("spec").path("authentication").path("type").asString())
                .isEqualTo("scram-sha-512");
        List<AclBinding> bindings = new ArrayList<>();
        for (JsonNode acl : root.path("spec").path("authorization").path("acls")) {
            JsonNode resource = acl.path("resource");
            ResourceType type = switch (resource.path("type").asString()) {
                case "topic" -> ResourceType.TOPIC;
                case "group" -> ResourceType.GROUP;
                case "transactionalId" -> ResourceType.TRANSACTIONAL_ID;
                case "cluster" -> ResourceType.CLUSTER;
                default -> throw new AssertionError(file + ": resource type " + resource.path("type"));
            };
            String name = type == ResourceType.CLUSTER
                    ? "kafka-cluster"
                    : resource.path("name").asString();
            PatternType pattern =
                    resource.path("patternType").asString("literal").equals("prefix")
                            ? PatternType.PREFIXED
                            : PatternType.LITERAL;
            AclPermissionType permission = acl.path("type").asString("allow").equals("deny")
                    ? AclPermissionType.DENY
                    : AclPermissionType.ALLOW;
            String host = acl.path("host").asString("*");
            assertThat(acl.path("operations").isEmpty())
                    .as(file + ": operations")
                    .isFalse();
            for (JsonNode operation : acl.path("operations")) {
                AclOperation op = AclOperation.fromString(operation
                        .asString()
                        .replaceAll("([a-z])([A-Z])", "$1_$2")
                        .toUpperCase(Locale.ROOT));
                assertThat(op).as(file + ": operation " + operation).isNotEqualTo(AclOperation.UNKNOWN);
                bindings.add(new AclBinding(
                        new ResourcePattern(type, name, pattern),
                        new AccessControlEntry("User:" + user, host, op, permission)));
            }
        }
        assertThat(bindings).as(file + ": ACLs").isNotEmpty();
        return bindings;
    }

    /**
     * @return the lines of the broker's log (kafka.authorizer.logger, INFO) where the authorizer
     *     denied this user an operation, in log order
     */
    private static List<String> deniedTo(String user) throws IOException {
        return Files.readAllLines(stack.kafka().logFile()).stream()
                .filter(line -> line.contains("Denied") && line.contains("User:" + user))
                .toList();
    }

    /**
     * A partition's offsets as KEDA's Kafka scaler reads them.
     *
     * @param end the partition's latest offset (ListOffsets latest): records and transaction
     *     markers written so far
     * @param committed the group's committed offset, or -1 when it has none
     */
    private record PartitionLag(long end, long committed) {
        /** @return the lag in records (offsets): the end offset when nothing is committed (offsetResetPolicy earliest) */
        long lag() {
            return committed < 0 ? end : end - committed;
        }
    }

    /**
     * Reads a consumer group's lag the way KEDA's Kafka scaler does when its trigger names no
     * topic ({@code pkg/scalers/kafka_scaler.go}: getTopicPartitions, getConsumerOffsets,
     * getProducerOffsets): the group's committed offsets (OffsetFetch), the partitions of every
     * topic it has offsets on (Metadata), and their latest offsets (ListOffsets). Blocking, up to
     * 30 s per request.
     *
     * @return each partition of those topics with its offsets
     */
    private static Map<TopicPartition, PartitionLag> kedaLag(Admin admin, String group) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
        Set<String> topics =
                committed.keySet().stream().map(TopicPartition::topic).collect(Collectors.toSet());
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topics)
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .forEach((topic, description) -> description
                        .partitions()
                        .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest())));
        Map<TopicPartition, PartitionLag> lag =
                new TreeMap<>(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((partition, end) -> {
            OffsetAndMetadata offset = committed.get(partition);
            lag.put(partition, new PartitionLag(end.offset(), offset == null ? -1 : offset.offset()));
        });
        return lag;
    }

    /** @return what describing the cluster with these client settings failed with, or null */
    private static Throwable describeCluster(Map<String, Object> settings) {
        settings.put("default.api.timeout.ms", 20_000);
        settings.put("request.timeout.ms", 10_000);
        try (Admin admin = Admin.create(settings)) {
            admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }

    private static List<Throwable> causes(Throwable e) {
        List<Throwable> all = new ArrayList<>();
        java.util.ArrayDeque<Throwable> todo = new java.util.ArrayDeque<>(List.of(e));
        while (!todo.isEmpty() && all.size() < 50) {
            Throwable t = todo.pop();
            all.add(t);
            if (t.getCause() != null) {
                todo.push(t.getCause());
            }
            if (t instanceof AllNodesFailedException nodes) {
                nodes.getAllErrors().values().forEach(list -> list.forEach(todo::push));
            }
            for (Throwable s : t.getSuppressed()) {
                todo.push(s);
            }
        }
        return all;
    }
}
