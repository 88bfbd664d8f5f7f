package io.apiary.ingest.gateway;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;

/**
 * Parses the time column of a CSV of readings into an instant. Formats: {@code iso} (ISO-8601
 * with or without offset), {@code epoch-ms}, {@code epoch-s}, or a {@link DateTimeFormatter}
 * pattern such as {@code yyyy-MM-dd HH:mm:ss[XXX]}. Text without an offset is read in the given
 * zone (so a station's local standard time, for example, is {@code -05:00}). Immutable and thread-safe.
 */
public final class ReadingTimeParser {

    private final String format;
    private final DateTimeFormatter formatter;
    private final ZoneId zone;

    /**
     * @param format {@code iso}, {@code epoch-ms}, {@code epoch-s} or a DateTimeFormatter pattern
     * @param zone   zone of times written without an offset, not null
     * @throws IllegalArgumentException if the pattern is invalid, naming it
     */
    public ReadingTimeParser(String format, ZoneId zone) {
        this.format = format;
        this.zone = zone;
        this.formatter = switch (format) {
            case "epoch-ms", "epoch-s" -> null;
            case "iso" -> new DateTimeFormatterBuilder().parseCaseInsensitive()
                    .append(DateTimeFormatter.ISO_LOCAL_DATE_TIME).optionalStart().appendOffsetId().toFormatter(Locale.ROOT);
            default -> {
                try {
                    yield DateTimeFormatter.ofPattern(format, Locale.ROOT);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("Invalid time format '" + format
                            + "': use iso, epoch-ms, epoch-s or a java.time pattern like yyyy-MM-dd HH:mm:ss[XXX]", e);
                }
            }
        };
    }

    /** @return the time format this parser reads: {@code iso}, {@code epoch-ms}, {@code epoch-s} or a pattern */
    public String format() {
        return format;
    }

    /**
     * @param text the cell's text
     * @return the instant
     * @throws DateTimeException or NumberFormatException (an IllegalArgumentException) if the text
     *                           does not match the format
     */
    public Instant parse(String text) {
        String t = text.trim();
        if ("epoch-ms".equals(format)) {
            return Instant.ofEpochMilli(Long.parseLong(t));
        }
        if ("epoch-s".equals(format)) {
            return Instant.ofEpochSecond(Long.parseLong(t));
        }
        TemporalAccessor parsed = formatter.parseBest(t, OffsetDateTime::from, LocalDateTime::from);
        if (parsed instanceof OffsetDateTime odt) {
            return odt.toInstant();
        }
        return ((LocalDateTime) parsed).atZone(zone).toInstant();
    }
}
