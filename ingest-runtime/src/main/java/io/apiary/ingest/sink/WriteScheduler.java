package io.apiary.ingest.sink;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * The sink's write queues, in the order a write passes them:
 * <ol>
 *   <li><b>closed</b>: batches the {@link PartitionBatcher} released (full, lingered, or pushed
 *       out by memory pressure), still compact and unbound, oldest first by their first row's
 *       arrival (a batch that filled up late does not queue behind younger ones, nor does a
 *       lingering batch closed at shutdown); they are bound only when a request
 *       slot is about to take them, so that bound statements (several times a compact row's
 *       heap) exist only for rows about to be sent;</li>
 *   <li><b>ready</b>: bound groups, one request each, sent oldest first; a refused batch's
 *       single rows go to its front;</li>
 *   <li><b>in flight</b>: sent, awaiting Cassandra's answer;</li>
 *   <li><b>retries</b>: failed retryable groups, by the time their back-off ends; back to the
 *       front of ready when due.</li>
 * </ol>
 * Pure logic with the time passed in; not thread-safe (the sink's poll thread only).
 */
final class WriteScheduler {

    /** A closed batch in the queue, with its place in arrival order for ties. */
    private record Queued(PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch, long sequence) {}

    /** Oldest first, by when its first row arrived: a batch that filled up late keeps its age. */
    private final PriorityQueue<Queued> closed = new PriorityQueue<>(
            Comparator.comparingLong((Queued q) -> q.batch().openedNanos()).thenComparingLong(Queued::sequence));

    private long closedSequence;
    private final ArrayDeque<WriteGroup> ready = new ArrayDeque<>();
    private final PriorityQueue<WriteGroup> retries = new PriorityQueue<>(Comparator.comparingLong(g -> g.dueAtNanos));
    private final Set<WriteGroup> inFlight = Collections.newSetFromMap(new IdentityHashMap<>());
    private int closedRows;

    /** @param batches batches released by the batcher, oldest first; kept unbound */
    void addClosed(List<PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow>> batches) {
        for (PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch : batches) {
            closed.add(new Queued(batch, closedSequence++));
            closedRows += batch.rows().size();
        }
    }

    /** @return the closed batch whose first row arrived first, left in place, or null if none */
    PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> peekClosed() {
        Queued head = closed.peek();
        return head == null ? null : head.batch();
    }

    /** @return the closed batch whose first row arrived first, removed, or null if none */
    PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> takeClosed() {
        Queued head = closed.poll();
        PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch = head == null ? null : head.batch();
        if (batch != null) {
            closedRows -= batch.rows().size();
        }
        return batch;
    }

    /** @param groups bound groups, to be sent after those ready already */
    void addReady(Collection<WriteGroup> groups) {
        ready.addAll(groups);
    }

    /** @param groups bound groups to send before any other ready one, in their order */
    void addReadyFirst(List<WriteGroup> groups) {
        for (int i = groups.size() - 1; i >= 0; i--) {
            ready.addFirst(groups.get(i));
        }
    }

    /**
     * @param group    a group that failed and may succeed later, not in flight any more
     * @param dueNanos when to send it again
     */
    void retryAt(WriteGroup group, long dueNanos) {
        group.dueAtNanos = dueNanos;
        retries.add(group);
    }

    /**
     * Moves retries whose back-off has ended to the front of ready.
     *
     * @param nowNanos the current time
     */
    void promoteDue(long nowNanos) {
        List<WriteGroup> due = new java.util.ArrayList<>();
        while (!retries.isEmpty() && retries.peek().dueAtNanos <= nowNanos) {
            due.add(retries.poll());
        }
        // the earliest due goes first
        addReadyFirst(due);
    }

    /** @return the next ready group, not removed, or null if none is ready */
    WriteGroup peekReady() {
        return ready.peekFirst();
    }

    /**
     * Takes the next ready group and counts it in flight.
     *
     * @param nowNanos    the current time (its send time)
     * @return the group, or null if none is ready
     */
    WriteGroup send(long nowNanos) {
        WriteGroup group = ready.pollFirst();
        if (group != null) {
            group.startedNanos = nowNanos;
            inFlight.add(group);
            group.inFlightAtSend = inFlight.size();
        }
        return group;
    }

    /**
     * @param group a group Cassandra answered
     * @return true if it was in flight (false: already answered or forgotten)
     */
    boolean answered(WriteGroup group) {
        return inFlight.remove(group);
    }

    /** @return requests in flight */
    int inFlight() {
        return inFlight.size();
    }

    /** @return rows of closed, unbound batches */
    int closedRows() {
        return closedRows;
    }

    /** @return groups ready or waiting to retry, and closed batches */
    int queued() {
        return ready.size() + retries.size() + closed.size();
    }

    /** @return true if nothing is queued, waiting to retry or in flight */
    boolean idle() {
        return queued() == 0 && inFlight.isEmpty();
    }

    /** @return true if a group is ready or a closed batch waits to be bound */
    boolean hasWork() {
        return !ready.isEmpty() || !closed.isEmpty();
    }

    /**
     * @param nowNanos the current time
     * @return nanoseconds until the first retry is due (0 if one is due), or {@link Long#MAX_VALUE} if none waits
     */
    long nanosUntilRetry(long nowNanos) {
        return retries.isEmpty() ? Long.MAX_VALUE : Math.max(0, retries.peek().dueAtNanos - nowNanos);
    }

    /**
     * @param partitions Kafka partitions
     * @return true if a request of one of them is in flight and not abandoned
     */
    boolean inFlightOf(Collection<TopicPartition> partitions) {
        for (WriteGroup group : inFlight) {
            if (!group.abandoned && partitions.contains(group.partition)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Drops the queued writes (closed, ready, retries) of some partitions: they will be read again.
     *
     * @param partitions Kafka partitions
     * @return key and value bytes of the rows dropped
     */
    long dropQueued(Collection<TopicPartition> partitions) {
        long bytes = 0;
        Iterator<Queued> batches = closed.iterator();
        while (batches.hasNext()) {
            PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch =
                    batches.next().batch();
            if (partitions.contains(batch.key().partition())) {
                batches.remove();
                closedRows -= batch.rows().size();
                for (SinkRow row : batch.rows()) {
                    bytes += row.recordBytes(batch.key());
                }
            }
        }
        for (Collection<WriteGroup> queue : List.<Collection<WriteGroup>>of(ready, retries)) {
            Iterator<WriteGroup> groups = queue.iterator();
            while (groups.hasNext()) {
                WriteGroup group = groups.next();
                if (partitions.contains(group.partition)) {
                    groups.remove();
                    bytes += group.recordBytes;
                }
            }
        }
        return bytes;
    }

    /**
     * Marks the in-flight writes of some partitions abandoned: their answers are ignored (the
     * rows are read again by the partitions' next owner).
     *
     * @param partitions Kafka partitions
     * @return key and value bytes of their rows
     */
    long abandonInFlight(Collection<TopicPartition> partitions) {
        long bytes = 0;
        for (WriteGroup group : inFlight) {
            if (!group.abandoned && partitions.contains(group.partition)) {
                group.abandoned = true;
                bytes += group.recordBytes;
            }
        }
        return bytes;
    }
}
