package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
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

/**
 * {@code wire.format.read.single.object} on the real stack (shared Kafka broker, Cassandra node and
 * schema registry), through the real topology and sink in this JVM. Records in the old
 * single-object encoding ({@code C3 01}, the fingerprint, the body) are produced once, beside a
 * registry-framed reading: a gateway reading to the telemetry topic and a row (and its key) to the
 * telemetry row topic, as a producer from before the switch would.
 *
 * <ol>
 *   <li>With the setting {@code false}, the topology dead-letters the reading (stage {@code
 *       deserialize}) and the sink the row (stage {@code sink}), each once, with reason {@code
 *       UNDECODABLE}, a message naming the setting, the exception, where it was read, and its
 *       original key and value; neither is in Cassandra, while the registry-framed reading sent
 *       beside them is.
 *   <li>With the setting {@code true} (the default), a second topology and sink (an application id
 *       and sink group of their own, so they read the topics from the start) read the very same
 *       records and write both to Cassandra, dead-lettering neither.
 * </ol>
 *
 * <p>Topics are the test's own ({@code single-object-refusal-it.topic.telemetry}, {@code
 * ...topic.telemetry.rows}, {@code ...topic.dead.letter}: {@link ItPipelineSettings}), so that no
 * other test's records are seen.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SingleObjectRefusalIT {

    private static final Logger LOG = LoggerFactory.getLogger(SingleObjectRefusalIT.class);

    private static final String NAME = "single-object-refusal";
    private static final Instant NOON =
            LocalDate.now(ZoneOffset.UTC).minusDays(1).atTime(12, 0).toInstant(ZoneOffset.UTC);
    /** The gateway that still writes single-object encoding. */
    private static final String OLD_GATEWAY_HIVE = "old-framing-gateway";
    /** The producer of rows that still writes single-object encoding. */
    private static final String OLD_ROW_HIVE = "old-framing-row";
    /** A gateway on the registry framing. */
    private static final String FRAMED_HIVE = "registry-framing-gateway";

    private static IngestConfig strict;
    private static Topics topics;
    private static CqlSession session;
    private static String keyspace;
    private static Sent oldReading;
    private static Sent oldRow;

    /** A record as produced: its bytes and where it landed. */
    private record Sent(byte[] key, byte[] value, RecordMetadata where) {}

    @BeforeAll
    static void produceOldAndNewFraming() throws Exception {
        assertThat(SharedStack.get().registryUrl())
                .as("the shared stack's schema registry (the registry framing is the default)")
                .isPresent();
        strict = ItPipelineSettings.of(
                NAME, Map.of(RegistrySettings.WIRE_FORMAT_READ_SINGLE_OBJECT, false, IngestConfig.TOPIC_PARTITIONS, 2));
        topics = strict.topics();
        keyspace = strict.getString(IngestConfig.CASSANDRA_KEYSPACE);
        session = CassandraSessions.open(strict);
        ItPipelineSettings.prepare(strict, session);

        TelemetryReading reading =
                new TelemetryReading(OLD_GATEWAY_HIVE, "gw-old", SensorType.WEIGHT, "default", NOON, 42.0, "kg", null);
        byte[] readingBytes = AvroSingleObjectSerde.of(TelemetryReading.class).encode(reading);
        LocalDate day = NOON.atZone(ZoneOffset.UTC).toLocalDate();
        byte[] rowKey = AvroSingleObjectSerde.of(HiveTelemetryPartitionKey.class)
                .encode(new HiveTelemetryPartitionKey(OLD_ROW_HIVE, day, 48));
        byte[] rowBytes = AvroSingleObjectSerde.of(HiveTelemetryRow.class)
                .encode(new HiveTelemetryRow(OLD_ROW_HIVE, day, 48, "WEIGHT", "default", NOON, "gw-old", 43.0, "kg"));
        assertThat(new byte[] {readingBytes[0], readingBytes[1], rowBytes[0], rowBytes[1]})
                .containsExactly(0xC3, 0x01, 0xC3, 0x01);
        byte[] readingKey = OLD_GATEWAY_HIVE.getBytes(StandardCharsets.UTF_8);
        TelemetryReading framed =
                new TelemetryReading(FRAMED_HIVE, "gw-new", SensorType.WEIGHT, "default", NOON, 41.0, "kg", null);
        byte[] framedBytes = topics.telemetryTopic().valueSerde().serializer().serialize(topics.telemetry(), framed);
        assertThat(framedBytes[0]).isZero();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                strict.kafkaClientSettings(), new ByteArraySerializer(), new ByteArraySerializer())) {
            oldReading = new Sent(
                    readingKey,
                    readingBytes,
                    producer.send(new ProducerRecord<>(topics.telemetry(), readingKey, readingBytes))
                            .get(30, TimeUnit.SECONDS));
            oldRow = new Sent(
                    rowKey,
                    rowBytes,
                    producer.send(new ProducerRecord<>(topics.telemetryRows(), rowKey, rowBytes))
                            .get(30, TimeUnit.SECONDS));
            producer.send(new ProducerRecord<>(
                            topics.telemetry(), FRAMED_HIVE.getBytes(StandardCharsets.UTF_8), framedBytes))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void close() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    @Order(1)
    void with_the_setting_false_the_topology_and_the_sink_dead_letter_single_object_records_naming_it() {
        long t0 = System.nanoTime();
        try (Pipeline pipeline = Pipeline.start(strict, true, true, new SimpleMeterRegistry())) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(pipeline.failure()).isNull();
                        assertThat(valuesByHive()).containsKey(FRAMED_HIVE);
                        assertThat(deadLettersOf(oldReading)).hasSize(1);
                        assertThat(deadLettersOf(oldRow)).hasSize(1);
                    });
            LOG.info("Strict pipeline: both dead letters in {} ms", (System.nanoTime() - t0) / 1_000_000);
        }
        assertThat(valuesByHive()).containsEntry(FRAMED_HIVE, 41.0);
        assertThat(valuesByHive()).doesNotContainKeys(OLD_GATEWAY_HIVE, OLD_ROW_HIVE);

        ConsumerRecord<byte[], byte[]> reading = deadLettersOf(oldReading).get(0);
        assertRefused(reading, oldReading, "deserialize", "TelemetryReading");
        ConsumerRecord<byte[], byte[]> row = deadLettersOf(oldRow).get(0);
        assertRefused(row, oldRow, "sink", "HiveTelemetryRow");
    }

    @Test
    @Order(2)
    void with_the_setting_true_the_same_records_are_read_and_land_in_cassandra() throws Exception {
        Map<String, Object> lenientSettings = new HashMap<>(strict.originals());
        lenientSettings.put(RegistrySettings.WIRE_FORMAT_READ_SINGLE_OBJECT, true);
        lenientSettings.put(IngestConfig.TOPOLOGY_APPLICATION_ID, NAME + "-lenient-it");
        lenientSettings.put(IngestConfig.SINK_GROUP_ID, NAME + "-lenient-it-sink");
        Path stateDir = Path.of("target", NAME + "-lenient-it-state").toAbsolutePath();
        io.apiary.ingest.devstack.StackFiles.deleteRecursively(stateDir);
        lenientSettings.put(IngestConfig.TOPOLOGY_STATE_DIR, stateDir.toString());
        IngestConfig lenient = io.apiary.ingest.config.ConfigLoader.load(null, Map.of(), lenientSettings);
        assertThat(lenient.wireFormat().acceptSingleObject()).isTrue();
        int readingDeadLetters = deadLettersOf(oldReading).size();
        int rowDeadLetters = deadLettersOf(oldRow).size();

        long t0 = System.nanoTime();
        try (Pipeline pipeline = Pipeline.start(lenient, true, true, new SimpleMeterRegistry());
                LagProbe lag = new LagProbe(lenient.kafkaClientSettings())) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(pipeline.failure()).isNull();
                        assertThat(valuesByHive())
                                .containsEntry(OLD_GATEWAY_HIVE, 42.0)
                                .containsEntry(OLD_ROW_HIVE, 43.0)
                                .containsEntry(FRAMED_HIVE, 41.0);
                    });
            LOG.info("Lenient pipeline: both old records in Cassandra in {} ms", (System.nanoTime() - t0) / 1_000_000);
            // everything read and committed: had either record been refused again, its copy would be there now
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(lag.lag(NAME + "-lenient-it", List.of(topics.telemetry())))
                                .isZero();
                        assertThat(lag.lag(NAME + "-lenient-it-sink", List.of(topics.telemetryRows())))
                                .isZero();
                    });
        }
        assertThat(deadLettersOf(oldReading)).hasSize(readingDeadLetters);
        assertThat(deadLettersOf(oldRow)).hasSize(rowDeadLetters);
    }

    private static void assertRefused(
            ConsumerRecord<byte[], byte[]> deadLetter, Sent original, String stage, String type) {
        var headers = deadLetter.headers();
        assertThat(DeadLetterHeaders.text(headers, DeadLetterHeaders.STAGE)).isEqualTo(stage);
        assertThat(DeadLetterHeaders.text(headers, DeadLetterHeaders.REASON))
                .isEqualTo(RejectReason.UNDECODABLE.name());
        assertThat(DeadLetterHeaders.text(headers, DeadLetterHeaders.MESSAGE))
                .isEqualTo("A single-object encoded (C3 01) " + type
                        + " is no longer accepted (wire.format.read.single.object=false): producers must write the"
                        + " registry framing (byte 0, 4-byte schema id)");
        assertThat(DeadLetterHeaders.text(headers, DeadLetterHeaders.EXCEPTION))
                .isEqualTo(SerializationException.class.getName());
        assertThat(DeadLetterHeaders.text(headers, DeadLetterHeaders.SOURCE_TOPIC))
                .isEqualTo(original.where().topic());
        assertThat(deadLetter.key()).isEqualTo(original.key());
        assertThat(deadLetter.value()).isEqualTo(original.value());
    }

    /** @return the value of each hive's row in hive_telemetry_v2 (the test's keyspace holds a few rows) */
    private static Map<String, Double> valuesByHive() {
        Map<String, Double> values = new HashMap<>();
        for (Row row : session.execute("SELECT hive_id, value FROM " + keyspace + ".hive_telemetry_v2")) {
            values.put(row.getString("hive_id"), row.getDouble("value"));
        }
        return values;
    }

    /** @return the dead letters of one record (by source topic, partition and offset), read to the topic's end */
    private static List<ConsumerRecord<byte[], byte[]>> deadLettersOf(Sent original) {
        List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : deadLetters()) {
            var headers = r.headers();
            if (original.where().topic().equals(DeadLetterHeaders.text(headers, DeadLetterHeaders.SOURCE_TOPIC))
                    && Integer.toString(original.where().partition())
                            .equals(DeadLetterHeaders.text(headers, DeadLetterHeaders.SOURCE_PARTITION))
                    && Long.toString(original.where().offset())
                            .equals(DeadLetterHeaders.text(headers, DeadLetterHeaders.SOURCE_OFFSET))) {
                found.add(r);
            }
        }
        return found;
    }

    /** @return every committed record of the dead letter topic, read from its start to its end offsets */
    private static List<ConsumerRecord<byte[], byte[]>> deadLetters() {
        Map<TopicPartition, Long> ends;
        try (LagProbe probe = new LagProbe(strict.kafkaClientSettings())) {
            ends = probe.endOffsets(List.of(topics.deadLetter()));
        }
        Map<String, Object> settings = new HashMap<>(strict.kafkaClientSettings());
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(ends.keySet());
            consumer.seekToBeginning(ends.keySet());
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
