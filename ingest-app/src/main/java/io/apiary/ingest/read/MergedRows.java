package io.apiary.ingest.read;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;

/**
 * The k-way merge of the cursors of a read, in time order (then series), lazily: a cursor is
 * opened only when the merge reaches the start of its slice, so partitions that are disjoint in
 * time (the {@code time} shard strategy) are read one after the other and a limited read leaves
 * later partitions unread; the first pages of the next cursors are requested ahead, up to the
 * bound on requests in flight. Rows equal in (time, series) to the row before, which a table
 * written under two shard schemes can hold twice, are returned once. Not thread-safe.
 *
 * @param <R> the row type
 */
public final class MergedRows<R extends TimedRow> implements Iterator<R>, AutoCloseable {

    private final ReadOrder order;
    private final Comparator<TimedRow> rowOrder;
    private final Deque<SliceCursor<R>> waiting;
    private final PriorityQueue<SliceCursor<R>> open;
    private final PartitionCursor.Requests requests;
    private final Semaphore inFlight;
    private final int prefetch;
    private final TimedRow after;
    private final int partitionsInRange;
    private final Set<List<Object>> partitionsRead = new HashSet<>();
    private final long startNanos = System.nanoTime();
    private long requestsSent;
    private long rows;
    private R next;
    private TimedRow last;
    private boolean done;
    private long endNanos;

    /**
     * @param cursors           the cursors, in any order
     * @param order             the order rows are returned in
     * @param maxInFlight       most requests in flight at once, at least 1
     * @param after             return only rows after this position in {@code order} (a page token's); null for all
     * @param partitionsInRange distinct partitions among the cursors, for the statistics
     */
    MergedRows(List<? extends SliceCursor<R>> cursors, ReadOrder order, int maxInFlight, TimedRow after,
            int partitionsInRange) {
        this.order = order;
        this.rowOrder = rowOrder(order);
        Comparator<SliceCursor<R>> byStart = order == ReadOrder.ASC
                ? Comparator.comparingLong(c -> c.slice().fromMillis())
                : Comparator.comparingLong((SliceCursor<R> c) -> c.slice().toMillis()).reversed();
        this.waiting = new ArrayDeque<>(cursors.stream().sorted(byStart).toList());
        this.open = new PriorityQueue<>(Math.max(1, cursors.size()), (a, b) -> rowOrder.compare(a.head(), b.head()));
        this.inFlight = new Semaphore(maxInFlight);
        this.prefetch = maxInFlight;
        this.requests = this::send;
        this.after = after;
        this.partitionsInRange = partitionsInRange;
    }

    /**
     * @param order the read's order, not null
     * @return how rows compare in that order: by time, then series; reversed for {@link ReadOrder#DESC}
     */
    static Comparator<TimedRow> rowOrder(ReadOrder order) {
        Comparator<TimedRow> ascending = Comparator.comparing(TimedRow::time).thenComparing(TimedRow::series);
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

    /** @return the read's cost so far */
    public ReadStats stats() {
        long end = done ? endNanos : System.nanoTime();
        return new ReadStats(partitionsInRange, partitionsRead.size(), requestsSent, rows,
                Duration.ofNanos(end - startNanos));
    }

    /** Stops the read; requests in flight complete on their own and are ignored. */
    @Override
    public void close() {
        done = true;
        next = null;
        waiting.clear();
        open.clear();
        if (endNanos == 0) {
            endNanos = System.nanoTime();
        }
    }

    private R advance() {
        while (true) {
            while (!waiting.isEmpty() && (open.isEmpty() || mayPrecede(waiting.peekFirst(), open.peek().head()))) {
                SliceCursor<R> cursor = waiting.pollFirst();
                partitionsRead.add(cursor.slice().keys());
                if (cursor.advance(requests)) {
                    open.add(cursor);
                }
                prefetch();
            }
            SliceCursor<R> smallest = open.poll();
            if (smallest == null) {
                return null;
            }
            R row = smallest.head();
            if (smallest.advance(requests)) {
                open.add(smallest);
            }
            boolean beforeOrAtResume = after != null && rowOrder.compare(row, after) <= 0;
            boolean duplicate = last != null && rowOrder.compare(row, last) == 0;
            if (!beforeOrAtResume && !duplicate) {
                last = row;
                return row;
            }
        }
    }

    /** Whether a waiting cursor can hold a row that comes before (or with) {@code head}. */
    private boolean mayPrecede(SliceCursor<R> cursor, TimedRow head) {
        long time = head.time().toEpochMilli();
        return order == ReadOrder.ASC ? cursor.slice().fromMillis() <= time : cursor.slice().toMillis() - 1 >= time;
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
                partitionsRead.add(cursor.slice().keys());
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
