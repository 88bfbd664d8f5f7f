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
        assertThat(tracker.committable(p0)).hasValue(10);

        tracker.acknowledge(p0, 10);
        assertThat(tracker.committable(p0)).hasValue(13);
        assertThat(tracker.pending(p0)).isEqualTo(2);
        assertThat(tracker.pendingTotal()).isEqualTo(2);

        tracker.acknowledge(p0, 14);
        tracker.acknowledge(p0, 13);
        assertThat(tracker.committable(p0)).hasValue(15);
        assertThat(tracker.pendingTotal()).isZero();
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
}
