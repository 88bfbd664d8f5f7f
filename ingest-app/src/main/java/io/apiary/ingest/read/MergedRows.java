package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The k-way merge of the cursors of a read, in time order (then series, then series id), lazily:
 * a cursor is opened only when the merge reaches the start of its slice, so partitions that are
 * disjoint in time (the {@code time} shard strategy) are read one after the other and a limited
 * read leaves later partitions unread; the first pages of the next cursors are requested ahead,
 * up to the bound on requests in flight.
 *
 * <p>Rows are taken from the cursors a group at a time: the rows of one time and series (one
 * instant of one sensor type: at most one row per sensor of that type, per table and shard
 * scheme), sorted by series id within the group. A cursor must return its rows in the read's order
 * of time and series; within a group any order will do (an {@code agent_alerts_v2} partition
 * returns an instant's alerts by alert id ascending in both time orders). In a group:
 * <ul>
 *   <li>rows equal in (time, series, series id), which a table written under two shard schemes
 *       can hold twice, are returned once;</li>
 *   <li>a row of a legacy table (its slice is {@link SeriesTable.Slice#legacy() legacy}) yields to
 *       the current table's rows as {@link SeriesTable.LegacyRule} says: to a current row equal in
 *       (time, series, series id), or to any current row of the group;</li>
 *   <li>only then are the rows up to a page token's position dropped, so a legacy row hidden by a
 *       row of the previous page stays hidden, and the rows the read did not ask for (read only to
 *       hide legacy rows).</li>
 * </ul>
 * Not thread-safe.
 *
 * @param <R> the row type
 */
public final class MergedRows<R extends TimedRow> implements Iterator<R>, AutoCloseable {

    /** A row of a group and whether it came from a legacy table. */
    private record Held<R>(R row, boolean legacy) {}

    private final ReadOrder order;
    private final Comparator<TimedRow> rowOrder;
    private final Comparator<Held<R>> groupOrder;
    private final SeriesTable.LegacyRule legacyRule;
    private final Predicate<? super R> wanted;
    private final Deque<SliceCursor<R>> waiting;
    private final CursorHeap<R> open;
    private final PartitionCursor.Requests requests;
    private final Semaphore inFlight;
    private final int prefetch;
    private final TimedRow after;
    private final int partitionsInRange;
    private final List<String> tables;
    private final Set<List<Object>> partitionsRead = new HashSet<>();
    private final Deque<R> ready = new ArrayDeque<>();
    private long startNanos = System.nanoTime();
    private long requestsSent;
    private long rows;
    private R next;
    private boolean done;
    private long endNanos;

    /**
     * @param cursors           the cursors, in any order
     * @param order             the order rows are returned in
     * @param maxInFlight       most requests in flight at once, at least 1
     * @param after             return only rows after this position in {@code order} (a page token's); null for all
     * @param partitionsInRange distinct partitions among the cursors, for the statistics
     * @param tables            the tables the cursors read, current first, for the statistics
     * @param legacyRule        when a row of a legacy table yields to the current table's, not null
     * @param wanted            which rows are returned, once the legacy rule is applied (a read that
     *                          is given rows of sensors it did not ask for, to hide legacy rows,
     *                          drops them here), not null
     */
    MergedRows(
            List<? extends SliceCursor<R>> cursors,
            ReadOrder order,
            int maxInFlight,
            TimedRow after,
            int partitionsInRange,
            List<String> tables,
            SeriesTable.LegacyRule legacyRule,
            Predicate<? super R> wanted) {
        this.order = order;
        this.rowOrder = rowOrder(order);
        this.groupOrder = Comparator.comparing((Held<R> h) -> h.row(), rowOrder).thenComparing(Held::legacy);
        this.legacyRule = Objects.requireNonNull(legacyRule, "legacyRule");
        this.wanted = Objects.requireNonNull(wanted, "wanted");
        Comparator<SliceCursor<R>> byStart = order == ReadOrder.ASC
                ? Comparator.comparingLong(c -> c.slice().fromMillis())
                : Comparator.comparingLong((SliceCursor<R> c) -> c.slice().toMillis())
                        .reversed();
        this.waiting = new ArrayDeque<>(cursors.stream().sorted(byStart).toList());
        this.open = new CursorHeap<>(rowOrder, cursors.size());
        this.inFlight = new Semaphore(maxInFlight);
        this.prefetch = maxInFlight;
        this.requests = this::send;
        this.after = after;
        this.partitionsInRange = partitionsInRange;
        this.tables = List.copyOf(tables);
    }

    /**
     * @param order the read's order, not null
     * @return how rows compare in that order: by time, then series, then series id; the exact
     *         reverse for {@link ReadOrder#DESC}
     */
    static Comparator<TimedRow> rowOrder(ReadOrder order) {
        Comparator<TimedRow> ascending = Comparator.comparing(TimedRow::time)
                .thenComparing(TimedRow::series)
                .thenComparing(TimedRow::seriesId);
        return order == ReadOrder.ASC ? ascending : ascending.reversed();
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            next = advance();
            if (next == null) {
                done = true;
                endNanos = System.nanoTime();
            }
        }
        return next != null;
    }

    @Override
    public R next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        R row = next;
        next = null;
        rows++;
        return row;
    }

    /**
     * Counts what the read did before its cursors (the probes of a sparse read) in {@link #stats}.
     *
     * @param requests   requests sent before
     * @param startNanos when the read started ({@link System#nanoTime}), at or before this merge was made
     */
    void countEarlierWork(long requests, long startNanos) {
        requestsSent += requests;
        this.startNanos = Math.min(this.startNanos, startNanos);
    }

    /** @return the read's cost so far */
    public ReadStats stats() {
        long end = done ? endNanos : System.nanoTime();
        return new ReadStats(
                partitionsInRange,
                partitionsRead.size(),
                requestsSent,
                rows,
                Duration.ofNanos(end - startNanos),
                tables);
    }

    /** Stops the read; requests in flight complete on their own and are ignored. */
    @Override
    public void close() {
        done = true;
        next = null;
        waiting.clear();
        open.clear();
        ready.clear();
        if (endNanos == 0) {
            endNanos = System.nanoTime();
        }
    }

    private R advance() {
        while (ready.isEmpty()) {
            SliceCursor<R> least = least();
            if (least == null) {
                return null;
            }
            R first = least.head();
            List<Held<R>> group = new ArrayList<>();
            do {
                group.add(new Held<>(least.head(), least.slice().legacy()));
                open.poll(requests);
                least = least();
            } while (least != null && sameGroup(least.head(), first));
            resolve(group);
        }
        return ready.poll();
    }

    /** The cursor with the least row, after opening every waiting cursor that may hold a row before it. */
    private SliceCursor<R> least() {
        while (!waiting.isEmpty()
                && (open.isEmpty()
                        || mayPrecede(waiting.peekFirst(), open.peek().head()))) {
            SliceCursor<R> cursor = waiting.pollFirst();
            partitionsRead.add(cursor.slice().partition());
            open.add(cursor, requests);
            prefetch();
        }
        return open.peek();
    }

    private static boolean sameGroup(TimedRow a, TimedRow b) {
        return a.time().equals(b.time()) && a.series().equals(b.series());
    }

    /** Puts a group's rows into {@code ready}: sorted, each row once, legacy rows that yield left out. */
    private void resolve(List<Held<R>> group) {
        group.sort(groupOrder);
        boolean anyCurrent = group.stream().anyMatch(h -> !h.legacy());
        R previous = null;
        for (Held<R> held : group) {
            R row = held.row();
            if (held.legacy() && anyCurrent && legacyRule == SeriesTable.LegacyRule.SAME_TIME_AND_SERIES) {
                continue;
            }
            // Equal rows are adjacent, the current table's first: a copy, or a row of two schemes.
            if (previous != null && rowOrder.compare(row, previous) == 0) {
                continue;
            }
            previous = row;
            if ((after == null || rowOrder.compare(row, after) > 0) && wanted.test(row)) {
                ready.add(row);
            }
        }
    }

    /** Whether a waiting cursor can hold a row that comes before (or with) {@code head}. */
    private boolean mayPrecede(SliceCursor<R> cursor, TimedRow head) {
        long time = head.time().toEpochMilli();
        return order == ReadOrder.ASC
                ? cursor.slice().fromMillis() <= time
                : cursor.slice().toMillis() - 1 >= time;
    }

    /** Requests the first pages of the next waiting cursors while requests in flight allow. */
    private void prefetch() {
        int ahead = 0;
        for (SliceCursor<R> cursor : waiting) {
            if (ahead++ >= prefetch) {
                return;
            }
            if (!cursor.started()) {
                if (!inFlight.tryAcquire()) {
                    return;
                }
                inFlight.release();
                partitionsRead.add(cursor.slice().partition());
                cursor.start(requests);
            }
        }
    }

    private CompletableFuture<AsyncResultSet> send(Supplier<CompletionStage<AsyncResultSet>> request) {
        inFlight.acquireUninterruptibly();
        requestsSent++;
        CompletableFuture<AsyncResultSet> answer;
        try {
            answer = request.get().toCompletableFuture();
        } catch (RuntimeException e) {
            inFlight.release();
            throw e;
        }
        answer.whenComplete((page, error) -> inFlight.release());
        return answer;
    }
}
