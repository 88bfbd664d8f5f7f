package io.apiary.ingest.read;

import java.util.List;
import java.util.Objects;

/**
 * One page of a read: at most the limit's rows, in the read's order. Immutable, thread-safe.
 *
 * @param rows          the rows, not null, unmodifiable
 * @param nextPageToken pass it back for the rows after these; null when there are none
 * @param stats         what the page cost, not null
 * @param <R>           the row type
 */
public record ReadPage<R extends TimedRow>(List<R> rows, String nextPageToken, ReadStats stats) {

    /** Copies the rows. */
    public ReadPage {
        rows = List.copyOf(rows);
        Objects.requireNonNull(stats, "stats");
    }
}
