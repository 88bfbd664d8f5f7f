package io.apiary.ingest.tablecopy;

/**
 * One row read by a {@link ScanQuery}. Immutable (its values are the driver's row).
 *
 * @param token           the row's partition token (Murmur3)
 * @param values          its columns
 * @param writeTimeMicros the greatest write time of its regular cells, microseconds, or
 *                        {@link #NO_CELLS} when it has none (every regular column null)
 * @param ttlSeconds      the remaining TTL of that cell in seconds, 0 when it has none
 */
public record ScannedRow(long token, ColumnValues values, long writeTimeMicros, int ttlSeconds) {

    /** The write time of a row without regular cells: there is none to read. */
    public static final long NO_CELLS = Long.MIN_VALUE;

    /** @return whether the row has at least one regular cell (so a write time and TTL to keep) */
    public boolean hasCells() {
        return writeTimeMicros != NO_CELLS;
    }
}
