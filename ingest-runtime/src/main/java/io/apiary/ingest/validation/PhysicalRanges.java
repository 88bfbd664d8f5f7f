package io.apiary.ingest.validation;

import io.apiary.ingest.deadletter.RejectReason;
import java.util.Map;

/**
 * The physically possible range of a telemetry value, per sensor type and unit. A reading outside
 * its range is rejected as OUT_OF_RANGE; a known sensor type with a unit not listed here as
 * UNKNOWN_UNIT (its value could not be checked or compared); a sensor type without ranges (UNKNOWN,
 * which is what an older reader sees for a newer type) only has to be finite.
 *
 * <pre>
 * type          unit  min        max         why
 * TEMPERATURE   degC  -50        80          a hive outdoors: record lows of the hives' climates to a hive in full sun
 * HUMIDITY      %RH   0          100         relative humidity is a percentage
 * WEIGHT        kg    0          500         a hive with every super on weighs well under 200 kg; scale capacity
 * BATTERY       V     0          60          gateway and sensor batteries up to a 48 V nominal system
 * BATTERY       mV    0          60000       the same in millivolts
 * SOUND_LEVEL   dB    0          194         194 dB SPL is the loudest undistorted sound in air at 1 atm
 * CO2           ppm   0          1000000     parts per million cannot exceed a million
 * LIGHT         lx    0          200000      direct sunlight is about 100,000 lx
 * VIBRATION     mm/s  0          1000        RMS vibration velocity; severe machine vibration is ~50 mm/s
 * </pre>
 * Thread-safe (immutable).
 */
public final class PhysicalRanges {

    /** Inclusive range of a value in one unit. */
    private record Range(double min, double max) {}

    /** Sensor type name, then unit, then range. Keyed by name so newer enum symbols need no code. */
    private static final Map<String, Map<String, Range>> RANGES = Map.of(
            "TEMPERATURE", Map.of("degC", new Range(-50, 80)),
            "HUMIDITY", Map.of("%RH", new Range(0, 100)),
            "WEIGHT", Map.of("kg", new Range(0, 500)),
            "BATTERY", Map.of("V", new Range(0, 60), "mV", new Range(0, 60_000)),
            "SOUND_LEVEL", Map.of("dB", new Range(0, 194)),
            "CO2", Map.of("ppm", new Range(0, 1_000_000)),
            "LIGHT", Map.of("lx", new Range(0, 200_000)),
            "VIBRATION", Map.of("mm/s", new Range(0, 1_000)));

    private PhysicalRanges() {}

    /**
     * @param sensorType a sensor type's symbol, e.g. "TEMPERATURE", not null
     * @return the units with a range for it, sorted; empty when the type has no ranges (any unit goes)
     */
    public static java.util.SortedSet<String> units(String sensorType) {
        return new java.util.TreeSet<>(RANGES.getOrDefault(sensorType, Map.of()).keySet());
    }

    /**
     * Checks a finite telemetry value against its sensor type and unit.
     *
     * @param sensorType the sensor type's symbol, e.g. "TEMPERATURE", not null
     * @param unit       the unit as sent, may be null
     * @param value      the value, finite
     * @return null when possible, else OUT_OF_RANGE or UNKNOWN_UNIT
     */
    public static Rejection check(String sensorType, String unit, double value) {
        Map<String, Range> units = RANGES.get(sensorType);
        if (units == null) {
            return null;
        }
        Range range = unit == null ? null : units.get(unit);
        if (range == null) {
            return new Rejection(
                    RejectReason.UNKNOWN_UNIT,
                    "unit '" + unit + "' is not a known unit of " + sensorType + " (known: "
                            + String.join(", ", units.keySet()) + ")");
        }
        return Checks.within("value of " + sensorType, value, range.min(), range.max(), unit);
    }
}
