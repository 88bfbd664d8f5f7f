package io.apiary.ingest.read;

import java.time.Instant;

/**
 * A row of a time-series table, as the reader merges it: ordered by {@link #time()}, then by
 * {@link #series()}, then by {@link #seriesId()} (the exact reverse for newest first). Two rows
 * equal in all three are the same row (a table read under two shard schemes, or under its current
 * and its legacy layout, can return it twice; the reader returns it once). Implementations are
 * immutable records, so thread-safe.
 */
public interface TimedRow {

    /** @return the row's time (its clustering time column), millisecond precision, never null */
    Instant time();

    /**
     * @return the first tie-break of equal times: the sensor type of {@code hive_telemetry_v2}
     *         rows, the empty string for the other tables; never null
     */
    String series();

    /**
     * @return the second tie-break: the sensor id of {@code hive_telemetry_v2} rows (which sensor
     *         of its type), the alert id of {@code agent_alerts_v2} rows; the empty string for
     *         tables with one row per entity and time; never null
     */
    default String seriesId() {
        return "";
    }
}
