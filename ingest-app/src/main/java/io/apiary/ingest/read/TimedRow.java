package io.apiary.ingest.read;

import java.time.Instant;

/**
 * A row of a time-series table, as the reader merges it: ordered by {@link #time()}, then by
 * {@link #series()}. Implementations are immutable records, so thread-safe.
 */
public interface TimedRow {

    /** @return the row's time (its clustering time column), millisecond precision, never null */
    Instant time();

    /**
     * @return the series within the entity that breaks ties of equal times: the sensor type of
     *         {@code hive_telemetry} rows, the empty string for tables with one series per entity;
     *         never null
     */
    String series();
}
