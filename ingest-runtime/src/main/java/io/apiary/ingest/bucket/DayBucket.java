package io.apiary.ingest.bucket;

import java.time.LocalDate;

/**
 * The day bucket of a time-series row: the UTC calendar date of its timestamp.
 *
 * <p>Pure functions of an epoch-millisecond instant; they never consult the JVM's default time
 * zone, so the same reading lands in the same partition on every machine. Thread-safe.
 */
public final class DayBucket {

    /** Milliseconds in one UTC day (86,400 s x 1,000); UTC has no daylight-saving shifts. */
    public static final long MILLIS_PER_DAY = 86_400_000L;

    private DayBucket() {}

    /**
     * The UTC day of an instant, as days since 1970-01-01 (the CQL {@code date} and Avro
     * {@code date} representation).
     *
     * @param epochMillis milliseconds since 1970-01-01T00:00:00Z; negative values are before 1970
     * @return days since 1970-01-01, rounded towards negative infinity
     */
    public static int epochDay(long epochMillis) {
        return Math.toIntExact(Math.floorDiv(epochMillis, MILLIS_PER_DAY));
    }

    /**
     * The UTC date of an instant.
     *
     * @param epochMillis milliseconds since 1970-01-01T00:00:00Z
     * @return the UTC calendar date, never null
     */
    public static LocalDate of(long epochMillis) {
        return LocalDate.ofEpochDay(epochDay(epochMillis));
    }

    /**
     * Milliseconds elapsed since the start of the instant's UTC day.
     *
     * @param epochMillis milliseconds since 1970-01-01T00:00:00Z
     * @return 0 to 86,399,999
     */
    public static long millisOfDay(long epochMillis) {
        return Math.floorMod(epochMillis, MILLIS_PER_DAY);
    }
}
