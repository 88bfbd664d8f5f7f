package io.apiary.ingest.read;

import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The k-way merge step shared by {@link MergedRows} (the partitions of a read) and
 * {@link BufferedPartitionCursor} (the sensors of one partition read one by one): the cursors
 * that have a row, ordered by their current row, so the least row of all is at the top. Each
 * cursor's rows must come in the heap's order (rows equal in time and series may come in any
 * order among themselves; see {@link MergedRows}). Holds one row per cursor. Not thread-safe.
 *
 * @param <R> the row type
 */
final class CursorHeap<R extends TimedRow> {

    private final PriorityQueue<SliceCursor<R>> heap;

    /**
     * @param rowOrder        the read's order of rows, not null
     * @param initialCapacity cursors expected, at least 1
     */
    CursorHeap(Comparator<TimedRow> rowOrder, int initialCapacity) {
        this.heap = new PriorityQueue<>(Math.max(1, initialCapacity), (a, b) -> rowOrder.compare(a.head(), b.head()));
    }

    /**
     * Moves a cursor to its first row and holds it, unless it has none.
     *
     * @param cursor   a cursor not in the heap, not null
     * @param requests where its requests go
     * @throws ReadException if Cassandra did not answer
     */
    void add(SliceCursor<R> cursor, PartitionCursor.Requests requests) {
        if (cursor.advance(requests)) {
            heap.add(cursor);
        }
    }

    /** @return the cursor whose current row is the least, or null when no cursor has a row left */
    SliceCursor<R> peek() {
        return heap.peek();
    }

    /**
     * Takes the least row and moves its cursor on.
     *
     * @param requests where further requests go
     * @return the least row, or null when no cursor has a row left
     * @throws ReadException if Cassandra did not answer
     */
    R poll(PartitionCursor.Requests requests) {
        SliceCursor<R> least = heap.poll();
        if (least == null) {
            return null;
        }
        R row = least.head();
        add(least, requests);
        return row;
    }

    /** @return whether no cursor has a row left */
    boolean isEmpty() {
        return heap.isEmpty();
    }

    /** Drops every cursor. */
    void clear() {
        heap.clear();
    }
}
