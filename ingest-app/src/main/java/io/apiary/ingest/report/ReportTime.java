package io.apiary.ingest.report;

import io.apiary.ingest.read.TimeRange;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The report's times as its reader sees them: in one display zone (UTC by default), with the
 * offset from UTC shown. Where the zone's offset changes within the report's span (daylight saving
 * time), every listed time carries its offset; otherwise the offset is named once, in the {@link
 * #label() label}. Locale-independent ({@link Locale#ROOT}). Immutable, thread-safe.
 */
final class ReportTime {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm", Locale.ROOT);
    private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter MILLI = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS", Locale.ROOT);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd", Locale.ROOT);
    private static final DateTimeFormatter HOUR_MINUTE = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

    /** UTC, the report's default zone. */
    static final ReportTime UTC = new ReportTime(ZoneOffset.UTC, 0, 1);

    private final ZoneId zone;
    private final boolean utc;
    private final List<ZoneOffset> offsets;

    /**
     * @param zone the display zone, not null
     * @param from the start of the report's span, epoch milliseconds
     * @param to   the end of the report's span, epoch milliseconds, after {@code from} (an offset that starts
     *             there counts as one within the span: the end is shown)
     */
    ReportTime(ZoneId zone, long from, long to) {
        this.zone = zone;
        ZoneRules rules = zone.getRules();
        this.utc = rules.isFixedOffset() && rules.getOffset(Instant.EPOCH).equals(ZoneOffset.UTC);
        TreeSet<ZoneOffset> seen = new TreeSet<>(Comparator.comparingInt(ZoneOffset::getTotalSeconds));
        Instant t = Instant.ofEpochMilli(from);
        Instant end = Instant.ofEpochMilli(to);
        seen.add(rules.getOffset(t));
        for (ZoneOffsetTransition next = rules.nextTransition(t);
                next != null && !next.getInstant().isAfter(end);
                next = rules.nextTransition(next.getInstant())) {
            seen.add(next.getOffsetAfter());
        }
        this.offsets = List.copyOf(seen);
    }

    /** @return the display zone */
    ZoneId zone() {
        return zone;
    }

    /** @return whether the zone is UTC (offset 0 all the time) */
    boolean isUtc() {
        return utc;
    }

    /** @return whether the zone's offset changes within the span, so that each listed time names its offset */
    boolean offsetChanges() {
        return offsets.size() > 1;
    }

    /**
     * @return {@code UTC}; or the zone and its offset, e.g. {@code America/Toronto, UTC−04:00}; or the zone
     *         and its offsets where they change within the span, e.g.
     *         {@code America/Toronto, UTC−05:00 and UTC−04:00}
     */
    String label() {
        ZoneRules rules = zone.getRules();
        if (utc) {
            return "UTC";
        }
        String names = offsets.stream().map(ReportTime::offsetName).collect(Collectors.joining(" and "));
        return rules.isFixedOffset() ? names : zone.getId() + ", " + names;
    }

    /**
     * @param offset an offset from UTC
     * @return {@code UTC} for 0, else e.g. {@code UTC+02:00}, {@code UTC−04:00} (with a minus sign, U+2212)
     */
    static String offsetName(ZoneOffset offset) {
        if (offset.getTotalSeconds() == 0) {
            return "UTC";
        }
        String id = offset.getId();
        return "UTC" + (id.startsWith("-") ? "\u2212" + id.substring(1) : id);
    }

    /** @return the offset name at that time, e.g. {@code UTC−04:00} */
    String offsetAt(long epochMillis) {
        return offsetName(zone.getRules().getOffset(Instant.ofEpochMilli(epochMillis)));
    }

    /** @return e.g. {@code 2021-07-12 06:15}, with the offset after it where it changes within the span */
    String minute(long epochMillis) {
        return withOffset(MINUTE, Instant.ofEpochMilli(epochMillis));
    }

    /**
     * @return e.g. {@code 2021-07-12 06:15:04}, with {@code .SSS} when the milliseconds are not 0, with the
     *         offset after it where it changes within the span
     */
    String second(Instant time) {
        return withOffset(time.getNano() == 0 ? SECOND : MILLI, time);
    }

    /** @return e.g. {@code 2021-07-12 06:15:04 UTC−04:00}: always with the offset (for times outside the span) */
    String secondWithOffset(Instant time) {
        return (time.getNano() == 0 ? SECOND : MILLI).format(time.atZone(zone)) + " "
                + offsetName(zone.getRules().getOffset(time));
    }

    /** @return the date in the zone, e.g. {@code 2021-07-12} */
    String day(long epochMillis) {
        return DAY.format(Instant.ofEpochMilli(epochMillis).atZone(zone));
    }

    /** @return the time of day in the zone, e.g. {@code 06:00} */
    String hourMinute(long epochMillis) {
        return HOUR_MINUTE.format(Instant.ofEpochMilli(epochMillis).atZone(zone));
    }

    /** @return the start of the day in the zone that holds the time, epoch milliseconds */
    long startOfDay(long epochMillis) {
        return localDate(epochMillis).atStartOfDay(zone).toInstant().toEpochMilli();
    }

    /** @return the date in the zone that holds the time */
    LocalDate localDate(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).atZone(zone).toLocalDate();
    }

    /** @return the local date and time in the zone of an instant */
    LocalDateTime localDateTime(long epochMillis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), zone);
    }

    /** @return the later instant of a local date and time an autumn overlap repeats, else as {@link #instant} */
    long laterInstant(LocalDateTime local) {
        return local.atZone(zone).withLaterOffsetAtOverlap().toInstant().toEpochMilli();
    }

    /** @return the first instant of the local date and time in the zone (the later one after a spring gap) */
    long instant(LocalDateTime local) {
        return local.atZone(zone).toInstant().toEpochMilli();
    }

    /**
     * @param range a time range
     * @return {@code 2021-07-12 to 2021-07-18} for whole days of the zone, {@code 2021-07-12} for one day, else
     *         {@code 2021-07-12 06:00 to 2021-07-12 18:00 (end excluded)}
     */
    String range(TimeRange range) {
        boolean wholeDays = isMidnight(range.from()) && isMidnight(range.to());
        if (!wholeDays) {
            return minute(range.fromMillis()) + " to " + minute(range.toMillis()) + " (end excluded)";
        }
        String first = day(range.fromMillis());
        String last = DAY.format(localDate(range.toMillis()).minusDays(1));
        return first.equals(last) ? first : first + " to " + last;
    }

    /** @return whether the time starts a day of the zone (midnight, or the first instant where a gap skips it) */
    private boolean isMidnight(Instant time) {
        return time.equals(time.atZone(zone).toLocalDate().atStartOfDay(zone).toInstant());
    }

    private String withOffset(DateTimeFormatter format, Instant time) {
        String text = format.format(time.atZone(zone));
        return offsetChanges() ? text + " " + offsetName(zone.getRules().getOffset(time)) : text;
    }
}
