package io.apiary.ingest.importer;

import io.apiary.ingest.identity.Identifiers;
import io.apiary.schema.SensorType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives each sensor column of an import its sensor id, so that no two columns write to one
 * series. Stateless and thread-safe.
 *
 * <p>The rule: an id given with the column ({@code COLUMN=TYPE:UNIT:SENSOR_ID}) is kept. Otherwise,
 * the only column of its sensor type gets {@link Identifiers#DEFAULT_SENSOR_ID}, so that history
 * imported from a file lines up with a live gateway that sends the default for its only sensor of
 * the type; when several columns hold one type, each gets an id made from its column name
 * ({@link #idFromColumn}): a unit in square brackets at its end is dropped, then
 * {@link Identifiers#fromText} applies ({@code Ref.roof [deg]} becomes {@code Ref.roof},
 * {@code Ref.body.top.HR [%]} becomes {@code Ref.body.top.HR}, {@code Temp (inside)} becomes
 * {@code Temp_inside}).
 */
public final class SensorMapping {

    private SensorMapping() {}

    /**
     * @param specs the columns as given, in order, at least one
     * @return the columns with their sensor ids, in the same order
     * @throws IllegalArgumentException if a column is named twice, if a needed id cannot be derived
     *         from a column name (e.g. {@code °C}), or if two columns end with one sensor type and id;
     *         the message names the columns and suggests {@code :SENSOR_ID}
     */
    public static List<SensorColumn> resolve(List<SensorColumnSpec> specs) {
        Map<SensorType, Integer> perType = new HashMap<>();
        specs.forEach(s -> perType.merge(s.sensorType(), 1, Integer::sum));
        List<SensorColumn> columns = new ArrayList<>(specs.size());
        for (SensorColumnSpec spec : specs) {
            String id = spec.sensorId();
            if (id == null && perType.get(spec.sensorType()) == 1) {
                id = Identifiers.DEFAULT_SENSOR_ID;
            } else if (id == null) {
                id = idFromColumn(spec.column());
                if (id == null) {
                    throw new IllegalArgumentException(
                            "Sensor column '" + spec.column() + "': " + perType.get(spec.sensorType())
                                    + " columns hold " + spec.sensorType() + ", so each needs its own"
                                    + " sensor id, and none can be derived from this column's name (it has no ASCII letter"
                                    + " or digit); give one: '" + spec.withId("SENSOR_ID") + "'");
                }
            }
            UnitConversion conversion = UnitConversion.find(spec.sensorType().name(), spec.unit());
            columns.add(new SensorColumn(spec.column(), spec.sensorType(), conversion.to(), id, conversion));
        }
        requireDistinct(columns);
        return List.copyOf(columns);
    }

    /** A unit in square brackets at the end of a column name, with the spaces before it. */
    private static final java.util.regex.Pattern TRAILING_UNIT =
            java.util.regex.Pattern.compile("\\s*\\[[^\\[\\]]*\\]\\s*$");

    /**
     * The sensor id made from a column name: a unit in square brackets at its end is dropped (when
     * something is left before it), then each run of characters an identifier may not hold becomes
     * one {@code _}, and leading and trailing ones are dropped ({@link Identifiers#fromText}).
     *
     * @param column the column name, not null
     * @return the id, or null when nothing of the name is left (e.g. {@code °C})
     */
    public static String idFromColumn(String column) {
        String name = TRAILING_UNIT.matcher(column).replaceFirst("");
        String id = name.isBlank() ? null : Identifiers.fromText(name);
        return id != null ? id : Identifiers.fromText(column);
    }

    /**
     * Checks that no column is named twice and that no two columns share a sensor type and id
     * (their readings would overwrite each other in {@code hive_telemetry_v2}).
     *
     * @param columns the columns, not null
     * @throws IllegalArgumentException naming the two columns
     */
    public static void requireDistinct(List<SensorColumn> columns) {
        Map<String, SensorColumn> byName = new HashMap<>();
        Map<String, SensorColumn> bySensor = new HashMap<>();
        for (SensorColumn column : columns) {
            if (byName.putIfAbsent(column.column(), column) != null) {
                throw new IllegalArgumentException(
                        "Sensor column '" + column.column() + "' is named twice; a column holds one sensor");
            }
            SensorColumn other = bySensor.putIfAbsent(column.sensorType() + ":" + column.sensorId(), column);
            if (other != null) {
                throw new IllegalArgumentException("Sensor columns '" + other.column() + "' and '" + column.column()
                        + "' would both be " + column.sensorType() + " sensor '" + column.sensorId()
                        + "', so their readings would overwrite each other; give one of them its own id, e.g. '"
                        + column.column() + "=" + column.sensorType() + ":" + column.unit() + ":SENSOR_ID'");
            }
        }
    }
}
