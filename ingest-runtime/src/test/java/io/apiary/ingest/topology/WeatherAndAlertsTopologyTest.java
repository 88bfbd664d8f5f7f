package io.apiary.ingest.topology;

import static io.apiary.ingest.topology.WeatherAndAlertsFixture.alert;
import static io.apiary.ingest.topology.WeatherAndAlertsFixture.reading;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.testing.RandomCases;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.AgentAlertsPartitionKey;
import io.apiary.schema.WeatherReading;
import io.apiary.schema.WeatherReadingRow;
import io.apiary.schema.WeatherReadingsPartitionKey;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WeatherAndAlertsTopologyTest {

    private WeatherAndAlertsFixture fixture = new WeatherAndAlertsFixture(Map.of());

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private void reopen(Map<String, Object> overrides) {
        fixture.close();
        fixture = new WeatherAndAlertsFixture(overrides);
    }

    @Test
    void should_bucket_weather_readings_by_utc_day_and_six_hour_shard_at_the_boundaries() {
        for (String time : List.of(
                "2021-06-19T05:59:59.999Z",
                "2021-06-19T06:00:00.000Z",
                "2021-06-19T23:59:59.999Z",
                "2021-06-20T00:00:00.000Z")) {
            fixture.weather.pipeInput("st-1", reading("st-1", time, 18.0));
        }

        assertThat(weatherKeys())
                .containsExactly(
                        new WeatherReadingsPartitionKey("st-1", LocalDate.of(2021, 6, 19), 0),
                        new WeatherReadingsPartitionKey("st-1", LocalDate.of(2021, 6, 19), 1),
                        new WeatherReadingsPartitionKey("st-1", LocalDate.of(2021, 6, 19), 3),
                        new WeatherReadingsPartitionKey("st-1", LocalDate.of(2021, 6, 20), 0));
    }

    @Test
    void should_use_the_configured_weather_shard_count() {
        reopen(Map.of(IngestConfig.WEATHER_SHARDS, 24));
        fixture.weather.pipeInput("st-1", reading("st-1", "2021-06-19T13:30:00Z", 18.0));

        assertThat(fixture.weatherRows.readKeyValue().key.getShard()).isEqualTo(13);
    }

    @Test
    void should_carry_every_weather_column_and_keep_absent_measurements_null() {
        WeatherReading full = new WeatherReading(
                "st-9", Instant.parse("2021-07-15T12:07:00Z"), 21.5, 60.0, 1013.25, 3.2, 270.0, 0.4, 640.0);
        fixture.weather.pipeInput("st-9", full);
        fixture.weather.pipeInput(
                "st-9",
                WeatherReading.newBuilder()
                        .setStationId("st-9")
                        .setReadingTime(Instant.parse("2021-07-15T12:07:10Z"))
                        .setRainfallMm(1.2)
                        .build());

        List<KeyValue<WeatherReadingsPartitionKey, WeatherReadingRow>> rows = fixture.weatherRows.readKeyValuesToList();
        LocalDate day = LocalDate.of(2021, 7, 15);
        assertThat(rows.get(0).key).isEqualTo(new WeatherReadingsPartitionKey("st-9", day, 2));
        assertThat(rows.get(0).value)
                .isEqualTo(new WeatherReadingRow(
                        "st-9",
                        day,
                        2,
                        Instant.parse("2021-07-15T12:07:00Z"),
                        21.5,
                        60.0,
                        1013.25,
                        3.2,
                        270.0,
                        0.4,
                        640.0));
        assertThat(rows.get(1).value)
                .isEqualTo(new WeatherReadingRow(
                        "st-9",
                        day,
                        2,
                        Instant.parse("2021-07-15T12:07:10Z"),
                        null,
                        null,
                        null,
                        null,
                        null,
                        1.2,
                        null));
    }

    static Stream<Arguments> randomReadings() {
        // fewer than the default: each case opens a TopologyTestDriver
        return RandomCases.cases(50, (SplittableRandom random) -> new Object[] {
            RandomCases.letters(random, 1 + random.nextInt(20)),
            Instant.parse("2020-07-21T00:00:00Z").toEpochMilli() + random.nextLong(364L * 86_400_000L),
            random.nextBoolean() ? "time" : "hash"
        });
    }

    @ParameterizedTest(name = "{0} {3}")
    @MethodSource("randomReadings")
    void should_place_a_weather_reading_in_its_utc_day_and_a_shard_below_the_count_and_replay_it_identically(
            String seed, String station, long millis, String strategy) {
        reopen(Map.of(IngestConfig.TELEMETRY_SHARD_STRATEGY, strategy));
        WeatherReading reading = WeatherReading.newBuilder()
                .setStationId(station)
                .setReadingTime(Instant.ofEpochMilli(millis))
                .setPressureHpa(1000.0)
                .build();
        fixture.weather.pipeInput(station, reading);
        fixture.weather.pipeInput(station, reading);

        List<WeatherReadingsPartitionKey> keys = weatherKeys();
        assertThat(keys).hasSize(2);
        assertThat(keys.get(1)).isEqualTo(keys.get(0));
        assertThat(keys.get(0).getDay()).isEqualTo(LocalDate.ofEpochDay(Math.floorDiv(millis, 86_400_000L)));
        assertThat(keys.get(0).getShard()).isBetween(0, 3);
    }

    @Test
    void should_key_alerts_by_agent_and_utc_day_at_the_boundary_and_carry_every_column() {
        fixture.alerts.pipeInput("agent-7", alert("agent-7", "3627", "2021-06-19T23:59:59.999Z", "HIVE_OPENED"));
        fixture.alerts.pipeInput("agent-7", alert("agent-7", null, "2021-06-20T00:00:00.000Z", "BATTERY_LOW"));

        List<KeyValue<AgentAlertsPartitionKey, AgentAlertRow>> rows = fixture.alertRows.readKeyValuesToList();
        assertThat(rows)
                .extracting(kv -> kv.key)
                .containsExactly(
                        new AgentAlertsPartitionKey("agent-7", LocalDate.of(2021, 6, 19)),
                        new AgentAlertsPartitionKey("agent-7", LocalDate.of(2021, 6, 20)));
        assertThat(rows.get(0).value)
                .isEqualTo(new AgentAlertRow(
                        "agent-7",
                        LocalDate.of(2021, 6, 19),
                        Instant.parse("2021-06-19T23:59:59.999Z"),
                        io.apiary.ingest.identity.AlertIds.derive(
                                "3627", "WARNING", "HIVE_OPENED", "details of HIVE_OPENED"),
                        "3627",
                        "WARNING",
                        "HIVE_OPENED",
                        "details of HIVE_OPENED"));
        assertThat(rows.get(1).value.getHiveId()).isNull();
        assertThat(rows.get(1).value.getAlertId()).matches("c-[0-9a-f]{16}");
    }

    private List<WeatherReadingsPartitionKey> weatherKeys() {
        return fixture.weatherRows.readKeyValuesToList().stream()
                .map(kv -> kv.key)
                .toList();
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        return DeadLetterHeaders.text(record.headers(), name);
    }

    @Test
    void should_dead_letter_invalid_weather_readings_with_their_reason_and_go_on() {
        fixture.weather.pipeInput("st-1", reading("st-1", "2021-07-15T10:00:00Z", 75.0));
        fixture.weather.pipeInput("st-2", reading("st-1", "2021-07-15T10:00:00Z", 20.0));
        fixture.weather.pipeInput("st-1", reading("st-1", "2021-07-15T10:00:00Z", Double.NaN));
        fixture.weather.pipeInput("st-1", reading("st-1", "2021-07-20T00:10:00Z", 20.0));
        fixture.weather.pipeInput("st-1", reading("st-1", "2020-07-15T10:00:00Z", 20.0));
        fixture.weather.pipeInput((String) null, reading("st-1", "2021-07-15T10:00:00Z", 20.0));
        fixture.weather.pipeInput("st-1", reading("st-1", "2021-07-15T10:00:10Z", 20.0));

        List<TestRecord<byte[], byte[]>> dead = fixture.deadLetter.readRecordsToList();
        assertThat(dead)
                .extracting(r -> header(r, DeadLetterHeaders.REASON))
                .containsExactly(
                        "OUT_OF_RANGE",
                        "KEY_MISMATCH",
                        "NON_FINITE_VALUE",
                        "FUTURE_TIMESTAMP",
                        "EXPIRED_TIMESTAMP",
                        "NULL_KEY");
        assertThat(dead).allSatisfy(r -> {
            assertThat(header(r, DeadLetterHeaders.STAGE)).isEqualTo("process");
            assertThat(header(r, DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo(fixture.topics.weather());
        });
        assertThat(header(dead.get(0), DeadLetterHeaders.MESSAGE))
                .isEqualTo("temperature_c 75.0 degC is outside the physically possible range [-90.0, 60.0] degC");
        assertThat(new String(dead.get(1).key(), StandardCharsets.UTF_8)).isEqualTo("st-2");
        assertThat(fixture.weatherRows.readValuesToList())
                .extracting(WeatherReadingRow::getReadingTime)
                .containsExactly(Instant.parse("2021-07-15T10:00:10Z"));
    }

    @Test
    void should_dead_letter_invalid_alerts_with_their_reason_and_go_on() {
        fixture.alerts.pipeInput("agent-7", alert("agent-7", "3627", "2021-07-15T10:00:00Z", "T".repeat(33)));
        fixture.alerts.pipeInput("agent-8", alert("agent-7", "3627", "2021-07-15T10:00:00Z", "SENSOR_FAULT"));
        fixture.alerts.pipeInput("agent-7", alert("agent-7", "3627", "1970-01-01T00:00:00Z", "SENSOR_FAULT"));
        fixture.alerts.pipeInput("agent-7", alert("agent-7", "3627", "2021-07-15T10:00:01Z", "SENSOR_FAULT"));

        List<TestRecord<byte[], byte[]>> dead = fixture.deadLetter.readRecordsToList();
        assertThat(dead)
                .extracting(r -> header(r, DeadLetterHeaders.REASON))
                .containsExactly("FIELD_TOO_LONG", "KEY_MISMATCH", "INVALID_TIMESTAMP");
        assertThat(dead)
                .allSatisfy(r ->
                        assertThat(header(r, DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo(fixture.topics.alerts()));
        assertThat(fixture.alertRows.readValuesToList())
                .extracting(AgentAlertRow::getAlertTime)
                .containsExactly(Instant.parse("2021-07-15T10:00:01Z"));
    }
}
