package io.apiary.ingest.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;

/**
 * The rows of several series (sensor types) of one partition's slice, read with one query
 * ({@code sensor_type IN ?}) instead of one per series. Cassandra returns such a query's rows in
 * clustering order, series by series, so the cursor reads the whole slice (all its pages), then
 * sorts it into the read's order. Memory is bounded: once {@code maxBufferedRows} rows are held
 * and Cassandra has more pages, what was read is dropped and the slice is read again as one
 * streaming {@link PartitionCursor} per series, merged here (the requests already made are then
 * wasted, but no row is held twice and none is missed). At most {@code maxBufferedRows} plus one
 * page of rows are held.
 * Not thread-safe: one merge owns it; the driver completes its futures on its own threads.
 *
 * @param <R> the row type
 */
final class MultiSeriesCursor<R extends TimedRow> implements SliceCursor<R> {

    /**
     * Rows held for one slice of an unlimited read before it falls back: 100,000 (a limited read
     * holds less; see {@link HiveDataReader#page}). A {@code hive_telemetry} row has 5 cells
     * besides its key (sensor type, reading time, gateway id, value, unit; see
     * {@code cql/010-hive_telemetry.cql}), so a partition at the 100,000-cell limit that
     * {@code partitions plan} calls "over" holds 20,000 rows: the fallback is for partitions five
     * times over it. About 20 MB of {@link TelemetryRow}s (roughly 200 bytes each).
     */
    static final int MAX_BUFFERED_ROWS = 100_000;

    private final SeriesTable<R> table;
    private final SeriesTable.Slice slice;
    private final List<String> series;
    private final String description;
    private final Supplier<CompletionStage<AsyncResultSet>> firstPage;
    private final Function<String, PartitionCursor<R>> seriesCursor;
    private final Comparator<TimedRow> rowOrder;
    private final int maxBufferedRows;
    private CompletableFuture<AsyncResultSet> pending;
    private boolean loaded;
    private Iterator<R> buffered;
    private PriorityQueue<PartitionCursor<R>> merge;
    private PartitionCursor<R> current;
    private R head;

    /**
     * @param table           the table, not null
     * @param slice           the partition and the part of the range its series can hold, not null
     * @param series          the series the query asks for, at least one
     * @param description     the table, entity, partition and series, for error messages
     * @param firstPage       sends the query of the slice for every series (its pages in any order)
     * @param seriesCursor    for the fallback: a streaming cursor of the slice for one series, in the
     *                        read's order, not started
     * @param rowOrder        the read's order of rows
     * @param maxBufferedRows rows held at which a slice with more pages falls back, at least 1
     */
    MultiSeriesCursor(SeriesTable<R> table, SeriesTable.Slice slice, List<String> series, String description,
            Supplier<CompletionStage<AsyncResultSet>> firstPage, Function<String, PartitionCursor<R>> seriesCursor,
            Comparator<TimedRow> rowOrder, int maxBufferedRows) {
        if (maxBufferedRows < 1) {
            throw new IllegalArgumentException("maxBufferedRows must be at least 1, was " + maxBufferedRows);
        }
        this.table = table;
        this.slice = slice;
        this.series = List.copyOf(series);
        this.description = description;
        this.firstPage = firstPage;
        this.seriesCursor = seriesCursor;
        this.rowOrder = rowOrder;
        this.maxBufferedRows = maxBufferedRows;
    }

    @Override
    public SeriesTable.Slice slice() {
        return slice;
    }

    @Override
    public boolean started() {
        return pending != null || loaded;
    }

    @Override
    public void start(PartitionCursor.Requests requests) {
        if (!started()) {
            pending = requests.send(firstPage);
        }
    }

    @Override
    public boolean advance(PartitionCursor.Requests requests) {
        if (!loaded) {
            load(requests);
        }
        if (merge != null) {
            if (current != null && current.advance(requests)) {
                merge.add(current);
            }
            current = merge.poll();
            head = current == null ? null : current.head();
        } else {
            head = buffered.hasNext() ? buffered.next() : null;
        }
        return head != null;
    }

    @Override
    public R head() {
        return head;
    }

    /** @return whether the slice was too large to hold and is read series by series */
    boolean fellBack() {
        return merge != null;
    }

    private void load(PartitionCursor.Requests requests) {
        start(requests);
        loaded = true;
        List<R> rows = new ArrayList<>();
        while (true) {
            AsyncResultSet page = PartitionCursor.await(pending, description);
            pending = null;
            for (Row row : page.currentPage()) {
                rows.add(table.map(row));
            }
            if (!page.hasMorePages()) {
                break;
            }
            if (rows.size() >= maxBufferedRows) {
                fallBack(requests);
                return;
            }
            pending = requests.send(page::fetchNextPage);
        }
        rows.sort(rowOrder);
        buffered = rows.iterator();
    }

    private void fallBack(PartitionCursor.Requests requests) {
        merge = new PriorityQueue<>(series.size(), (a, b) -> rowOrder.compare(a.head(), b.head()));
        List<PartitionCursor<R>> cursors = series.stream().map(seriesCursor).toList();
        cursors.forEach(c -> c.start(requests));
        for (PartitionCursor<R> cursor : cursors) {
            if (cursor.advance(requests)) {
                merge.add(cursor);
            }
        }
    }
}
