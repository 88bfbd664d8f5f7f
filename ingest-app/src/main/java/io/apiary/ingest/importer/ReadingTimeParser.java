package io.apiary.ingest.importer;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.time.zone.ZoneOffsetTransition;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Parses the time column of a CSV of readings into an instant, strictly: a date that does not
 * exist (2023-02-29, 2024-04-31, month 13) is an error, never the neighbouring day.
 *
 * <p>Formats:
 * <ul>
 *   <li>{@code iso}: ISO-8601 local date-time, with or without an offset;</li>
 *   <li>{@code epoch-ms}, {@code epoch-s}: since 1970-01-01T00:00Z, decimal fractions allowed
 *       ({@code 15.56} seconds); a time between two milliseconds is rounded down to the earlier
 *       (the pipeline's times are milliseconds; two readings that become equal that way are the
 *       duplicate check's to report);</li>
 *   <li>{@code elapsed-ms}, {@code elapsed-s}, {@code elapsed-min}, {@code elapsed-h}: time since
 *       a start given separately ({@code --time-start}), decimal fractions allowed, not negative;</li>
 *   <li>a {@link DateTimeFormatter} pattern such as {@code yyyy-MM-dd HH:mm:ss[XXX]}, resolved with
 *       {@link ResolverStyle#STRICT} (its {@code y} is read as the proleptic year {@code u}, so that
 *       patterns written the usual way work under strict resolution; {@code yy} is 2000 to 2099).
 *       A pattern must give a date; one without a time of day reads midnight (a daily log); one
 *       that cannot give what its letters promise is refused when the parser is made. A zone
 *       written in the text ({@code VV}, {@code z}) or an offset ({@code XXX}) takes precedence
 *       over the given zone.</li>
 * </ul>
 *
 * <p>Text without an offset is read in the given zone (a station's local standard time, for
 * example, is {@code -05:00}). Where that zone's clocks change, a local time may not exist (the
 * spring gap: Europe/Berlin skipped 2017-03-26 02:00 to 03:00) or occur twice (the autumn
 * overlap: 2017-10-29 02:00 to 03:00 came twice). Such a time is read according to
 * {@link DstResolution}: by default it is an error that names the change, never a guess.
 *
 * <p>Immutable and thread-safe.
 */
public final class ReadingTimeParser {

    /** What to do with a local time that a daylight-saving change makes missing or ambiguous. */
    public enum DstResolution {
        /** Report it as an error (the default): the importer rejects the row with its line number. */
        REJECT,
        /**
         * Read it with the offset in force before the change: in an overlap, the first of the two
         * instants; in a gap, as written by a clock that had not moved yet (Berlin 02:30 read as
         * 02:30+01:00, which is 03:30 summer time).
         */
        EARLIER,
        /**
         * Read it with the offset in force after the change: in an overlap, the second of the two
         * instants; in a gap, as written by a clock that had already moved (Berlin 02:30 read as
         * 02:30+02:00, which is 01:30 winter time).
         */
        LATER,
        /**
         * Infer an overlap time from the order of the file, as a clock that was set back writes
         * it: the first instant, unless that is not after the previous time of the same hive (the
         * clock went back an hour; an hourly log repeats 02:30 exactly), then the second. A gap
         * time cannot be inferred: rejected. The idea of pandas' {@code tz_localize(ambiguous="infer")}.
         */
        INFER
    }

    /**
     * A parsed time.
     *
     * @param instant the instant, not null
     * @param note    null, or how a missing or ambiguous local time was resolved (for the report)
     */
    public record Parsed(Instant instant, String note) {}

