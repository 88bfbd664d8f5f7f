package io.apiary.ingest.sink;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;

/**
 * Which offset each partition may commit: the highest offset at or below which every polled
 * record has been acknowledged (written to Cassandra, or dead-lettered). Kafka's committed
 * offset is the next one to read, so {@link #committable} returns the first offset still
 * pending, or one past the last polled record when none is pending.
 *
 * <p>Offsets must be registered in increasing order per partition (the consumer's order);
 * acknowledgements may come in any order. Amortized O(1) per record.
 * Not thread-safe: used by the sink's poll thread only.
 */
public final class OffsetTracker {

    private static final class PartitionState {
        final ArrayDeque<Long> pending = new ArrayDeque<>();
        final Set<Long> ackedOutOfOrder = new HashSet<>();
        long next = -1;
    }

    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    private int pendingTotal;

    /**
     * Registers a polled record as pending.
     *
     * @param partition its partition
     * @param offset    its offset, greater than every offset registered before for the partition
     * @throws IllegalArgumentException if offsets go backwards
     */
    public void register(TopicPartition partition, long offset) {
        PartitionState state = partitions.computeIfAbsent(partition, p -> new PartitionState());
        if (offset < state.next) {
            throw new IllegalArgumentException("offset " + offset + " of " + partition
                    + " registered after " + (state.next - 1));
        }
        state.pending.addLast(offset);
        state.next = offset + 1;
        pendingTotal++;
    }

    /**
     * Marks a record as acknowledged. Unknown partitions or offsets are ignored (the partition
     * may have been revoked since).
     *
     * @param partition its partition
     * @param offset    its offset
     */
    public void acknowledge(TopicPartition partition, long offset) {
        PartitionState state = partitions.get(partition);
        if (state == null || state.pending.isEmpty()) {
            return;
        }
        if (offset < state.pending.peekFirst() || offset >= state.next) {
            return;
        }
        if (state.pending.peekFirst() == offset) {
            state.pending.pollFirst();
            pendingTotal--;
            while (!state.pending.isEmpty() && state.ackedOutOfOrder.remove(state.pending.peekFirst())) {
                state.pending.pollFirst();
                pendingTotal--;
            }
        } else {
            state.ackedOutOfOrder.add(offset);
        }
    }

    /**
     * The offset to commit for a partition.
     *
     * @param partition the partition
     * @return the first pending offset, or one past the last registered offset when nothing is
     *         pending; empty if nothing was ever registered for the partition
     */
    public OptionalLong committable(TopicPartition partition) {
        PartitionState state = partitions.get(partition);
        if (state == null) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(state.pending.isEmpty() ? state.next : state.pending.peekFirst());
    }

    /**
     * @param partition a partition
     * @return records registered and not yet acknowledged
     */
    public int pending(TopicPartition partition) {
        PartitionState state = partitions.get(partition);
        return state == null ? 0 : state.pending.size();
    }

    /** @return records registered and not yet acknowledged, over all partitions */
    public int pendingTotal() {
        return pendingTotal;
    }

    /** @return the partitions with state */
    public Set<TopicPartition> partitions() {
        return Set.copyOf(partitions.keySet());
    }

    /**
     * Forgets a partition (after it was revoked or lost).
     *
     * @param partition the partition
     */
    public void remove(TopicPartition partition) {
        PartitionState state = partitions.remove(partition);
        if (state != null) {
            pendingTotal -= state.pending.size();
        }
    }
}
