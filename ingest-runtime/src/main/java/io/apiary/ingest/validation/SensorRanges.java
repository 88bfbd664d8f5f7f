package io.apiary.ingest.validation;

import io.apiary.ingest.deadletter.RejectReason;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The accepted range of a telemetry value, per sensor type: what the quantity can physically be,
 * widened by what working sensors report near its limits. A reading outside its range is rejected
 * as OUT_OF_RANGE; a known sensor type in a unit not listed here as UNKNOWN_UNIT (its value could
 * not be checked or compared); a sensor type without a range (UNKNOWN, which is what an older
 * reader sees for a newer type) only has to be finite. A reading inside its range is stored as
 * read, never clamped.
 *
 * <p>Each type's range is a setting, {@code validation.range.<type>} ({@link #settingName}), in the
 * type's first unit below; a type's other units take the same range scaled (BATTERY in mV: 1000
 * times the range in V). The defaults ({@link #DEFAULTS}):
 * <pre>
 * type          units     min     max       why
 * TEMPERATURE   degC      -50     80        a hive outdoors: record lows of the hives' climates to a hive in full sun
 * HUMIDITY      %RH       0       103       100 %RH plus the accuracy tolerance of common hive sensors near
 *                                           saturation (Bosch BME280: +-3 %RH; Sensirion SHT3x and DHT22: +-2 %RH)
 * WEIGHT        kg        -10     500       a scale tared with an empty hive body (5 to 10 kg) reads down to minus
 *                                           that while the hive is lifted off; scale capacity above
 * BATTERY       V, mV     0       60        gateway and sensor batteries up to a 48 V nominal system
 * SOUND_LEVEL   dB        0       194       194 dB SPL is the loudest undistorted sound in air at 1 atm
 * CO2           ppm       0       1000000   parts per million cannot exceed a million
 * LIGHT         lx        0       200000    direct sunlight is about 100,000 lx
 * VIBRATION     mm/s      0       1000      RMS vibration velocity; severe machine vibration is ~50 mm/s
 * </pre>
 * Loggers' markers for "no reading" (-100, -99.9, -999, 9999) fall outside these ranges on purpose:
 * an importer reads them as missing ({@code import-csv --missing-values}), a gateway should not send them.
 *
 * <p>Immutable and thread-safe.
 */
public final class SensorRanges {

    /**
     * An inclusive range of a value in one unit.
     *
     * @param min the smallest accepted value, finite
     * @param max the largest accepted value, finite, at least {@code min}
     */
    public record Range(double min, double max) {
        /** Checks the bounds. */
        public Range {
            if (!Double.isFinite(min) || !Double.isFinite(max) || min > max) {
                throw new IllegalArgumentException(
                        "a range needs two finite bounds, the first not above the second; was [" + min + ", " + max
                                + "]");
            }
        }

        /** @return the range as its setting's value, {@code min,max} */
        public String text() {
            return number(min) + "," + number(max);
        }

        private Range scaled(double factor) {
            return factor == 1 ? this : new Range(min * factor, max * factor);
        }
    }

    /**
     * One sensor type's range and units.
     *
     * @param range the range in the first unit
     * @param units each unit the type takes, the first one first, with how many of it make one of the first
     */
    private record TypeRange(Range range, Map<String, Double> units) {}

    /** Prefix of the range settings. */
    public static final String SETTING_PREFIX = "validation.range.";

    /** The default ranges (see the class documentation). */
    public static final SensorRanges DEFAULTS = new SensorRanges(Map.of(
            "TEMPERATURE", type(-50, 80, "degC"),
            "HUMIDITY", type(0, 103, "%RH"),
            "WEIGHT", type(-10, 500, "kg"),
            "BATTERY", new TypeRange(new Range(0, 60), ordered("V", 1.0, "mV", 1000.0)),
            "SOUND_LEVEL", type(0, 194, "dB"),
            "CO2", type(0, 1_000_000, "ppm"),
            "LIGHT", type(0, 200_000, "lx"),
            "VIBRATION", type(0, 1_000, "mm/s")));

    /** Sensor type name, then its range. Keyed by name so newer enum symbols need no code. */
    private final Map<String, TypeRange> ranges;

    private SensorRanges(Map<String, TypeRange> ranges) {
        this.ranges = Map.copyOf(ranges);
    }

    private static TypeRange type(double min, double max, String unit) {
        return new TypeRange(new Range(min, max), Map.of(unit, 1.0));
    }

    private static Map<String, Double> ordered(String first, double one, String second, double factor) {
        Map<String, Double> units = new LinkedHashMap<>();
        units.put(first, one);
        units.put(second, factor);
        return java.util.Collections.unmodifiableMap(units);
    }

    /**
     * The setting that holds one sensor type's range: {@code validation.range.} then the type in lower
     * case, e.g. {@code validation.range.humidity}.
     *
     * @param sensorType the sensor type's symbol, e.g. "HUMIDITY", not null
     * @return the setting's name
     */
    public static String settingName(String sensorType) {
        return SETTING_PREFIX + sensorType.toLowerCase(Locale.ROOT);
    }

    /**
     * Every sensor type with a range, sorted by type.
     *
     * @return sensor type symbol to its default range, in {@link #unit its first unit}
     */
    public static Map<String, Range> defaults() {
        Map<String, Range> sorted = new TreeMap<>();
        DEFAULTS.ranges.forEach((type, range) -> sorted.put(type, range.range()));
        return sorted;
    }

    /**
     * @param sensorType a sensor type's symbol with a range, not null
     * @return the unit its range setting is in (its first unit)
     * @throws IllegalArgumentException if the type has no range
     */
    public static String unit(String sensorType) {
        TypeRange range = DEFAULTS.ranges.get(sensorType);
        if (range == null) {
            throw new IllegalArgumentException("no range of " + sensorType);
        }
        return range.units().keySet().iterator().next();
    }

    /**
     * These ranges with one replaced.
     *
     * @param sensorType the sensor type's symbol, one with a range, not null
     * @param range      the new range, in the type's first unit ({@link #unit}), not null
     * @return the ranges with that one replaced
     * @throws IllegalArgumentException if the type has no range to replace
     */
    public SensorRanges with(String sensorType, Range range) {
        Objects.requireNonNull(range, "range");
        TypeRange old = ranges.get(sensorType);
        if (old == null) {
            throw new IllegalArgumentException("no range of " + sensorType + " to set");
        }
        Map<String, TypeRange> copy = new LinkedHashMap<>(ranges);
        copy.put(sensorType, new TypeRange(range, old.units()));
        return new SensorRanges(copy);
    }

    /**
     * @param sensorType a sensor type's symbol, e.g. "TEMPERATURE", not null
     * @return the units with a range for it, sorted; empty when the type has no ranges (any unit goes)
     */
    public static SortedSet<String> units(String sensorType) {
        TypeRange range = DEFAULTS.ranges.get(sensorType);
        return range == null ? new TreeSet<>() : new TreeSet<>(range.units().keySet());
    }

    /**
     * @param sensorType a sensor type's symbol, not null
     * @param unit       a unit, may be null
     * @return the range in that unit, or null when the type has no range or does not take the unit
     */
    public Range range(String sensorType, String unit) {
        TypeRange range = ranges.get(sensorType);
        Double factor = range == null || unit == null ? null : range.units().get(unit);
        return factor == null ? null : range.range().scaled(factor);
    }

    /**
     * Checks a finite telemetry value against its sensor type and unit.
     *
     * @param sensorType the sensor type's symbol, e.g. "TEMPERATURE", not null
     * @param unit       the unit as sent, may be null
     * @param value      the value, finite
     * @return null when accepted, else OUT_OF_RANGE (naming the setting that holds the range) or UNKNOWN_UNIT
     */
    public Rejection check(String sensorType, String unit, double value) {
        TypeRange type = ranges.get(sensorType);
        if (type == null) {
            return null;
        }
        Range range = range(sensorType, unit);
        if (range == null) {
            return new Rejection(
                    RejectReason.UNKNOWN_UNIT,
                    "unit '" + unit + "' is not a known unit of " + sensorType + " (known: "
                            + String.join(", ", new TreeSet<>(type.units().keySet())) + ")");
        }
        if (value < range.min() || value > range.max()) {
            return new Rejection(
                    RejectReason.OUT_OF_RANGE,
                    "value of " + sensorType + " " + number(value) + " " + unit + " is outside the accepted range ["
                            + number(range.min()) + ", " + number(range.max()) + "] " + unit + " ("
                            + settingName(sensorType) + ")");
        }
        return null;
    }

    /** A number as written by a person: no trailing ".0". */
    static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value)
                : Double.toString(value);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SensorRanges that && ranges.equals(that.ranges);
    }

    @Override
    public int hashCode() {
        return ranges.hashCode();
    }

    @Override
    public String toString() {
        return "SensorRanges" + new TreeMap<>(ranges);
    }
}
