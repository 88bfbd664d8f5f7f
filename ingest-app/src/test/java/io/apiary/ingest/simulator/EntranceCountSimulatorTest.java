package io.apiary.ingest.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.schema.EntranceCount;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntranceCountSimulatorTest {

    private final EntranceCountSimulator simulator = new EntranceCountSimulator(Duration.ofSeconds(60), "gw");

    /** Pinned: a function of the hive and the instant alone, so every run and machine agree. */
    @Test
    void should_give_the_same_counts_for_the_same_hive_and_instant_on_every_run() {
        EntranceCount sample =
                simulator.sample("3627", Instant.parse("2021-07-15T17:00:00Z").toEpochMilli());

        assertThat(sample.getBeesIn()).isEqualTo(43);
        assertThat(sample.getBeesOut()).isEqualTo(42);
    }

    @Test
    void should_count_no_bees_at_night_and_some_around_solar_noon() {
        EntranceCount night =
                simulator.sample("3627", Instant.parse("2021-07-15T06:00:00Z").toEpochMilli());
        EntranceCount noon =
                simulator.sample("3627", Instant.parse("2021-07-15T17:00:00Z").toEpochMilli());

        assertThat(night.getBeesIn() + night.getBeesOut()).isZero();
        assertThat(noon.getBeesOut()).isBetween(30, 50);
        assertThat(noon.getIntervalSeconds()).isEqualTo(60);
    }

    @Test
    void should_emit_samples_aligned_to_the_interval_within_the_half_open_range() {
        List<EntranceCount> samples = new ArrayList<>();

        long n = simulator.samples(
                "3627", Instant.parse("2021-07-15T10:00:30Z"), Instant.parse("2021-07-15T10:05:00Z"), samples::add);

        assertThat(n).isEqualTo(4);
        assertThat(samples)
                .extracting(EntranceCount::getEventTime)
                .containsExactly(
                        Instant.parse("2021-07-15T10:01:00Z"), Instant.parse("2021-07-15T10:02:00Z"),
                        Instant.parse("2021-07-15T10:03:00Z"), Instant.parse("2021-07-15T10:04:00Z"));
    }

    @Test
    void should_balance_a_days_entries_and_exits_within_two_percent_for_every_hive_and_day() {
        // A colony neither gains nor loses foragers over a day: a daily gap of more than a few percent
        // reads, to a beekeeper, as a colony that is dying or swarming. Seeded repeats: 25 hives, 12 days.
        for (Duration interval : List.of(Duration.ofSeconds(60), Duration.ofMinutes(5))) {
            EntranceCountSimulator sim = new EntranceCountSimulator(interval, "gw");
            for (int hive = 0; hive < 25; hive++) {
                for (int day = 0; day < 12; day++) {
                    Instant start = Instant.parse("2021-06-01T05:00:00Z").plus(Duration.ofDays(day));
                    long[] sums = new long[2];
                    sim.samples("hive-" + hive, start, start.plus(Duration.ofDays(1)), s -> {
                        sums[0] += s.getBeesIn();
                        sums[1] += s.getBeesOut();
                    });
                    assertThat(sums[1])
                            .as("exits of hive-%d on day %d", hive, day)
                            .isGreaterThan(1_000);
                    assertThat((double) Math.abs(sums[0] - sums[1]) / sums[1])
                            .as(
                                    "imbalance of hive-%d on day %d at %s: %d in, %d out",
                                    hive, day, interval, sums[0], sums[1])
                            .isLessThan(0.02);
                }
            }
        }
    }

    @Test
    void should_let_bees_in_trail_bees_out_in_the_morning_and_lead_in_the_evening() {
        long[] morning = sum(Instant.parse("2021-07-15T11:00:00Z"), Instant.parse("2021-07-15T13:00:00Z"));
        long[] evening = sum(Instant.parse("2021-07-15T23:00:00Z"), Instant.parse("2021-07-16T01:30:00Z"));

        assertThat(morning[1]).as("out in the morning").isGreaterThan(morning[0]);
        assertThat(evening[0]).as("in in the evening").isGreaterThan(evening[1]);
    }

    private long[] sum(Instant from, Instant to) {
        long[] sums = new long[2];
        simulator.samples("3627", from, to, s -> {
            sums[0] += s.getBeesIn();
            sums[1] += s.getBeesOut();
        });
        return sums;
    }
}
