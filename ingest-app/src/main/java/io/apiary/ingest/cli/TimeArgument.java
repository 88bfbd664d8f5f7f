package io.apiary.ingest.cli;

import io.apiary.ingest.read.TimeRange;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The time arguments of {@code query} and {@code report}: a date ({@code 2021-07-15}), a
 * date and time ({@code 2021-07-15T10:00}), both read in UTC or a given zone, or an instant with its offset
 * ({@code 2021-07-15T10:00:00Z}, {@code 2021-07-15T12:00+02:00}). A date given as the end of a
 * range includes that whole day. Pure; thread-safe.
 */
final class TimeArgument {

    private TimeArgument() {}

    /**
     * @param from the start, as above, not null
     * @param to   the end, as above (a date includes its day; a time is exclusive), not null
     * @return the range
     * @throws IllegalArgumentException naming the accepted forms, or if the end is not after the start
     */
    static TimeRange range(String from, String to) {
        return range(from, to, ZoneOffset.UTC);
    }

    /**
     * As {@link #range(String, String)}, with dates and dates and times without an offset read in a zone.
     *
     * @param from the start, not null
     * @param to   the end, not null
     * @param zone the zone of dates and local times, not null (a local time that a daylight-saving gap skips is
     *             moved later by the gap's length, an ambiguous one takes the earlier offset)
     * @return the range
     * @throws IllegalArgumentException naming the accepted forms, or if the end is not after the start
     */
    static TimeRange range(String from, String to, ZoneId zone) {
        Instant start = instant("--from", from, false, zone);
        Instant end = instant("--to", to, true, zone);
        if (!end.isAfter(start)) {
            throw new IllegalArgumentException("--to " + to.trim()
                    + (to.trim().length() == 10
                            ? " (a date: the range ends when that day ends, at " + end + ")"
                            : " (" + end + ")")
                    + " must be after --from " + from.trim() + " (" + start + ")");
        }
        return new TimeRange(start, end);
    }

    /**
     * @param option the option's name, for the message
     * @param text   the argument
     * @param end    whether it ends a range (a date then means the start of the next day)
     * @return the instant
     * @throws IllegalArgumentException naming the accepted forms
     */
    static Instant instant(String option, String text, boolean end) {
        return instant(option, text, end, ZoneOffset.UTC);
    }

    private static Instant instant(String option, String text, boolean end, ZoneId zone) {
        String t = text.trim();
        String where = zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId();
        try {
            Instant instant;
            if (t.length() == 10) {
                LocalDate day = LocalDate.parse(t);
                instant = (end ? day.plusDays(1) : day).atStartOfDay(zone).toInstant();
            } else if (t.endsWith("Z") || t.endsWith("z") || t.matches(".*[+-]\\d\\d:?\\d\\d$")) {
                instant = OffsetDateTime.parse(t.replace('z', 'Z')).toInstant();
            } else {
                LocalDateTime local = LocalDateTime.parse(t);
                java.time.zone.ZoneOffsetTransition gap = zone.getRules().getTransition(local);
                if (gap != null && gap.isGap()) {
                    throw new IllegalArgumentException(option + " " + t + " does not exist in " + where
                            + ": its clocks went from "
                            + gap.getDateTimeBefore().toLocalTime() + " to "
                            + gap.getDateTimeAfter().toLocalTime() + " that day; write a time after the change or"
                            + " an instant with its offset");
                }
                instant = local.atZone(zone).toInstant(); // a time an autumn overlap repeats: the earlier instant
            }
            // Cassandra's timestamps are milliseconds since 1970 in a long: refuse what does not fit.
            long unused = instant.toEpochMilli(); // throws ArithmeticException when it does not fit
            return instant;
        } catch (java.time.DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    option + " '" + text + "' is not a time: write a date (2021-07-15), a date and time"
                            + " (2021-07-15T10:00), both read in " + where
                            + ", or an instant with its offset (2021-07-15T10:00:00Z)",
                    e);
        }
    }
}