    /** The formats that are not patterns, for messages. */
    public static final List<String> NAMED_FORMATS =
            List.of("iso", "epoch-ms", "epoch-s", "elapsed-ms", "elapsed-s", "elapsed-min", "elapsed-h");

    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)");
    private static final BigDecimal MIN_EPOCH_MS = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX_EPOCH_MS = BigDecimal.valueOf(Long.MAX_VALUE);

    private final String format;
    private final DateTimeFormatter formatter;
    private final ZoneId zone;
    private final DstResolution dst;
    private final Instant start;
    /** milliseconds per unit of an epoch or elapsed format, 0 for the others */
    private final long unitMillis;

    /**
     * A parser of absolute times that rejects missing or ambiguous local times.
     *
     * @param format {@code iso}, {@code epoch-ms}, {@code epoch-s} or a DateTimeFormatter pattern
     * @param zone   zone of times written without an offset, not null
     * @throws IllegalArgumentException if the pattern is invalid or the format is an elapsed one, naming it
     */
    public ReadingTimeParser(String format, ZoneId zone) {
        this(format, zone, DstResolution.REJECT, null);
    }

    /**
     * @param format {@code iso}, {@code epoch-ms}, {@code epoch-s}, {@code elapsed-*} or a DateTimeFormatter pattern
     * @param zone   zone of times written without an offset, not null
     * @param dst    what to do with local times a daylight-saving change makes missing or ambiguous, not null
     * @param start  the start that {@code elapsed-*} times count from; required for those, refused for the others
     * @throws IllegalArgumentException if the pattern is invalid, or the start is missing or given without need
     */
    public ReadingTimeParser(String format, ZoneId zone, DstResolution dst, Instant start) {
        this.format = Objects.requireNonNull(format);
        this.zone = Objects.requireNonNull(zone);
        this.dst = Objects.requireNonNull(dst);
        this.unitMillis = switch (format) {
            case "epoch-ms", "elapsed-ms" -> 1;
            case "epoch-s", "elapsed-s" -> 1_000;
            case "elapsed-min" -> 60_000;
            case "elapsed-h" -> 3_600_000;
            default -> 0;
        };
        boolean elapsed = format.startsWith("elapsed-") && unitMillis > 0;
        if (elapsed && start == null) {
            throw new IllegalArgumentException("The time format '" + format + "' counts from a start: give it with"
                    + " --time-start (e.g. 2021-06-01T00:00:00Z, or a local date-time read in --zone)");
        }
        if (!elapsed && start != null) {
            throw new IllegalArgumentException(
                    "--time-start is for the elapsed-* time formats only, not '" + format + "'");
        }
        if (start != null) {
            try {
                // toEpochMilli throws ArithmeticException for an instant outside a long of milliseconds
                long unused = start.toEpochMilli();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("--time-start " + start + " is out of the range of times", e);
            }
        }
        this.start = start;
        this.formatter = switch (format) {
            case "epoch-ms", "epoch-s", "elapsed-ms", "elapsed-s", "elapsed-min", "elapsed-h" -> null;
            case "iso" ->
                new DateTimeFormatterBuilder()
                        .parseCaseInsensitive()
                        .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                        .optionalStart()
                        .appendOffsetId()
                        .toFormatter(Locale.ROOT)
                        .withResolverStyle(ResolverStyle.STRICT);
            default -> {
                DateTimeFormatter pattern;
                try {
                    pattern = DateTimeFormatter.ofPattern(prolepticYears(format), Locale.ROOT)
                            .withResolverStyle(ResolverStyle.STRICT);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "Invalid time format '" + format + "': use " + String.join(", ", NAMED_FORMATS)
                                    + " or a java.time pattern like yyyy-MM-dd HH:mm:ss[XXX]",
                            e);
                }
                requireDateAndTime(format, pattern);
                yield pattern;
            }
        };
    }

    /**
     * Refuses a pattern that cannot give a date, or that has time-of-day letters and cannot give a
     * time (for example {@code hh} without {@code a}), by reading back what it writes of a sample
     * instant: such a pattern would reject every row, or read every row as midnight.
     */
    private static void requireDateAndTime(String format, DateTimeFormatter pattern) {
        TemporalAccessor back;
        try {
            back = pattern.parse(
                    pattern.format(java.time.ZonedDateTime.of(2021, 6, 1, 13, 45, 30, 123_000_000, ZoneOffset.UTC)));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "The time format '" + format + "' cannot read what it writes: " + e.getMessage(), e);
        }
        if (back.query(TemporalQueries.localDate()) == null) {
            throw new IllegalArgumentException("The time format '" + format + "' gives no date (Y is the week-based"
                    + " year: use y; D is the day of the year, d the day of the month)");
        }
        if (back.query(TemporalQueries.localTime()) == null && hasTimeLetters(format)) {
            throw new IllegalArgumentException("The time format '" + format + "' gives no time of day (h and K are"
                    + " hours of AM/PM and need a; use H for 0-23)");
        }
    }

    private static boolean hasTimeLetters(String pattern) {
        boolean quoted = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && "HhKkmsSaAnN".indexOf(c) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Replaces the pattern letter {@code y} (year of era, which strict resolution cannot use
     * without an era field) by {@code u} (proleptic year, the same for years after 0), outside
     * quoted literals.
     */
    static String prolepticYears(String pattern) {
        StringBuilder out = new StringBuilder(pattern.length());
        boolean quoted = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            }
            out.append(!quoted && c == 'y' ? 'u' : c);
        }
        return out.toString();
    }

    /** @return the time format this parser reads, as given */
    public String format() {
        return format;
    }

    /**
     * Reads a time; as {@link #parseWithNote} without the note.
     *
     * @param text the cell's text, not null
     * @return the instant
     * @throws DateTimeException as {@link #parseWithNote}
     */
    public Instant parse(String text) {
        return parseWithNote(text).instant();
    }

    /**
     * @param text the cell's text, not null
     * @return the instant, with a note when a missing or ambiguous local time was resolved
     * @throws DateTimeException (a {@link java.time.format.DateTimeParseException} among others) if the text does not match the format, names a date that does not
     *         exist, is a local time that a daylight-saving change makes missing or ambiguous and
     *         the resolution is {@link DstResolution#REJECT}, or is a number out of range
     */
    public Parsed parseWithNote(String text) {
        return parseWithNote(text, null);
    }

    /**
     * @param text     the cell's text, not null
     * @param previous the time read before this one in the same series (for {@link DstResolution#INFER}), or null
     * @return the instant, with a note when a missing or ambiguous local time was resolved
     * @throws DateTimeException as {@link #parseWithNote(String)}
     */
    public Parsed parseWithNote(String text, Instant previous) {
        return parseWithNote(text, previous, false);
    }

    /**
     * As {@link #parseWithNote(String, Instant)}, for series in which one time may repeat without
     * the clock having gone back (an event log: two bees passing within one second). Under
     * {@link DstResolution#INFER} an ambiguous time then reads as the second instant only if the
     * first is before the previous time, not when it equals it.
     *
     * @param text           the cell's text, not null
     * @param previous       the time read before this one in the same series, or null
     * @param repeatsAllowed whether an equal time is a repeat of the series rather than the clock going back
     * @return the instant, with a note when a missing or ambiguous local time was resolved
     * @throws DateTimeException as {@link #parseWithNote(String)}
     */
    public Parsed parseWithNote(String text, Instant previous, boolean repeatsAllowed) {
        String t = text.trim();
        if (unitMillis > 0) {
            return new Parsed(fromNumber(t), null);
        }
        TemporalAccessor parsed = formatter.parse(t);
        LocalDate date = parsed.query(TemporalQueries.localDate());
        if (date == null) {
            throw new DateTimeException("'" + t + "' gives no date");
        }
        LocalTime time = parsed.query(TemporalQueries.localTime());
        LocalDateTime local = LocalDateTime.of(date, time == null ? LocalTime.MIDNIGHT : time);
        ZoneOffset offset = parsed.query(TemporalQueries.offset());
        if (offset != null) {
            return new Parsed(local.toInstant(offset), null);
        }
        ZoneId written = parsed.query(TemporalQueries.zoneId());
        return atZone(local, written != null ? written : zone, previous, repeatsAllowed);
    }

    private Instant fromNumber(String t) {
        if (!DECIMAL.matcher(t).matches()) {
            throw new DateTimeException("'" + t + "' is not a decimal number");
        }
        BigDecimal millis =
                new BigDecimal(t).multiply(BigDecimal.valueOf(unitMillis)).setScale(0, RoundingMode.FLOOR);
        if (start != null && millis.signum() < 0) {
            throw new DateTimeException("'" + t + "' is before the start " + start + " (--time-start)");
        }
        if (start != null) {
            millis = millis.add(BigDecimal.valueOf(start.toEpochMilli()));
        }
        if (millis.compareTo(MIN_EPOCH_MS) < 0 || millis.compareTo(MAX_EPOCH_MS) > 0) {
            throw new DateTimeException("'" + t + "' is out of the range of times");
        }
        return Instant.ofEpochMilli(millis.longValueExact());
    }

    private Parsed atZone(LocalDateTime local, ZoneId zone, Instant previous, boolean repeatsAllowed) {
        List<ZoneOffset> offsets = zone.getRules().getValidOffsets(local);
        if (offsets.size() == 1) {
            return new Parsed(local.toInstant(offsets.get(0)), null);
        }
        ZoneOffsetTransition change = zone.getRules().getTransition(local);
        boolean gap = offsets.isEmpty();
        String what = "local time " + local + (gap ? " does not exist" : " occurs twice") + " in " + zone
                + " (clocks went from " + change.getDateTimeBefore().toLocalTime() + " " + change.getOffsetBefore()
                + " to " + change.getDateTimeAfter().toLocalTime() + " " + change.getOffsetAfter() + ")";
        Instant earlier = local.toInstant(change.getOffsetBefore());
        Instant later = local.toInstant(change.getOffsetAfter());
        if (dst == DstResolution.REJECT || (dst == DstResolution.INFER && gap)) {
            throw new DateTimeException(what + "; "
                    + (gap
                            ? "--dst earlier reads it as " + earlier
                                    + ", --dst later as " + later
                                    + (dst == DstResolution.INFER
                                            ? " (--dst infer cannot infer a time that does not exist)"
                                            : "")
                            : "--dst infer reads both readings of the repeated hour, each at its own instant, from the file's"
                                    + " order (" + earlier + " on the first pass, " + later
                                    + " once the times went back);"
                                    + " --dst earlier reads every one as " + earlier + " and --dst later as " + later
                                    + ", so the second reading of a sensor overwrites the first"));
        }
        boolean takeLater = dst == DstResolution.LATER
                || (dst == DstResolution.INFER
                        && previous != null
                        && (repeatsAllowed ? earlier.isBefore(previous) : !earlier.isAfter(previous)));
        Instant chosen = takeLater ? later : earlier;
        return new Parsed(
                chosen,
                what + "; read as " + chosen + " (--dst " + dst.name().toLowerCase(Locale.ROOT)
                        + (dst == DstResolution.INFER ? (takeLater ? ": the clock went back" : ": first pass") : "")
                        + ")");
    }
}
