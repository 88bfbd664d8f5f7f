package io.apiary.ingest.validation;

import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.util.Objects;

/**
 * Checks hive telemetry readings, in this order (the first failure is reported): key present and
 * not empty (NULL_KEY), value present (NULL_VALUE), text lengths (FIELD_TOO_LONG), {@code sensor_id}
 * a valid identifier (INVALID_IDENTIFIER, see {@link io.apiary.ingest.identity.Identifiers}), key
 * equals {@code hive_id} (KEY_MISMATCH), sensor type known to this version, not the schema's
 * default {@code UNKNOWN} (UNKNOWN_SENSOR_TYPE), reading time set and inside 1970..9999 (INVALID_TIMESTAMP),
 * value finite (NON_FINITE_VALUE), value possible for its sensor type and unit (OUT_OF_RANGE,
 * UNKNOWN_UNIT; see {@link SensorRanges}), reading time not too far ahead of the wall clock
 * (FUTURE_TIMESTAMP) nor older than the maximum age (EXPIRED_TIMESTAMP). Thread-safe (immutable).
 */
public final class TelemetryValidator implements RecordValidator<TelemetryReading> {

    private final TimeLimits limits;
    private final SensorRanges ranges;

    /**
     * A validator with the default sensor ranges ({@link SensorRanges#DEFAULTS}).
     *
     * @param limits the event times accepted, not null
     */
    public TelemetryValidator(TimeLimits limits) {
        this(limits, SensorRanges.DEFAULTS);
    }

    /**
     * @param limits the event times accepted, not null
     * @param ranges the values accepted per sensor type and unit, not null
     */
    public TelemetryValidator(TimeLimits limits, SensorRanges ranges) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.ranges = Objects.requireNonNull(ranges, "ranges");
    }

    @Override
    public Class<TelemetryReading> valueType() {
        return TelemetryReading.class;
    }

    @Override
    public long eventTime(TelemetryReading value) {
        return value.getReadingTime() == null ? -1L : value.getReadingTime().toEpochMilli();
    }

    @Override
    public Rejection check(String key, TelemetryReading reading, long nowMillis) {
        Rejection rejection = Checks.present(key, reading, "hive id");
        if (rejection == null) {
            rejection = Checks.first(
                    Checks.length("key", key, Checks.MAX_ID_CHARS),
                    Checks.length("hive_id", reading.getHiveId(), Checks.MAX_ID_CHARS),
                    Checks.length("gateway_id", reading.getGatewayId(), Checks.MAX_ID_CHARS),
                    Checks.length("unit", reading.getUnit(), Checks.MAX_UNIT_CHARS),
                    Checks.identifier("sensor_id", reading.getSensorId()));
        }
        if (rejection == null) {
            rejection = Checks.keyMatches(key, "hive_id", reading.getHiveId());
        }
        if (rejection == null && reading.getSensorType() == SensorType.UNKNOWN) {
            rejection = new Rejection(
                    RejectReason.UNKNOWN_SENSOR_TYPE,
                    "sensor type is UNKNOWN: the gateway wrote a "
                            + "type this version of the pipeline does not know (or UNKNOWN itself); the record is kept here "
                            + "unchanged, to be replayed once the pipeline knows the type");
        }
        if (rejection == null) {
            rejection = TimeLimits.checkRange("reading_time", eventTime(reading));
        }
        if (rejection == null) {
            rejection = Checks.finite("value", reading.getValue());
        }
        if (rejection == null) {
            rejection = ranges.check(reading.getSensorType().name(), reading.getUnit(), reading.getValue());
        }
        if (rejection == null) {
            rejection = limits.check("reading_time", eventTime(reading), nowMillis);
        }
        return rejection;
    }
}
