package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.apiary.ingest.logging.RateLimitedLog;
import io.apiary.ingest.sink.RetryBackoff;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Reads every row of some token ranges of a table, {@code scanConcurrency} ranges at once, and
 * hands each row to a consumer on the calling thread: the reading side of {@code table verify}.
 * Not thread-safe: one scan at a time, from one thread.
 */
final class RangeScans {

    private final CqlSession session;
    private final CopySettings settings;
    private final RetryBackoff backoff;
    private final PrintWriter err;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();
    private final RateLimitedLog retryWarnings;

    /**
     * @param session  an open session
     * @param settings scan concurrency, page size, consistency, retry backoff
     * @param err      where retried failures are reported (at most one line per 10 s)
     */
    RangeScans(CqlSession session, CopySettings settings, PrintWriter err) {
        this.session = session;
        this.settings = settings;
        this.backoff = new RetryBackoff(settings.retryBackoff(), settings.retryBackoffMax());
        this.err = err;
        this.retryWarnings = new RateLimitedLog(RateLimitedLog.to(err), 1, Duration.ofSeconds(10), null);
    }

    /**
     * @param query   what to read
     * @param routing the table's keyspace and token map, or null
     * @param ranges  the ranges, disjoint
     * @param rows    receives every row once
     * @return rows read
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if a range cannot be read (after retries of what may pass)
     */
    long scan(ScanQuery query, RangeReader.Routing routing, List<TokenRange> ranges, Consumer<ScannedRow> rows)
            throws InterruptedException {
        PreparedStatement select = prepared.computeIfAbsent(query.cql(), session::prepare);
        EventLoop loop = new EventLoop();
        long[] count = {0};
        RuntimeException[] fatal = {null};
        RangeReader.Listener listener = new RangeReader.Listener() {
            @Override
            public void page(RangeReader reader, List<ScannedRow> page, long position, boolean last) {
                page.forEach(rows);
                count[0] += page.size();
                if (!last) {
                    reader.next();
                }
            }

            @Override
            public void failed(RangeReader reader, Throwable error) {
                fatal[0] = new IllegalStateException(
                        "reading " + query.table() + " range " + reader.range() + " failed: " + error.getMessage(),
                        error);
            }

            @Override
            public void retrying(RangeReader reader, Throwable error, long delayNanos) {
                retryWarnings.warn(
                        "", System.nanoTime(), "reading {} failed ({}); retrying", query.table(), error.toString());
            }
        };
        ArrayDeque<TokenRange> waiting = new ArrayDeque<>(ranges);
        List<RangeReader> active = new ArrayList<>();
        while ((!waiting.isEmpty() || !active.isEmpty()) && fatal[0] == null) {
            while (active.size() < settings.scanConcurrency() && !waiting.isEmpty()) {
                TokenRange range = waiting.poll();
                RangeReader reader = new RangeReader(
                        session,
                        select,
                        query,
                        range,
                        range.start(),
                        settings.pageRows(),
                        settings.readConsistency(),
                        routing,
                        loop,
                        backoff,
                        listener);
                active.add(reader);
                reader.next();
            }
            active.removeIf(RangeReader::finished);
            loop.turn(TimeUnit.MILLISECONDS.toNanos(100));
        }
        if (fatal[0] != null) {
            throw fatal[0];
        }
        return count[0];
    }
}
