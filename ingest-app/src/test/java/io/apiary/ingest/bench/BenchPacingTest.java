package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.bucket.ShardStrategy;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The arithmetic of the paced run: which readings are due when, and how many a run sends. */
class BenchPacingTest {

    private static BenchWorkload workload(int hives) {
        return new BenchWorkload(hives, 96, ShardStrategy.TIME);
    }

    /** The longest prefix of readings whose event times have all come {@code elapsed} ms after the start. */
    private static long bruteForceDue(BenchWorkload workload, long elapsed) {
        long limit = BenchWorkload.START.toEpochMilli() + elapsed;
        long i = 0;
        while (workload.readingTimeMillis(i) <= limit) {
            i++;
        }
        return i;
    }

    @Test
    void the_due_readings_are_the_longest_prefix_whose_event_times_have_come() {
        Random random = new Random(46);
        for (int c = 0; c < 200; c++) {
            BenchWorkload workload = workload(1 + random.nextInt(300));
            long elapsed = random.nextInt(2_000);
            assertThat(workload.dueReadings(elapsed))
                    .as("%d hives, %d ms", workload.hives(), elapsed)
                    .isEqualTo(bruteForceDue(workload, elapsed));
        }
    }

    @Test
    void before_the_start_nothing_is_due_and_at_the_start_only_hive_0() {
        assertThat(workload(1_000).dueReadings(-1)).isZero();
        assertThat(workload(1_000).dueReadings(0)).isEqualTo(1);
    }

    @Test
    void a_round_is_whole_once_its_last_hive_offset_has_come_and_the_next_starts_60_ms_after_it() {
        BenchWorkload workload = workload(1_000);

        assertThat(workload.dueReadings(48)).isEqualTo(49);
        assertThat(workload.dueReadings(49)).isEqualTo(1_000);
        assertThat(workload.dueReadings(59)).isEqualTo(1_000);
        assertThat(workload.dueReadings(60)).isEqualTo(1_001);
        assertThat(workload(10).dueReadings(9)).as("10 hives: offsets 0..9").isEqualTo(10);
    }

    @Test
    void every_hive_sends_1000_readings_per_minute() {
        BenchWorkload workload = workload(1_000);

        assertThat(workload.pacedReadings(60)).isEqualTo(1_000_000);
        assertThat(workload.dueReadings(60_000 - 1)).isEqualTo(1_000_000);
        assertThat(workload(7).pacedReadings(3))
                .as("rounded down: 7 x 3 x 1000 / 60 = 350")
                .isEqualTo(350);
    }
}
