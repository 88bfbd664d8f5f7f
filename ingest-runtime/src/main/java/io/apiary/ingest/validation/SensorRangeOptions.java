package io.apiary.ingest.validation;

import io.apiary.ingest.config.OptionGroup;
import java.util.List;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The options of the telemetry validator's accepted ranges: one per sensor type,
 * {@code validation.range.<type>} = {@code min,max} (inclusive, in the type's first unit), defaults
 * {@link SensorRanges#DEFAULTS}. Loaded as an {@link OptionGroup} service. Thread-safe (no state).
 */
public final class SensorRangeOptions implements OptionGroup {

    /** For the service loader. */
    public SensorRangeOptions() {}

    @Override
    public void define(ConfigDef definition) {
        SensorRanges.defaults()
                .forEach((type, range) -> definition.define(
                        SensorRanges.settingName(type),
                        Type.LIST,
                        range.text(),
                        ConfigDef.LambdaValidator.with(
                                (name, value) -> parse(name, value), () -> "min,max: two finite numbers, min <= max"),
                        Importance.LOW,
                        "Accepted values of " + type + " readings, in " + SensorRanges.unit(type)
                                + ": min,max, inclusive"
                                + (SensorRanges.units(type).size() > 1
                                        ? " (its other units, " + String.join(", ", otherUnits(type))
                                                + ", take it scaled)"
                                        : "")
                                + ". Readings outside are dead-lettered as OUT_OF_RANGE, and import-csv names them by line"
                                + " without sending them; readings inside are stored as read. Why each default: "
                                + "docs/gateway-developers.md, Accepted ranges."));
    }

    private static java.util.List<String> otherUnits(String type) {
        return SensorRanges.units(type).stream()
                .filter(u -> !u.equals(SensorRanges.unit(type)))
                .toList();
    }

    /**
     * The ranges a configuration sets.
     *
     * @param config a configuration defined with these options, not null
     * @return the ranges, the defaults where not set
     */
    public static SensorRanges ranges(AbstractConfig config) {
        SensorRanges ranges = SensorRanges.DEFAULTS;
        for (String type : SensorRanges.defaults().keySet()) {
            String name = SensorRanges.settingName(type);
            ranges = ranges.with(type, parse(name, config.getList(name)));
        }
        return ranges;
    }

    private static SensorRanges.Range parse(String name, Object value) {
        if (value instanceof List<?> bounds && bounds.size() == 2) {
            try {
                return new SensorRanges.Range(
                        Double.parseDouble(bounds.get(0).toString().trim()),
                        Double.parseDouble(bounds.get(1).toString().trim()));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, "needs min,max: two finite numbers, min <= max");
            }
        }
        throw new ConfigException(name, value, "needs min,max: two finite numbers, min <= max");
    }
}
