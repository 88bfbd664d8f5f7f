package io.apiary.ingest.importer;

import io.apiary.ingest.identity.Identifiers;
import io.apiary.schema.SensorType;
import java.util.Objects;

/**
 * One CSV column that holds the readings of one sensor, or in the long format one sensor name of
 * the sensor column: its type, unit and sensor id. Immutable. The sensor ids of an import's columns
 * come from {@link SensorMapping#resolve}.
 *
 * @param column     CSV header name, or in the long format the sensor name (see
 *                   {@link CsvReadingParser.LongFormat}), not null
 * @param sensorType the sensor type of its readings, not null
 * @param unit       the unit its readings carry, not null
 * @param sensorId   the sensor id given to its readings, valid under {@link Identifiers#problem}
 * @param conversion from the unit the column is written in to {@code unit}, not null (the identity
 *                   when they are the same)
 */
public record SensorColumn(
        String column, SensorType sensorType, String unit, String sensorId, UnitConversion conversion) {

    /**
     * Checks that no component is null, that the sensor id is valid and that the conversion ends in the unit.
     *
     * @throws IllegalArgumentException if the sensor id is not valid, saying why, or the conversion
     *                                  does not end in {@code unit}
     */
    public SensorColumn {
        Objects.requireNonNull(column);
        Objects.requireNonNull(sensorType);
        Objects.requireNonNull(unit);
        if (!conversion.to().equals(unit)) {
            throw new IllegalArgumentException(
                    "Sensor column '" + column + "': conversion to " + conversion.to() + " for readings in " + unit);
        }
        String problem = Identifiers.problem(sensorId);
        if (problem != null) {
            throw new IllegalArgumentException(
                    "Sensor column '" + column + "': the sensor id '" + sensorId + "' " + problem);
        }
    }

    /**
     * A column of a hive's only sensor of its type: sensor id {@link Identifiers#DEFAULT_SENSOR_ID}.
     *
     * @param column     CSV header name, not null
     * @param sensorType the sensor type, not null
     * @param unit       the unit, not null
     */
    public SensorColumn(String column, SensorType sensorType, String unit) {
        this(column, sensorType, unit, Identifiers.DEFAULT_SENSOR_ID);
    }

    /**
     * A column written in the unit its readings carry.
     *
     * @param column     CSV header name, not null
     * @param sensorType the sensor type, not null
     * @param unit       the unit, not null
     * @param sensorId   the sensor id, valid under {@link Identifiers#problem}
     */
    public SensorColumn(String column, SensorType sensorType, String unit, String sensorId) {
        this(column, sensorType, unit, sensorId, UnitConversion.identity(unit));
    }

    /** @return the mapping for a person, e.g. {@code column 'temp_in' -> TEMPERATURE, sensor temp_in, degC} */
    public String describe() {
        return "column '" + column + "' -> " + sensorType + ", sensor " + sensorId + ", " + conversion;
    }
}
