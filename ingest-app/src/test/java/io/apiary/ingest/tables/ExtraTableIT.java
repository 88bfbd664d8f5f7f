package io.apiary.ingest.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.read.TableRows;
import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.serde.SchemaRegistryClient;
import io.apiary.ingest.serde.SchemaRegistryException;
import io.apiary.ingest.serde.SchemaSubjects;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A table that exists only in this test's resources ({@code extra-table/}: its CQL, its row schema
 * and a registration naming them and the row topic), written by the real sink and read back by the
 * descriptor-driven reader on the real stack, with no code of the application naming it. The rows
 * come in the registry framing (byte 0, the schema id, the Avro body, as any registry-aware
 * producer writes them) with the ids of the shared stack's real schema registry, where the sink
 * registered the row schema at start under {@code rows.hive_weight.v1-value} with compatibility
 * {@code FULL_TRANSITIVE}: rows of two scales of one hive every 10 minutes across two UTC days (so
 * every (day, shard) partition of the range), some with a null battery voltage (no cell), one in
 * the old single-object encoding (still read by default), one re-sent unchanged, one re-sent with
 * another weight by a producer's newer schema version (a field more, which the registry accepts
 * and the sink resolves away; one row, either version whole), a schema the registry refuses as
 * incompatible, and three records dead-lettered while the rest are written: one that is not a row,
 * one row with bytes after it and one with a schema id the registry does not know. Two names are
 * quoted in the CQL ({@code "scaleId"} of the key, {@code "Battery_V"}), so the sink's and the
 * reader's statements must quote them.
 */
class ExtraTableIT {

    private static final String KEYSPACE = "it_extra_table";
    private static final String ROW_TOPIC = "rows.hive_weight.v1";
    private static final int SHARDS = 4;
    private static final Instant START =
            LocalDate.now(ZoneOffset.UTC).minusDays(2).atTime(11, 0).toInstant(ZoneOffset.UTC);

    private static final SimpleMeterRegistry GLOBAL_METERS = new SimpleMeterRegistry();
    private static Path folder;
    private static IngestConfig config;
    private static CqlSession session;
    private static Pipeline pipeline;
    private static SimpleMeterRegistry meters;
    private static Schema schema;
    private static String registryUrl;

