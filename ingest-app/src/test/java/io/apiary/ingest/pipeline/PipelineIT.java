package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.demo.DemoFeed;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.demo.UrbanDataset;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.simulator.EntranceCountSimulator;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.AgentAlert;
import io.apiary.schema.AlertSeverity;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import io.apiary.schema.WeatherReading;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end on the real stack: the UrBAN file and simulated entrance counts go through the
 * topology and the sink into Cassandra; bad records end in the dead letter topic.
 */
class PipelineIT {

    private static final String KEYSPACE = "it_pipeline";
    private static final Duration COUNT_INTERVAL = Duration.ofMinutes(5);

    private static IngestConfig config;
    private static Pipeline pipeline;
    private static CqlSession session;
    private static Topics topics;

    @BeforeAll
    static void startPipeline() {
        config = ItPipelineSettings.of("pipeline", Map.of(IngestConfig.TOPIC_PARTITIONS, 4));
        topics = config.topics();
        session = CassandraSessions.open(config);
        ItPipelineSettings.prepare(config, session);
        pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry());
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
        if (session != null) {
            session.close();
        }
    }

    @Test
    void should_land_every_distinct_urban_reading_and_the_simulated_hourly_sums_in_cassandra() throws Exception {
        long distinctInFile = distinctReadingsInFile();
        UrbanDataset data = UrbanDataset.load();
        EntranceCountSimulator simulator = new EntranceCountSimulator(COUNT_INTERVAL, "it-counter");

        try (GatewayProducer producer = new GatewayProducer(
                config.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic())) {
            DemoFeed.send(producer, data, simulator);
        }
        sendBadRecords();

        try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            await().atMost(Duration.ofMinutes(8))
                    .pollInterval(Duration.ofSeconds(2))
                    .untilAsserted(() -> {
                        assertThat(lag.lag("pipeline-it", List.of(topics.telemetry(), topics.entranceCounts())))
                                .isZero();
                        assertThat(lag.lag("pipeline-it-sink", List.of(topics.telemetryRows(), topics.activityRows())))
                                .isZero();
                    });
        }
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(2))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(count("hive_telemetry_v2")).isEqualTo(distinctInFile));
        assertThat(distinctInFile).isEqualTo(132_194L);

        String hive = "3627";
        Instant hourStart = Instant.parse("2021-07-15T17:00:00Z");
        long[] expected = expectedHour(simulator, data.spans().get(hive), hive, hourStart);
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    Row row = session.execute(
                                    "SELECT bees_in, bees_out, samples FROM " + KEYSPACE
                                            + ".hive_activity WHERE hive_id = ? AND day = ? AND hour = ?",
                                    hive,
                                    LocalDate.of(2021, 7, 15),
                                    17)
                            .one();
                    assertThat(row).isNotNull();
                    assertThat(new long[] {row.getLong("bees_in"), row.getLong("bees_out"), row.getInt("samples")})
                            .containsExactly(expected);
                });
        assertThat(expected[2]).isEqualTo(12);
        assertThat(expected[0]).isPositive();
        assertThat(pipeline.sink()
                        .registry()
                        .find(MetricNames.SINK_SERVER_WARNINGS)
                        .counters())
                .as("no batch warnings from Cassandra")
                .allSatisfy(c -> assertThat(c.count()).isZero());
    }

    @Test
    void should_send_undecodable_gateway_records_tombstones_and_rows_cassandra_refuses_to_the_dead_letter_topic() {
        sendBadRecords();

        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    Map<String, ConsumerRecord<byte[], byte[]>> byReason = new HashMap<>();
                    for (ConsumerRecord<byte[], byte[]> r : readAll(topics.deadLetter())) {
                        byReason.put(
                                DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.STAGE) + "/"
                                        + DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.REASON),
                                r);
                    }
                    assertThat(byReason)
                            .containsKeys(
                                    "deserialize/UNDECODABLE",
                                    "process/NULL_VALUE",
                                    "sink/CASSANDRA_REJECTED",
                                    "process/FIELD_TOO_LONG",
                                    "sink/UNDECODABLE");
                    assertThat(DeadLetterHeaders.text(
                                    byReason.get("process/FIELD_TOO_LONG").headers(), DeadLetterHeaders.MESSAGE))
                            .isEqualTo("hive_id is 600000 characters long; at most 200 are accepted");
                    assertThat(readAll(topics.deadLetter())).anySatisfy(r -> {
                        assertThat(DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.TRUNCATED))
                                .isEqualTo("true");
                        assertThat(DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.ORIGINAL_VALUE_BYTES))
                                .isEqualTo("900000");
                        assertThat(r.value()).hasSize(DeadLetterHeaders.MAX_PAYLOAD_BYTES - 4);
                    });
                    ConsumerRecord<byte[], byte[]> undecodable = byReason.get("deserialize/UNDECODABLE");
                    assertThat(new String(undecodable.value(), StandardCharsets.UTF_8))
                            .isEqualTo("garbage from a broken gateway");
                    assertThat(DeadLetterHeaders.text(undecodable.headers(), DeadLetterHeaders.SOURCE_TOPIC))
                            .isEqualTo(topics.telemetry());
                    ConsumerRecord<byte[], byte[]> refused = byReason.get("sink/CASSANDRA_REJECTED");
                    assertThat(DeadLetterHeaders.text(refused.headers(), DeadLetterHeaders.MESSAGE))
                            .isNotBlank();
                });
        await().atMost(Duration.ofMinutes(1))
                .untilAsserted(() -> assertThat(session.execute("SELECT hour FROM " + KEYSPACE
                                        + ".hive_activity WHERE hive_id = 'dlq-neighbour'")
                                .all())
                        .hasSize(2));
        // The topology and the sink are still running: a reading sent after the bad ones lands.
        try (GatewayProducer producer = new GatewayProducer(
                config.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic())) {
            producer.send(new TelemetryReading(
                    "after-bad",
                    "gw",
                    SensorType.WEIGHT,
                    "default",
                    Instant.parse("2021-07-15T00:00:01Z"),
                    42.0,
                    "kg",
                    null));
            producer.flush();
        }
        await().atMost(Duration.ofMinutes(1))
                .untilAsserted(() -> assertThat(session.execute(
                                        "SELECT value FROM " + KEYSPACE
                                                + ".hive_telemetry_v2 WHERE hive_id = 'after-bad' AND day = '2021-07-15' AND shard = 0")
                                .all())
                        .hasSize(1));
    }

    @Test
    void should_land_weather_readings_and_agent_alerts_and_dead_letter_an_impossible_reading() {
        LocalDate day = LocalDate.now(java.time.ZoneOffset.UTC).minusDays(1);
        Instant ten = day.atTime(10, 0).toInstant(java.time.ZoneOffset.UTC);
        Instant eighteen = day.atTime(18, 0).toInstant(java.time.ZoneOffset.UTC);
        Topic<String, WeatherReading> weather = topics.weatherTopic();
        Topic<String, AgentAlert> alerts = topics.alertsTopic();
        try (KafkaProducer<String, WeatherReading> weatherProducer = new KafkaProducer<>(
                        config.kafkaClientSettings(),
                        weather.keySerde().serializer(),
                        weather.valueSerde().serializer());
                KafkaProducer<String, AgentAlert> alertProducer = new KafkaProducer<>(
                        config.kafkaClientSettings(),
                        alerts.keySerde().serializer(),
                        alerts.valueSerde().serializer())) {
            weatherProducer.send(new ProducerRecord<>(
                    weather.name(),
                    "it-st-1",
                    new WeatherReading("it-st-1", ten, 21.5, 60.0, 1013.2, 3.1, 270.0, 0.0, 640.0)));
            weatherProducer.send(new ProducerRecord<>(
                    weather.name(),
                    "it-st-1",
                    WeatherReading.newBuilder()
                            .setStationId("it-st-1")
                            .setReadingTime(ten.plusSeconds(10))
                            .setRainfallMm(0.2)
                            .build()));
            weatherProducer.send(new ProducerRecord<>(
                    weather.name(),
                    "it-st-1",
                    WeatherReading.newBuilder()
                            .setStationId("it-st-1")
                            .setReadingTime(eighteen)
                            .setTemperatureC(15.0)
                            .build()));
            weatherProducer.send(new ProducerRecord<>(
                    weather.name(),
                    "it-st-bad",
                    WeatherReading.newBuilder()
                            .setStationId("it-st-bad")
                            .setReadingTime(ten)
                            .setRelativeHumidity(150.0)
                            .build()));
            alertProducer.send(new ProducerRecord<>(
                    alerts.name(),
                    "it-agent-1",
                    new AgentAlert(
                            "it-agent-1",
                            "3627",
                            ten,
                            null,
                            AlertSeverity.CRITICAL,
                            "SWARMING_SUSPECTED",
                            "Weight dropped 2.1 kg in 10 minutes")));
            alertProducer.send(new ProducerRecord<>(
                    alerts.name(),
                    "it-agent-1",
                    new AgentAlert(
                            "it-agent-1", null, ten.plusSeconds(30), null, AlertSeverity.INFO, "BATTERY_LOW", "")));
        }

        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    List<Row> morning = session.execute(
                                    "SELECT reading_time, temperature_c, rainfall_mm, writetime(rainfall_mm)" + " FROM "
                                            + KEYSPACE
                                            + ".weather_readings WHERE station_id = 'it-st-1' AND day = ? AND shard = 1",
                                    day)
                            .all();
                    assertThat(morning)
                            .extracting(r -> r.getInstant("reading_time"))
                            .containsExactly(ten.plusSeconds(10), ten);
                    assertThat(morning.get(0).isNull("temperature_c"))
                            .as("absent measurement")
                            .isTrue();
                    assertThat(morning.get(0).getDouble("rainfall_mm")).isEqualTo(0.2);
                    assertThat(morning.get(0).getLong(3))
                            .as("write time within the second after the reading's, us")
                            .isBetween(
                                    ten.plusSeconds(11).toEpochMilli() * 1000,
                                    ten.plusSeconds(12).toEpochMilli() * 1000 - 1);
                    assertThat(morning.get(1).getDouble("temperature_c")).isEqualTo(21.5);
                    Row evening = session.execute(
                                    "SELECT temperature_c FROM " + KEYSPACE + ".weather_readings"
                                            + " WHERE station_id = 'it-st-1' AND day = ? AND shard = 3",
                                    day)
                            .one();
                    assertThat(evening).isNotNull();
                    assertThat(evening.getDouble("temperature_c")).isEqualTo(15.0);
                    List<Row> raised = session.execute(
                                    "SELECT alert_time, hive_id, severity, alert_type, message FROM " + KEYSPACE
                                            + ".agent_alerts_v2 WHERE agent_id = 'it-agent-1' AND day = ?",
                                    day)
                            .all();
                    assertThat(raised)
                            .extracting(r -> r.getString("alert_type"))
                            .containsExactly("BATTERY_LOW", "SWARMING_SUSPECTED");
                    assertThat(raised.get(0).getString("hive_id")).isNull();
                    assertThat(raised.get(1).getString("severity")).isEqualTo("CRITICAL");
                    assertThat(raised.get(1).getString("message")).isEqualTo("Weight dropped 2.1 kg in 10 minutes");
                });
        await().atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(readAll(topics.deadLetter())).anySatisfy(r -> {
                    assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("it-st-bad");
                    assertThat(DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.REASON))
                            .isEqualTo("OUT_OF_RANGE");
                    assertThat(DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.SOURCE_TOPIC))
                            .isEqualTo(weather.name());
                }));
        assertThat(session.execute(
                                "SELECT * FROM " + KEYSPACE + ".weather_readings WHERE station_id = 'it-st-bad'"
                                        + " AND day = ? AND shard = 1",
                                day)
                        .all())
                .isEmpty();
    }

    private static void sendBadRecords() {
        AvroSingleObjectSerde<HourlyActivity> rowSerde = AvroSingleObjectSerde.of(HourlyActivity.class);
        AvroSingleObjectSerde<HiveActivityPartitionKey> keySerde =
                AvroSingleObjectSerde.of(HiveActivityPartitionKey.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                config.kafkaClientSettings(), new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(
                    new ProducerRecord<>(topics.telemetry(), bytes("3627"), bytes("garbage from a broken gateway")));
            // Legal input whose output would be too large for Kafka: the hive id is written twice (key and row).
            TelemetryReading huge = new TelemetryReading(
                    "h".repeat(600_000),
                    "gw",
                    SensorType.WEIGHT,
                    "default",
                    Instant.parse("2021-07-15T12:00:00Z"),
                    1.0,
                    "kg",
                    null);
            producer.send(new ProducerRecord<>(
                    topics.telemetry(),
                    bytes("huge"),
                    AvroSingleObjectSerde.of(TelemetryReading.class).encode(huge)));
            // A row the sink cannot decode, too large to be copied whole to the dead letter topic.
            producer.send(new ProducerRecord<>(topics.telemetryRows(), bytes("junk"), new byte[900_000]));
            producer.send(new ProducerRecord<>(topics.entranceCounts(), bytes("3627"), null));
            // An empty partition key is refused by Cassandra; the rows around it must still land.
            List<String> hives = List.of("dlq-neighbour", "", "dlq-neighbour");
            for (int hour = 1; hour <= hives.size(); hour++) {
                String hive = hives.get(hour - 1);
                Instant start = Instant.parse("2021-07-15T00:00:00Z").plus(Duration.ofHours(hour));
                HourlyActivity row = new HourlyActivity(
                        hive,
                        LocalDate.of(2021, 7, 15),
                        hour,
                        start,
                        start.plus(Duration.ofHours(1)),
                        5L,
                        6L,
                        1,
                        0,
                        io.apiary.schema.ResultTiming.ON_TIME,
                        0);
                producer.send(new ProducerRecord<>(
                        topics.activityRows(),
                        0,
                        keySerde.encode(new HiveActivityPartitionKey(hive)),
                        rowSerde.encode(row)));
            }
        }
    }

    private static long[] expectedHour(
            EntranceCountSimulator simulator, UrbanDataset.HiveSpan span, String hive, Instant hourStart) {
        Instant[] sampleSpan = DemoFeed.sampleSpan(span, simulator);
        Instant from = hourStart.isAfter(sampleSpan[0]) ? hourStart : sampleSpan[0];
        Instant hourEnd = hourStart.plus(Duration.ofHours(1));
        Instant to = hourEnd.isBefore(sampleSpan[1]) ? hourEnd : sampleSpan[1];
        List<EntranceCount> samples = new ArrayList<>();
        simulator.samples(hive, from, to, samples::add);
        return new long[] {
            samples.stream().mapToLong(EntranceCount::getBeesIn).sum(),
            samples.stream().mapToLong(EntranceCount::getBeesOut).sum(),
            samples.size()
        };
    }

    /** Counts distinct (hive, sensor, timestamp) readings straight from the file, independently of the app's parser. */
    private static long distinctReadingsInFile() throws Exception {
        Set<String> distinct = new HashSet<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                PipelineIT.class.getResourceAsStream(UrbanDataset.RESOURCE), StandardCharsets.UTF_8))) {
            String header = in.readLine();
            assertThat(header).isEqualTo("Date,Tag number,temperature,humidity");
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(",", -1);
                if (!f[2].isBlank()) {
                    distinct.add(f[1] + "|temperature|" + f[0]);
                }
                if (!f[3].isBlank()) {
                    distinct.add(f[1] + "|humidity|" + f[0]);
                }
            }
        }
        return distinct.size();
    }

    private static long count(String table) {
        Row row = session.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                                "SELECT COUNT(*) FROM " + KEYSPACE + "." + table)
                        .setTimeout(Duration.ofSeconds(60)))
                .one();
        return row == null ? 0 : row.getLong(0);
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        Map<String, Object> settings = new HashMap<>(config.kafkaClientSettings());
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "pipeline-it-reader-" + System.nanoTime());
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
