package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The sink's write queues, with the time passed in. */
class WriteSchedulerTest {

    private static final TopicPartition P0 = new TopicPartition("rows", 0);
    private static final TopicPartition P1 = new TopicPartition("rows", 1);
    private final SinkLoopTest.ScriptedTable table = new SinkLoopTest.ScriptedTable();

    @Test
    void due_retries_go_before_ready_groups_and_in_flight_counts_what_was_sent() {
        WriteScheduler scheduler = new WriteScheduler();
        WriteGroup first = group(P0, "a|1|x");
        WriteGroup second = group(P0, "a|2|x");
        WriteGroup retried = group(P1, "b|1|x");
        scheduler.addReady(List.of(first, second));
        scheduler.retryAt(retried, 100);

        scheduler.promoteDue(99);
        assertThat(scheduler.peekReady()).isSameAs(first);
        assertThat(scheduler.nanosUntilRetry(99)).isEqualTo(1);
        scheduler.promoteDue(100);
        assertThat(scheduler.send(100)).isSameAs(retried);
        assertThat(retried.startedNanos).isEqualTo(100);
        assertThat(retried.inFlightAtSend).isEqualTo(1);
        assertThat(scheduler.send(101)).isSameAs(first);
        assertThat(scheduler.inFlight()).isEqualTo(2);
        assertThat(scheduler.answered(first)).isTrue();
        assertThat(scheduler.answered(first)).as("an answer counts once").isFalse();
        assertThat(scheduler.inFlight()).isEqualTo(1);
        assertThat(scheduler.nanosUntilRetry(0)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void retries_due_together_go_out_earliest_due_first() {
        WriteScheduler scheduler = new WriteScheduler();
        WriteGroup late = group(P0, "a|1|x");
        WriteGroup early = group(P0, "a|2|x");
        scheduler.retryAt(late, 20);
        scheduler.retryAt(early, 10);
        scheduler.promoteDue(30);
        assertThat(scheduler.send(30)).isSameAs(early);
        assertThat(scheduler.send(30)).isSameAs(late);
    }

    @Test
    void dropping_a_partition_removes_its_closed_ready_and_retrying_writes_and_counts_their_bytes() {
        WriteScheduler scheduler = new WriteScheduler();
        SinkRow.GroupKey key = SinkRow.GroupKey.of(table, P0, "a".getBytes(StandardCharsets.UTF_8));
        scheduler.addClosed(
                List.of(new PartitionBatcher.Batch<>(key, List.of(row(0, "a|1|x"), row(1, "a|2|x")), 10, 0)));
        WriteGroup ready = group(P0, "a|3|x");
        WriteGroup retrying = group(P0, "a|4|x");
        WriteGroup other = group(P1, "b|1|x");
        scheduler.addReady(List.of(ready, other));
        scheduler.retryAt(retrying, 5);
        assertThat(scheduler.closedRows()).isEqualTo(2);

        long bytes = scheduler.dropQueued(Set.of(P0));

        // each row: a 1-byte key and a 5-byte value
        assertThat(bytes).isEqualTo(4 * 6);
        assertThat(scheduler.closedRows()).isZero();
        assertThat(scheduler.queued()).isEqualTo(1);
        assertThat(scheduler.peekReady()).isSameAs(other);
    }

    @Test
    void abandoning_in_flight_writes_marks_them_once_and_counts_their_bytes_once() {
        WriteScheduler scheduler = new WriteScheduler();
        WriteGroup mine = group(P0, "a|1|x");
        WriteGroup theirs = group(P1, "b|1|x");
        scheduler.addReady(List.of(mine, theirs));
        scheduler.send(0);
        scheduler.send(0);

        assertThat(scheduler.inFlightOf(Set.of(P0))).isTrue();
        assertThat(scheduler.abandonInFlight(Set.of(P0))).isEqualTo(6);
        assertThat(scheduler.abandonInFlight(Set.of(P0))).isZero();
        assertThat(scheduler.inFlightOf(Set.of(P0)))
                .as("abandoned writes are not waited for")
                .isFalse();
        assertThat(mine.abandoned).isTrue();
        assertThat(theirs.abandoned).isFalse();
        assertThat(scheduler.idle()).isFalse();
    }

    private SinkRow row(long offset, String value) {
        return new SinkRow(offset, value.getBytes(StandardCharsets.UTF_8), null);
    }

    private WriteGroup group(TopicPartition partition, String value) {
        String pk = value.split("\\|")[0];
        SinkRow.GroupKey key =
                new SinkRow.GroupKey(table, partition, ByteBuffer.wrap(pk.getBytes(StandardCharsets.UTF_8)));
        SinkRow row = row(0, value);
        return new WriteGroup(List.of(row.bind(key)), 0, 1);
    }
}
