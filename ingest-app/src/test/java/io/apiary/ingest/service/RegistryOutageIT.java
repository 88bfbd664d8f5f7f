package io.apiary.ingest.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LocalStackSession;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import io.apiary.ingest.devstack.RegistryServer;
import io.apiary.ingest.it.AppProcess;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.serde.SchemaRegistryClient;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} through schema registry outages, on a local stack of its own (this test stops its
 * registry): started with the registry stopped, it waits live and not ready, and turns ready once
 * the registry starts; running, it is not ready while records whose schema id it has not seen wait
 * on a stopped registry, and writes every one of them, none dead-lettered, once it returns.
 */
class RegistryOutageIT {

    private static final String KEYSPACE = "registry_outage_it";
    private static final int HIVES = 10;
    private static final int PER_HIVE = 50;
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

    private static RegistryServer registry() {
        return stack.registry().orElseThrow();
    }

    private static Map<String, Object> settings() {
        Map<String, Object> settings = new HashMap<>(LocalStackSession.settings(stack));
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
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

    private static long deadLettered(IngestConfig config) throws Exception {
        String topic = config.topics().deadLetter();
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            int partitions = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get()
                    .get(topic)
                    .partitions()
                    .size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            return admin.listOffsets(latest).all().get().values().stream()
                    .mapToLong(info -> info.offset())
                    .sum();
        }
    }

    /**
     * The telemetry schema with one more field at its end, an optional string defaulting to null:
     * fully compatible with the subject's versions, and its Avro body is the current schema's body
     * followed by the union branch of null (one byte, 0).
     */
    private static Schema extendedTelemetrySchema() {
        Schema current = TelemetryReading.getClassSchema();
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : current.getFields()) {
            fields.add(new Schema.Field(field, field.schema()));
        }
        fields.add(new Schema.Field(
                "itNote",
                Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING)),
                "added by RegistryOutageIT",
                Schema.Field.NULL_DEFAULT_VALUE));
        return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
    }

    private static byte[] framed(int schemaId, TelemetryReading reading) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(schemaId).array());
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        new SpecificDatumWriter<>(TelemetryReading.class).write(reading, encoder);
        encoder.flush();
        out.write(0); // itNote: null
        return out.toByteArray();
    }

    @Test
    void should_wait_for_the_registry_at_start_and_be_unready_while_records_wait_on_it() throws Exception {
        IngestConfig config = ConfigLoader.load(null, Map.of(), settings());
        try (CqlSession session = CassandraSessions.open(config);
                Admin admin = Admin.create(config.kafkaClientSettings())) {
            SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
            TopicProvisioner.createMissing(admin, config);
        }

        // Given no registry when run starts (as when its pods start after ours)
        registry().stop();
        try (AppProcess app = AppProcess.start("all", settings(), dir.resolve("run.log"))) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> app.get("/health/ready").body().contains("\"schemaRegistry\":{\"status\":\"DOWN\""));
            HttpResponse<String> waiting = app.get("/health/ready");
            System.out.printf("REGISTRY-OUTAGE-IT readiness at start without a registry: %s%n", waiting.body());
            assertThat(waiting.statusCode()).isEqualTo(503);
            assertThat(waiting.body()).contains("unreachable");
            assertThat(app.status("/health/live")).isEqualTo(200);

            // When the registry starts, then run starts and turns ready
            registry().start();
            long registryBack = System.nanoTime();
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> app.status("/health/ready") == 200);
            System.out.printf(
                    "REGISTRY-OUTAGE-IT ready %.1f s after the registry was ready: %s%n",
                    (System.nanoTime() - registryBack) / 1e9,
                    app.get("/health/ready").body());
            assertThat(app.log()).contains("The schema registry cannot serve requests yet");
            assertThat(app.metric("apiary_schema_registry_outage_seconds")).isEqualTo(0.0);

            // Given a schema version the running process has not seen, and the registry stopped
            int newId;
            String subject = config.topics().telemetry() + "-value";
            SchemaRegistryClient client = config.wireFormat().registryClient().orElseThrow();
            newId = client.register(subject, extendedTelemetrySchema());
            registry().stop();

            // When records written with it arrive
            Instant start = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES);
            Map<String, Object> producerSettings = new HashMap<>(config.kafkaClientSettings());
            try (KafkaProducer<byte[], byte[]> producer =
                    new KafkaProducer<>(producerSettings, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < PER_HIVE; i++) {
                    for (int hive = 0; hive < HIVES; hive++) {
                        String hiveId = "outage-hive-" + hive;
                        TelemetryReading reading = new TelemetryReading(
                                hiveId,
                                "gw",
                                SensorType.TEMPERATURE,
                                "default",
                                start.plusSeconds(i),
                                30.0 + i % 10,
                                "degC",
                                null);
                        producer.send(new ProducerRecord<>(
                                config.topics().telemetry(),
                                hiveId.getBytes(StandardCharsets.UTF_8),
                                framed(newId, reading)));
                    }
                }
                producer.flush();
            }

            // Then readiness turns DOWN, naming the registry, and stays DOWN while they wait; the process stays live
            long sent = System.nanoTime();
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> app.status("/health/ready") == 503);
            System.out.printf(
                    "REGISTRY-OUTAGE-IT unready %.1f s after the records were sent: %s%n",
                    (System.nanoTime() - sent) / 1e9, app.get("/health/ready").body());
            assertThat(app.get("/health/ready").body())
                    .contains("\"schemaRegistry\":{\"status\":\"DOWN\"", "fetch schema id " + newId);
            int polls = 0;
            int readyPolls = 0;
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < until) {
                polls++;
                if (app.status("/health/ready") == 200) {
                    readyPolls++;
                }
                assertThat(app.status("/health/live"))
                        .as("an outage is not a reason to restart")
                        .isEqualTo(200);
                Thread.sleep(500);
            }
            System.out.printf("REGISTRY-OUTAGE-IT ready in %d of %d polls while records waited%n", readyPolls, polls);
            assertThat(readyPolls).isZero();
            assertThat(app.metric("apiary_schema_registry_outage_seconds")).isGreaterThan(0.0);
            assertThat(rows(config))
                    .as("nothing lands while the registry is down")
                    .isZero();

            // When the registry returns, then every record lands, none dead-lettered, and readiness returns
            registry().start();
            long back = System.nanoTime();
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(() -> rows(config) == (long) PER_HIVE * HIVES);
            double landed = (System.nanoTime() - back) / 1e9;
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> app.status("/health/ready") == 200);
            System.out.printf(
                    "REGISTRY-OUTAGE-IT all %d rows in Cassandra %.1f s and ready %.1f s after the registry returned%n",
                    PER_HIVE * HIVES, landed, (System.nanoTime() - back) / 1e9);
            assertThat(deadLettered(config)).isZero();

            app.sigterm();
            assertThat(app.waitFor(Duration.ofSeconds(45))).isTrue();
            assertThat(app.exitValue()).isEqualTo(143);
        } finally {
            registry().start();
        }
    }
}
