package io.apiary.ingest.partitionsize;

import java.util.Locale;

/**
 * The time bucket of a partition key: how long one partition keeps receiving new rows before
 * writes move to the next one. Lengths are fixed numbers of seconds, in UTC (no daylight-saving
 * shifts). A year is 365 days and a month is a twelfth of that (30.4 days, 2,628,000 s), the
 * convention of the usual partition-sizing examples; a 31-day month holds 1.9% more rows, a
 * 366-day year 0.3% more. Thread-safe (an enum).
 */
public enum Bucket {

    /** One partition per minute. */
    MINUTE(60),
    /** One partition per UTC hour. */
    HOUR(3_600),
    /** One partition per UTC day (the {@code day date} column of the project's tables). */
    DAY(86_400),
    /** One partition per 7 days. */
    WEEK(7 * 86_400),
    /** One partition per twelfth of a 365-day year (2,628,000 s). */
    MONTH(365 * 86_400 / 12),
    /** One partition per 365-day year. */
    YEAR(365 * 86_400),
    /**
     * No time bucket: a partition receives rows for as long as its entity exists, and only the
     * table's time to live bounds it (rows older than the TTL expire).
     */
    NONE(0);

    private final long seconds;

    Bucket(long seconds) {
        this.seconds = seconds;
    }

    /**
     * @return the bucket's length in seconds; 0 for {@link #NONE}
     */
    public long seconds() {
        return seconds;
    }

    /**
     * @return the bucket one step finer, or null for {@link #MINUTE}; {@link #NONE} gives
     *         {@link #YEAR}
     */
    public Bucket finer() {
        return switch (this) {
            case NONE -> YEAR;
            case YEAR -> MONTH;
            case MONTH -> WEEK;
            case WEEK -> DAY;
            case DAY -> HOUR;
            case HOUR -> MINUTE;
            case MINUTE -> null;
        };
    }

    /** @return the lower-case name used in settings and output */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a bucket name, case-insensitively.
     *
     * @param name minute, hour, day, week, month, year or none
     * @return the bucket
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Bucket parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "Unknown bucket '" + name + "': use minute, hour, day, week, month, year or none", e);
        }
    }
}
