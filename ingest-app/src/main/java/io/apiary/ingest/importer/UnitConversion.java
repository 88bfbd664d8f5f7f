package io.apiary.ingest.importer;

import io.apiary.ingest.validation.SensorRanges;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.measure.IncommensurableException;
import javax.measure.UnconvertibleException;
import javax.measure.Unit;
import javax.measure.UnitConverter;
import javax.measure.format.MeasurementParseException;
import systems.uom.common.USCustomary;
import tech.units.indriya.format.SimpleUnitFormat;
import tech.units.indriya.function.AbstractConverter;
import tech.units.indriya.unit.Units;

/**
 * Converts a CSV column's values from the unit they are written in to a unit the pipeline takes
 * for their sensor type ({@link SensorRanges#units}), for units of one quantity: grams to
 * kilograms, millivolts to volts, degrees Fahrenheit or kelvin to degrees Celsius, metres per
 * second to millimetres per second. The units and the conversion are the units library's (Indriya,
 * the reference implementation of JSR 385 "Units of Measurement", with the US customary units of
 * the Units of Measurement project's systems-common), which composes factors and offsets exactly
 * as rational numbers; only the names below are ours.
 *
 * <p>Unit names: the pipeline's own ({@code degC}, {@code degF}, {@code %RH}, {@code lb} ...) and
 * whatever Indriya's {@link SimpleUnitFormat} reads ({@code g}, {@code mV}, {@code K}, {@code m/s},
 * {@code klx} ...). A unit the pipeline takes as it is needs no conversion (the identity); one
 * of another quantity ({@code WEIGHT} in {@code V}) has none, and neither has {@code ppm}
 * (dimensionless: any other dimensionless unit would "convert" to it). {@code HUMIDITY} written
 * in {@code %} is read as {@code %RH}, the same number.
 *
 * <p>Immutable and thread-safe.
 */
public final class UnitConversion {

    /** Names the pipeline and hive data write that the library's format spells otherwise. */
    private static final Map<String, Unit<?>> NAMES = Map.of(
            "degC", Units.CELSIUS,
            "degF", USCustomary.FAHRENHEIT,
            "lb", USCustomary.POUND,
            "oz", USCustomary.OUNCE,
            "lux", Units.LUX);

    private final String from;
    private final String to;
    private final UnitConverter converter;

    private UnitConversion(String from, String to, UnitConverter converter) {
        this.from = from;
        this.to = to;
        this.converter = converter;
    }

    /**
     * @param unit a unit, not null
     * @return the conversion of that unit to itself
     */
    public static UnitConversion identity(String unit) {
        return new UnitConversion(Objects.requireNonNull(unit), unit, null);
    }

    /**
     * Finds how to read a column of a sensor type written in {@code fileUnit}.
     *
     * @param sensorType a sensor type name, not null
     * @param fileUnit   the unit the values are written in, not null
     * @return the identity if the pipeline takes {@code fileUnit} for the type (or takes any unit for it),
     *         else the conversion to the first unit it takes that is of the same quantity
     * @throws IllegalArgumentException if there is none, naming the units the pipeline takes for the
     *         type and those of the same quantity it converts from (when known)
     */
    public static UnitConversion find(String sensorType, String fileUnit) {
        List<String> taken = new ArrayList<>(SensorRanges.units(sensorType));
        if (taken.isEmpty() || taken.contains(fileUnit)) {
            return identity(fileUnit);
        }
        for (String target : taken) {
            UnitConversion conversion = convert(sensorType, fileUnit, target);
            if (conversion != null) {
                return conversion;
            }
        }
        throw new IllegalArgumentException("the pipeline takes " + sensorType + " in " + String.join(" or ", taken)
                + ", and '" + fileUnit + "' " + whyNot(fileUnit) + " (units of one quantity are converted, e.g. "
                + example(sensorType) + ")");
    }

