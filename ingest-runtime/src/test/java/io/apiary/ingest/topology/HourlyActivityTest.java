package io.apiary.ingest.topology;

import static io.apiary.ingest.topology.TopologyFixture.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.ResultTiming;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hourly windows: boundaries, closing by each hive's own progress, corrections within the
 * horizon, late samples beyond it, duplicates, and the quiet rule with its input lag.
 */
class HourlyActivityTest {

    private static final Duration UPDATE = Duration.ofSeconds(10);
    private static final Duration IDLE = Duration.ofMinutes(1);
    private static final Map<String, Object> SETTINGS = Map.of(
            IngestConfig.ACTIVITY_GRACE_MS, Duration.ofMinutes(10).toMillis(),
            IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, IDLE.toMillis());
    private TopologyFixture fixture = new TopologyFixture(SETTINGS);

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    private void restartWith(Map<String, Object> settings, Instant wallClock, InputLag lag) {
        fixture.close();
        fixture = new TopologyFixture(settings, wallClock, lag);
    }

    private static double counter(String name, String... tags) {
        return TopologyFixture.counter(name, tags);
    }

    private static double corrections() {
        return counter(MetricNames.TOPOLOGY_HOUR_CORRECTIONS, "stream", "entrance-counts");
    }

    private static double conflicts() {
        return counter(MetricNames.WRITE_CONFLICTS, "table", "hive_activity", "stage", "topology");
    }

    private static List<Long> sums(HourlyActivity hour) {
        return List.of(hour.getEntries(), hour.getExits(), (long) hour.getSamples());
    }

