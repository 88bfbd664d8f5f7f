package io.apiary.ingest.topology;

import static io.apiary.ingest.topology.TopologyFixture.reading;
import static io.apiary.ingest.topology.TopologyFixture.sample;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import io.micrometer.core.instrument.Metrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One behaviour per validation rule, through the real topology: the record goes to the dead
 * letter topic with its reason and the original bytes, and the next valid record still lands.
 */
class ValidationRulesTest {

    static {
        TopologyFixture.countMetrics();
    }

    private TopologyFixture fixture = new TopologyFixture(Map.of());

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private TestRecord<byte[], byte[]> onlyDeadLetter() {
        List<TestRecord<byte[], byte[]>> dead = fixture.deadLetter.readRecordsToList();
        assertThat(dead).hasSize(1);
        return dead.get(0);
    }

    private String reasonOf(TestRecord<byte[], byte[]> dead) {
        return DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.REASON);
    }

    private String messageOf(TestRecord<byte[], byte[]> dead) {
        return DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.MESSAGE);
    }

    private void assertTelemetryRejected(String key, TelemetryReading reading, String reason, String messagePart) {
        fixture.telemetry.pipeInput(key, reading);
        fixture.telemetry.pipeInput("ok", reading("ok", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 20));

        TestRecord<byte[], byte[]> dead = onlyDeadLetter();
        assertThat(reasonOf(dead)).isEqualTo(reason);
        assertThat(messageOf(dead)).contains(messagePart);
        assertThat(DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.STAGE))
                .isEqualTo("process");
        assertThat(DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.SOURCE_TOPIC))
                .isEqualTo(fixture.topics.telemetry());
        assertThat(dead.value()).as("the original value bytes").isNotEmpty();
        assertThat(fixture.telemetryRows.readValuesToList())
                .extracting(r -> r.getHiveId())
                .containsExactly("ok");
    }

    private void assertSampleRejected(String key, EntranceCount sample, String reason, String messagePart) {
        fixture.counts.pipeInput(key, sample);
        TestRecord<byte[], byte[]> dead = onlyDeadLetter();
        assertThat(reasonOf(dead)).isEqualTo(reason);
        assertThat(messageOf(dead)).contains(messagePart);
        fixture.advanceWallClock(Duration.ofSeconds(10));
        assertThat(fixture.activityRows.isEmpty()).as("nothing summed").isTrue();
    }

    @Test
    void null_key_is_rejected_as_NULL_KEY() {
        assertTelemetryRejected(
                null, reading("a", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 20), "NULL_KEY", "no key");
    }

    @Test
    void empty_key_is_rejected_as_NULL_KEY() {
        assertTelemetryRejected(
                "", reading("a", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 20), "NULL_KEY", "an empty key");
    }

    @Test
    void tombstone_is_rejected_as_NULL_VALUE() {
        fixture.rawCounts.pipeInput("a".getBytes(StandardCharsets.UTF_8), (byte[]) null);
        assertThat(reasonOf(onlyDeadLetter())).isEqualTo("NULL_VALUE");
    }

    @Test
    void key_that_disagrees_with_the_hive_id_is_rejected_as_KEY_MISMATCH() {
        assertTelemetryRejected(
                "3627",
                reading("3628", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 20),
                "KEY_MISMATCH",
                "Record key '3627' differs from hive_id '3628'");
    }

    @Test
    void sample_whose_key_disagrees_with_its_hive_id_is_rejected_as_KEY_MISMATCH() {
        assertSampleRejected("a", sample("b", "2021-07-15T10:00:00Z", 1, 1), "KEY_MISMATCH", "differs from hive_id");
    }

    @Test
    void overlong_id_is_rejected_as_FIELD_TOO_LONG() {
        String id = "x".repeat(201);
        assertTelemetryRejected(
                id,
                reading(id, SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 20),
                "FIELD_TOO_LONG",
                "key is 201 characters long; at most 200 are accepted");
    }

    @Test
    void nan_is_rejected_as_NON_FINITE_VALUE() {
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", Double.NaN),
                "NON_FINITE_VALUE",
                "value is NaN");
    }

    @Test
    void infinity_is_rejected_as_NON_FINITE_VALUE() {
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.WEIGHT, "2021-07-15T10:00:00Z", Double.NEGATIVE_INFINITY),
                "NON_FINITE_VALUE",
                "value is -Infinity");
    }

    @Test
    void humidity_beyond_the_sensors_tolerance_above_100_percent_is_rejected_as_OUT_OF_RANGE() {
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.HUMIDITY, "2021-07-15T10:00:00Z", 103.01),
                "OUT_OF_RANGE",
                "value of HUMIDITY 103.01 %RH is outside the accepted range [0, 103] %RH"
                        + " (validation.range.humidity)");
    }

    @Test
    void readings_a_working_sensor_reports_near_its_limits_are_stored_as_read_not_clamped() {
        fixture.telemetry.pipeInput("a", reading("a", SensorType.HUMIDITY, "2021-07-15T10:00:00Z", 100.1));
        fixture.telemetry.pipeInput("a", reading("a", SensorType.HUMIDITY, "2021-07-15T10:15:00Z", 103));
        fixture.telemetry.pipeInput("a", reading("a", SensorType.WEIGHT, "2021-07-15T10:00:00Z", -3.2));

        assertThat(fixture.deadLetter.isEmpty()).isTrue();
        assertThat(fixture.telemetryRows.readValuesToList())
                .extracting(r -> r.getValue())
                .containsExactly(100.1, 103.0, -3.2);
    }

    @Test
    void a_range_setting_moves_the_bound_the_topology_checks() {
        fixture.close();
        fixture = new TopologyFixture(Map.of("validation.range.humidity", "0,100"));

        assertTelemetryRejected(
                "a",
                reading("a", SensorType.HUMIDITY, "2021-07-15T10:00:00Z", 100.1),
                "OUT_OF_RANGE",
                "[0, 100] %RH (validation.range.humidity)");
    }

    @Test
    void temperature_of_a_sensor_fault_is_rejected_as_OUT_OF_RANGE() {
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", -127),
                "OUT_OF_RANGE",
                "[-50, 80] degC");
    }

    @Test
    void known_sensor_type_in_an_unknown_unit_is_rejected_as_UNKNOWN_UNIT() {
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 68, "degF"),
                "UNKNOWN_UNIT",
                "unit 'degF' is not a known unit of TEMPERATURE");
    }

    @Test
    void unknown_sensor_type_is_dead_lettered_as_UNKNOWN_SENSOR_TYPE_with_its_original_bytes() {
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.UNKNOWN, "2021-07-15T10:00:00Z", 1e9, "whatever"),
                "UNKNOWN_SENSOR_TYPE",
                "to be replayed once the pipeline knows the type");
    }

    @Test
    void two_readings_of_unknown_types_never_share_a_row() {
        TelemetryReading first = reading("a", SensorType.UNKNOWN, "2021-07-15T10:00:00Z", 1, "lx");
        TelemetryReading second = reading("a", SensorType.UNKNOWN, "2021-07-15T10:00:00Z", 2, "uv");
        fixture.telemetry.pipeInput("a", first);
        fixture.telemetry.pipeInput("a", second);
        assertThat(fixture.telemetryRows.isEmpty()).isTrue();
        assertThat(fixture.deadLetter.readRecordsToList())
                .hasSize(2)
                .allSatisfy(dead -> assertThat(reasonOf(dead)).isEqualTo("UNKNOWN_SENSOR_TYPE"));
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> badSensorIds() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("", "'' is empty"),
                org.junit.jupiter.params.provider.Arguments.of(
                        "inside probe", "has the character U+0020 at position 7"),
                org.junit.jupiter.params.provider.Arguments.of(
                        "temp\u00e9", "has the character '\u00e9' at position 5"),
                org.junit.jupiter.params.provider.Arguments.of("t/0", "has the character '/' at position 2"),
                org.junit.jupiter.params.provider.Arguments.of(
                        "tab\tid", "'tab\\u0009id' has the character U+0009 at position 4"),
                org.junit.jupiter.params.provider.Arguments.of("a".repeat(65), "is 65 characters long; at most 64"));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "sensor_id {0}")
    @org.junit.jupiter.params.provider.MethodSource("badSensorIds")
    void sensor_id_outside_the_identifier_rule_is_rejected_as_INVALID_IDENTIFIER(String id, String problem) {
        TelemetryReading reading = TelemetryReading.newBuilder(
                        reading("a", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 20))
                .setSensorId(id)
                .build();
        assertTelemetryRejected("a", reading, "INVALID_IDENTIFIER", problem);
    }

    @Test
    void sensor_ids_at_the_limits_of_the_rule_are_accepted_and_kept_apart() {
        for (String id : List.of("t_0", "T_0", "brood-left.2", "a".repeat(64))) {
            TelemetryReading reading = TelemetryReading.newBuilder(
                            reading("a", SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 20))
                    .setSensorId(id)
                    .build();
            fixture.telemetry.pipeInput("a", reading);
        }
        assertThat(fixture.deadLetter.isEmpty()).isTrue();
        assertThat(fixture.telemetryRows.readValuesToList())
                .extracting(r -> r.getSensorId())
                .containsExactly("t_0", "T_0", "brood-left.2", "a".repeat(64));
    }

    @Test
    void negative_count_is_rejected_as_NEGATIVE_COUNT() {
        assertSampleRejected("a", sample("a", "2021-07-15T10:00:00Z", 3, -1), "NEGATIVE_COUNT", "bees_out is -1");
    }

    @Test
    void count_beyond_a_whole_colony_is_rejected_as_OUT_OF_RANGE() {
        assertSampleRejected(
                "a",
                sample("a", "2021-07-15T10:00:00Z", Integer.MAX_VALUE, 1),
                "OUT_OF_RANGE",
                "bees_in 2.147483647E9 bees");
    }

    @Test
    void key_that_is_not_valid_utf8_is_rejected_not_read_as_replacement_characters() {
        // Read by Kafka's StringDeserializer, 0xFF and 0xFE would both become "\uFFFD" and so one id.
        fixture.rawCounts.pipeInput(
                new byte[] {(byte) 0xFF},
                io.apiary.ingest.serde.AvroSingleObjectSerde.of(EntranceCount.class)
                        .encode(sample("\uFFFD", "2021-07-15T10:00:00Z", 1, 1)));
        fixture.counts.pipeInput("ok", sample("ok", "2021-07-15T10:00:00Z", 1, 1));
        fixture.advanceWallClock(Duration.ofSeconds(10));

        assertThat(fixture.activityRows.readValuesToList())
                .extracting(HourlyActivity::getHiveId)
                .containsExactly("ok");
    }

    @Test
    void length_limits_count_characters_not_utf16_units() {
        String bees = "\uD83D\uDC1D".repeat(150); // 150 honeybee emoji, 300 UTF-16 units
        fixture.telemetry.pipeInput(bees, reading(bees, SensorType.TEMPERATURE, "2021-07-15T10:00:00Z", 20));
        assertThat(fixture.deadLetter.isEmpty()).isTrue();
        assertThat(fixture.telemetryRows.readValuesToList()).hasSize(1);
    }

    @Test
    void interval_of_zero_seconds_is_rejected_as_OUT_OF_RANGE() {
        assertSampleRejected(
                "a",
                new EntranceCount("a", "gw-1", Instant.parse("2021-07-15T10:00:00Z"), 1, 1, 0),
                "OUT_OF_RANGE",
                "interval_seconds 0.0 s");
    }

    @Test
    void timestamp_zero_is_rejected_as_INVALID_TIMESTAMP() {
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.TEMPERATURE, "1970-01-01T00:00:00Z", 20),
                "INVALID_TIMESTAMP",
                "reading_time 0 ms");
    }

    @Test
    void timestamp_before_1970_is_rejected_as_INVALID_TIMESTAMP() {
        assertSampleRejected(
                "a", sample("a", "1969-12-31T23:00:00Z", 1, 1), "INVALID_TIMESTAMP", "event_time -3600000 ms");
    }

    @Test
    void reading_more_than_the_skew_ahead_of_the_clock_is_rejected_as_FUTURE_TIMESTAMP() {
        Instant wall = TopologyFixture.DEFAULT_WALL_CLOCK;
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.TEMPERATURE, wall.plusSeconds(301).toString(), 20),
                "FUTURE_TIMESTAMP",
                "more than 5 min ahead of the receiver's clock");
    }

    @Test
    void reading_within_the_skew_is_accepted() {
        fixture.telemetry.pipeInput(
                "a",
                reading(
                        "a",
                        SensorType.TEMPERATURE,
                        TopologyFixture.DEFAULT_WALL_CLOCK.plusSeconds(300).toString(),
                        20));
        assertThat(fixture.deadLetter.isEmpty()).isTrue();
    }

    @Test
    void future_sample_does_not_move_stream_time_so_the_open_hour_stays_open() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-31T22:10:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "3000-01-01T00:00:00Z", 100, 100));
        fixture.counts.pipeInput("a", sample("a", "2021-07-31T22:20:00Z", 2, 2));

        assertThat(reasonOf(onlyDeadLetter())).isEqualTo("FUTURE_TIMESTAMP");
        assertThat(fixture.hourly.isEmpty())
                .as("the 22:00 hour was not closed by the year-3000 sample")
                .isTrue();
        assertThat(fixture.late.isEmpty()).as("the 22:20 sample is not late").isTrue();
        fixture.counts.pipeInput("a", sample("a", "2021-07-31T23:10:00Z", 0, 0));
        assertThat(fixture.hourly.readValue().getEntries()).isEqualTo(3);
    }

    @Test
    void sample_refused_as_future_by_the_extractor_is_refused_by_the_check_step_too_even_if_the_clock_moved_on() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-31T23:30:00Z", 1000, 1000));
        // The clock moves 1 s each time it is read: the extractor sees the first sample 300.5 s
        // ahead (refused), the check step 299.5 s ahead; the second sample is 298.5 s ahead for both.
        fixture.clockTickPerRead.set(1_000);
        Instant justBeyondSkew = fixture.wallClockNow().plusMillis(300_500);
        fixture.counts.pipeInput("a", new EntranceCount("a", "gw-1", justBeyondSkew, 1, 1, 60));
        fixture.counts.pipeInput("a", new EntranceCount("a", "gw-2", justBeyondSkew, 2, 2, 60));
        fixture.clockTickPerRead.set(0);

        assertThat(fixture.deadLetter.readRecordsToList())
                .extracting(this::reasonOf)
                .containsExactly("FUTURE_TIMESTAMP");
        fixture.advanceWallClock(Duration.ofMinutes(10));
        fixture.counts.pipeInput("a", sample("a", "2021-08-01T00:10:00Z", 0, 0));
        HourlyActivity hour23 = fixture.hourly.readValue();
        assertThat(hour23.getHour()).isEqualTo(23);
        assertThat(hour23.getEntries())
                .as("the refused sample was not counted in the open hour")
                .isEqualTo(1000);
        assertThat(hour23.getSamples()).isEqualTo(1);
    }

    @Test
    void reading_older_than_the_table_retention_is_rejected_as_EXPIRED_TIMESTAMP() {
        Instant tooOld = TopologyFixture.DEFAULT_WALL_CLOCK.minus(Duration.ofDays(91));
        assertTelemetryRejected(
                "a",
                reading("a", SensorType.TEMPERATURE, tooOld.toString(), 20),
                "EXPIRED_TIMESTAMP",
                "older than the maximum age of 90 days");
    }

    @Test
    void maximum_age_can_be_raised_for_replays_of_history() {
        fixture.close();
        fixture = new TopologyFixture(
                Map.of(IngestConfig.VALIDATION_MAX_AGE_MS, Duration.ofDays(3650).toMillis()));
        fixture.telemetry.pipeInput("a", reading("a", SensorType.TEMPERATURE, "2015-01-01T00:00:00Z", 20));
        assertThat(fixture.deadLetter.isEmpty()).isTrue();
        assertThat(fixture.telemetryRows.readValuesToList()).hasSize(1);
    }

    @Test
    void maximum_age_of_zero_is_refused_as_configuration() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.apiary.ingest.config.ConfigLoader.load(
                        null, Map.of(), Map.of(IngestConfig.VALIDATION_MAX_AGE_MS, 0L)))
                .hasMessageContaining("must be -1 (each table's retention) or at least 1 ms");
    }

    @Test
    void future_skew_is_configurable() {
        fixture.close();
        fixture = new TopologyFixture(Map.of(IngestConfig.VALIDATION_MAX_FUTURE_SKEW_MS, 0L));
        assertTelemetryRejected(
                "a",
                reading(
                        "a",
                        SensorType.TEMPERATURE,
                        TopologyFixture.DEFAULT_WALL_CLOCK.plusMillis(1).toString(),
                        20),
                "FUTURE_TIMESTAMP",
                "more than 0 s ahead");
    }

    @Test
    void rejected_record_is_counted_by_stage_and_reason() {
        double before = Metrics.globalRegistry
                .counter(MetricNames.DEAD_LETTER_RECORDS, "stage", "process", "reason", "NEGATIVE_COUNT")
                .count();
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:00:00Z", -5, 1));
        double after = Metrics.globalRegistry
                .counter(MetricNames.DEAD_LETTER_RECORDS, "stage", "process", "reason", "NEGATIVE_COUNT")
                .count();
        assertThat(after - before).isEqualTo(1.0);
    }
}
