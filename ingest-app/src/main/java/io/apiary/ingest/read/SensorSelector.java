package io.apiary.ingest.read;

import io.apiary.ingest.identity.Identifiers;
import io.apiary.schema.SensorType;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which readings of {@code hive_telemetry_v2} a read asks for: every sensor of one type, or one
 * sensor of it. Immutable, thread-safe.
 *
 * @param sensorType a {@link SensorType} symbol, e.g. {@code TEMPERATURE}, not null
 * @param sensorId   one sensor id (a valid {@link Identifiers identifier}, e.g. {@code inside}), or
 *                   null for every sensor of the type
 */
public record SensorSelector(String sensorType, String sensorId) {

    /**
     * @throws NullPointerException     if the type is null
     * @throws IllegalArgumentException if the type is not a sensor type or the id not a valid identifier
     */
    public SensorSelector {
        Objects.requireNonNull(sensorType, "sensorType");
        List<String> known = storedTypes();
        if (!known.contains(sensorType)) {
            throw new IllegalArgumentException(sensorType
                    + (SensorType.UNKNOWN.name().equals(sensorType)
                            ? " is never stored (the pipeline dead-letters readings of an unknown type)"
                            : " is not a sensor type")
                    + ": use one of " + String.join(", ", known));
        }
        if (sensorId != null && Identifiers.problem(sensorId) != null) {
            throw new IllegalArgumentException(
                    sensorType + ":" + sensorId + ": the sensor id " + Identifiers.problem(sensorId));
        }
    }

    /** @return the sensor types a table can hold: every symbol but {@code UNKNOWN}, in the schema's order */
    public static List<String> storedTypes() {
        return SensorType.getClassSchema().getEnumSymbols().stream()
                .filter(symbol -> !symbol.equals(SensorType.UNKNOWN.name()))
                .toList();
    }

    /**
     * @param sensorType a sensor type symbol, not null
     * @return every sensor of the type
     */
    public static SensorSelector of(String sensorType) {
        return new SensorSelector(sensorType, null);
    }

    /**
     * Parses {@code TYPE} or {@code TYPE:SENSOR_ID}, e.g. {@code TEMPERATURE} or
     * {@code TEMPERATURE:inside}. The type is read in any case, the sensor id as written (case
     * matters); blanks around either are ignored.
     *
     * @param text the selector, not null
     * @return the selector
     * @throws IllegalArgumentException naming the sensor types, or what is wrong with the sensor id
     */
    public static SensorSelector parse(String text) {
        int colon = text.indexOf(':');
        String type = (colon < 0 ? text : text.substring(0, colon)).trim().toUpperCase(Locale.ROOT);
        if (type.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "': the sensor type is missing; expected TYPE[:SENSOR_ID]");
        }
        return new SensorSelector(
                type, colon < 0 ? null : text.substring(colon + 1).trim());
    }

    @Override
    public String toString() {
        return sensorId == null ? sensorType : sensorType + ":" + sensorId;
    }
}
