package io.apiary.ingest.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.testing.RandomCases;
import io.apiary.schema.WeatherReading;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WeatherReadingValidatorTest {

    private static final long NOW = Instant.parse("2021-07-20T00:00:00Z").toEpochMilli();
    private final WeatherReadingValidator validator =
            new WeatherReadingValidator(new TimeLimits(Duration.ofMinutes(5), Duration.ofDays(365)));

    /** A full reading from station "st-1" at 2021-07-15T12:00:00Z. */
    private static WeatherReading.Builder full() {
        return WeatherReading.newBuilder()
                .setStationId("st-1")
                .setReadingTime(Instant.parse("2021-07-15T12:00:00Z"))
                .setTemperatureC(21.5)
                .setRelativeHumidity(60.0)
                .setPressureHpa(1013.25)
                .setWindSpeedMs(3.2)
                .setWindDirectionDeg(270.0)
                .setRainfallMm(0.0)
                .setSolarRadiationWm2(640.0);
    }

    private RejectReason reason(String key, WeatherReading reading) {
        Rejection rejection = validator.check(key, reading, NOW);
        return rejection == null ? null : rejection.reason();
    }

    @Test
    void should_accept_a_full_reading() {
        assertThat(validator.check("st-1", full().build(), NOW)).isNull();
    }

    @Test
    void should_accept_a_reading_with_no_measurement_at_all() {
        WeatherReading bare = WeatherReading.newBuilder()
                .setStationId("st-1")
                .setReadingTime(Instant.parse("2021-07-15T12:00:00Z"))
                .build();
        assertThat(validator.check("st-1", bare, NOW)).isNull();
    }

    @Test
    void should_refuse_a_missing_or_empty_key() {
        assertThat(reason(null, full().build())).isEqualTo(RejectReason.NULL_KEY);
        assertThat(reason("", full().build())).isEqualTo(RejectReason.NULL_KEY);
    }

    @Test
    void should_refuse_a_tombstone() {
        assertThat(reason("st-1", null)).isEqualTo(RejectReason.NULL_VALUE);
    }

    @Test
    void should_refuse_a_key_or_station_id_over_200_characters() {
        String longId = "s".repeat(Checks.MAX_ID_CHARS + 1);
        assertThat(reason(longId, full().build())).isEqualTo(RejectReason.FIELD_TOO_LONG);
        assertThat(validator
                        .check("st-1", full().setStationId(longId).build(), NOW)
                        .message())
                .isEqualTo("station_id is 201 characters long; at most 200 are accepted");
        String maxId = "s".repeat(Checks.MAX_ID_CHARS);
        assertThat(validator.check(maxId, full().setStationId(maxId).build(), NOW))
                .isNull();
    }

    @Test
    void should_refuse_a_key_that_differs_from_the_station_id() {
        assertThat(reason("st-2", full().build())).isEqualTo(RejectReason.KEY_MISMATCH);
    }

    @Test
    void should_refuse_a_reading_time_at_or_before_the_epoch() {
        assertThat(reason("st-1", full().setReadingTime(Instant.EPOCH).build()))
                .isEqualTo(RejectReason.INVALID_TIMESTAMP);
        assertThat(reason(
                        "st-1", full().setReadingTime(Instant.ofEpochMilli(-5)).build()))
                .isEqualTo(RejectReason.INVALID_TIMESTAMP);
    }

    /** Each measurement's setter with its inclusive bounds, as documented in the validator. */
    static Stream<Arguments> measurements() {
        return Stream.of(
                Arguments.of(
                        "temperature_c",
                        (BiConsumer<WeatherReading.Builder, Double>) WeatherReading.Builder::setTemperatureC,
                        -90.0,
                        60.0),
                Arguments.of(
                        "relative_humidity",
                        (BiConsumer<WeatherReading.Builder, Double>) WeatherReading.Builder::setRelativeHumidity,
                        0.0,
                        100.0),
                Arguments.of(
                        "pressure_hpa",
                        (BiConsumer<WeatherReading.Builder, Double>) WeatherReading.Builder::setPressureHpa,
                        870.0,
                        1085.0),
                Arguments.of(
                        "wind_speed_ms",
                        (BiConsumer<WeatherReading.Builder, Double>) WeatherReading.Builder::setWindSpeedMs,
                        0.0,
                        120.0),
                Arguments.of(
                        "wind_direction_deg",
                        (BiConsumer<WeatherReading.Builder, Double>) WeatherReading.Builder::setWindDirectionDeg,
                        0.0,
                        360.0),
                Arguments.of(
                        "rainfall_mm",
                        (BiConsumer<WeatherReading.Builder, Double>) WeatherReading.Builder::setRainfallMm,
                        0.0,
                        500.0),
                Arguments.of(
                        "solar_radiation_wm2",
                        (BiConsumer<WeatherReading.Builder, Double>) WeatherReading.Builder::setSolarRadiationWm2,
                        -10.0,
                        2000.0));
    }

    private WeatherReading with(BiConsumer<WeatherReading.Builder, Double> setter, double value) {
        WeatherReading.Builder builder = full();
        setter.accept(builder, value);
        return builder.build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("measurements")
    void should_refuse_a_non_finite_measurement(
            String field, BiConsumer<WeatherReading.Builder, Double> setter, double min, double max) {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            Rejection rejection = validator.check("st-1", with(setter, bad), NOW);
            assertThat(rejection.reason()).isEqualTo(RejectReason.NON_FINITE_VALUE);
            assertThat(rejection.message()).startsWith(field + " is ");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("measurements")
    void should_accept_the_bounds_of_a_measurement_and_refuse_just_beyond(
            String field, BiConsumer<WeatherReading.Builder, Double> setter, double min, double max) {
        assertThat(validator.check("st-1", with(setter, min), NOW)).isNull();
        assertThat(validator.check("st-1", with(setter, max), NOW)).isNull();
        Rejection below = validator.check("st-1", with(setter, Math.nextDown(min)), NOW);
        Rejection above = validator.check("st-1", with(setter, Math.nextUp(max)), NOW);
        assertThat(below.reason()).isEqualTo(RejectReason.OUT_OF_RANGE);
        assertThat(above.reason()).isEqualTo(RejectReason.OUT_OF_RANGE);
        assertThat(above.message()).startsWith(field + " ");
    }

    @Test
    void should_refuse_a_reading_from_the_future_or_older_than_the_maximum_age() {
        assertThat(reason(
                        "st-1",
                        full().setReadingTime(Instant.ofEpochMilli(NOW).plus(Duration.ofMinutes(6)))
                                .build()))
                .isEqualTo(RejectReason.FUTURE_TIMESTAMP);
        assertThat(reason(
                        "st-1",
                        full().setReadingTime(Instant.ofEpochMilli(NOW).minus(Duration.ofDays(366)))
                                .build()))
                .isEqualTo(RejectReason.EXPIRED_TIMESTAMP);
    }

    @Test
    void should_report_value_errors_before_wall_clock_errors() {
        WeatherReading oldAndBroken = full().setReadingTime(
                        Instant.ofEpochMilli(NOW).minus(Duration.ofDays(400)))
                .setTemperatureC(Double.NaN)
                .build();
        assertThat(reason("st-1", oldAndBroken)).isEqualTo(RejectReason.NON_FINITE_VALUE);
    }

    static Stream<Arguments> randomValidReadings() {
        return RandomCases.cases(random -> new Object[] {randomValid(random)});
    }

    private static WeatherReading randomValid(SplittableRandom random) {
        WeatherReading.Builder b = WeatherReading.newBuilder()
                .setStationId(RandomCases.letters(random, 1 + random.nextInt(40)))
                .setReadingTime(Instant.ofEpochMilli(
                        NOW - random.nextLong(Duration.ofDays(365).toMillis())));
        b.setTemperatureC(random.nextBoolean() ? null : random.nextDouble(-90, 60));
        b.setRelativeHumidity(random.nextBoolean() ? null : random.nextDouble(0, 100));
        b.setPressureHpa(random.nextBoolean() ? null : random.nextDouble(870, 1085));
        b.setWindSpeedMs(random.nextBoolean() ? null : random.nextDouble(0, 120));
        b.setWindDirectionDeg(random.nextBoolean() ? null : random.nextDouble(0, 360));
        b.setRainfallMm(random.nextBoolean() ? null : random.nextDouble(0, 500));
        b.setSolarRadiationWm2(random.nextBoolean() ? null : random.nextDouble(-10, 2000));
        return b.build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("randomValidReadings")
    void should_accept_any_reading_within_every_range(String seed, WeatherReading reading) {
        assertThat(validator.check(reading.getStationId(), reading, NOW)).isNull();
    }
}
