package io.apiary.ingest.validation;

import io.apiary.schema.WeatherReading;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Checks weather station readings, in this order (the first failure is reported): key present
 * and not empty (NULL_KEY), value present (NULL_VALUE), text lengths (FIELD_TOO_LONG: key and
 * {@code station_id} at most {@value Checks#MAX_ID_CHARS} characters), key equals
 * {@code station_id} (KEY_MISMATCH), reading time set and inside 1970..9999 (INVALID_TIMESTAMP),
 * then each measurement that is present (not null), in schema order: finite (NON_FINITE_VALUE) and
 * physically possible (OUT_OF_RANGE), and last the reading time not too far ahead of the wall clock
 * (FUTURE_TIMESTAMP) nor older than the maximum age (EXPIRED_TIMESTAMP). Absent measurements
 * (null: the station does not measure it) are not checked. Thread-safe (immutable).
 *
 * <p>Physically possible ranges (inclusive), wide enough for any station on Earth, so that only
 * broken sensors, wrong units and corrupt payloads are refused:
 * <pre>
 * field                 unit   min    max    source
 * temperature_c         degC   -90    60     WMO world records of air temperature: -89.2 (Vostok, 1983)
 *                                            and 56.7 (Furnace Creek, 1913)
 * relative_humidity     %RH    0      100    relative humidity is a percentage of saturation
 * pressure_hpa          hPa    870    1085   WMO world records of sea-level pressure: 870 (typhoon Tip,
 *                                            1979) and 1083.8 (Agata, Siberia, 1968); the field is
 *                                            pressure reduced to sea level (raw station pressure at
 *                                            altitude would be lower)
 * wind_speed_ms         m/s    0      120    WMO record gust 113 m/s (Barrow Island, 1996)
 * wind_direction_deg    deg    0      360    degrees from north; both 0 and 360 mean north
 * rainfall_mm           mm     0      500    rain since the previous reading: above the 1-hour world record
 *                                            (305 mm, Holt, Missouri, 1947) for stations reporting
 *                                            at least hourly
 * solar_radiation_wm2   W/m2   -10    2000   the solar constant is 1,361 W/m2; brief cloud-edge enhancement
 *                                            can exceed it at the ground, and thermopile pyranometers
 *                                            read a few W/m2 below zero at night (thermal offset)
 * </pre>
 */
public final class WeatherReadingValidator implements RecordValidator<WeatherReading> {

    /**
     * One optional measurement and its possible range.
     *
     * @param field  the Avro field name
     * @param unit   the unit of the value and bounds, for messages
     * @param min    smallest possible value, inclusive
     * @param max    largest possible value, inclusive
     * @param getter reads the value, null when absent
     */
    private record Measurement(
            String field, String unit, double min, double max, Function<WeatherReading, Double> getter) {}

    /** The measurements in schema order, with the ranges of the class comment. */
    private static final List<Measurement> MEASUREMENTS = List.of(
            new Measurement("temperature_c", "degC", -90, 60, WeatherReading::getTemperatureC),
            new Measurement("relative_humidity", "%RH", 0, 100, WeatherReading::getRelativeHumidity),
            new Measurement("pressure_hpa", "hPa", 870, 1085, WeatherReading::getPressureHpa),
            new Measurement("wind_speed_ms", "m/s", 0, 120, WeatherReading::getWindSpeedMs),
            new Measurement("wind_direction_deg", "deg", 0, 360, WeatherReading::getWindDirectionDeg),
            new Measurement("rainfall_mm", "mm", 0, 500, WeatherReading::getRainfallMm),
            new Measurement("solar_radiation_wm2", "W/m2", -10, 2000, WeatherReading::getSolarRadiationWm2));

    private final TimeLimits limits;

    /** @param limits the event times accepted, not null */
    public WeatherReadingValidator(TimeLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public Class<WeatherReading> valueType() {
        return WeatherReading.class;
    }

    @Override
    public long eventTime(WeatherReading value) {
        return value.getReadingTime() == null ? -1L : value.getReadingTime().toEpochMilli();
    }

    @Override
    public Rejection check(String key, WeatherReading reading, long nowMillis) {
        Rejection rejection = Checks.present(key, reading, "station id");
        if (rejection == null) {
            rejection = Checks.first(
                    Checks.length("key", key, Checks.MAX_ID_CHARS),
                    Checks.length("station_id", reading.getStationId(), Checks.MAX_ID_CHARS));
        }
        if (rejection == null) {
            rejection = Checks.keyMatches(key, "station_id", reading.getStationId());
        }
        if (rejection == null) {
            rejection = TimeLimits.checkRange("reading_time", eventTime(reading));
        }
        for (int i = 0; rejection == null && i < MEASUREMENTS.size(); i++) {
            Measurement m = MEASUREMENTS.get(i);
            Double value = m.getter().apply(reading);
            if (value != null) {
                rejection = Checks.first(
                        Checks.finite(m.field(), value), Checks.within(m.field(), value, m.min(), m.max(), m.unit()));
            }
        }
        if (rejection == null) {
            rejection = limits.check("reading_time", eventTime(reading), nowMillis);
        }
        return rejection;
    }
}
