package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The rows of one partition's time slice, streamed page by page in the read's order: one series
 * of a table (one sensor of {@code hive_telemetry_v2}, one sensor type of the legacy
 * {@code hive_telemetry}, an agent's or station's day, a hive's hours). The first page is requested
 * when the cursor is {@link #start started} (possibly ahead of need, so requests overlap), the next
 * ones when the previous page is used up. Holds one page. Not thread-safe: one merge owns it; the driver completes its
 * futures on its own threads.
 *
 * @param <R> the row type
 */
final class PartitionCursor<R extends TimedRow> implements SliceCursor<R> {

    /** Sends one request and returns its answer; the implementation bounds requests in flight. */
    interface Requests {
        /**
         * @param request sends the request: the first page or a further one
         * @return the page, completed by the driver
         */
        CompletableFuture<AsyncResultSet> send(Supplier<CompletionStage<AsyncResultSet>> request);
    }

    private final Function<Row, R> mapper;
    private final SeriesTable.Slice slice;
    private final String description;
    private final Supplier<CompletionStage<AsyncResultSet>> firstPage;
    private CompletableFuture<AsyncResultSet> pending;
    private AsyncResultSet page;
    private Iterator<Row> rows;
    private R head;

    /**
     * @param mapper      a row of the query as a record, not null
     * @param slice       the partition and the part of the range it can hold, not null
     * @param description the table, entity, partition and series, for error messages
     * @param firstPage   sends the query of the slice: its rows in the read's order
     */
    PartitionCursor(
            Function<Row, R> mapper,
            SeriesTable.Slice slice,
            String description,
            Supplier<CompletionStage<AsyncResultSet>> firstPage) {
        this.mapper = mapper;
        this.slice = slice;
        this.description = description;
        this.firstPage = firstPage;
    }

    @Override
    public SeriesTable.Slice slice() {
        return slice;
    }

    @Override
    public boolean started() {
        return pending != null || page != null;
    }

    @Override
    public void start(Requests requests) {
        if (!started()) {
            pending = requests.send(firstPage);
        }
    }

    @Override
    public boolean advance(Requests requests) {
        start(requests);
        while (true) {
            if (rows == null) {
                page = await(pending, description);
                pending = null;
                rows = page.currentPage().iterator();
            }
            if (rows.hasNext()) {
                head = mapper.apply(rows.next());
                return true;
            }
            if (!page.hasMorePages()) {
                head = null;
                return false;
            }
            AsyncResultSet current = page;
            pending = requests.send(current::fetchNextPage);
            rows = null;
        }
    }

    @Override
    public R head() {
        return head;
    }

    /**
     * Waits for a page.
     *
     * @param future      the page's request
     * @param description the table, entity, partition and series, for the error message
     * @return the page
     * @throws ReadException if the request failed or the thread was interrupted
     */
    static AsyncResultSet await(CompletableFuture<AsyncResultSet> future, String description) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReadException("Interrupted while reading " + description, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ReadException("Reading " + description + " failed: " + cause.getMessage(), cause);
        }
    }
}
