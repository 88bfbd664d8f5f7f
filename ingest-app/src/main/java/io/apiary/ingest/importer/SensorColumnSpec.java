package io.apiary.ingest.importer;

import io.apiary.ingest.identity.Identifiers;
import io.apiary.schema.SensorType;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A sensor column as given on the command line, {@code COLUMN=SENSOR_TYPE:UNIT[:SENSOR_ID]},
 * before {@link SensorMapping#resolve} gives every column its sensor id. Immutable.
 *
 * @param column     CSV header name, not null
 * @param sensorType the sensor type of its readings, not null
 * @param unit       the unit its values are written in, not null (may hold {@code /} and {@code %}, never
 *                   {@code :}); {@link SensorMapping} converts them to one the pipeline takes ({@link UnitConversion})
 * @param sensorId   the sensor id given explicitly (valid under {@link Identifiers#problem}), or null
 *                   to let {@link SensorMapping} choose
 */
public record SensorColumnSpec(String column, SensorType sensorType, String unit, String sensorId) {

    /**
     * @return the sensor types a column can have: every symbol of {@link SensorType} but {@code UNKNOWN},
     *         in schema order
     */
    static List<String> knownTypes() {
        return Arrays.stream(SensorType.values())
                .map(Enum::name)
                .filter(name -> !name.equals(SensorType.UNKNOWN.name()))
                .toList();
    }

    /** The expected form, for messages. */
    public static final String FORM = "COLUMN=SENSOR_TYPE:UNIT[:SENSOR_ID], e.g. temperature=TEMPERATURE:degC"
            + " or temp_in=TEMPERATURE:degC:inside";

    /**
     * Checks that column, type and unit are not null and that a given sensor id is valid.
     *
     * @throws IllegalArgumentException if the sensor id is given and not valid, saying why
     */
    public SensorColumnSpec {
        Objects.requireNonNull(column);
        Objects.requireNonNull(sensorType);
        Objects.requireNonNull(unit);
        if (sensorId != null && Identifiers.problem(sensorId) != null) {
            throw new IllegalArgumentException("Sensor column '" + column + "': the sensor id '" + sensorId + "' "
                    + Identifiers.problem(sensorId));
        }
    }

    /**
     * Parses {@code COLUMN=SENSOR_TYPE:UNIT[:SENSOR_ID]}, e.g. {@code temperature=TEMPERATURE:degC}
     * or {@code Temp (inside)=TEMPERATURE:degC:inside}. The column is everything before the last
     * {@code =}; the parts are trimmed; the type is case-insensitive.
     *
     * @param spec the specification, not null
     * @return the column
     * @throws IllegalArgumentException saying what is expected, listing the sensor types (never
     *         {@code UNKNOWN}, whose readings are dead-lettered), or the units the pipeline accepts for
     *         the type when the unit is neither one of them nor of the same quantity ({@link UnitConversion}),
     *         or what is wrong with the sensor id
     */
    public static SensorColumnSpec parse(String spec) {
        int eq = spec.lastIndexOf('=');
        String[] parts = eq < 0 ? new String[0] : spec.substring(eq + 1).split(":", -1);
        if (eq <= 0
                || spec.substring(0, eq).isBlank()
                || parts.length < 2
                || parts.length > 3
                || parts[0].isBlank()
                || parts[1].isBlank()) {
            throw new IllegalArgumentException("Sensor column '" + spec + "': expected " + FORM);
        }
        String type = parts[0].trim().toUpperCase(Locale.ROOT);
        SensorType sensorType = knownTypes().contains(type) ? SensorType.valueOf(type) : null;
        if (sensorType == null) {
            throw new IllegalArgumentException("Sensor column '" + spec + "': "
                    + (type.equals(SensorType.UNKNOWN.name())
                            ? "UNKNOWN is what a reader of an older schema sees for a type it does not know; the"
                                    + " pipeline dead-letters such readings (UNKNOWN_SENSOR_TYPE), so it cannot be imported"
                            : "unknown sensor type '" + type + "'")
                    + "; known types: " + String.join(", ", knownTypes()));
        }
        String unit = parts[1].trim();
        try {
            UnitConversion.find(type, unit);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Sensor column '" + spec + "': " + e.getMessage()
                            + "; readings in another unit would be dead-lettered as UNKNOWN_UNIT",
                    e);
        }
        String sensorId = parts.length == 3 ? parts[2].trim() : null;
        if (sensorId != null && Identifiers.problem(sensorId) != null) {
            throw new IllegalArgumentException(
                    "Sensor column '" + spec + "': the sensor id '" + sensorId + "' " + Identifiers.problem(sensorId));
        }
        return new SensorColumnSpec(spec.substring(0, eq).trim(), sensorType, unit, sensorId);
    }

    /**
     * @param id a sensor id, or a placeholder such as {@code SENSOR_ID}
     * @return this column as a specification with that id, for suggestions in messages
     */
    String withId(String id) {
        return column + "=" + sensorType + ":" + unit + ":" + id;
    }
}
