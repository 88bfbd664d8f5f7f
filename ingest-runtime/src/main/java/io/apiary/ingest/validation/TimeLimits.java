package io.apiary.ingest.validation;

import io.apiary.ingest.deadletter.RejectReason;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The event times a gateway stream accepts, relative to the wall clock: not after
 * now + {@code maxFutureSkew} (a gateway clock running ahead), not before now - {@code maxAge}
 * (older than the table keeps rows), and always inside 1970-01-01T00:00:00.001Z .. 9999-12-31
 * (what CQL timestamps and microsecond write times can carry). Immutable and thread-safe.
 *
 * @param maxFutureSkew how far ahead of the wall clock an event time may be, not negative
 * @param maxAge        how far behind the wall clock an event time may be, positive
 */
public record TimeLimits(Duration maxFutureSkew, Duration maxAge) {

    /** The first instant never accepted: year 10000, 253,402,300,800,000 ms. */
    public static final long END_OF_YEAR_9999_MILLIS = 253_402_300_800_000L;

    /** Checks the values. */
    public TimeLimits {
        Objects.requireNonNull(maxFutureSkew, "maxFutureSkew");
        Objects.requireNonNull(maxAge, "maxAge");
        if (maxFutureSkew.isNegative()) {
            throw new IllegalArgumentException("maxFutureSkew must not be negative, was " + maxFutureSkew);
        }
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("maxAge must be positive, was " + maxAge);
        }
    }

    /**
     * Checks an event time.
     *
     * @param field       the field's name, for the message
     * @param eventMillis the event time, ms since the epoch
     * @param nowMillis   the wall clock, ms since the epoch
     * @return null when accepted, else INVALID_TIMESTAMP, FUTURE_TIMESTAMP or EXPIRED_TIMESTAMP
     */
    public Rejection check(String field, long eventMillis, long nowMillis) {
        Rejection invalid = checkRange(field, eventMillis);
        if (invalid != null) {
            return invalid;
        }
        long latest = saturatedAdd(nowMillis, maxFutureSkew.toMillis());
        if (eventMillis > latest) {
            return new Rejection(
                    RejectReason.FUTURE_TIMESTAMP,
                    field + " " + Instant.ofEpochMilli(eventMillis)
                            + " is more than " + describe(maxFutureSkew) + " ahead of the receiver's clock ("
                            + Instant.ofEpochMilli(nowMillis) + "); is the gateway's clock set?");
        }
        long earliest = saturatedAdd(nowMillis, -maxAge.toMillis());
        if (eventMillis < earliest) {
            return new Rejection(
                    RejectReason.EXPIRED_TIMESTAMP,
                    field + " " + Instant.ofEpochMilli(eventMillis)
                            + " is older than the maximum age of " + describe(maxAge)
                            + " (validation.max.age.ms; replays of history"
                            + " set it larger)");
        }
        return null;
    }

    /**
     * Checks that an event time is set and inside 1970..9999, without the wall clock.
     *
     * @param field       the field's name, for the message
     * @param eventMillis the event time, ms since the epoch; -1 when missing
     * @return null when inside, else INVALID_TIMESTAMP
     */
    public static Rejection checkRange(String field, long eventMillis) {
        if (eventMillis <= 0 || eventMillis >= END_OF_YEAR_9999_MILLIS) {
            return new Rejection(
                    RejectReason.INVALID_TIMESTAMP,
                    field + " " + eventMillis + " ms is not after 1970-01-01T00:00:00Z and before year 10000");
        }
        return null;
    }

    /**
     * @param duration a duration, not negative
     * @return it for people: "90 days", "5 min", "0 s", "1500 ms"
     */
    public static String describe(Duration duration) {
        long ms = duration.toMillis();
        if (ms >= 86_400_000L && ms % 86_400_000L == 0) {
            return String.format("%,d days", ms / 86_400_000L);
        } else if (ms >= 3_600_000L && ms % 3_600_000L == 0) {
            return (ms / 3_600_000L) + " h";
        } else if (ms >= 60_000L && ms % 60_000L == 0) {
            return (ms / 60_000L) + " min";
        } else if (ms % 1_000L == 0) {
            return (ms / 1_000L) + " s";
        }
        return ms + " ms";
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return sum;
    }
}
