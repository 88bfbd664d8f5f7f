package io.apiary.ingest.topology;

import static io.apiary.ingest.topology.TopologyFixture.sample;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The hourly windows: boundaries, final results, late samples, duplicates and quiet partitions. */
class HourlyActivityTest {

    private static final Duration UPDATE = Duration.ofSeconds(10);
    private static final Map<String, Object> SETTINGS = Map.of(
            IngestConfig.ACTIVITY_GRACE_MS, Duration.ofMinutes(10).toMillis(),
            IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, Duration.ofMinutes(1).toMillis());
    private TopologyFixture fixture = new TopologyFixture(SETTINGS);

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    @Test
    void hour_stays_open_until_stream_time_reaches_its_end_plus_grace_then_closes_once() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:09:59.999Z", 2, 2));
        assertThat(fixture.hourly.isEmpty()).isTrue();

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 4, 4));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:20:00Z", 8, 8));

        List<HourlyActivity> finals = fixture.hourly.readValuesToList();
        assertThat(finals).hasSize(1);
        assertThat(finals.get(0).getWindowStart()).isEqualTo(Instant.parse("2021-07-15T10:00:00Z"));
        assertThat(finals.get(0).getEntries()).isEqualTo(1);
    }

    @Test
    void sample_at_the_last_instant_of_the_grace_period_still_counts() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("b", sample("b", "2021-07-15T11:09:59.999Z", 0, 0));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:59:59.999Z", 5, 5));
        fixture.counts.pipeInput("b", sample("b", "2021-07-15T11:10:00Z", 0, 0));

        assertThat(fixture.late.isEmpty()).isTrue();
        assertThat(fixture.hourly.readKeyValuesToMap().get("a").getEntries()).isEqualTo(6);
    }

    @Test
    void hour_closes_at_its_end_plus_the_largest_grace_period_and_not_before() {
        // 730 days, the bound of activity.window.grace.ms: an hour's end plus it must stay a time in
        // the future of that hour (an overflow would make every sample late at once).
        fixture.close();
        fixture = new TopologyFixture(
                Map.of(
                        IngestConfig.ACTIVITY_GRACE_MS,
                        IngestConfig.ACTIVITY_GRACE_MAX_MS,
                        IngestConfig.VALIDATION_MAX_AGE_MS,
                        Duration.ofDays(1_100).toMillis()),
                Instant.parse("2023-08-01T00:00:00Z"));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2023-07-15T10:59:59.999Z", 0, 0));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 5, 5));
        assertThat(fixture.late.isEmpty())
                .as("a sample within the grace period")
                .isTrue();
        assertThat(fixture.hourly.isEmpty())
                .as("finals before the end plus grace")
                .isTrue();

        fixture.counts.pipeInput("a", sample("a", "2023-07-15T11:00:00Z", 0, 0)); // 2021-07-15T11:00 + 730 days
        assertThat(fixture.hourly.readValuesToList())
                .as("the hour of 2021-07-15T10:00 closed once, with both samples")
                .singleElement()
                .satisfies(hour -> {
                    assertThat(hour.getWindowStart()).isEqualTo(Instant.parse("2021-07-15T10:00:00Z"));
                    assertThat(hour.getEntries()).isEqualTo(6);
                });
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:40:00Z", 2, 2));
        assertThat(fixture.late.readValuesToList()).hasSize(1);
    }

    @Test
    void should_refuse_a_grace_period_below_0_or_above_730_days_naming_the_setting() {
        assertThat(new IngestConfig(Map.of(IngestConfig.ACTIVITY_GRACE_MS, IngestConfig.ACTIVITY_GRACE_MAX_MS))
                        .getLong(IngestConfig.ACTIVITY_GRACE_MS))
                .isEqualTo(Duration.ofDays(730).toMillis());
        for (long bad : new long[] {-1, IngestConfig.ACTIVITY_GRACE_MAX_MS + 1, Long.MAX_VALUE}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> new IngestConfig(Map.of(IngestConfig.ACTIVITY_GRACE_MS, bad)))
                    .as("grace %d ms", bad)
                    .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                    .hasMessageContaining(IngestConfig.ACTIVITY_GRACE_MS);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new HourlyActivityProcessor(
                        Duration.ofMillis(IngestConfig.ACTIVITY_GRACE_MAX_MS + 1), Duration.ofMinutes(1), UPDATE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(IngestConfig.ACTIVITY_GRACE_MS);
    }

    @Test
    void sample_after_its_hour_closed_goes_to_the_late_topic_and_is_counted_not_summed() {
        double lateBefore = TopologyFixture.counter(MetricNames.TOPOLOGY_LATE_RECORDS, "stream", "entrance-counts");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 2, 2));
        assertThat(fixture.hourly.readValuesToList()).hasSize(1);
        assertThat(fixture.activityRows.readValuesToList())
                .extracting(HourlyActivity::getEntries)
                .containsExactly(1L);

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 50, 50));

        TestRecord<String, EntranceCount> late = fixture.late.readRecord();
        assertThat(late.key()).isEqualTo("a");
        assertThat(late.value().getBeesIn()).isEqualTo(50);
        assertThat(new String(
                        late.headers()
                                .lastHeader(HourlyActivityProcessor.LATE_HOUR_HEADER)
                                .value(),
                        StandardCharsets.UTF_8))
                .isEqualTo("2021-07-15T10:00:00Z");
        assertThat(TopologyFixture.counter(MetricNames.TOPOLOGY_LATE_RECORDS, "stream", "entrance-counts") - lateBefore)
                .isEqualTo(1.0);
        assertThat(fixture.hourly.isEmpty())
                .as("no second result for the closed hour")
                .isTrue();
        fixture.advanceWallClock(UPDATE);
        assertThat(fixture.activityRows.readValuesToList())
                .extracting(HourlyActivity::getHour)
                .doesNotContain(10);
    }

    @Test
    void resent_sample_is_counted_once() {
        double before = TopologyFixture.counter(MetricNames.TOPOLOGY_DUPLICATE_RECORDS, "stream", "entrance-counts");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 3, 4));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 3, 4));
        fixture.counts.pipeInput("a", new EntranceCount("a", "gw-2", Instant.parse("2021-07-15T10:05:00Z"), 1, 1, 60));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 0, 0));

        HourlyActivity hour = fixture.hourly.readValue();
        assertThat(hour.getEntries()).as("gw-1's sample once, plus gw-2's").isEqualTo(4);
        assertThat(hour.getSamples()).isEqualTo(2);
        assertThat(TopologyFixture.counter(MetricNames.TOPOLOGY_DUPLICATE_RECORDS, "stream", "entrance-counts")
                        - before)
                .isEqualTo(1.0);
    }

    private static double conflicts() {
        return TopologyFixture.counter(MetricNames.WRITE_CONFLICTS, "table", "hive_activity", "stage", "topology");
    }

    private HourlyActivity finalHourAfter(EntranceCount first, EntranceCount second) {
        fixture.counts.pipeInput("a", first);
        fixture.counts.pipeInput("a", second);
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 0, 0));
        return fixture.hourly.readValue();
    }

    @Test
    void conflicting_samples_of_one_identity_give_the_same_sums_in_either_order_and_are_counted() {
        EntranceCount smaller = sample("a", "2021-07-15T10:05:00Z", 3, 9);
        EntranceCount greater = sample("a", "2021-07-15T10:05:00Z", 5, 1);
        double before = conflicts();
        HourlyActivity inOrder = finalHourAfter(smaller, greater);
        fixture.close();
        fixture = new TopologyFixture(SETTINGS);
        HourlyActivity reversed = finalHourAfter(greater, smaller);

        assertThat(List.of(inOrder.getEntries(), inOrder.getExits(), (long) inOrder.getSamples()))
                .isEqualTo(List.of(reversed.getEntries(), reversed.getExits(), (long) reversed.getSamples()));
        assertThat(inOrder.getRevision())
                .as("replaced once: the sink's write of it wins over the interim row")
                .isEqualTo(1);
        assertThat(reversed.getRevision())
                .as("the smaller sample changed nothing")
                .isZero();
        assertThat(inOrder.getEntries()).as("the greater sample's bees_in").isEqualTo(5);
        assertThat(inOrder.getExits()).as("and its bees_out, not a mix").isEqualTo(1);
        assertThat(inOrder.getSamples()).isEqualTo(1);
        assertThat(conflicts() - before).isEqualTo(2.0);
    }

    @Test
    void identical_samples_are_a_resend_not_a_conflict() {
        double before = conflicts();
        HourlyActivity hour =
                finalHourAfter(sample("a", "2021-07-15T10:05:00Z", 3, 4), sample("a", "2021-07-15T10:05:00Z", 3, 4));
        assertThat(hour.getEntries()).isEqualTo(3);
        assertThat(conflicts() - before).isZero();
    }

    @Test
    void sample_content_orders_like_the_numbers_it_holds() {
        byte[] low = HourlyActivityProcessor.sampleContent(sample("a", "2021-07-15T10:05:00Z", 0, 100));
        byte[] high = HourlyActivityProcessor.sampleContent(sample("a", "2021-07-15T10:05:00Z", 1, 0));
        assertThat(java.util.Arrays.compare(high, low)).isPositive();
        assertThat(low).hasSize(HourlyActivityProcessor.CONTENT_BYTES);
    }

    @Test
    void open_hours_reach_hive_activity_as_interim_sums_every_update_interval_and_end_with_the_final() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        assertThat(fixture.activityRows.isEmpty()).isTrue();
        fixture.advanceWallClock(UPDATE);
        assertThat(fixture.activityRows.readValue().getEntries()).isEqualTo(1);

        fixture.advanceWallClock(UPDATE);
        assertThat(fixture.activityRows.isEmpty())
                .as("nothing changed, nothing written")
                .isTrue();

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:06:00Z", 2, 2));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 0, 0));
        List<HourlyActivity> rows = fixture.activityRows.readValuesToList();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getEntries()).as("the final value, at close").isEqualTo(3);
    }

    @Test
    void quiet_partition_with_live_traffic_closes_its_last_hour_the_idle_timeout_after_its_close() {
        fixture.close();
        fixture = new TopologyFixture(
                Map.of(
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                        Duration.ofMinutes(1).toMillis()),
                Instant.parse("2021-07-15T10:30:00Z"));
        double before = TopologyFixture.counter(MetricNames.TOPOLOGY_HOURS_CLOSED, "by", "quiet-partition");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 7, 6));

        // The hour would close at 11:10 (end + grace). Quiet, it closes at 11:11 of wall clock
        // (+ idle timeout), seen at the next update tick.
        fixture.advanceWallClock(Duration.ofMinutes(40));
        assertThat(fixture.hourly.isEmpty()).as("11:10 of wall clock: not yet").isTrue();
        fixture.advanceWallClock(Duration.ofMinutes(1).plus(UPDATE));

        HourlyActivity hour = fixture.hourly.readValue();
        assertThat(hour.getWindowStart()).isEqualTo(Instant.parse("2021-07-15T10:00:00Z"));
        assertThat(hour.getEntries()).isEqualTo(7);
        assertThat(TopologyFixture.counter(MetricNames.TOPOLOGY_HOURS_CLOSED, "by", "quiet-partition") - before)
                .isEqualTo(1.0);

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:45:00Z", 1, 1));
        assertThat(fixture.late.readValue().getBeesIn())
                .as("the hour was closed: later samples are late")
                .isEqualTo(1);
        assertThat(fixture.hourly.isEmpty()).isTrue();
    }

    @Test
    void quiet_partition_after_a_replay_of_history_closes_every_open_hour_after_the_idle_timeout() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:59:00Z", 2, 2));
        fixture.counts.pipeInput("b", sample("b", "2021-07-15T11:20:00Z", 4, 4));
        assertThat(fixture.hourly.readValuesToList())
                .extracting(HourlyActivity::getHour)
                .containsExactly(10);

        fixture.advanceWallClock(Duration.ofSeconds(50));
        assertThat(fixture.hourly.isEmpty()).as("within the idle timeout").isTrue();
        fixture.advanceWallClock(UPDATE);

        assertThat(fixture.hourly.readKeyValuesToMap()).containsOnlyKeys("a", "b");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:59:30Z", 1, 1));
        assertThat(fixture.late.readValuesToList()).hasSize(1);
    }

    @Test
    void busy_partition_is_not_closed_by_the_wall_clock() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 1, 1));
        for (int minute = 31; minute < 60; minute++) {
            fixture.advanceWallClock(Duration.ofSeconds(50));
            fixture.counts.pipeInput("b", sample("b", "2021-07-15T10:" + minute + ":00Z", 1, 1));
        }
        assertThat(fixture.hourly.isEmpty())
                .as("stream time moves, so only stream time closes hours")
                .isTrue();
    }

    @Test
    void hive_that_goes_quiet_in_a_busy_partition_is_closed_by_the_others_stream_time() {
        fixture.counts.pipeInput("quiet", sample("quiet", "2021-07-15T10:30:00Z", 9, 9));
        fixture.counts.pipeInput("busy", sample("busy", "2021-07-15T11:10:00Z", 1, 1));

        assertThat(fixture.hourly.readKeyValuesToMap()).containsOnlyKeys("quiet");
    }

    @Test
    void windows_are_aligned_to_utc_hours() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T09:59:59.999Z", 1, 0));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:00:00Z", 0, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T12:00:00Z", 0, 0));

        List<HourlyActivity> finals = fixture.hourly.readValuesToList();
        assertThat(finals).extracting(HourlyActivity::getHour).containsExactly(9, 10);
        assertThat(finals).extracting(HourlyActivity::getEntries).containsExactly(1L, 0L);
        assertThat(finals).extracting(HourlyActivity::getExits).containsExactly(0L, 1L);
        assertThat(finals.get(1).getWindowEnd()).isEqualTo(Instant.parse("2021-07-15T11:00:00Z"));
    }
}
