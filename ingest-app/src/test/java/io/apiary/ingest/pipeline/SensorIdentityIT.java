package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.AgentAlert;
import io.apiary.schema.AlertSeverity;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import io.apiary.schema.WeatherReading;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Sensor identity and whole-row writes on the real stack, through the gateway topics, the
 * topology and the sink: several sensors of one type at the same instants each land as their own
 * row; for every table, two different records for one primary key (and so one write time) leave
 * a row equal to one of them in every column, the same one whichever arrives first, and are
 * counted; two identical records leave one row and no conflict; two alerts of one agent in one
 * millisecond are both kept.
 *
 * <p>"Both orders" are sent to two entities (hives, stations, agents) that differ only in their
 * id: the write timestamp's fingerprint covers the regular columns, so both must end with the
 * same values.
 */
class SensorIdentityIT {

    private static final String KEYSPACE = "it_sensor_identity";
    private static final Instant NOON =
            LocalDate.now(ZoneOffset.UTC).minusDays(1).atTime(12, 0).toInstant(ZoneOffset.UTC);

    private static final SimpleMeterRegistry TOPOLOGY_METERS = new SimpleMeterRegistry();
    private static IngestConfig config;
    private static Pipeline pipeline;
    private static SimpleMeterRegistry sinkMeters;
    private static CqlSession session;
    private static Topics topics;

