package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.testing.RandomCases;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property tests of the grouping core with an injected clock: rows arrive at random times for
 * random partitions, the sink's loop drains at random times (sometimes under memory pressure),
 * and every batch that comes out is checked against the guarantees.
 */
class PartitionBatcherTest {

    /** A row of the test: its partition key, size, arrival time and arrival index. */
    record Row(int key, int bytes, long arrivedNanos, int index) {}

    static Stream<Arguments> workloads() {
        return RandomCases.cases(r -> new Object[] {
            r.nextLong(), 1 + r.nextInt(150), 1 + r.nextInt(6_000), (long) r.nextInt(3) * r.nextInt(2_000)
        });
    }

    @ParameterizedTest(name = "{0} maxRows={2} maxBytes={3} linger={4}")
    @MethodSource("workloads")
    void every_row_lands_in_exactly_one_batch_within_caps_in_order_and_no_later_than_its_linger(
            String seed, long workloadSeed, int maxRows, int maxBytes, long linger) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(workloadSeed);
        PartitionBatcher<Integer, Row> batcher = new PartitionBatcher<>(maxRows, maxBytes, linger);
        int keys = 1 + r.nextInt(40);
        int n = r.nextInt(2_000);
        List<Row> added = new ArrayList<>();
        List<PartitionBatcher.Batch<Integer, Row>> out = new ArrayList<>();
        long now = 0;
        for (int i = 0; i < n; i++) {
            now += r.nextInt(50);
            Row row = new Row(r.nextInt(keys), r.nextInt(400), now, i);
            batcher.add(row.key(), row, row.bytes(), now);
            added.add(row);
            if (r.nextInt(10) == 0) {
                if (r.nextInt(8) == 0) {
                    out.addAll(batcher.drainOldest(r.nextInt(50), r.nextInt(5_000)));
                } else {
                    List<PartitionBatcher.Batch<Integer, Row>> drained = batcher.drainReady(now);
                    for (PartitionBatcher.Batch<Integer, Row> batch : drained) {
                        // released by linger, or closed by a cap (rows, or bytes: a later batch of the key exists)
                        boolean lingered = now - batch.openedNanos() >= linger;
                        boolean full = batch.rows().size() == maxRows;
                        boolean byteClosed = drained.stream()
                                        .anyMatch(b -> b != batch && b.key().equals(batch.key()))
                                || batcher.openRowsOf(batch.key()) > 0;
                        assertThat(lingered || full || byteClosed)
                                .as("batch released before its linger")
                                .isTrue();
                    }
                    out.addAll(drained);
                    // nothing whose linger has passed stays open after a drain
                    assertThat(batcher.nextDeadlineNanos(now)).isGreaterThan(now);
                }
            }
        }
        List<PartitionBatcher.Batch<Integer, Row>> rest = batcher.drainOldest(0, 0);
        out.addAll(rest);
        assertThat(batcher.rows()).isZero();
        assertThat(batcher.openRows()).isZero();
        assertThat(batcher.openBytes()).isZero();

