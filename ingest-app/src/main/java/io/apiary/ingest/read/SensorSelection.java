package io.apiary.ingest.read;

import io.apiary.ingest.identity.Identifiers;
import io.apiary.schema.SensorType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A request's {@link SensorSelector}s, per sensor type: every sensor of the type, or a set of
 * sensor ids. No selector at all means every sensor of every type the schema knows. Immutable,
 * thread-safe.
 */
final class SensorSelection {

    /** One sensor of one type: a series of {@code hive_telemetry_v2}. */
    record Sensor(String sensorType, String sensorId) {}

    /** Sensor ids asked for per type, in the order types were first named; null for every sensor. */
    private final Map<String, Set<String>> ids;

    private SensorSelection(Map<String, Set<String>> ids) {
        this.ids = ids;
    }

    /**
     * @param selectors what a request asks for; empty for everything
     * @return the selection: a type named without a sensor id takes every sensor of it, whatever
     *         else names that type
     */
    static SensorSelection of(Collection<SensorSelector> selectors) {
        Map<String, Set<String>> ids = new LinkedHashMap<>();
        if (selectors.isEmpty()) {
            SensorType.getClassSchema().getEnumSymbols().forEach(type -> ids.put(type, null));
        }
        for (SensorSelector s : selectors) {
            if (s.sensorId() == null) {
                ids.put(s.sensorType(), null);
            } else if (!ids.containsKey(s.sensorType()) || ids.get(s.sensorType()) != null) {
                ids.computeIfAbsent(s.sensorType(), t -> new TreeSet<>()).add(s.sensorId());
            }
        }
        return new SensorSelection(ids);
    }

    /** @return the sensor types asked for, in the order they were first named */
    List<String> types() {
        return List.copyOf(ids.keySet());
    }

    /**
     * @param sensorType a sensor type
     * @param sensorId   a sensor id
     * @return whether the readings of that sensor are asked for
     */
    boolean includes(String sensorType, String sensorId) {
        if (!ids.containsKey(sensorType)) {
            return false;
        }
        Set<String> asked = ids.get(sensorType);
        return asked == null || asked.contains(sensorId);
    }

    /**
     * @param types some of the types asked for (those a partition can hold)
     * @return the one sensor asked for among those types, or null when the types take every sensor
     *         of one of them, or more than one sensor
     */
    Sensor single(Collection<String> types) {
        Sensor single = null;
        for (String type : types) {
            Set<String> asked = ids.get(type);
            if (asked == null || asked.size() > 1 || single != null) {
                return null;
            }
            single = new Sensor(type, asked.iterator().next());
        }
        return single;
    }

    /**
     * @return the types whose {@link Identifiers#DEFAULT_SENSOR_ID default} sensor is asked for:
     *         the only ones the legacy {@code hive_telemetry} table (whose rows read as that sensor)
     *         can add readings to
     */
    List<String> typesWithDefaultSensor() {
        List<String> types = new ArrayList<>();
        ids.forEach((type, asked) -> {
            if (asked == null || asked.contains(Identifiers.DEFAULT_SENSOR_ID)) {
                types.add(type);
            }
        });
        return types;
    }
}