    @BeforeAll
    static void start() throws Exception {
        registryUrl = SharedStack.get()
                .registryUrl()
                .orElseThrow(() -> new IllegalStateException(
                        "the shared stack runs no schema registry: the extra table's rows are registry-framed"));
        folder = resourceFolder();
        config = ItPipelineSettings.of(
                "extra-table",
                Map.of(
                        IngestConfig.CASSANDRA_KEYSPACE,
                        KEYSPACE,
                        IngestConfig.SINK_EXTRA_TABLES,
                        folder.resolve("hive_weight.table.properties").toString()));
        session = CassandraSessions.open(config);
        ItPipelineSettings.prepare(config, session);
        // a table left by an earlier run of another version of this test would keep its old columns
        session.execute(SimpleStatement.newInstance("DROP TABLE IF EXISTS " + KEYSPACE + ".hive_weight")
                .setTimeout(Duration.ofMinutes(1)));
        // as `ingest-app schema apply --cql-dir extra-table/` applies it
        SchemaApplier.apply(session, SchemaApplier.load(folder, KEYSPACE, SchemaApplier.DEV_REPLICATION));
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            if (!admin.listTopics().names().get().contains(ROW_TOPIC)) {
                admin.createTopics(List.of(new NewTopic(ROW_TOPIC, 2, (short) 1)))
                        .all()
                        .get();
            }
        }
        schema = new Schema.Parser().parse(folder.resolve("HiveWeightRow.avsc").toFile());
        meters = new SimpleMeterRegistry();
        Metrics.addRegistry(GLOBAL_METERS);
        pipeline = Pipeline.start(config, false, true, meters);
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) {
            pipeline.close();
        }
        if (session != null) {
            session.close();
        }
        Metrics.removeRegistry(GLOBAL_METERS);
    }

    private static Path resourceFolder() throws URISyntaxException {
        return Path.of(ExtraTableIT.class
                        .getResource("/extra-table/hive_weight.table.properties")
                        .toURI())
                .getParent();
    }

    private static GenericRecord row(String hive, String scale, Instant at, double weight, Double battery) {
        return row(schema, hive, scale, at, weight, battery);
    }

    private static GenericRecord row(
            Schema writer, String hive, String scale, Instant at, double weight, Double battery) {
        long millisOfDay = at.toEpochMilli() - at.truncatedTo(ChronoUnit.DAYS).toEpochMilli();
        GenericRecord row = new GenericData.Record(writer);
        row.put("hive_id", hive);
        row.put("day", (int) LocalDate.ofInstant(at, ZoneOffset.UTC).toEpochDay());
        row.put("shard", (int) (millisOfDay * SHARDS / 86_400_000L));
        row.put("weighed_at", at.toEpochMilli());
        row.put("scaleId", scale);
        row.put("weight", weight);
        row.put("Battery_V", battery);
        return row;
    }

    @Test
    void should_write_and_read_a_table_known_only_from_its_cql_schema_and_registration() throws Exception {
        TableDescriptor table = TableCatalog.of(folder).table("hive_weight");
        assertThat(table.partitionKey()).containsExactly("hive_id", "day", "shard");
        assertThat(table.entityColumns()).containsExactly("hive_id");

        String hive = "weighed-" + Long.toHexString(new Random(21).nextLong());
        BinaryMessageEncoder<GenericRecord> encoder = new BinaryMessageEncoder<>(GenericData.get(), schema);
        double undecodableBefore = undecodable();
        Map<String, Map<String, Object>> expected = new LinkedHashMap<>(); // by scale and time
        // the sink registered the row schema at start; a producer asks the registry for its id
        SchemaRegistryClient producerRegistry = new SchemaRegistryClient(RegistrySettings.of(registryUrl));
        String subject = ROW_TOPIC + "-value";
        int id = producerRegistry.lookup(subject, schema).orElseThrow();
        assertThat(producerRegistry.compatibility(subject)).hasValue(SchemaSubjects.COMPATIBILITY);
        List<byte[]> values = new ArrayList<>();
        int steps = 6 * 26; // every 10 minutes for 26 hours: two UTC days, every shard of the range
        for (int i = 0; i < steps; i++) {
            Instant at = START.plus(Duration.ofMinutes(10L * i));
            for (String scale : List.of("front", "back")) {
                double weight = 40.0 + i / 100.0 + (scale.equals("back") ? 7 : 0);
                Double battery = i % 3 == 0 ? null : 3.7 - i / 1_000.0;
                GenericRecord row = row(hive, scale, at, weight, battery);
                // one row in the old framing: read beside the registry framing while the setting allows it
                values.add(i == 7 && scale.equals("back") ? bytes(encoder, row) : framed(id, row));
                Map<String, Object> columns = new HashMap<>();
                columns.put("weight_kg", weight);
                columns.put("Battery_V", battery);
                expected.put(scale + "@" + at, columns);
            }
        }
        Instant resent = START.plus(Duration.ofMinutes(100));
        values.add(values.get(20)); // the same row again: one row
        double otherWeight = 99.5;
        // another version of one key, from a producer whose schema has a field more (with a default: the
        // registry takes it under FULL_TRANSITIVE, the sink resolves it to the row schema)
        Schema newer = new Schema.Parser()
                .parse(schema.toString()
                        .replace(
                                "{\"name\":\"scaleId\"",
                                "{\"name\":\"firmware\",\"type\":\"string\",\"default\":\"\"},{\"name\":\"scaleId\""));
        assertThat(newer.getField("firmware")).isNotNull();
        int newerId = producerRegistry.register(subject, newer);
        assertThat(newerId).isNotEqualTo(id);
        GenericRecord other = row(newer, hive, "front", resent, otherWeight, 3.6);
        other.put("firmware", "2.1");
        values.add(framed(newerId, other));
        // a change the sink could not read (the weight a string): the registry refuses it
        Schema incompatible = new Schema.Parser()
                .parse(schema.toString()
                        .replace(
                                "{\"name\":\"weight\",\"type\":\"double\"",
                                "{\"name\":\"weight\",\"type\":\"string\""));
        assertThat(incompatible.getField("weight").schema().getType()).isEqualTo(Schema.Type.STRING);
        assertThatThrownBy(() -> producerRegistry.register(subject, incompatible))
                .isInstanceOf(SchemaRegistryException.class)
                .satisfies(
                        e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(409));
        values.add(new byte[] {(byte) 0xC3, 0x01, 1, 2, 3}); // not a row: dead-lettered
        byte[] third = framed(id, row(hive, "third", START, 1.0, null));
        values.add(java.util.Arrays.copyOf(third, third.length + 2)); // a row and two more bytes: dead-lettered
        byte[] unknownId = third.clone();
        java.nio.ByteBuffer.wrap(unknownId, 1, 4).putInt(Integer.MAX_VALUE - 1); // an id the registry does not know
        values.add(unknownId);
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(config.kafkaClientSettings(), new StringSerializer(), new ByteArraySerializer())) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>(ROW_TOPIC, hive, value));
            }
            producer.flush();
        }

        Instant end = START.plus(Duration.ofMinutes(10L * steps));
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(
                        () -> assertThat(TableRows.read(session, KEYSPACE, table, List.of(hive), SHARDS, START, end))
                                .hasSize(2 * steps));
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(undecodable() - undecodableBefore).isEqualTo(3.0));

        List<Map<String, Object>> rows = TableRows.read(session, KEYSPACE, table, List.of(hive), SHARDS, START, end);
        int days = 0;
        LocalDate lastDay = null;
        for (Map<String, Object> row : rows) {
            String key = row.get("scaleId") + "@" + row.get("weighed_at");
            Map<String, Object> want = expected.get(key);
            assertThat(want).as(key).isNotNull();
            if (row.get("weighed_at").equals(resent) && row.get("scaleId").equals("front")) {
                // two versions of one key: one of them whole, never a mix
                assertThat(List.of(row.get("weight_kg"), row.get("Battery_V")))
                        .isIn(List.of(want.get("weight_kg"), want.get("Battery_V")), List.of(otherWeight, 3.6));
            } else {
                assertThat(row.get("weight_kg")).as(key).isEqualTo(want.get("weight_kg"));
                assertThat(row.get("Battery_V")).as(key).isEqualTo(want.get("Battery_V"));
            }
            if (!row.get("day").equals(lastDay)) {
                days++;
                lastDay = (LocalDate) row.get("day");
            }
        }
        assertThat(days).isEqualTo(2);
        // 11:00 to 24:00 of the first day (shards 1 to 3), 00:00 to 13:00 of the second (0 to 2)
        assertThat(rows.stream().map(r -> r.get("day") + "/" + r.get("shard")).distinct())
                .hasSize(6);
    }

    /** Records the sink dead-lettered as undecodable so far (counted in Micrometer's global registry). */
    private static double undecodable() {
        return GLOBAL_METERS
                .find(MetricNames.DEAD_LETTER_RECORDS)
                .tag(MetricNames.TAG_STAGE, "sink")
                .tag(MetricNames.TAG_REASON, "UNDECODABLE")
                .counters()
                .stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    /** @return the registry framing as any registry-aware serializer writes it: 0, the id, Avro's binary body */
    private static byte[] framed(int id, GenericRecord row) throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(id).array());
        BinaryEncoder binary = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(row.getSchema()).write(row, binary);
        binary.flush();
        return out.toByteArray();
    }

    private static byte[] bytes(BinaryMessageEncoder<GenericRecord> encoder, GenericRecord row) throws Exception {
        ByteBuffer buffer = encoder.encode(row);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
