package io.apiary.ingest.validation;

import io.apiary.schema.EntranceCount;
import java.util.Objects;

/**
 * Checks entrance-counter samples, in this order (the first failure is reported): key present
 * and not empty (NULL_KEY), value present (NULL_VALUE), text lengths (FIELD_TOO_LONG), key equals
 * {@code hive_id} (KEY_MISMATCH), event time set and inside 1970..9999 (INVALID_TIMESTAMP),
 * {@code bees_in} and {@code bees_out} not negative (NEGATIVE_COUNT) and at most
 * {@value #MAX_BEES_PER_SAMPLE} (OUT_OF_RANGE), {@code interval_seconds} from 1 to {@value #MAX_INTERVAL_SECONDS} (OUT_OF_RANGE: a sample belongs to one hour), event
 * time not too far ahead of the wall clock (FUTURE_TIMESTAMP) nor older than the maximum age
 * (EXPIRED_TIMESTAMP). Thread-safe (immutable).
 */
public final class EntranceCountValidator implements RecordValidator<EntranceCount> {

    /**
     * Most bees counted in one direction in one sample (of at most an hour). A strong colony has
     * 60,000 to 80,000 bees in summer, and its foragers make about ten trips a day, so even a whole
     * colony passing once within one interval stays below this; more is a counter fault.
     */
    public static final int MAX_BEES_PER_SAMPLE = 100_000;

    /** Longest counting interval accepted, seconds: one hour, the aggregation window. */
    public static final int MAX_INTERVAL_SECONDS = 3_600;

    private final TimeLimits limits;

    /** @param limits the event times accepted, not null */
    public EntranceCountValidator(TimeLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public Class<EntranceCount> valueType() {
        return EntranceCount.class;
    }

    @Override
    public long eventTime(EntranceCount value) {
        return value.getEventTime() == null ? -1L : value.getEventTime().toEpochMilli();
    }

    @Override
    public Rejection check(String key, EntranceCount count, long nowMillis) {
        Rejection rejection = Checks.present(key, count, "hive id");
        if (rejection == null) {
            rejection = Checks.first(
                    Checks.length("key", key, Checks.MAX_ID_CHARS),
                    Checks.length("hive_id", count.getHiveId(), Checks.MAX_ID_CHARS),
                    Checks.length("gateway_id", count.getGatewayId(), Checks.MAX_ID_CHARS));
        }
        if (rejection == null) {
            rejection = Checks.keyMatches(key, "hive_id", count.getHiveId());
        }
        if (rejection == null) {
            rejection = TimeLimits.checkRange("event_time", eventTime(count));
        }
        if (rejection == null) {
            rejection = Checks.first(
                    Checks.notNegative("bees_in", count.getBeesIn()),
                    Checks.notNegative("bees_out", count.getBeesOut()));
        }
        if (rejection == null) {
            rejection = Checks.first(
                    Checks.within("bees_in", count.getBeesIn(), 0, MAX_BEES_PER_SAMPLE, "bees"),
                    Checks.within("bees_out", count.getBeesOut(), 0, MAX_BEES_PER_SAMPLE, "bees"));
        }
        if (rejection == null) {
            rejection = Checks.within("interval_seconds", count.getIntervalSeconds(), 1, MAX_INTERVAL_SECONDS, "s");
        }
        if (rejection == null) {
            rejection = limits.check("event_time", eventTime(count), nowMillis);
        }
        return rejection;
    }
}
