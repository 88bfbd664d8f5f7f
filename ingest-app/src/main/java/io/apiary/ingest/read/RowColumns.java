package io.apiary.ingest.read;

import java.util.List;

/**
 * The output columns of each row type, key columns first (the entity, then the clustering columns
 * that tell rows apart), named as the CQL columns. Declared here once for all {@link OutputFormat}s. Immutable lists, thread-safe.
 */
public final class RowColumns {

    /** Columns of {@code hive_telemetry_v2}. */
    public static final List<OutputColumn<TelemetryRow>> TELEMETRY = List.of(
            OutputColumn.left("hive_id", TelemetryRow::hiveId),
            OutputColumn.left("sensor_type", TelemetryRow::sensorType),
            OutputColumn.left("sensor_id", TelemetryRow::sensorId),
            OutputColumn.left("reading_time", TelemetryRow::readingTime),
            OutputColumn.right("value", TelemetryRow::value),
            OutputColumn.left("unit", TelemetryRow::unit),
            OutputColumn.left("gateway_id", TelemetryRow::gatewayId));

    /** Columns of {@code hive_activity}. */
    public static final List<OutputColumn<ActivityRow>> ACTIVITY = List.of(
            OutputColumn.left("hive_id", ActivityRow::hiveId),
            OutputColumn.left("day", ActivityRow::day),
            OutputColumn.right("hour", ActivityRow::hour),
            OutputColumn.right("bees_in", ActivityRow::beesIn),
            OutputColumn.right("bees_out", ActivityRow::beesOut),
            OutputColumn.right("samples", ActivityRow::samples));

    /** Columns of {@code weather_readings}. */
    public static final List<OutputColumn<WeatherRow>> WEATHER = List.of(
            OutputColumn.left("station_id", WeatherRow::stationId),
            OutputColumn.left("reading_time", WeatherRow::readingTime),
            OutputColumn.right("temperature_c", WeatherRow::temperatureC),
            OutputColumn.right("relative_humidity", WeatherRow::relativeHumidity),
            OutputColumn.right("pressure_hpa", WeatherRow::pressureHpa),
            OutputColumn.right("wind_speed_ms", WeatherRow::windSpeedMs),
            OutputColumn.right("wind_direction_deg", WeatherRow::windDirectionDeg),
            OutputColumn.right("rainfall_mm", WeatherRow::rainfallMm),
            OutputColumn.right("solar_radiation_wm2", WeatherRow::solarRadiationWm2));

    /** Columns of {@code agent_alerts_v2}. */
    public static final List<OutputColumn<AlertRow>> ALERT = List.of(
            OutputColumn.left("agent_id", AlertRow::agentId),
            OutputColumn.left("alert_time", AlertRow::alertTime),
            OutputColumn.left("alert_id", AlertRow::alertId),
            OutputColumn.left("hive_id", AlertRow::hiveId),
            OutputColumn.left("severity", AlertRow::severity),
            OutputColumn.left("alert_type", AlertRow::alertType),
            OutputColumn.left("message", AlertRow::message));

    private RowColumns() {}

    /**
     * @param rowType one of the four row records
     * @param <R>     the row type
     * @return its columns
     * @throws IllegalArgumentException for another type
     */
    @SuppressWarnings("unchecked")
    public static <R extends TimedRow> List<OutputColumn<R>> of(Class<R> rowType) {
        Object columns;
        if (rowType == TelemetryRow.class) {
            columns = TELEMETRY;
        } else if (rowType == ActivityRow.class) {
            columns = ACTIVITY;
        } else if (rowType == WeatherRow.class) {
            columns = WEATHER;
        } else if (rowType == AlertRow.class) {
            columns = ALERT;
        } else {
            throw new IllegalArgumentException("no output columns for " + rowType.getName());
        }
        return (List<OutputColumn<R>>) columns;
    }
}