        // exactly once
        assertThat(out.stream().flatMap(b -> b.rows().stream()).toList()).containsExactlyInAnyOrderElementsOf(added);
        Map<Integer, Integer> lastIndexOfKey = new HashMap<>();
        for (PartitionBatcher.Batch<Integer, Row> batch : out) {
            // caps
            assertThat(batch.rows()).isNotEmpty().hasSizeLessThanOrEqualTo(maxRows);
            long bytes = batch.rows().stream().mapToLong(Row::bytes).sum();
            assertThat(batch.bytes()).isEqualTo(bytes);
            assertThat(batch.rows().size() == 1 || bytes <= maxBytes)
                    .as("bytes %d over cap %d", bytes, maxBytes)
                    .isTrue();
            // one key, and per-key order kept across batches
            assertThat(batch.rows()).extracting(Row::key).containsOnly(batch.key());
            for (Row row : batch.rows()) {
                Integer previous = lastIndexOfKey.put(row.key(), row.index());
                assertThat(previous == null || previous < row.index())
                        .as("row %d of key %d after row %d", row.index(), row.key(), previous)
                        .isTrue();
            }
            assertThat(batch.openedNanos()).isEqualTo(batch.rows().get(0).arrivedNanos());
        }
    }

    @Test
    void linger_holds_a_batch_until_its_first_row_has_waited_then_releases_it() {
        PartitionBatcher<String, Integer> batcher = new PartitionBatcher<>(100, 10_000, 1_000);
        batcher.add("hive-1", 1, 10, 0);
        batcher.add("hive-1", 2, 10, 500);
        batcher.add("hive-2", 3, 10, 600);

        assertThat(batcher.drainReady(999)).isEmpty();
        assertThat(batcher.nextDeadlineNanos(999)).isEqualTo(1_000);
        List<PartitionBatcher.Batch<String, Integer>> first = batcher.drainReady(1_000);
        assertThat(first).singleElement().satisfies(b -> {
            assertThat(b.key()).isEqualTo("hive-1");
            assertThat(b.rows()).containsExactly(1, 2);
        });
        assertThat(batcher.nextDeadlineNanos(1_000)).isEqualTo(1_600);
        assertThat(batcher.drainReady(1_599)).isEmpty();
        assertThat(batcher.drainReady(1_600))
                .singleElement()
                .satisfies(b -> assertThat(b.rows()).containsExactly(3));
        assertThat(batcher.nextDeadlineNanos(1_600)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void a_full_batch_is_ready_at_once_whatever_the_linger() {
        PartitionBatcher<String, Integer> batcher = new PartitionBatcher<>(3, 10_000, 60_000_000_000L);
        batcher.add("p", 1, 1, 0);
        batcher.add("p", 2, 1, 0);
        assertThat(batcher.drainReady(1)).isEmpty();
        batcher.add("p", 3, 1, 1);
        assertThat(batcher.nextDeadlineNanos(1)).isEqualTo(1);
        assertThat(batcher.drainReady(1))
                .singleElement()
                .satisfies(b -> assertThat(b.rows()).containsExactly(1, 2, 3));
    }

    @Test
    void a_row_that_would_pass_the_byte_cap_closes_the_batch_before_it() {
        PartitionBatcher<String, Integer> batcher = new PartitionBatcher<>(100, 100, 1_000);
        batcher.add("p", 1, 60, 0);
        batcher.add("p", 2, 60, 1);
        batcher.add("p", 3, 500, 2); // larger than the cap: travels alone
        batcher.add("p", 4, 1, 3);
        List<PartitionBatcher.Batch<String, Integer>> batches = batcher.drainOldest(0, 0);
        assertThat(batches)
                .extracting(PartitionBatcher.Batch::rows)
                .containsExactly(List.of(1), List.of(2), List.of(3), List.of(4));
    }

    @Test
    void linger_zero_releases_every_open_batch_at_the_next_drain() {
        PartitionBatcher<String, Integer> batcher = new PartitionBatcher<>(100, 10_000, 0);
        batcher.add("a", 1, 1, 5);
        batcher.add("b", 2, 1, 5);
        batcher.add("a", 3, 1, 5);
        assertThat(batcher.drainReady(5))
                .extracting(PartitionBatcher.Batch::rows)
                .containsExactly(List.of(1, 3), List.of(2));
    }

    @Test
    void memory_pressure_sends_the_oldest_batches_first_until_under_the_bound() {
        PartitionBatcher<String, Integer> batcher = new PartitionBatcher<>(100, 10_000, 1_000_000);
        batcher.add("old", 1, 10, 0);
        batcher.add("mid", 2, 10, 1);
        batcher.add("new", 3, 10, 2);
        batcher.add("old", 4, 10, 3);
        List<PartitionBatcher.Batch<String, Integer>> sent = batcher.drainOldest(2, Long.MAX_VALUE);
        assertThat(sent).extracting(PartitionBatcher.Batch::key).containsExactly("old");
        assertThat(batcher.openRows()).isEqualTo(2);
        assertThat(batcher.drainOldest(Integer.MAX_VALUE, 15))
                .extracting(PartitionBatcher.Batch::key)
                .containsExactly("mid");
    }

    @Test
    void removing_revoked_keys_hands_their_rows_back_and_keeps_the_others() {
        PartitionBatcher<String, Integer> batcher = new PartitionBatcher<>(2, 10_000, 1_000);
        batcher.add("revoked", 1, 1, 0);
        batcher.add("revoked", 2, 1, 0); // closed by the row cap
        batcher.add("revoked", 3, 1, 0);
        batcher.add("kept", 4, 1, 0);
        assertThat(batcher.remove("revoked"::equals).stream().flatMap(b -> b.rows().stream()))
                .containsExactlyInAnyOrder(1, 2, 3);
        assertThat(batcher.rows()).isEqualTo(1);
        assertThat(batcher.drainOldest(0, 0))
                .extracting(PartitionBatcher.Batch::rows)
                .containsExactly(List.of(4));
    }

    @Test
    void rejects_caps_below_one_and_negative_linger() {
        assertThatThrownBy(() -> new PartitionBatcher<>(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PartitionBatcher<>(1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PartitionBatcher<>(1, 1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_lingered_batch_stays_open_and_keeps_filling_until_it_is_polled() {
        PartitionBatcher<String, Integer> batcher = new PartitionBatcher<>(3, 1_000, 100);
        batcher.add("a", 1, 1, 0);
        batcher.add("b", 2, 1, 10);
        assertThat(batcher.pollOldest(99, false)).as("still lingering").isNull();
        batcher.add("a", 3, 1, 150); // after a's linger ended: it keeps filling
        assertThat(batcher.drainFull()).isEmpty();
        PartitionBatcher.Batch<String, Integer> a = batcher.pollOldest(150, false);
        assertThat(a.key()).isEqualTo("a");
        assertThat(a.rows()).containsExactly(1, 3);
        assertThat(batcher.pollOldest(105, false)).as("b lingers until 110").isNull();
        assertThat(batcher.pollOldest(105, true).rows())
                .as("taken early under pressure")
                .containsExactly(2);
        assertThat(batcher.pollOldest(1_000, true)).isNull();
        assertThat(batcher.openRows()).isZero();

        batcher.add("c", 4, 1, 0);
        batcher.add("c", 5, 1, 0);
        batcher.add("c", 6, 1, 0);
        assertThat(batcher.drainFull())
                .as("closed by the row cap")
                .singleElement()
                .satisfies(batch -> assertThat(batch.rows()).containsExactly(4, 5, 6));
    }
}
