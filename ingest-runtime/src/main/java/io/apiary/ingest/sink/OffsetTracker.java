package io.apiary.ingest.sink;

import java.util.Arrays;
import java.util.HashMap;
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
 * acknowledgements may come in any order. Per partition the pending offsets sit in a growable
 * array of primitive longs with an acknowledged flag each (no boxing: about 9 bytes per pending
 * record); registering is amortized O(1), acknowledging O(1) where a partition's offsets have no gaps,
 * else O(log n) (binary search, offsets being increasing).
 * Not thread-safe: used by the sink's poll thread only.
 */
public final class OffsetTracker {

    /** The pending offsets of one partition: {@code offsets[head..tail)}, increasing. */
    private static final class PartitionState {
        long[] offsets = new long[64];
        boolean[] acked = new boolean[64];
        int head;
        int tail;
        int ackedCount;
        long next = -1;
        long first = -1;

        int size() {
            return tail - head;
        }

        void add(long offset) {
            if (tail == offsets.length) {
                int size = size();
                if (size * 2 > offsets.length) {
                    offsets = Arrays.copyOfRange(offsets, head, head + Math.max(64, size * 2));
                    acked = Arrays.copyOfRange(acked, head, head + offsets.length);
                } else {
                    System.arraycopy(offsets, head, offsets, 0, size);
                    System.arraycopy(acked, head, acked, 0, size);
                    Arrays.fill(acked, size, acked.length, false);
                }
                head = 0;
                tail = size;
            }
            offsets[tail] = offset;
            acked[tail] = false;
            tail++;
        }
    }

    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    private int pendingTotal;
    private int ackedOutOfOrderTotal;

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
            throw new IllegalArgumentException(
                    "offset " + offset + " of " + partition + " registered after " + (state.next - 1));
        }
        state.add(offset);
        if (state.first < 0) {
            state.first = offset;
        }
        state.next = offset + 1;
        pendingTotal++;
    }

    /**
     * Marks a record as acknowledged. Unknown partitions or offsets, and repeated
     * acknowledgements, are ignored (the partition may have been revoked since).
     *
     * @param partition its partition
     * @param offset    its offset
     */
    public void acknowledge(TopicPartition partition, long offset) {
        PartitionState state = partitions.get(partition);
        if (state == null || state.size() == 0) {
            return;
        }
        // offsets increase by at least 1, so the offset sits at most (offset - first pending) past the
        // head: exactly there when the partition's offsets have no gaps (the usual case), found at once
        long distance = offset - state.offsets[state.head];
        if (distance < 0) {
            return;
        }
        int end = (int) Math.min(state.tail, state.head + distance + 1);
        int at = state.offsets[end - 1] == offset
                ? end - 1
                : Arrays.binarySearch(state.offsets, state.head, end, offset);
        if (at < 0 || state.acked[at]) {
            return;
        }
        if (at != state.head) {
            state.acked[at] = true;
            state.ackedCount++;
            ackedOutOfOrderTotal++;
            return;
        }
        state.head++;
        pendingTotal--;
        while (state.head < state.tail && state.acked[state.head]) {
            state.acked[state.head] = false;
            state.head++;
            state.ackedCount--;
            pendingTotal--;
            ackedOutOfOrderTotal--;
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
        return OptionalLong.of(state.size() == 0 ? state.next : state.offsets[state.head]);
    }

    /**
     * @param partition a partition
     * @return records registered and not yet committable
     */
    public int pending(TopicPartition partition) {
        PartitionState state = partitions.get(partition);
        return state == null ? 0 : state.size();
    }

    /**
     * @return records registered and not yet committable, over all partitions: those not yet
     *         acknowledged plus those acknowledged behind an unacknowledged one
     */
    public int pendingTotal() {
        return pendingTotal;
    }

    /** @return records registered and not yet acknowledged, over all partitions */
    public int unacknowledgedTotal() {
        return pendingTotal - ackedOutOfOrderTotal;
    }

    /**
     * @param partition a partition
     * @return the first offset registered for it since it was assigned, or null if none
     */
    public Long firstRegistered(TopicPartition partition) {
        PartitionState state = partitions.get(partition);
        return state == null || state.first < 0 ? null : state.first;
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
            pendingTotal -= state.size();
            ackedOutOfOrderTotal -= state.ackedCount;
        }
    }
}
