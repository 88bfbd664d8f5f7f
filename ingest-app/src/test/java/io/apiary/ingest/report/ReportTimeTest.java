package io.apiary.ingest.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.read.TimeRange;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReportTimeTest {

    private static final ZoneId TORONTO = ZoneId.of("America/Toronto");

    private static long millis(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void should_name_utc_once_and_list_times_without_an_offset_when_the_zone_is_utc() {
        ReportTime time =
                new ReportTime(ZoneId.of("UTC"), millis("2021-07-12T00:00:00Z"), millis("2021-07-19T00:00:00Z"));

        assertThat(time.isUtc()).isTrue();
        assertThat(time.label()).isEqualTo("UTC");
        assertThat(time.minute(millis("2021-07-12T21:00:00Z"))).isEqualTo("2021-07-12 21:00");
        assertThat(time.secondWithOffset(Instant.parse("2021-07-12T21:00:05Z"))).isEqualTo("2021-07-12 21:00:05 UTC");
    }

    @Test
    void should_show_local_times_and_name_the_zone_and_offset_once_when_the_offset_does_not_change() {
        ReportTime time = new ReportTime(TORONTO, millis("2021-07-12T04:00:00Z"), millis("2021-07-19T04:00:00Z"));

        assertThat(time.isUtc()).isFalse();
        assertThat(time.offsetChanges()).isFalse();
        assertThat(time.label()).isEqualTo("America/Toronto, UTC\u221204:00");
        assertThat(time.minute(millis("2021-07-12T21:00:00Z"))).isEqualTo("2021-07-12 17:00");
        assertThat(time.range(TimeRange.days(LocalDate.of(2021, 7, 12), LocalDate.of(2021, 7, 18), TORONTO)))
                .isEqualTo("2021-07-12 to 2021-07-18");
    }

    @Test
    void should_give_every_time_its_offset_when_daylight_saving_time_ends_within_the_span() {
        // Given: 2021-11-07 02:00 EDT became 01:00 EST in Toronto, so 01:00 to 02:00 happened twice
        ReportTime time = new ReportTime(TORONTO, millis("2021-11-06T04:00:00Z"), millis("2021-11-09T05:00:00Z"));

        // Then
        assertThat(time.offsetChanges()).isTrue();
        assertThat(time.label()).isEqualTo("America/Toronto, UTC\u221205:00 and UTC\u221204:00");
        assertThat(time.minute(millis("2021-11-07T05:00:00Z"))).isEqualTo("2021-11-07 01:00 UTC\u221204:00");
        assertThat(time.minute(millis("2021-11-07T06:00:00Z"))).isEqualTo("2021-11-07 01:00 UTC\u221205:00");
    }

    @Test
    void should_name_a_fixed_offset_by_its_offset_alone() {
        ReportTime time = new ReportTime(ZoneOffset.ofHoursMinutes(5, 45), 0, 86_400_000L);

        assertThat(time.label()).isEqualTo("UTC+05:45");
        assertThat(time.minute(0)).isEqualTo("1970-01-01 05:45");
    }

    @Test
    void should_read_whole_days_of_the_zone_when_the_range_is_given_in_days() {
        TimeRange range = TimeRange.days(LocalDate.of(2021, 7, 12), LocalDate.of(2021, 7, 18), TORONTO);

        assertThat(range.from()).isEqualTo(Instant.parse("2021-07-12T04:00:00Z"));
        assertThat(range.to()).isEqualTo(Instant.parse("2021-07-19T04:00:00Z"));
    }

    @Test
    void should_put_time_ticks_on_round_local_times_and_skip_the_hour_a_spring_gap_removes() {
        // Given: 2021-03-14 02:00 EST became 03:00 EDT in Toronto
        long from = millis("2021-03-14T05:00:00Z"); // local midnight, EST
        long to = millis("2021-03-15T04:00:00Z"); // local midnight, EDT: a 23-hour day
        ReportTime time = new ReportTime(TORONTO, from, to);

        // When
        List<Axis.TimeTick> ticks = Axis.times(from, to, 12, time);

        // Then
        assertThat(ticks)
                .extracting(Axis.TimeTick::upper)
                .containsExactly(
                        "00:00", "04:00", "06:00", "08:00", "10:00", "12:00", "14:00", "16:00", "18:00", "20:00",
                        "22:00", "00:00");
        assertThat(ticks.get(0).lower()).isEqualTo("2021-03-14");
        assertThat(ticks.get(11).lower()).isEqualTo("2021-03-15");
    }

    /** Seeded: random zones, spans and tick counts. */
    @Test
    void should_give_increasing_ticks_inside_the_axis_on_round_local_times_when_zones_and_spans_vary() {
        Random random = new Random(20261207L);
        List<String> zones = new ArrayList<>(ZoneId.getAvailableZoneIds());
        zones.sort(null);
        long[] spans = {
            3_600_000L,
            6 * 3_600_000L,
            86_400_000L,
            3 * 86_400_000L,
            7 * 86_400_000L,
            40 * 86_400_000L,
            400 * 86_400_000L
        };
        for (int i = 0; i < 2_000; i++) {
            ZoneId zone = ZoneId.of(zones.get(random.nextInt(zones.size())));
            long from = millis("2000-01-01T00:00:00Z") + (long) (random.nextDouble() * 25 * 365 * 86_400_000L);
            long to = from + 1 + (long) (random.nextDouble() * spans[random.nextInt(spans.length)]);
            int maxTicks = 2 + random.nextInt(12);
            ReportTime time = new ReportTime(zone, from, to);

            List<Axis.TimeTick> ticks = Axis.times(from, to, maxTicks, time);

            String what = zone + " " + Instant.ofEpochMilli(from) + " to " + Instant.ofEpochMilli(to) + ", " + maxTicks;
            long longestStep = 28 * 86_400_000L; // beyond maxTicks of it, ticks are that far apart
            assertThat(ticks.size())
                    .as(what)
                    .isLessThanOrEqualTo(Math.max(maxTicks, (int) ((to - from) / longestStep) + 1));
            long previous = Long.MIN_VALUE;
            for (Axis.TimeTick tick : ticks) {
                assertThat(tick.time()).as(what).isBetween(from, to).isGreaterThan(previous);
                LocalDateTime local = LocalDateTime.ofInstant(Instant.ofEpochMilli(tick.time()), zone);
                assertThat(local.getSecond()).as(what).isZero();
                assertThat(tick.upper()).as(what).isIn(time.hourMinute(tick.time()), time.day(tick.time()));
                previous = tick.time();
            }
        }
    }

    @Test
    void should_tick_both_instants_of_a_repeated_local_time_and_name_the_new_offset_when_clocks_go_back() {
        // Given: 2024-10-27 03:00 CEST became 02:00 CET in Berlin; 02:00 to 03:00 local happened twice
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        long from = millis("2024-10-27T00:00:00Z"); // 02:00 CEST
        long to = millis("2024-10-27T02:00:00Z"); // 03:00 CET
        ReportTime time = new ReportTime(berlin, from, to);

        // When
        List<Axis.TimeTick> ticks = Axis.times(from, to, 9, time);

        // Then
        assertThat(ticks).extracting(Axis.TimeTick::time).isSorted().doesNotHaveDuplicates();
        assertThat(ticks)
                .extracting(t -> t.upper() + "|" + t.lower())
                .containsExactly(
                        "02:00|2024-10-27",
                        "02:15|",
                        "02:30|",
                        "02:45|",
                        "02:00|UTC+01:00",
                        "02:15|",
                        "02:30|",
                        "02:45|",
                        "03:00|");
    }

    @Test
    void should_name_an_offset_zone_once_and_read_whole_days_where_midnight_is_skipped() {
        assertThat(new ReportTime(ZoneId.of("UTC+05:45"), 0, 1).label()).isEqualTo("UTC+05:45");

        // Santiago skipped 2024-09-08 00:00: the day began at 01:00 (UTC-03:00)
        ZoneId santiago = ZoneId.of("America/Santiago");
        TimeRange day = TimeRange.days(LocalDate.of(2024, 9, 8), LocalDate.of(2024, 9, 8), santiago);
        assertThat(new ReportTime(santiago, day.fromMillis(), day.toMillis()).range(day))
                .isEqualTo("2024-09-08");
    }

    @Test
    void should_name_the_offset_of_the_range_end_when_a_change_falls_on_it() {
        // Given: Santiago moved from UTC-04:00 to UTC-03:00 at the end of 2024-09-07 (local)
        ZoneId santiago = ZoneId.of("America/Santiago");
        TimeRange day = TimeRange.days(LocalDate.of(2024, 9, 7), LocalDate.of(2024, 9, 7), santiago);

        // Then
        assertThat(new ReportTime(santiago, day.fromMillis(), day.toMillis()).label())
                .isEqualTo("America/Santiago, UTC\u221204:00 and UTC\u221203:00");
    }

    @Test
    void should_widen_a_range_to_whole_utc_hours_when_it_starts_or_ends_inside_one() {
        TimeRange kolkataDay =
                TimeRange.days(LocalDate.of(2024, 4, 7), LocalDate.of(2024, 4, 7), ZoneId.of("Asia/Kolkata"));

        assertThat(kolkataDay.wholeHours())
                .isEqualTo(new TimeRange(Instant.parse("2024-04-06T18:00:00Z"), Instant.parse("2024-04-07T19:00:00Z")));
        TimeRange utcDay = TimeRange.days(LocalDate.of(2024, 4, 7), LocalDate.of(2024, 4, 7));
        assertThat(utcDay.wholeHours()).isSameAs(utcDay);
    }
}
