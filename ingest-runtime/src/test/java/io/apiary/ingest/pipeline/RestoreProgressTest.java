package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class RestoreProgressTest {

    private final AtomicLong nanos = new AtomicLong();
    private final List<String> lines = new ArrayList<>();
    private final RestoreProgress progress = new RestoreProgress(nanos::get, lines::add);

    private static TopicPartition changelog(String store, int partition) {
        return new TopicPartition("app-" + store + "-changelog", partition);
    }

    @Test
    void one_line_when_the_last_partition_of_a_round_ends_with_records_partitions_stores_and_seconds() {
        nanos.set(1_000_000_000L);
        progress.onRestoreStart(changelog("sums", 0), "sums", 0, 100);
        nanos.set(1_500_000_000L);
        progress.onRestoreStart(changelog("seen", 0), "seen", 10, 2_010);
        progress.onBatchRestored(changelog("seen", 0), "seen", 1_000, 990);
        nanos.set(2_000_000_000L);
        progress.onRestoreEnd(changelog("sums", 0), "sums", 100);
        assertThat(lines).isEmpty();
        nanos.set(4_250_000_000L);
        progress.onRestoreEnd(changelog("seen", 0), "seen", 2_000);

        assertThat(lines)
                .containsExactly("Restored 2,100 records of 2 changelog partitions (stores seen, sums) in 3.250 s");
        assertThat(RestoreProgress.Round.parse("12:00:00.000 INFO  [x] RestoreProgress - " + lines.get(0)))
                .isEqualTo(new RestoreProgress.Round(2_100, 2, 3.25));
    }

    @Test
    void each_round_is_reported_on_its_own_and_suspended_partitions_are_counted() {
        progress.onRestoreStart(changelog("sums", 0), "sums", 0, 5);
        progress.onRestoreEnd(changelog("sums", 0), "sums", 5);
        nanos.set(10_000_000_000L);
        progress.onRestoreStart(changelog("sums", 1), "sums", 0, 7);
        progress.onRestoreStart(changelog("sums", 2), "sums", 0, 9);
        progress.onRestoreSuspended(changelog("sums", 2), "sums", 4);
        nanos.set(12_000_000_000L);
        progress.onRestoreEnd(changelog("sums", 1), "sums", 7);
        // a partition this listener never saw start changes nothing
        progress.onRestoreEnd(changelog("sums", 3), "sums", 1_000);

        assertThat(lines)
                .containsExactly(
                        "Restored 5 records of 1 changelog partitions (stores sums) in 0.000 s",
                        "Restored 11 records of 2 changelog partitions (stores sums) in 2.000 s; 1 of them handed to"
                                + " another instance before they ended");
        assertThat(RestoreProgress.Round.parse(lines.get(1))).isEqualTo(new RestoreProgress.Round(11, 2, 2.0));
    }

    @Test
    void other_lines_are_no_round() {
        assertThat(RestoreProgress.Round.parse("Topology state REBALANCING -> RUNNING"))
                .isNull();
        assertThat(RestoreProgress.summary(1_234_567, 12, Set.of("a"), 61.25, 0))
                .isEqualTo("Restored 1,234,567 records of 12 changelog partitions (stores a) in 61.250 s");
    }
}
