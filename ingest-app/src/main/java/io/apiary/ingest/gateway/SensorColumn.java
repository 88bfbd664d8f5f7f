package io.apiary.ingest.gateway;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import io.apiary.ingest.validation.PhysicalRanges;
import io.apiary.schema.SensorType;

/**
 * One CSV column that holds readings of one sensor type, in one unit. Immutable.
 *
 * @param column     CSV header name, not null
 * @param sensorType the sensor type of its readings, not null
 * @param unit       the unit of its values, not null
 */
public record SensorColumn(String column, SensorType sensorType, String unit) {

    /** Checks that no component is null. */
    public SensorColumn {
        Objects.requireNonNull(column);
        Objects.requireNonNull(sensorType);
        Objects.requireNonNull(unit);
    }

    /**
     * Parses {@code COLUMN=SENSOR_TYPE:UNIT}, e.g. {@code temperature=TEMPERATURE:degC}.
     *
     * @param spec the specification
     * @return the column
     * @throws IllegalArgumentException saying what is expected, and listing the sensor types, or the
     *         units the pipeline accepts for the type
     */
    public static SensorColumn parse(String spec) {
        int eq = spec.lastIndexOf('=');
        int colon = spec.indexOf(':', Math.max(eq, 0));
        if (eq <= 0 || colon < 0 || colon == eq + 1 || colon == spec.length() - 1) {
            throw new IllegalArgumentException("Sensor column '" + spec
                    + "': expected COLUMN=SENSOR_TYPE:UNIT, e.g. temperature=TEMPERATURE:degC");
        }
        String type = spec.substring(eq + 1, colon).trim().toUpperCase(Locale.ROOT);
        SensorType sensorType;
        try {
            sensorType = SensorType.valueOf(type);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Sensor column '" + spec + "': unknown sensor type '" + type
                    + "'; known types: " + Arrays.toString(SensorType.values()), e);
        }
        String unit = spec.substring(colon + 1).trim();
        Set<String> units = PhysicalRanges.units(type);
        if (!units.isEmpty() && !units.contains(unit)) {
            throw new IllegalArgumentException("Sensor column '" + spec + "': the pipeline takes " + type
                    + " in " + String.join(" or ", units) + ", not '" + unit + "' (its readings would be dead-lettered"
                    + " as UNKNOWN_UNIT)");
        }
        return new SensorColumn(spec.substring(0, eq).trim(), sensorType, unit);
    }
}
