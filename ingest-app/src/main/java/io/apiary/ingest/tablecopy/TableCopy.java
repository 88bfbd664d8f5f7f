package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.logging.RateLimitedLog;
import io.apiary.ingest.sink.BatchGrouper;
import io.apiary.ingest.sink.ConcurrencyLimit;
import io.apiary.ingest.sink.RetryBackoff;
import io.apiary.ingest.sink.RowRateLimiter;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.sink.WriteFailures;
import io.apiary.schema.HiveTelemetryRow;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@code ingest-app table copy}: copies this worker's share of a table's token ranges into a
 * table of another layout. Each range is read page by page in token order ({@link RangeReader},
 * up to {@code scanConcurrency} ranges at once); each row is mapped ({@link CopyMapping}) and
 * bound by the target's {@link SinkTable#bind(org.apache.avro.generic.IndexedRecord, long, int)} with its write time and remaining TTL; the rows
 * of a page are grouped by target partition into batches within the sink's caps
 * ({@link BatchGrouper}) and written by a {@link CopyWriter}. A range's position is saved
 * ({@link CopyProgress}) once every row before it is acknowledged ({@link RangeCursor}), so a rerun
 * with the same arguments resumes there. A row without any regular cell (no write time or TTL to
 * read) is written with the sink's own write time and the target's TTL, and counted. A legacy
 * reading the target holds under another sensor id, or as the pipeline's write, is skipped and
 * counted as superseded ({@link SupersededReadings}), as the read path hides it. With {@code freshWriteTimes}
 * ({@code --fresh-write-time}) every row with cells is written with the current time
 * ({@link FreshWriteTimes}) instead of the source's write time, so that it is newer than a delete
 * or write the target received before: rows without cells keep the sink's own write time.
 * Not thread-safe: {@link #run} drives it on the calling thread.
 *
 * @param <T> the target's row record type
 */
public final class TableCopy<T extends SpecificRecord> {

    /**
     * What a run did: rows and ranges counted, {@code seconds} of wall time, and
     * {@code rangesCopied}, the ranges of the share this run copied to their end (sorted; not those
     * done before it), and {@code rangesDoneEarlier}, those saved as done before this run (sorted).
     */
    public record Result(
            long rowsCopied,
            long rowsFailed,
            long rowsWithoutCells,
            long rowsSuperseded,
            int rangesDone,
            int ranges,
            int rangesDoneBefore,
            long retries,
            double seconds,
            List<TokenRange> rangesCopied,
            List<TokenRange> rangesDoneEarlier) {
        /** @return whether every range of the share is done and no row failed */
        public boolean complete() {
            return rowsFailed == 0 && rangesDone == ranges;
        }
    }

    private final class Job implements RangeReader.Listener {
        final RangeReader reader;
        final RangeCursor cursor;
        boolean saving;
        long savedToken;
        boolean savedDone;
        long nextSaveNanos;

        Job(TokenRange range, long position, long rows) {
            this.cursor = new RangeCursor(range, position, rows);
            this.reader = new RangeReader(
                    session,
                    select,
                    scan,
                    range,
                    position,
                    settings.pageRows(),
                    settings.readConsistency(),
                    routing,
                    loop,
                    backoff,
                    this);
            this.savedToken = position;
        }

        @Override
        public void page(RangeReader r, List<ScannedRow> rows, long position, boolean last) {
            RangeCursor.Page page = cursor.read(rows.size(), position, last);
            List<CopyWriter.CopyRow> bound = new ArrayList<>(rows.size());
            List<T> mapped = new ArrayList<>(rows.size()); // null where the row cannot be a target row
            for (ScannedRow row : rows) {
                try {
                    mapped.add(plan.mapping().map(row.values()));
                } catch (RuntimeException e) {
                    mapped.add(null);
                    failed(
                            page,
                            row,
                            e.getMessage().endsWith(" is null")
                                    ? e.getMessage() + ", and the target's rows require that column (the pipeline "
                                            + "never writes a row without it): write it or delete the row in the "
                                            + "source, then run the same command again"
                                    : e.getMessage());
                }
            }
            List<String> skip = superseded == null ? null : skipReasons(rows, mapped);
            for (int i = 0; i < rows.size(); i++) {
                ScannedRow row = rows.get(i);
                T target = mapped.get(i);
                if (target == null) {
                    continue;
                }
                if (skip != null && skip.get(i) != null) {
                    rowsSuperseded++;
                    cursor.written(page, 1);
                    continue;
                }
                try {
                    SinkTable.Write write = row.hasCells()
                            ? table.bind(
                                    target,
                                    freshWriteTimes == null ? row.writeTimeMicros() : freshWriteTimes.getAsLong(),
                                    row.ttlSeconds())
                            : table.bind(target);
                    if (!row.hasCells()) {
                        rowsWithoutCells++;
                    }
                    bound.add(new CopyWriter.CopyRow(write, target));
                } catch (RuntimeException e) {
                    failed(page, row, e.getMessage());
                }
            }
            CopyWriter.Outcome outcome = new CopyWriter.Outcome() {
                @Override
                public void written(int count) {
                    rowsCopied += count;
                    cursor.written(page, count);
                }

                @Override
                public void failed(CopyWriter.CopyRow row, Throwable error) {
                    rowsFailed++;
                    report("error: row " + RowText.key(table, row.row()) + " could not be written to " + plan.target()
                            + ": " + error.getMessage());
                    cursor.failed(page, 1);
                }
            };
            for (List<CopyWriter.CopyRow> batch : BatchGrouper.group(
                    bound,
                    b -> b.write().routingKey(),
                    b -> b.write().serverBytes(),
                    settings.batchMaxRows(),
                    batchMaxBytes)) {
                writer.submit(batch, outcome);
            }
        }

        private void failed(RangeCursor.Page page, ScannedRow row, String reason) {
            report("error: source row " + plan.mapping().source().keyText(row.values()) + " of " + plan.source()
                    + " was not copied: " + reason);
            rowsFailed++;
            cursor.failed(page, 1);
        }

        /**
         * Why the legacy-reading rule skips each row of a page, null where it does not
         * ({@link SupersededReadings#skipReason}; legacy source only), asked again with the sink's backoff while Cassandra cannot answer (without a limit,
         * as the range reads), at once failing on an error a retry cannot fix.
         *
         * @param rows   the page's rows
         * @param mapped each row in the target's layout (the same index), null where it cannot be one
         * @return a reason or null for each of {@code rows} (the same index)
         */
        private List<String> skipReasons(List<ScannedRow> rows, List<T> mapped) {
            List<HiveTelemetryRow> readings = new ArrayList<>(rows.size());
            List<Long> writeTimes = new ArrayList<>(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                if (mapped.get(i) != null) {
                    readings.add((HiveTelemetryRow) mapped.get(i));
                    writeTimes.add(rows.get(i).writeTimeMicros());
                }
            }
            for (int attempt = 1; ; attempt++) {
                try {
                    List<String> found = superseded.skipReasons(readings, writeTimes);
                    List<String> reasons = new ArrayList<>(rows.size());
                    int next = 0;
                    for (T row : mapped) {
                        reasons.add(row == null ? null : found.get(next++));
                    }
                    return reasons;
                } catch (RuntimeException e) {
                    Throwable cause = WriteFailures.unwrap(e);
                    if (!WriteFailures.retryable(e) || WriteFailures.statementError(e)) {
                        throw new IllegalStateException(
                                "reading the readings " + plan.target() + " already holds "
                                        + "failed, and a retry cannot help: " + cause.getMessage(),
                                e);
                    }
                    long delay = backoff.delayNanos(attempt, ThreadLocalRandom.current()::nextLong);
                    warn("reading the readings " + plan.target() + " already holds failed (" + cause.getMessage()
                            + "); retrying in " + TimeUnit.NANOSECONDS.toMillis(delay) + " ms");
                    try {
                        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(delay));
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", interrupted);
                    }
                }
            }
        }

        @Override
        public void failed(RangeReader r, Throwable error) {
            fatal = new IllegalStateException(
                    "reading " + plan.source() + " range " + r.range() + " failed: " + error.getMessage(), error);
        }

        @Override
        public void retrying(RangeReader r, Throwable error, long delayNanos) {
            warn("reading " + plan.source() + " failed (" + error + "); retrying in "
                    + TimeUnit.NANOSECONDS.toMillis(delayNanos) + " ms");
        }

        void step(long now) {
            if (!reader.fetching()
                    && !reader.finished()
                    && cursor.openPages() < 2
                    && writer.pendingRows() < settings.maxPendingRows()) {
                reader.next();
            }
            boolean behind = cursor.committedToken() != savedToken || cursor.done() != savedDone;
            if (!saving && behind && (now >= nextSaveNanos || cursor.settled())) {
                saving = true;
                long token = cursor.committedToken();
                long rows = cursor.committedRows();
                boolean done = cursor.done();
                progress.save(plan.copyId(), cursor.range(), token, rows, done)
                        .whenComplete((ok, error) -> loop.post(() -> saved(token, done, error)));
            }
        }

        private void saved(long token, boolean done, Throwable error) {
            saving = false;
            nextSaveNanos = loop.now() + TimeUnit.SECONDS.toNanos(1);
            if (error != null) {
                warn("saving the progress of range " + cursor.range() + " failed (" + error + "); retrying");
                return;
            }
            savedToken = token;
            savedDone = done;
        }

        boolean finished() {
            return cursor.settled() && !saving && savedToken == cursor.committedToken() && savedDone == cursor.done();
        }
    }

    private final CqlSession session;
    private final CopyPlan<T> plan;
    private final SinkTable<T> table;
    private final CopySettings settings;
    private final CopyProgress progress;
    private final PrintWriter err;
    private final EventLoop loop = new EventLoop();
    private final ScanQuery scan;
    private final PreparedStatement select;
    private final RangeReader.Routing routing;
    private final RetryBackoff backoff;
    private final CopyWriter writer;
    private final long batchMaxBytes;
    private long rowsCopied;
    private long rowsFailed;
    private long rowsWithoutCells;
    private long rowsSuperseded;
    private final SupersededReadings superseded;
    private long reported;
    private RuntimeException fatal;
    private final RateLimitedLog retryWarnings;
    private final FreshWriteTimes freshWriteTimes;

    /**
     * @param session       an open session
     * @param plan          what to copy
     * @param table         the target's binding
     * @param settings      how
     * @param batchMaxBytes the byte cap of a batch (the configured one or the server's threshold)
     * @param progress      where progress is kept (its table ensured)
     * @param routing       the source's keyspace and token map, or null
     * @param err           where progress lines and failed rows go
     * @param freshWriteTimes the write times of {@code --fresh-write-time}, or null to keep the source's
     */
    TableCopy(
            CqlSession session,
            CopyPlan<T> plan,
            SinkTable<T> table,
            CopySettings settings,
            long batchMaxBytes,
            CopyProgress progress,
            RangeReader.Routing routing,
            PrintWriter err,
            FreshWriteTimes freshWriteTimes) {
        this.session = session;
        this.freshWriteTimes = freshWriteTimes;
        this.plan = plan;
        this.table = table;
        this.settings = settings;
        this.batchMaxBytes = batchMaxBytes;
        this.progress = progress;
        this.routing = routing;
        this.err = err;
        this.retryWarnings = new RateLimitedLog(RateLimitedLog.to(err), 1, Duration.ofSeconds(10), null);
        this.scan = new ScanQuery(plan.source(), plan.mapping().source());
        this.superseded = SupersededReadings.appliesTo(plan)
                ? new SupersededReadings(session, plan.target(), settings.readConsistency())
                : null;
        this.select = session.prepare(scan.cql());
        this.backoff = new RetryBackoff(settings.retryBackoff(), settings.retryBackoffMax());
        this.writer = new CopyWriter(
                CopyWriter.Requests.of(session),
                loop,
                new ConcurrencyLimit(
                        ConcurrencyLimit.Algorithm.AIMD, settings.maxInFlight(), TimeUnit.MILLISECONDS.toNanos(200)),
                new RowRateLimiter(settings.maxRowsPerSecond(), System.nanoTime()),
                backoff,
                ThreadLocalRandom.current()::nextLong);
    }

    /**
     * Copies this worker's ranges that are not done yet.
     *
     * @param restart whether to forget this worker's saved progress first
     * @return what was done
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if a range cannot be read (after retries of what may pass)
     * @throws CopyRefused if saved progress says rows were copied but the target is empty (it was
     *         truncated or created again): resuming would skip them
     */
    public Result run(boolean restart) throws InterruptedException {
        List<TokenRange> share =
                TokenRanges.share(TokenRanges.split(settings.splits()), settings.workers(), settings.workerIndex());
        if (restart) {
            progress.delete(plan.copyId(), share);
        }
        Map<TokenRange, CopyProgress.Saved> saved = progress.load(plan.copyId());
        ArrayDeque<Job> waiting = new ArrayDeque<>();
        int doneBefore = 0;
        List<TokenRange> doneEarlier = new ArrayList<>();
        for (TokenRange range : share) {
            CopyProgress.Saved s = saved.get(range);
            if (s != null && (s.done() || s.lastToken() >= range.end())) {
                doneBefore++;
                doneEarlier.add(range);
            } else {
                waiting.add(new Job(range, s == null ? range.start() : s.lastToken(), s == null ? 0 : s.rows()));
            }
        }
        long rowsBefore = 0;
        for (CopyProgress.Saved s : saved.values()) {
            rowsBefore += s.rows();
        }
        if (rowsBefore > 0
                && session.execute(SimpleStatement.newInstance("SELECT * FROM " + plan.target() + " LIMIT 1")
                                        .setConsistencyLevel(settings.readConsistency()))
                                .one()
                        == null) {
            throw new CopyRefused(
                    "the saved progress of copy '" + plan.copyId() + "' says " + String.format("%,d", rowsBefore)
                            + " rows were copied, but " + plan.target() + " is empty (truncated, or dropped and "
                            + "created again?): run with --restart to copy every range again");
        }
        err.printf(
                "Copying %s into %s (copy id '%s'): worker %d of %d, %,d of the %,d ranges, %,d of them done before%s%n",
                plan.source(),
                plan.target(),
                plan.copyId(),
                settings.workerIndex(),
                settings.workers(),
                share.size(),
                settings.splits(),
                doneBefore,
                waiting.isEmpty() ? "" : String.format("; %,d to copy", waiting.size()));
        err.flush();
        long start = System.nanoTime();
        ProgressLine line = new ProgressLine(start, settings.progressInterval());
        List<Job> active = new ArrayList<>();
        List<TokenRange> copied = new ArrayList<>();
        int done = doneBefore;
        while ((!waiting.isEmpty() || !active.isEmpty()) && fatal == null) {
            while (active.size() < settings.scanConcurrency() && !waiting.isEmpty()) {
                active.add(waiting.poll());
            }
            long now = loop.now();
            for (Iterator<Job> it = active.iterator(); it.hasNext(); ) {
                Job job = it.next();
                job.step(now);
                if (job.finished()) {
                    it.remove();
                    if (job.cursor.done()) {
                        done++;
                        copied.add(job.cursor.range());
                    }
                }
            }
            writer.pump();
            line.maybePrint(err, now, rowsCopied, done, share.size(), rowsFailed, writer.retries());
            loop.turn(Math.min(TimeUnit.MILLISECONDS.toNanos(50), writer.nanosUntilSendable()));
        }
        if (fatal != null) {
            throw fatal;
        }
        return new Result(
                rowsCopied,
                rowsFailed,
                rowsWithoutCells,
                rowsSuperseded,
                done,
                share.size(),
                doneBefore,
                writer.retries(),
                (System.nanoTime() - start) / 1e9,
                copied.stream().sorted().toList(),
                doneEarlier.stream().sorted().toList());
    }

    private void report(String line) {
        reported++;
        if (reported <= settings.maxReported()) {
            err.println(line);
        } else if (reported == settings.maxReported() + 1) {
            err.println("error: more rows could not be copied; they are counted, not listed (--max-reported "
                    + settings.maxReported() + ")");
        }
    }

    private void warn(String line) {
        retryWarnings.warn("", System.nanoTime(), "{}", line);
    }
}
