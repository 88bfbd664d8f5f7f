package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.apiary.ingest.sink.RetryBackoff;
import io.apiary.ingest.sink.WriteFailures;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Reads one token range of a table page by page, in token order, on a {@link EventLoop}: the
 * range is cut at the cluster's token boundaries ({@link TokenRanges#cut}) and each piece is one
 * query routed to a replica of its tokens. Each page goes to the listener with the position it
 * reached: the greatest token before which every row of the range has been delivered (the last
 * row's token minus one while a partition may continue on the next page; a piece's end once it is
 * read out). A failed request that may succeed later ({@link WriteFailures#retryable}: timeouts,
 * unavailable replicas) is sent again with backoff from that position, skipping the rows of the
 * last partition already delivered, so every row is delivered once. Not thread-safe: the loop's.
 */
final class RangeReader {

    /** What the reader delivers. */
    interface Listener {
        /**
         * @param reader   the reader
         * @param rows     the page's rows, in token order
         * @param position every row at or before this token is delivered
         * @param last     whether the range is read out (then {@code position} is its end)
         */
        void page(RangeReader reader, List<ScannedRow> rows, long position, boolean last);

        /**
         * @param reader the reader
         * @param error  a failure a retry cannot fix; the reader stops
         */
        void failed(RangeReader reader, Throwable error);

        /**
         * @param reader the reader
         * @param error  a failure it retries after {@code delayNanos}
         * @param delayNanos the wait before the retry
         */
        default void retrying(RangeReader reader, Throwable error, long delayNanos) {}
    }

    /** Where a table's queries go: its keyspace and the cluster's token map (to cut and route). */
    record Routing(CqlIdentifier keyspace, TokenMap tokenMap, Collection<Long> boundaries) {}

    private final CqlSession session;
    private final PreparedStatement select;
    private final ScanQuery query;
    private final TokenRange range;
    private final List<TokenRange> pieces;
    private final int pageRows;
    private final ConsistencyLevel consistency;
    private final Routing routing;
    private final EventLoop loop;
    private final RetryBackoff backoff;
    private final Listener listener;

    private int piece;
    private long position;
    private AsyncResultSet current;
    private boolean fetching;
    private boolean finished;
    private int attempts;
    private long lastToken;
    private int rowsAtLastToken;
    private int skip;

    /**
     * @param session     an open session
     * @param select      {@link ScanQuery#cql()} prepared
     * @param query       the query's description
     * @param range       the range to read
     * @param after       the token after which to start ({@code range.start()} for all of it)
     * @param pageRows    rows per page
     * @param consistency the read consistency level
     * @param routing     the keyspace and token map, or null to leave routing to the driver
     * @param loop        the loop that runs callbacks
     * @param backoff     waits between retries
     * @param listener    receives the pages
     */
    RangeReader(
            CqlSession session,
            PreparedStatement select,
            ScanQuery query,
            TokenRange range,
            long after,
            int pageRows,
            ConsistencyLevel consistency,
            Routing routing,
            EventLoop loop,
            RetryBackoff backoff,
            Listener listener) {
        this.session = session;
        this.select = select;
        this.query = query;
        this.range = range;
        this.pieces =
                TokenRanges.cut(new TokenRange(after, range.end()), routing == null ? List.of() : routing.boundaries());
        this.pageRows = pageRows;
        this.consistency = consistency;
        this.routing = routing;
        this.loop = loop;
        this.backoff = backoff;
        this.listener = listener;
        this.position = after;
        this.lastToken = after;
    }

    /** @return the range read */
    TokenRange range() {
        return range;
    }

    /** @return whether a page is being fetched */
    boolean fetching() {
        return fetching;
    }

    /** @return whether the last page has been delivered, or the reader failed */
    boolean finished() {
        return finished;
    }

    /**
     * Fetches the next page; it is delivered to the listener on the loop.
     *
     * @throws IllegalStateException if a page is being fetched or the range is read out
     */
    void next() {
        if (fetching || finished) {
            throw new IllegalStateException("next() while " + (fetching ? "fetching" : "finished"));
        }
        fetching = true;
        CompletionStage<AsyncResultSet> stage;
        if (current != null && current.hasMorePages()) {
            stage = current.fetchNextPage();
        } else {
            TokenRange target = pieces.get(piece);
            long from = Math.max(position, target.start());
            BoundStatement statement = select.bind(from, target.end())
                    .setPageSize(pageRows)
                    .setConsistencyLevel(consistency)
                    .setIdempotent(true);
            if (routing != null && routing.tokenMap() != null) {
                statement = statement
                        .setRoutingKeyspace(routing.keyspace())
                        .setRoutingToken(routing.tokenMap().parse(Long.toString(target.end())));
            }
            stage = session.executeAsync(statement);
        }
        stage.whenComplete((result, error) -> loop.post(() -> arrived(result, error)));
    }

    private void arrived(AsyncResultSet result, Throwable error) {
        fetching = false;
        if (error != null) {
            if (!WriteFailures.retryable(error) || WriteFailures.statementError(error)) {
                finished = true;
                listener.failed(this, WriteFailures.unwrap(error));
                return;
            }
            attempts++;
            current = null;
            // the rows of the last partition delivered come again: skip as many
            skip = lastToken > position ? rowsAtLastToken : 0;
            long delay = backoff.delayNanos(attempts, ThreadLocalRandom.current()::nextLong);
            listener.retrying(this, WriteFailures.unwrap(error), delay);
            fetching = true;
            loop.schedule(delay, () -> {
                fetching = false;
                next();
            });
            return;
        }
        attempts = 0;
        current = result;
        List<ScannedRow> rows = new ArrayList<>(result.remaining());
        for (Row row : result.currentPage()) {
            ScannedRow scanned = query.read(row);
            if (skip > 0 && scanned.token() == lastToken) {
                skip--;
                continue;
            }
            skip = 0;
            if (scanned.token() == lastToken) {
                rowsAtLastToken++;
            } else {
                lastToken = scanned.token();
                rowsAtLastToken = 1;
            }
            rows.add(scanned);
        }
        boolean last = false;
        if (!result.hasMorePages()) {
            position = pieces.get(piece).end();
            current = null;
            piece++;
            last = piece == pieces.size();
            finished = last;
        } else if (!rows.isEmpty()) {
            position = Math.max(position, lastToken - 1);
        }
        listener.page(this, rows, position, last);
    }
}
