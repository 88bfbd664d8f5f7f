package io.apiary.ingest.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.schema.EntranceCount;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntranceCountSimulatorTest {

    private final EntranceCountSimulator simulator = new EntranceCountSimulator(Duration.ofSeconds(60), "gw");

    @Test
    void should_give_the_same_counts_for_the_same_hive_and_instant() {
        long t = Instant.parse("2021-07-15T17:00:00Z").toEpochMilli();

        assertThat(simulator.sample("3627", t)).isEqualTo(simulator.sample("3627", t));
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
}