    /**
     * Finds how to read a value of a sensor type written in {@code fileUnit} into one given unit:
     * for a file that writes the unit on each line, so that every reading of one sensor carries
     * the one unit of its sensor ({@code g} on one line and {@code kg} on another both become
     * {@code kg}) and two readings of one sensor and time compare as values of one unit.
     *
     * @param sensorType a sensor type name, not null
     * @param fileUnit   the unit the value is written in, not null
     * @param target     the unit the reading is to carry, not null; normally what {@link #find(String,
     *                   String)} gave for the sensor ({@link #to()})
     * @return the identity if the two units are the same name, else the conversion from {@code fileUnit}
     *         to {@code target} (as in {@link #find(String, String)}: the library's, or {@code %} read as
     *         {@code %RH} for {@code HUMIDITY})
     * @throws IllegalArgumentException if {@code fileUnit} is unknown or of another quantity than
     *         {@code target}, saying which and giving an example of a conversion the type takes
     */
    public static UnitConversion find(String sensorType, String fileUnit, String target) {
        if (fileUnit.equals(Objects.requireNonNull(target))) {
            return identity(target);
        }
        UnitConversion conversion = convert(sensorType, fileUnit, target);
        if (conversion != null) {
            return conversion;
        }
        throw new IllegalArgumentException("'" + fileUnit + "' "
                + (unit(fileUnit) == null ? whyNot(fileUnit) : whyNot(fileUnit) + " as " + target)
                + " (units of one quantity are converted, e.g. " + example(sensorType) + ")");
    }

    /** @return the conversion from one unit to another of the same quantity, or null if there is none */
    private static UnitConversion convert(String sensorType, String fileUnit, String target) {
        if ("HUMIDITY".equals(sensorType) && "%".equals(fileUnit) && "%RH".equals(target)) {
            // how most files write relative humidity: the same number, under the pipeline's name
            return new UnitConversion(fileUnit, target, AbstractConverter.IDENTITY);
        }
        Unit<?> source = unit(fileUnit);
        Unit<?> unit = unit(target);
        if (source == null || unit == null) {
            return null;
        }
        try {
            return new UnitConversion(fileUnit, target, source.getConverterToAny(unit));
        } catch (IncommensurableException | UnconvertibleException e) {
            return null; // another quantity
        }
    }

    private static String whyNot(String fileUnit) {
        return unit(fileUnit) == null ? "is not a unit the importer knows" : "is not a unit of the same quantity";
    }

    private static String example(String sensorType) {
        return switch (sensorType) {
            case "TEMPERATURE" -> "degF or K to degC";
            case "WEIGHT" -> "g or lb to kg";
            case "BATTERY" -> "kV to V";
            case "VIBRATION" -> "m/s to mm/s";
            case "LIGHT" -> "klx to lx";
            default -> "g to kg, degF to degC";
        };
    }

    /** @return the unit named, or null if neither our names nor the library's format know it */
    private static Unit<?> unit(String name) {
        Unit<?> unit = NAMES.get(name);
        if (unit != null) {
            return unit;
        }
        try {
            return SimpleUnitFormat.getInstance().parse(name);
        } catch (MeasurementParseException | IllegalArgumentException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** @return the unit the values are written in */
    public String from() {
        return from;
    }

    /** @return the unit the readings carry */
    public String to() {
        return to;
    }

    /** @return whether values pass unchanged */
    public boolean isIdentity() {
        return converter == null;
    }

    /**
     * @param value a value in {@link #from()}
     * @return the same quantity in {@link #to()}
     */
    public double apply(double value) {
        return converter == null ? value : converter.convert(value);
    }

    /** Equal when from and to are: the library's conversion between two units is one. */
    @Override
    public boolean equals(Object o) {
        return o instanceof UnitConversion other && from.equals(other.from) && to.equals(other.to);
    }

    @Override
    public int hashCode() {
        return Objects.hash(from, to);
    }

    @Override
    public String toString() {
        if (isIdentity()) {
            return to;
        }
        return converter == AbstractConverter.IDENTITY
                ? to + " (written as " + from + ", value unchanged)"
                : to + " (converted from " + from + ")";
    }
}
