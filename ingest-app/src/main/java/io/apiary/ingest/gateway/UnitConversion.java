package io.apiary.ingest.gateway;

import io.apiary.ingest.validation.PhysicalRanges;
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
 * for their sensor type ({@link PhysicalRanges#units}), for units of one quantity: grams to
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
        List<String> taken = new ArrayList<>(PhysicalRanges.units(sensorType));
        if (taken.isEmpty() || taken.contains(fileUnit)) {
            return identity(fileUnit);
        }
        if ("HUMIDITY".equals(sensorType) && "%".equals(fileUnit)) {
            // how most files write relative humidity: the same number, under the pipeline's name
            return new UnitConversion(fileUnit, "%RH", AbstractConverter.IDENTITY);
        }
        Unit<?> source = unit(fileUnit);
        if (source != null) {
            for (String target : taken) {
                Unit<?> unit = unit(target);
                if (unit == null) {
                    continue;
                }
                try {
                    return new UnitConversion(fileUnit, target, source.getConverterToAny(unit));
                } catch (IncommensurableException | UnconvertibleException e) {
                    // another quantity: try the next unit the pipeline takes
                }
            }
        }
        throw new IllegalArgumentException("the pipeline takes " + sensorType + " in " + String.join(" or ", taken)
                + ", and '" + fileUnit + "' "
                + (source == null ? "is not a unit the importer knows" : "is not a unit of the same quantity")
                + " (units of one quantity are converted, e.g. "
                + example(sensorType) + ")");
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
        return isIdentity() ? to : to + " (converted from " + from + ")";
    }
}
