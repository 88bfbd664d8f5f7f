package io.apiary.ingest.read;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A half-open time range {@code [from, to)} of millisecond instants, as the reader queries it:
 * a row at {@code from} is in, a row at {@code to} is not. Immutable, thread-safe.
 *
 * @param from the first instant in the range, not null; sub-millisecond parts are dropped
 * @param to   the first instant after the range, not null, after {@code from}
 */
public record TimeRange(Instant from, Instant to) {

    /**
     * @throws NullPointerException     if an end is null
     * @throws IllegalArgumentException if {@code to} is not after {@code from} (at millisecond precision)
     */
    public TimeRange {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        from = Instant.ofEpochMilli(from.toEpochMilli());
        to = Instant.ofEpochMilli(to.toEpochMilli());
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException(
                    "the end of a time range (" + to + ") must be after its start (" + from + ")");
        }
    }

    /**
     * Whole UTC days.
     *
     * @param first the first day, not null
     * @param last  the last day, included, not before {@code first}
     * @return from the start of {@code first} to the start of the day after {@code last}
     * @throws IllegalArgumentException if {@code last} is before {@code first}
     */
    public static TimeRange days(LocalDate first, LocalDate last) {
        return days(first, last, ZoneOffset.UTC);
    }

    /**
     * Whole days of a zone.
     *
     * @param first the first day, not null
     * @param last  the last day, included, not before {@code first}
     * @param zone  the zone whose days they are, not null
     * @return from the start of {@code first} in the zone to the start of the day after {@code last} in the zone
     * @throws IllegalArgumentException if {@code last} is before {@code first}
     */
    public static TimeRange days(LocalDate first, LocalDate last, ZoneId zone) {
        if (last.isBefore(first)) {
            throw new IllegalArgumentException("the last day (" + last + ") is before the first (" + first + ")");
        }
        return new TimeRange(
                first.atStartOfDay(zone).toInstant(),
                last.plusDays(1).atStartOfDay(zone).toInstant());
    }

    /**
     * @return this range widened to whole UTC hours: the start rounded down, the end rounded up to a multiple of
     *         an hour since 1970-01-01T00:00:00Z; this range itself when both already are
     */
    public TimeRange wholeHours() {
        long hour = 3_600_000L;
        long start = Math.floorDiv(fromMillis(), hour) * hour;
        long end = -Math.floorDiv(-toMillis(), hour) * hour;
        return start == fromMillis() && end == toMillis()
                ? this
                : new TimeRange(Instant.ofEpochMilli(start), Instant.ofEpochMilli(end));
    }

    /** @return {@link #from()} in milliseconds since 1970-01-01T00:00:00Z */
    public long fromMillis() {
        return from.toEpochMilli();
    }

    /** @return {@link #to()} in milliseconds since 1970-01-01T00:00:00Z */
    public long toMillis() {
        return to.toEpochMilli();
    }

    /**
     * @param millis an instant, milliseconds since 1970-01-01T00:00:00Z
     * @return whether the instant is in the range
     */
    public boolean contains(long millis) {
        return millis >= fromMillis() && millis < toMillis();
    }
}
