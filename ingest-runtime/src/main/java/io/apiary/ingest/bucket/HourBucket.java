package io.apiary.ingest.bucket;

/**
 * The UTC hour of an instant, as used by the hourly activity table and topic. Pure; thread-safe.
 */
public final class HourBucket {

    /** Milliseconds in one hour. */
    public static final long MILLIS_PER_HOUR = 3_600_000L;

    private HourBucket() {}

    /**
     * The UTC hour of day of an instant.
     *
     * @param epochMillis milliseconds since 1970-01-01T00:00:00Z
     * @return 0 to 23
     */
    public static int hourOfDay(long epochMillis) {
        return (int) (DayBucket.millisOfDay(epochMillis) / MILLIS_PER_HOUR);
    }

    /**
     * The start of the UTC hour that contains an instant.
     *
     * @param epochMillis milliseconds since 1970-01-01T00:00:00Z
     * @return the hour's start, milliseconds since 1970-01-01T00:00:00Z
     */
    public static long hourStart(long epochMillis) {
        return Math.floorDiv(epochMillis, MILLIS_PER_HOUR) * MILLIS_PER_HOUR;
    }
}