    @Test
    void hour_stays_open_until_the_hives_own_samples_pass_its_end_plus_grace_then_closes_once() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:09:59.999Z", 2, 2));
        assertThat(fixture.hourly.isEmpty()).isTrue();

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 4, 4));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:20:00Z", 8, 8));

        List<HourlyActivity> results = fixture.hourly.readValuesToList();
        assertThat(results).hasSize(1);
        assertThat(results.get(0).getWindowStart()).isEqualTo(Instant.parse("2021-07-15T10:00:00Z"));
        assertThat(results.get(0).getEntries()).isEqualTo(1);
        assertThat(results.get(0).getTiming()).isEqualTo(ResultTiming.ON_TIME);
        assertThat(results.get(0).getPaneIndex()).isZero();
    }

    @Test
    void other_hives_of_the_partition_never_close_a_hives_hour() {
        fixture.counts.pipeInput("offline", sample("offline", "2021-07-15T10:30:00Z", 9, 9));
        fixture.counts.pipeInput("busy", sample("busy", "2021-07-15T10:31:00Z", 1, 1));
        fixture.counts.pipeInput("busy", sample("busy", "2021-07-15T14:00:00Z", 1, 1));
        assertThat(fixture.hourly.readKeyValuesToMap()).containsOnlyKeys("busy");

        fixture.counts.pipeInput("offline", sample("offline", "2021-07-15T10:45:00Z", 3, 3));
        fixture.counts.pipeInput("offline", sample("offline", "2021-07-15T11:10:00Z", 0, 0));
        assertThat(fixture.late.isEmpty()).isTrue();
        HourlyActivity hour = fixture.hourly.readValue();
        assertThat(hour.getHiveId()).isEqualTo("offline");
        assertThat(sums(hour)).as("both samples, on time").containsExactly(12L, 12L, 2L);
        assertThat(hour.getTiming()).isEqualTo(ResultTiming.ON_TIME);
    }

    @Test
    void sample_at_the_last_instant_of_the_grace_period_still_counts() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:09:59.999Z", 0, 0));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:59:59.999Z", 5, 5));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 0, 0));

        assertThat(fixture.late.isEmpty()).isTrue();
        assertThat(fixture.hourly.readValue().getEntries()).isEqualTo(6);
    }

    @Test
    void a_hives_first_samples_are_summed_however_old_other_hives_are_not() {
        fixture.counts.pipeInput("live", sample("live", "2021-07-20T10:00:00Z", 1, 1));
        fixture.counts.pipeInput("history", sample("history", "2021-07-10T08:05:00Z", 4, 2));
        fixture.counts.pipeInput("history", sample("history", "2021-07-10T09:10:00Z", 0, 0));

        assertThat(fixture.late.isEmpty()).isTrue();
        HourlyActivity hour = fixture.hourly.readValue();
        assertThat(hour.getWindowStart()).isEqualTo(Instant.parse("2021-07-10T08:00:00Z"));
        assertThat(sums(hour)).containsExactly(4L, 2L, 1L);
        assertThat(hour.getTiming()).isEqualTo(ResultTiming.ON_TIME);
    }

    @Test
    void sample_for_a_closed_hour_within_the_horizon_corrects_it_at_the_next_update() {
        double before = corrections();
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 2, 2));
        assertThat(fixture.hourly.readValue().getPaneIndex()).isZero();
        fixture.activityRows.readValuesToList();

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 50, 40));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:31:00Z", 5, 4));
        assertThat(fixture.hourly.isEmpty()).as("published at the next update").isTrue();
        fixture.advanceWallClock(UPDATE);

        HourlyActivity correction = fixture.hourly.readValue();
        assertThat(correction.getWindowStart()).isEqualTo(Instant.parse("2021-07-15T10:00:00Z"));
        assertThat(sums(correction)).as("one result for both samples").containsExactly(56L, 45L, 3L);
        assertThat(correction.getTiming()).isEqualTo(ResultTiming.LATE);
        assertThat(correction.getPaneIndex()).isEqualTo(1);
        assertThat(fixture.hourly.isEmpty()).isTrue();
        assertThat(fixture.activityRows.readValuesToList())
                .filteredOn(row -> row.getHour() == 10)
                .singleElement()
                .satisfies(row -> assertThat(sums(row)).containsExactly(56L, 45L, 3L));
        assertThat(fixture.late.isEmpty()).isTrue();
        assertThat(corrections() - before).isEqualTo(1.0);

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:32:00Z", 1, 1));
        fixture.advanceWallClock(UPDATE);
        assertThat(fixture.hourly.readValue().getPaneIndex())
                .as("the next correction")
                .isEqualTo(2);
    }

    @Test
    void sample_resent_after_its_hour_closed_counts_once() {
        double before = counter(MetricNames.TOPOLOGY_DUPLICATE_RECORDS, "stream", "entrance-counts");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 3, 4));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 0, 0));
        assertThat(sums(fixture.hourly.readValue())).containsExactly(3L, 4L, 1L);

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 3, 4));
        fixture.advanceWallClock(UPDATE);

        assertThat(fixture.hourly.isEmpty())
                .as("no correction: nothing changed")
                .isTrue();
        assertThat(fixture.late.isEmpty()).isTrue();
        assertThat(counter(MetricNames.TOPOLOGY_DUPLICATE_RECORDS, "stream", "entrance-counts") - before)
                .isEqualTo(1.0);
    }

    @Test
    void conflicting_resend_after_close_corrects_the_hour_only_when_it_is_the_greater() {
        double before = conflicts();
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 3, 9));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 0, 0));
        fixture.hourly.readValue();

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 2, 9));
        fixture.advanceWallClock(UPDATE);
        assertThat(fixture.hourly.isEmpty())
                .as("the smaller sample changes nothing")
                .isTrue();

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 5, 1));
        fixture.advanceWallClock(UPDATE);
        HourlyActivity correction = fixture.hourly.readValue();
        assertThat(sums(correction)).as("the greater sample replaces, not adds").containsExactly(5L, 1L, 1L);
        assertThat(correction.getRevision()).isEqualTo(1);
        assertThat(correction.getPaneIndex()).isEqualTo(1);
        assertThat(conflicts() - before).isEqualTo(2.0);
    }

    @Test
    void sample_beyond_the_correction_horizon_goes_to_the_late_topic_and_is_counted_not_summed() {
        restartWith(
                Map.of(
                        IngestConfig.ACTIVITY_CORRECTION_HORIZON_MS,
                        Duration.ofHours(1).toMillis()),
                TopologyFixture.DEFAULT_WALL_CLOCK,
                InputLag.SYNCHRONOUS);
        double lateBefore = counter(MetricNames.TOPOLOGY_LATE_RECORDS, "stream", "entrance-counts");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T12:10:00Z", 2, 2));
        assertThat(fixture.hourly.readValuesToList())
                .extracting(HourlyActivity::getHour)
                .containsExactly(10, 11);

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 50, 50)); // 10:00 + 1 h + 10 min + 1 h
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:30:00Z", 7, 7)); // within the horizon
        fixture.advanceWallClock(UPDATE);

        TestRecord<String, EntranceCount> late = fixture.late.readRecord();
        assertThat(late.value().getBeesIn()).isEqualTo(50);
        assertThat(header(late, HourlyActivityProcessor.LATE_HOUR_HEADER)).isEqualTo("2021-07-15T10:00:00Z");
        assertThat(header(late, HourlyActivityProcessor.LATE_CLOSE_TIME_HEADER)).isEqualTo("2021-07-15T12:10:00Z");
        assertThat(fixture.late.isEmpty()).isTrue();
        assertThat(counter(MetricNames.TOPOLOGY_LATE_RECORDS, "stream", "entrance-counts") - lateBefore)
                .isEqualTo(1.0);
        assertThat(fixture.hourly.readValuesToList())
                .as("only the hour within the horizon is corrected")
                .singleElement()
                .satisfies(hour -> {
                    assertThat(hour.getHour()).isEqualTo(11);
                    assertThat(sums(hour)).containsExactly(8L, 8L, 2L);
                });
    }

    private static String header(TestRecord<?, ?> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void hour_closes_at_its_end_plus_the_largest_grace_period_and_not_before() {
        // 730 days, the bound of activity.window.grace.ms: an hour's end plus it must stay a time in
        // the future of that hour (an overflow would make every sample late at once).
        restartWith(
                Map.of(
                        IngestConfig.ACTIVITY_GRACE_MS,
                        IngestConfig.ACTIVITY_GRACE_MAX_MS,
                        IngestConfig.ACTIVITY_CORRECTION_HORIZON_MS,
                        IngestConfig.ACTIVITY_CORRECTION_HORIZON_MAX_MS,
                        IngestConfig.VALIDATION_MAX_AGE_MS,
                        Duration.ofDays(1_500).toMillis()),
                Instant.parse("2025-08-01T00:00:00Z"),
                InputLag.SYNCHRONOUS);
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2023-07-15T10:59:59.999Z", 0, 0));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 5, 5));
        assertThat(fixture.late.isEmpty())
                .as("a sample within the grace period")
                .isTrue();
        assertThat(fixture.hourly.isEmpty())
                .as("results before the end plus grace")
                .isTrue();

        fixture.counts.pipeInput(
                "a",
                new EntranceCount(
                        "a", "gw-1", Instant.parse("2021-07-15T11:00:00Z").plus(Duration.ofDays(730)), 0, 0, 60));
        assertThat(fixture.hourly.readValuesToList())
                .as("the hour of 2021-07-15T10:00 closed once, with both samples")
                .singleElement()
                .satisfies(hour -> {
                    assertThat(hour.getWindowStart()).isEqualTo(Instant.parse("2021-07-15T10:00:00Z"));
                    assertThat(hour.getEntries()).isEqualTo(6);
                });
        Instant forgetAt = Instant.parse("2021-07-15T11:00:00Z").plus(Duration.ofDays(730 + 730));
        fixture.counts.pipeInput("a", new EntranceCount("a", "gw-1", forgetAt.minusMillis(1), 0, 0, 60));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:40:00Z", 2, 2));
        assertThat(fixture.late.isEmpty())
                .as("still within the largest horizon")
                .isTrue();
        fixture.counts.pipeInput("a", new EntranceCount("a", "gw-1", forgetAt, 0, 0, 60));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:45:00Z", 2, 2));
        assertThat(fixture.late.readValuesToList()).as("beyond it").hasSize(1);
    }

    @Test
    void should_refuse_a_grace_period_or_horizon_below_0_or_above_730_days_naming_the_setting() {
        assertThat(new IngestConfig(Map.of(IngestConfig.ACTIVITY_GRACE_MS, IngestConfig.ACTIVITY_GRACE_MAX_MS))
                        .getLong(IngestConfig.ACTIVITY_GRACE_MS))
                .isEqualTo(Duration.ofDays(730).toMillis());
        for (String setting : List.of(IngestConfig.ACTIVITY_GRACE_MS, IngestConfig.ACTIVITY_CORRECTION_HORIZON_MS)) {
            for (long bad : new long[] {-1, Duration.ofDays(730).toMillis() + 1, Long.MAX_VALUE}) {
                assertThatThrownBy(() -> new IngestConfig(Map.of(setting, bad)))
                        .as("%s %d ms", setting, bad)
                        .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                        .hasMessageContaining(setting);
            }
        }
        assertThatThrownBy(() -> new HourlyActivityProcessor(
                        Duration.ofMillis(IngestConfig.ACTIVITY_GRACE_MAX_MS + 1),
                        IDLE,
                        UPDATE,
                        Duration.ZERO,
                        InputLag.SYNCHRONOUS,
                        "t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(IngestConfig.ACTIVITY_GRACE_MS);
        assertThatThrownBy(() -> new HourlyActivityProcessor(
                        Duration.ZERO,
                        IDLE,
                        UPDATE,
                        Duration.ofMillis(IngestConfig.ACTIVITY_CORRECTION_HORIZON_MAX_MS + 1),
                        InputLag.SYNCHRONOUS,
                        "t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(IngestConfig.ACTIVITY_CORRECTION_HORIZON_MS);
    }

    @Test
    void open_hours_reach_hive_activity_as_interim_sums_every_update_interval_and_end_with_the_result() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        assertThat(fixture.activityRows.isEmpty()).isTrue();
        fixture.advanceWallClock(UPDATE);
        HourlyActivity interim = fixture.activityRows.readValue();
        assertThat(interim.getEntries()).isEqualTo(1);
        assertThat(interim.getTiming()).isEqualTo(ResultTiming.EARLY);

        fixture.advanceWallClock(UPDATE);
        assertThat(fixture.activityRows.isEmpty())
                .as("nothing changed, nothing written")
                .isTrue();

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:06:00Z", 2, 2));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 0, 0));
        List<HourlyActivity> rows = fixture.activityRows.readValuesToList();
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getEntries()).as("the result, at close").isEqualTo(3);
        assertThat(rows.get(0).getTiming()).isEqualTo(ResultTiming.ON_TIME);
    }

    @Test
    void quiet_hive_with_live_traffic_closes_its_last_hour_the_idle_timeout_after_its_end_plus_grace() {
        restartWith(SETTINGS, Instant.parse("2021-07-15T10:30:00Z"), InputLag.SYNCHRONOUS);
        double before = counter(MetricNames.TOPOLOGY_HOURS_CLOSED, "by", "quiet");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 7, 6));

        // The hour would close at 11:10 (end + grace). Quiet, it closes at 11:11 of wall clock
        // (+ idle timeout), seen at the next update.
        fixture.runFor(Duration.ofMinutes(40), UPDATE);
        assertThat(fixture.hourly.isEmpty()).as("11:10 of wall clock: not yet").isTrue();
        fixture.runFor(IDLE.plus(UPDATE), UPDATE);

        HourlyActivity hour = fixture.hourly.readValue();
        assertThat(hour.getWindowStart()).isEqualTo(Instant.parse("2021-07-15T10:00:00Z"));
        assertThat(hour.getEntries()).isEqualTo(7);
        assertThat(counter(MetricNames.TOPOLOGY_HOURS_CLOSED, "by", "quiet") - before)
                .isEqualTo(1.0);

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:45:00Z", 1, 1));
        fixture.advanceWallClock(UPDATE);
        assertThat(fixture.late.isEmpty())
                .as("the gateway's buffered sample is a correction")
                .isTrue();
        assertThat(sums(fixture.hourly.readValue())).containsExactly(8L, 7L, 2L);
    }

    @Test
    void quiet_rule_after_a_replay_of_history_closes_every_open_hour_once_the_idle_timeout_has_passed() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:59:00Z", 2, 2));
        fixture.counts.pipeInput("b", sample("b", "2021-07-15T11:20:00Z", 4, 4));
        assertThat(fixture.hourly.readValuesToList())
                .extracting(HourlyActivity::getHour)
                .containsExactly(10);

        fixture.runFor(Duration.ofSeconds(50), UPDATE);
        assertThat(fixture.hourly.isEmpty()).as("within the idle timeout").isTrue();
        fixture.runFor(UPDATE.multipliedBy(2), UPDATE);

        assertThat(fixture.hourly.readKeyValuesToMap()).containsOnlyKeys("a", "b");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:59:30Z", 1, 1));
        fixture.advanceWallClock(UPDATE);
        assertThat(fixture.late.isEmpty()).isTrue();
        assertThat(fixture.hourly.readValue().getPaneIndex()).isEqualTo(1);
    }

    @Test
    void hive_that_keeps_sending_is_not_closed_by_the_wall_clock() {
        fixture.counts.pipeInput("b", sample("b", "2021-07-15T10:30:00Z", 1, 1));
        for (int minute = 31; minute < 60; minute++) {
            fixture.runFor(Duration.ofSeconds(50), UPDATE);
            fixture.counts.pipeInput("b", sample("b", "2021-07-15T10:" + minute + ":00Z", 1, 1));
        }
        assertThat(fixture.hourly.isEmpty())
                .as("its samples come within the idle timeout: only they close its hours")
                .isTrue();
    }

    @Test
    void hours_stay_open_while_the_input_partition_holds_unprocessed_records() {
        AtomicBoolean caughtUp = new AtomicBoolean(false);
        restartWith(SETTINGS, TopologyFixture.DEFAULT_WALL_CLOCK, partition -> caughtUp.get());
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 1, 1));

        fixture.runFor(IDLE.multipliedBy(10), UPDATE);
        assertThat(fixture.hourly.isEmpty())
                .as("lag: never quiet, whatever the wall clock")
                .isTrue();

        caughtUp.set(true);
        fixture.runFor(IDLE.minus(UPDATE), UPDATE);
        assertThat(fixture.hourly.isEmpty())
                .as("caught up for less than the idle timeout")
                .isTrue();
        fixture.runFor(UPDATE.multipliedBy(2), UPDATE);
        assertThat(fixture.hourly.readValue().getHiveId()).isEqualTo("a");
    }

    @Test
    void a_stall_of_the_stream_thread_starts_the_quiet_rules_wait_again() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 1, 1));
        fixture.runFor(IDLE.dividedBy(2), UPDATE);

        fixture.advanceWallClock(IDLE.multipliedBy(2)); // one punctuation after 2 min: the thread stalled
        assertThat(fixture.hourly.isEmpty())
                .as("the lag seen after a stall may miss what came during it")
                .isTrue();
        fixture.runFor(IDLE.minus(UPDATE), UPDATE);
        assertThat(fixture.hourly.isEmpty()).isTrue();
        fixture.runFor(UPDATE.multipliedBy(2), UPDATE);
        assertThat(fixture.hourly.readValue().getHiveId()).isEqualTo("a");
    }

    @Test
    void windows_are_aligned_to_utc_hours() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T09:59:59.999Z", 1, 0));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:00:00Z", 0, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T12:00:00Z", 0, 0));

        List<HourlyActivity> results = fixture.hourly.readValuesToList();
        assertThat(results).extracting(HourlyActivity::getHour).containsExactly(9, 10);
        assertThat(results).extracting(HourlyActivity::getEntries).containsExactly(1L, 0L);
        assertThat(results).extracting(HourlyActivity::getExits).containsExactly(0L, 1L);
        assertThat(results.get(1).getWindowEnd()).isEqualTo(Instant.parse("2021-07-15T11:00:00Z"));
    }

    @Test
    void resent_sample_is_counted_once() {
        double before = counter(MetricNames.TOPOLOGY_DUPLICATE_RECORDS, "stream", "entrance-counts");
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 3, 4));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 3, 4));
        fixture.counts.pipeInput("a", new EntranceCount("a", "gw-2", Instant.parse("2021-07-15T10:05:00Z"), 1, 1, 60));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 0, 0));

        HourlyActivity hour = fixture.hourly.readValue();
        assertThat(hour.getEntries()).as("gw-1's sample once, plus gw-2's").isEqualTo(4);
        assertThat(hour.getSamples()).isEqualTo(2);
        assertThat(counter(MetricNames.TOPOLOGY_DUPLICATE_RECORDS, "stream", "entrance-counts") - before)
                .isEqualTo(1.0);
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
        restartWith(SETTINGS, TopologyFixture.DEFAULT_WALL_CLOCK, InputLag.SYNCHRONOUS);
        HourlyActivity reversed = finalHourAfter(greater, smaller);

        assertThat(sums(inOrder)).isEqualTo(sums(reversed));
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
}
