package io.apiary.ingest.read;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of {@code weather_readings}: a weather station's reading. A measurement the station did
 * not send is null.
 *
 * @param stationId         the station (partition-key column {@code station_id}), not null
 * @param readingTime       when the reading was taken, millisecond precision, not null
 * @param temperatureC      air temperature, degrees Celsius, nullable
 * @param relativeHumidity  relative humidity, percent, nullable
 * @param pressureHpa       air pressure, hectopascal, nullable
 * @param windSpeedMs       wind speed, metres per second, nullable
 * @param windDirectionDeg  wind direction, degrees from north, nullable
 * @param rainfallMm        rainfall, millimetres, nullable
 * @param solarRadiationWm2 solar radiation, watts per square metre, nullable
 */
public record WeatherRow(
        String stationId,
        Instant readingTime,
        Double temperatureC,
        Double relativeHumidity,
        Double pressureHpa,
        Double windSpeedMs,
        Double windDirectionDeg,
        Double rainfallMm,
        Double solarRadiationWm2)
        implements TimedRow {

    /** Checks the non-null fields. */
    public WeatherRow {
        Objects.requireNonNull(stationId, "stationId");
        Objects.requireNonNull(readingTime, "readingTime");
    }

    @Override
    public Instant time() {
        return readingTime;
    }

    @Override
    public String series() {
        return "";
    }
}
