package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The rows of several series of one partition, read with one query
 * ({@code sensor_type IN ?}) instead of one per series. Cassandra returns such a query's rows in
 * clustering order, series by series, so the cursor reads the whole answer (all its pages), keeps
 * the rows the read asked for ({@code keep}: in {@code hive_telemetry_v2}, whose query cannot slice
 * the time, the rows within the slice's part of the range and of the sensors asked for), then sorts
 * them into the read's order.
 *
 * <p>Memory is bounded: once {@code maxBufferedRows} rows have been fetched and Cassandra has more
 * pages, what was read is dropped and the slice is read again as one streamed time slice per series
 * ({@code fallback}: for {@code hive_telemetry_v2} after asking the partition which sensors it has),
 * merged here with the {@link CursorHeap} that {@link MergedRows} uses. The requests already made
 * are then wasted, but no row is held twice and none is missed. At most {@code maxBufferedRows}
 * plus one page of rows are held while loading; the fallback's cursors hold one page each, sized
 * by the caller to keep their sum within {@code maxBufferedRows}.
 * Not thread-safe: one merge owns it; the driver completes its futures on its own threads.
 *
 * @param <R> the row type
 */
final class BufferedPartitionCursor<R extends TimedRow> implements SliceCursor<R> {

    /**
     * Rows fetched for one slice of an unlimited read before it falls back: 100,000 (a limited read
     * holds less; see {@link HiveDataReader#page}). A {@code hive_telemetry_v2} row has 3 cells
     * (gateway id, value, unit: the columns outside its primary key; see the partition-size math of
     * {@code cql/010-hive_telemetry_v2.cql}), so a partition at the 100,000-cell limit that
     * {@code partitions plan} calls "over" holds about 33,000 rows: the fallback is for partitions
     * three times over it. About 20 MB of {@link TelemetryRow}s (roughly 200 bytes each).
     */
    static final int MAX_BUFFERED_ROWS = 100_000;

    /** The streamed cursors that read a slice too large to hold, one per series. */
    interface Fallback<R extends TimedRow> {
        /**
         * @param requests where any request needed to find the series goes
         * @return one cursor per series the read asked for, in the read's order, not started
         * @throws ReadException if Cassandra did not answer
         */
        List<? extends SliceCursor<R>> cursors(PartitionCursor.Requests requests);
    }

    private final SeriesTable.Slice slice;
    private final String description;
    private final Supplier<CompletionStage<AsyncResultSet>> firstPage;
    private final Function<Row, R> mapper;
    private final Predicate<? super R> keep;
    private final Fallback<R> fallback;
    private final Comparator<TimedRow> rowOrder;
    private final int maxBufferedRows;
    private CompletableFuture<AsyncResultSet> pending;
    private boolean loaded;
    private Iterator<R> buffered;
    private CursorHeap<R> merge;
    private R head;

    /**
     * @param slice           the partition and the part of the range its series can hold, not null
     * @param description     the table, entity, partition and series, for error messages
     * @param firstPage       sends the query of the partition for every series (its rows in any order)
     * @param mapper          a row of that query as a record, not null
     * @param keep            which rows of the answer the read returns, not null
     * @param fallback        for a slice too large to hold: streamed cursors of its series, not null
     * @param rowOrder        the read's order of rows
     * @param maxBufferedRows rows fetched at which a slice with more pages falls back, at least 1
     */
    BufferedPartitionCursor(
            SeriesTable.Slice slice,
            String description,
            Supplier<CompletionStage<AsyncResultSet>> firstPage,
            Function<Row, R> mapper,
            Predicate<? super R> keep,
            Fallback<R> fallback,
            Comparator<TimedRow> rowOrder,
            int maxBufferedRows) {
        if (maxBufferedRows < 1) {
            throw new IllegalArgumentException("maxBufferedRows must be at least 1, was " + maxBufferedRows);
        }
        this.slice = slice;
        this.description = description;
        this.firstPage = firstPage;
        this.mapper = mapper;
        this.keep = keep;
        this.fallback = fallback;
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
            head = merge.poll(requests);
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
        long fetched = 0;
        while (true) {
            AsyncResultSet page = PartitionCursor.await(pending, description);
            pending = null;
            for (Row row : page.currentPage()) {
                fetched++;
                R record = mapper.apply(row);
                if (keep.test(record)) {
                    rows.add(record);
                }
            }
            if (!page.hasMorePages()) {
                break;
            }
            if (fetched >= maxBufferedRows) {
                rows = null;
                fallBack(requests);
                return;
            }
            pending = requests.send(page::fetchNextPage);
        }
        rows.sort(rowOrder);
        buffered = rows.iterator();
    }

    private void fallBack(PartitionCursor.Requests requests) {
        List<? extends SliceCursor<R>> cursors = fallback.cursors(requests);
        merge = new CursorHeap<>(rowOrder, cursors.size());
        cursors.forEach(c -> c.start(requests));
        cursors.forEach(c -> merge.add(c, requests));
    }
}