    @BeforeAll
    static void startPipeline() {
        // Rows of one partition sent together wait in one batch: the sink sees the conflicts.
        config = ItPipelineSettings.of(
                "sensor-identity",
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS,
                        2,
                        IngestConfig.SINK_LINGER_MS,
                        3_000,
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                        3_000,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS,
                        1_000));
        topics = config.topics();
        session = CassandraSessions.open(config);
        ItPipelineSettings.prepare(config, session);
        Metrics.addRegistry(TOPOLOGY_METERS);
        sinkMeters = new SimpleMeterRegistry();
        pipeline = Pipeline.start(config, true, true, sinkMeters);
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
        if (session != null) {
            session.close();
        }
        Metrics.removeRegistry(TOPOLOGY_METERS);
    }

    private static <V> void send(Topic<String, V> topic, Map<String, List<V>> byKey) {
        try (KafkaProducer<String, V> producer = new KafkaProducer<>(
                config.kafkaClientSettings(),
                topic.keySerde().serializer(),
                topic.valueSerde().serializer())) {
            byKey.forEach(
                    (key, values) -> values.forEach(v -> producer.send(new ProducerRecord<>(topic.name(), key, v))));
            producer.flush();
        }
    }

    private static double conflicts(String table, String stage) {
        SimpleMeterRegistry registry = "sink".equals(stage) ? sinkMeters : TOPOLOGY_METERS;
        return registry.counter(MetricNames.WRITE_CONFLICTS, MetricNames.TAG_TABLE, table, MetricNames.TAG_STAGE, stage)
                .count();
    }

    private static List<Row> select(String cql, Object... values) {
        return session.execute(cql.replace("{ks}", KEYSPACE), values).all();
    }

    private static TelemetryReading reading(
            String hive, SensorType type, String sensor, Instant time, double value, String unit, String gateway) {
        return new TelemetryReading(hive, gateway, type, sensor, time, value, unit, null);
    }

    @Test
    void should_keep_every_reading_of_two_temperature_and_two_humidity_sensors_at_the_same_instants() {
        String hive = "multi-sensor";
        List<TelemetryReading> readings = new ArrayList<>();
        int instants = 240; // one every 15 s for an hour: 4 partitions of 15 minutes
        for (int i = 0; i < instants; i++) {
            Instant time = NOON.plusSeconds(15L * i);
            readings.add(reading(hive, SensorType.TEMPERATURE, "inside", time, 34.0 + i % 10 / 10.0, "degC", "gw"));
            readings.add(reading(hive, SensorType.TEMPERATURE, "outside", time, 12.0 + i % 7 / 10.0, "degC", "gw"));
            readings.add(reading(hive, SensorType.HUMIDITY, "inside", time, 60.0 + i % 5, "%RH", "gw"));
            readings.add(reading(hive, SensorType.HUMIDITY, "outside", time, 80.0 + i % 3, "%RH", "gw"));
        }
        send(topics.telemetryTopic(), Map.of(hive, readings));

        String query = "SELECT sensor_type, sensor_id, reading_time, value FROM {ks}.hive_telemetry_v2"
                + " WHERE hive_id = ? AND day = ? AND shard = ?";
        LocalDate day = NOON.atZone(ZoneOffset.UTC).toLocalDate();
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    List<Row> rows = new ArrayList<>();
                    for (int shard = 48; shard < 52; shard++) { // 12:00-13:00 UTC at 96 time shards
                        rows.addAll(select(query, hive, day, shard));
                    }
                    assertThat(rows).hasSize(readings.size());
                    for (TelemetryReading sent : readings) {
                        assertThat(rows)
                                .filteredOn(r -> r.getString("sensor_type")
                                                .equals(sent.getSensorType().name())
                                        && r.getString("sensor_id").equals(sent.getSensorId())
                                        && r.getInstant("reading_time").equals(sent.getReadingTime()))
                                .singleElement()
                                .satisfies(r -> assertThat(r.getDouble("value")).isEqualTo(sent.getValue()));
                    }
                });
    }

    /** Sends {first, second} for entity "…-ab" and {second, first} for "…-ba"; returns both entities' rows. */
    private static <V> void bothOrders(
            Topic<String, V> topic, String prefix, Function<String, V> first, Function<String, V> second) {
        send(
                topic,
                Map.of(
                        prefix + "-ab",
                        List.of(first.apply(prefix + "-ab"), second.apply(prefix + "-ab")),
                        prefix + "-ba",
                        List.of(second.apply(prefix + "-ba"), first.apply(prefix + "-ba"))));
    }

    @Test
    void should_leave_one_whole_telemetry_reading_the_same_in_both_orders_and_count_the_conflict() {
        double before = conflicts(TableNames.HIVE_TELEMETRY, "sink");
        Instant time = NOON.plusMillis(123);
        bothOrders(
                topics.telemetryTopic(),
                "conflict",
                // Cassandra's per-cell tie-break (the greater value of each cell) would make
                // (gateway-b, 35.9): a row that matches neither reading
                hive -> reading(hive, SensorType.TEMPERATURE, "brood", time, 34.5, "degC", "gateway-b"),
                hive -> reading(hive, SensorType.TEMPERATURE, "brood", time, 35.9, "degC", "gateway-a"));
        send(
                topics.telemetryTopic(),
                Map.of(
                        "identical",
                        List.of(
                                reading("identical", SensorType.WEIGHT, "default", time, 41.0, "kg", "gw"),
                                reading("identical", SensorType.WEIGHT, "default", time, 41.0, "kg", "gw"))));

        LocalDate day = NOON.atZone(ZoneOffset.UTC).toLocalDate();
        String query = "SELECT gateway_id, value, unit FROM {ks}.hive_telemetry_v2 WHERE hive_id = ? AND day = ?"
                + " AND shard = 48";
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    assertThat(select(query, "identical", day)).hasSize(1);
                    List<Row> ab = select(query, "conflict-ab", day);
                    List<Row> ba = select(query, "conflict-ba", day);
                    assertThat(ab).hasSize(1);
                    assertThat(ba).hasSize(1);
                    List<Object> winner = List.of(
                            ab.get(0).getString(0),
                            ab.get(0).getDouble(1),
                            ab.get(0).getString(2));
                    assertThat(winner).isIn(List.of("gateway-b", 34.5, "degC"), List.of("gateway-a", 35.9, "degC"));
                    assertThat(List.<Object>of(
                                    ba.get(0).getString(0),
                                    ba.get(0).getDouble(1),
                                    ba.get(0).getString(2)))
                            .as("the same reading wins in either order")
                            .isEqualTo(winner);
                    assertThat(conflicts(TableNames.HIVE_TELEMETRY, "sink") - before)
                            .as("one conflict per order")
                            .isEqualTo(2.0);
                });
    }

    @Test
    void should_leave_one_whole_weather_reading_even_when_the_two_measure_different_things() {
        double before = conflicts(TableNames.WEATHER_READINGS, "sink");
        Instant time = NOON.plusMillis(456);
        bothOrders(
                topics.weatherTopic(),
                "station",
                station -> WeatherReading.newBuilder()
                        .setStationId(station)
                        .setReadingTime(time)
                        .setTemperatureC(21.5)
                        .setRelativeHumidity(40.0)
                        .build(),
                station -> WeatherReading.newBuilder()
                        .setStationId(station)
                        .setReadingTime(time)
                        .setPressureHpa(1012.0)
                        .setWindSpeedMs(3.0)
                        .build());
        LocalDate day = NOON.atZone(ZoneOffset.UTC).toLocalDate();
        String query = "SELECT temperature_c, relative_humidity, pressure_hpa, wind_speed_ms, wind_direction_deg,"
                + " rainfall_mm, solar_radiation_wm2 FROM {ks}.weather_readings WHERE station_id = ? AND day = ?"
                + " AND shard = 2";
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    List<Row> ab = select(query, "station-ab", day);
                    List<Row> ba = select(query, "station-ba", day);
                    assertThat(ab).hasSize(1);
                    assertThat(ba).hasSize(1);
                    List<Double> winner = measurements(ab.get(0));
                    assertThat(winner)
                            .isIn(
                                    java.util.Arrays.asList(21.5, 40.0, null, null, null, null, null),
                                    java.util.Arrays.asList(null, null, 1012.0, 3.0, null, null, null));
                    assertThat(measurements(ba.get(0))).isEqualTo(winner);
                    assertThat(conflicts(TableNames.WEATHER_READINGS, "sink") - before)
                            .isEqualTo(2.0);
                });
    }

    private static List<Double> measurements(Row row) {
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            values.add(row.isNull(i) ? null : row.getDouble(i));
        }
        return values;
    }

    @Test
    void should_keep_two_alerts_of_one_millisecond_and_one_whole_version_of_an_alert_id() {
        double before = conflicts(TableNames.AGENT_ALERTS, "sink");
        Instant time = NOON.plusMillis(789);
        send(
                topics.alertsTopic(),
                Map.of(
                        "agent-two",
                        List.of(
                                new AgentAlert(
                                        "agent-two",
                                        "hive-1",
                                        time,
                                        null,
                                        AlertSeverity.CRITICAL,
                                        "HIVE_TILTED",
                                        "tilted 30 deg"),
                                new AgentAlert(
                                        "agent-two", "hive-1", time, null, AlertSeverity.INFO, "BATTERY_LOW", "3.4 V"),
                                new AgentAlert(
                                        "agent-two",
                                        "hive-1",
                                        time,
                                        null,
                                        AlertSeverity.INFO,
                                        "BATTERY_LOW",
                                        "3.4 V"))));
        bothOrders(
                topics.alertsTopic(),
                "agent",
                agent ->
                        new AgentAlert(agent, "hive-1", time, "a-17", AlertSeverity.WARNING, "HIVE_OPENED", "lid open"),
                agent -> new AgentAlert(agent, null, time, "a-17", AlertSeverity.CRITICAL, "SENSOR_FAULT", "no data"));
        LocalDate day = NOON.atZone(ZoneOffset.UTC).toLocalDate();
        String query = "SELECT alert_id, hive_id, severity, alert_type, message FROM {ks}.agent_alerts_v2"
                + " WHERE agent_id = ? AND day = ?";
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    List<Row> two = select(query, "agent-two", day);
                    assertThat(two)
                            .extracting(r -> r.getString("alert_type"))
                            .containsExactlyInAnyOrder("HIVE_TILTED", "BATTERY_LOW");
                    assertThat(two)
                            .extracting(r -> r.getString("alert_id"))
                            .allMatch(id -> id.matches("c-[0-9a-f]{16}"));
                    List<Row> ab = select(query, "agent-ab", day);
                    List<Row> ba = select(query, "agent-ba", day);
                    assertThat(ab).hasSize(1);
                    assertThat(ba).hasSize(1);
                    List<String> winner = alert(ab.get(0));
                    assertThat(winner)
                            .isIn(
                                    java.util.Arrays.asList("a-17", "hive-1", "WARNING", "HIVE_OPENED", "lid open"),
                                    java.util.Arrays.asList("a-17", null, "CRITICAL", "SENSOR_FAULT", "no data"));
                    assertThat(alert(ba.get(0))).isEqualTo(winner);
                    assertThat(conflicts(TableNames.AGENT_ALERTS, "sink") - before)
                            .isEqualTo(2.0);
                });
    }

    private static List<String> alert(Row row) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            values.add(row.getString(i));
        }
        return values;
    }

    @Test
    void should_sum_the_same_sample_of_two_conflicting_ones_in_both_orders_and_count_the_conflict() {
        double before = conflicts(TableNames.HIVE_ACTIVITY, "topology");
        Instant time = NOON.plusSeconds(600);
        bothOrders(
                topics.entranceCountsTopic(),
                "counter",
                hive -> new EntranceCount(hive, "gw-1", time, 12, 30, 60),
                hive -> new EntranceCount(hive, "gw-1", time, 15, 2, 60));
        send(
                topics.entranceCountsTopic(),
                Map.of(
                        "counter-same",
                        List.of(
                                new EntranceCount("counter-same", "gw-1", time, 4, 4, 60),
                                new EntranceCount("counter-same", "gw-1", time, 4, 4, 60))));
        LocalDate day = NOON.atZone(ZoneOffset.UTC).toLocalDate();
        String query = "SELECT bees_in, bees_out, samples FROM {ks}.hive_activity WHERE hive_id = ? AND day = ?"
                + " AND hour = 12";
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    List<Row> ab = select(query, "counter-ab", day);
                    List<Row> ba = select(query, "counter-ba", day);
                    assertThat(ab).hasSize(1);
                    assertThat(ba).hasSize(1);
                    assertThat(List.of(ab.get(0).getLong(0), ab.get(0).getLong(1), (long)
                                    ab.get(0).getInt(2)))
                            .as("the greater sample (15 in, 2 out), not 27 in nor a mix")
                            .containsExactly(15L, 2L, 1L);
                    assertThat(List.of(ba.get(0).getLong(0), ba.get(0).getLong(1), (long)
                                    ba.get(0).getInt(2)))
                            .containsExactly(15L, 2L, 1L);
                    List<Row> same = select(query, "counter-same", day);
                    assertThat(same).hasSize(1);
                    assertThat(same.get(0).getLong(0)).isEqualTo(4L);
                    assertThat(conflicts(TableNames.HIVE_ACTIVITY, "topology") - before)
                            .isEqualTo(2.0);
                    assertThat(conflicts(TableNames.HIVE_ACTIVITY, "sink"))
                            .as("an hour's successive sums are updates")
                            .isZero();
                });
    }
}
