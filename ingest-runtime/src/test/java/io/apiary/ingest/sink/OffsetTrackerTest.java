package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetTrackerTest {

    private final TopicPartition p0 = new TopicPartition("rows", 0);
    private final OffsetTracker tracker = new OffsetTracker();

    @Test
    void should_commit_nothing_for_a_partition_never_polled() {
        assertThat(tracker.committable(p0)).isEmpty();
    }

    @Test
    void should_hold_the_commit_at_the_first_unacknowledged_offset_when_acks_come_out_of_order() {
        for (long o = 10; o < 15; o++) {
            tracker.register(p0, o);
        }

        tracker.acknowledge(p0, 12);
        tracker.acknowledge(p0, 11);
        tracker.acknowledge(p0, 11); // a repeated acknowledgement changes nothing
        assertThat(tracker.committable(p0)).hasValue(10);
        assertThat(tracker.pendingTotal()).as("not committable").isEqualTo(5);
        assertThat(tracker.unacknowledgedTotal()).as("held in memory").isEqualTo(3);
        assertThat(tracker.firstRegistered(p0)).isEqualTo(10L);

        tracker.acknowledge(p0, 10);
        assertThat(tracker.committable(p0)).hasValue(13);
        assertThat(tracker.pending(p0)).isEqualTo(2);
        assertThat(tracker.pendingTotal()).isEqualTo(2);

        tracker.acknowledge(p0, 14);
        assertThat(tracker.unacknowledgedTotal()).isEqualTo(1);
        tracker.acknowledge(p0, 13);
        assertThat(tracker.committable(p0)).hasValue(15);
        assertThat(tracker.pendingTotal()).isZero();
        assertThat(tracker.unacknowledgedTotal()).isZero();
    }

    @Test
    void should_commit_past_gaps_in_offsets_such_as_transaction_markers() {
        tracker.register(p0, 3);
        tracker.register(p0, 7);

        tracker.acknowledge(p0, 3);
        tracker.acknowledge(p0, 7);

        assertThat(tracker.committable(p0)).hasValue(8);
    }

    @Test
    void should_refuse_offsets_that_go_backwards() {
        tracker.register(p0, 5);

        assertThatThrownBy(() -> tracker.register(p0, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_ignore_acks_for_removed_partitions_and_forget_their_pending_rows() {
        tracker.register(p0, 1);
        tracker.register(p0, 2);

        tracker.remove(p0);
        tracker.acknowledge(p0, 1);

        assertThat(tracker.committable(p0)).isEmpty();
        assertThat(tracker.pendingTotal()).isZero();
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> workloads() {
        return io.apiary.ingest.testing.RandomCases.cases(r -> new Object[] {r.nextLong()});
    }

    /** Against a simple model: the committable offset is the smallest unacknowledged one, else next. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("workloads")
    void agrees_with_a_simple_model_under_random_gaps_and_acknowledgement_orders(String seed, long workload) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(workload);
        java.util.TreeSet<Long> unacked = new java.util.TreeSet<>();
        java.util.List<Long> registered = new java.util.ArrayList<>();
        long offset = r.nextInt(1_000);
        long next = -1;
        int steps = r.nextInt(3_000);
        for (int i = 0; i < steps; i++) {
            if (r.nextInt(3) > 0 || registered.isEmpty()) {
                offset += 1 + (r.nextInt(10) == 0 ? r.nextInt(5) : 0); // gaps, as transaction markers leave
                tracker.register(p0, offset);
                registered.add(offset);
                unacked.add(offset);
                next = offset + 1;
            } else {
                long ack = registered.get(r.nextInt(registered.size()));
                tracker.acknowledge(p0, ack);
                unacked.remove(ack);
            }
            long expected = unacked.isEmpty() ? next : unacked.first();
            assertThat(tracker.committable(p0)).hasValue(expected);
            assertThat(tracker.unacknowledgedTotal()).isEqualTo(unacked.size());
            long pending = registered.stream().filter(o -> o >= expected).count();
            if (i % 100 == 0) {
                assertThat(tracker.pendingTotal()).isEqualTo((int) pending);
            }
        }
        tracker.remove(p0);
        assertThat(tracker.pendingTotal()).isZero();
        assertThat(tracker.unacknowledgedTotal()).isZero();
    }
}
