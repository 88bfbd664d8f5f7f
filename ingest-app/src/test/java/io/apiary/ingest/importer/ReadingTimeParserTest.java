package io.apiary.ingest.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.importer.ReadingTimeParser.DstResolution;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReadingTimeParserTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @ParameterizedTest
    @ValueSource(
            strings = {
                "2023-02-29 12:00:00",
                "2024-04-31 00:00:00",
                "2021-13-01 00:00:00",
                "2021-06-01 24:00:00",
                "2021-06-01 12:60:00"
            })
    void a_date_or_time_that_does_not_exist_is_an_error_not_a_neighbouring_one(String text) {
        ReadingTimeParser parser = new ReadingTimeParser("yyyy-MM-dd HH:mm:ss[XXX]", ZoneOffset.UTC);

        assertThatThrownBy(() -> parser.parse(text)).isInstanceOf(DateTimeException.class);
    }

    @Test
    void the_29th_of_february_of_a_leap_year_and_two_digit_years_still_read() {
        assertThat(new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", ZoneOffset.UTC).parse("2024-02-29 12:00:00"))
                .isEqualTo(Instant.parse("2024-02-29T12:00:00Z"));
        assertThat(new ReadingTimeParser("dd/MM/yy HH:mm", ZoneOffset.UTC).parse("29/02/24 12:00"))
                .isEqualTo(Instant.parse("2024-02-29T12:00:00Z"));
        assertThatThrownBy(() -> new ReadingTimeParser("dd/MM/yy HH:mm", ZoneOffset.UTC).parse("29/02/23 12:00"))
                .isInstanceOf(DateTimeException.class);
        assertThat(new ReadingTimeParser("iso", ZoneOffset.UTC).parse("2024-02-29T12:00:00+01:00"))
                .isEqualTo(Instant.parse("2024-02-29T11:00:00Z"));
        assertThatThrownBy(() -> new ReadingTimeParser("iso", ZoneOffset.UTC).parse("2023-02-29T12:00:00"))
                .isInstanceOf(DateTimeException.class);
    }

    @Test
    void a_zone_or_offset_written_in_the_text_wins_over_the_given_zone_and_its_changes_are_flagged_too() {
        ReadingTimeParser named = new ReadingTimeParser("yyyy-MM-dd HH:mm VV", ZoneOffset.UTC);
        assertThat(named.parse("2021-06-01 12:00 America/New_York")).isEqualTo(Instant.parse("2021-06-01T16:00:00Z"));
        assertThat(new ReadingTimeParser("yyyy-MM-dd HH:mm z", ZoneOffset.UTC).parse("2021-06-01 12:00 CEST"))
                .isEqualTo(Instant.parse("2021-06-01T10:00:00Z"));
        assertThatThrownBy(() -> named.parse("2017-03-26 02:30 Europe/Berlin")).hasMessageContaining("does not exist");
        assertThat(new ReadingTimeParser("yyyy-MM-dd HH:mm XXX", BERLIN).parse("2017-03-26 02:30 +01:00"))
                .as("an offset makes any local time exact")
                .isEqualTo(Instant.parse("2017-03-26T01:30:00Z"));
    }

    @Test
    void a_date_only_pattern_reads_midnight_in_the_zone() {
        assertThat(new ReadingTimeParser("dd.MM.yyyy", BERLIN).parse("01.06.2021"))
                .isEqualTo(Instant.parse("2021-05-31T22:00:00Z"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "YYYY-MM-dd HH:mm:ss|gives no date",
                "MM-dd HH:mm|gives no date",
                "yyyy-MM-dd hh:mm|gives no time of day",
                "yyyy-MM-dd KK:mm:ss|gives no time of day"
            })
    void a_pattern_that_cannot_give_what_it_promises_is_refused_when_made(String pattern, String message) {
        assertThatThrownBy(() -> new ReadingTimeParser(pattern, ZoneOffset.UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void a_start_out_of_the_range_of_milliseconds_is_refused() {
        assertThatThrownBy(() -> new ReadingTimeParser(
                        "elapsed-s", ZoneOffset.UTC, DstResolution.REJECT, Instant.parse("+999999999-12-31T23:00:00Z")))
                .hasMessageContaining("out of the range of times");
    }

    @Test
    void a_y_inside_a_quoted_literal_stays_a_letter() {
        assertThat(ReadingTimeParser.prolepticYears("yyyy-MM-dd'T'HH 'year' yy"))
                .isEqualTo("uuuu-MM-dd'T'HH 'year' uu");
        assertThat(new ReadingTimeParser("'day' yyyy-MM-dd HH:mm", ZoneOffset.UTC).parse("day 2021-06-01 10:00"))
                .isEqualTo(Instant.parse("2021-06-01T10:00:00Z"));
    }

    @ParameterizedTest
    @CsvSource({
        "epoch-s,15.56,1970-01-01T00:00:15.560Z",
        "epoch-s,1600000000.123456,2020-09-13T12:26:40.123Z",
        "epoch-s,1600000000,2020-09-13T12:26:40Z",
        "epoch-ms,1600000000123.9,2020-09-13T12:26:40.123Z",
        "epoch-s,-1.5,1969-12-31T23:59:58.500Z"
    })
    void epoch_times_take_decimal_fractions_cut_to_milliseconds(String format, String text, String expected) {
        assertThat(new ReadingTimeParser(format, ZoneOffset.UTC).parse(text)).isEqualTo(Instant.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e9", "0x10", "", "12:00", "1.2.3", "99999999999999999999999"})
    void an_epoch_time_that_is_not_a_plain_decimal_in_range_is_an_error(String text) {
        assertThatThrownBy(() -> new ReadingTimeParser("epoch-s", ZoneOffset.UTC).parse(text))
                .isInstanceOf(DateTimeException.class);
    }

    @ParameterizedTest
    @CsvSource({
        "elapsed-ms,1500,2021-06-01T08:00:01.500Z",
        "elapsed-s,90.25,2021-06-01T08:01:30.250Z",
        "elapsed-min,1.5,2021-06-01T08:01:30Z",
        "elapsed-h,36,2021-06-02T20:00:00Z",
        "elapsed-s,0,2021-06-01T08:00:00Z"
    })
    void elapsed_times_count_from_the_start(String format, String text, String expected) {
        ReadingTimeParser parser = new ReadingTimeParser(
                format, ZoneOffset.UTC, DstResolution.REJECT, Instant.parse("2021-06-01T08:00:00Z"));

        assertThat(parser.parse(text)).isEqualTo(Instant.parse(expected));
    }

    @Test
    void an_elapsed_format_needs_a_start_a_negative_elapsed_time_is_an_error_and_others_refuse_a_start() {
        assertThatThrownBy(() -> new ReadingTimeParser("elapsed-s", ZoneOffset.UTC))
                .hasMessageContaining("--time-start");
        assertThatThrownBy(() -> new ReadingTimeParser("iso", ZoneOffset.UTC, DstResolution.REJECT, Instant.EPOCH))
                .hasMessageContaining("elapsed-* time formats only");
        ReadingTimeParser parser = new ReadingTimeParser(
                "elapsed-s", ZoneOffset.UTC, DstResolution.REJECT, Instant.parse("2021-06-01T08:00:00Z"));
        assertThatThrownBy(() -> parser.parse("-1")).hasMessageContaining("before the start");
    }

    @Test
    void a_spring_gap_time_is_rejected_by_default_naming_the_change_and_both_readings() {
        ReadingTimeParser parser = new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", BERLIN);

        assertThatThrownBy(() -> parser.parse("2017-03-26 02:30:00"))
                .isInstanceOf(DateTimeException.class)
                .hasMessage("local time 2017-03-26T02:30 does not exist in Europe/Berlin (clocks went from 02:00 +01:00"
                        + " to 03:00 +02:00); --dst earlier reads it as 2017-03-26T01:30:00Z, --dst later as "
                        + "2017-03-26T00:30:00Z");
        assertThat(parser.parse("2017-03-26 01:59:59")).isEqualTo(Instant.parse("2017-03-26T00:59:59Z"));
        assertThat(parser.parse("2017-03-26 03:00:00")).isEqualTo(Instant.parse("2017-03-26T01:00:00Z"));
    }

    @Test
    void an_autumn_overlap_time_is_rejected_by_default_and_read_as_either_instant_on_request() {
        String twice = "2017-10-29 02:30:00";
        assertThatThrownBy(() -> new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", BERLIN).parse(twice))
                .hasMessageContaining("occurs twice in Europe/Berlin")
                .hasMessageContaining("--dst infer reads both readings of the repeated hour, each at its own instant,"
                        + " from the file's order (2017-10-29T00:30:00Z on the first pass, 2017-10-29T01:30:00Z once"
                        + " the times went back); --dst earlier reads every one as 2017-10-29T00:30:00Z and --dst"
                        + " later as 2017-10-29T01:30:00Z, so the second reading of a sensor overwrites the first");

        ReadingTimeParser.Parsed earlier =
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", BERLIN, DstResolution.EARLIER, null).parseWithNote(twice);
        ReadingTimeParser.Parsed later =
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", BERLIN, DstResolution.LATER, null).parseWithNote(twice);
        assertThat(earlier.instant()).isEqualTo(Instant.parse("2017-10-29T00:30:00Z"));
        assertThat(later.instant()).isEqualTo(Instant.parse("2017-10-29T01:30:00Z"));
        assertThat(earlier.note()).endsWith("read as 2017-10-29T00:30:00Z (--dst earlier)");
        assertThat(later.note()).endsWith("read as 2017-10-29T01:30:00Z (--dst later)");
    }

    @Test
    void a_spring_gap_time_resolved_takes_the_offset_before_or_after_the_change() {
        assertThat(new ReadingTimeParser("iso", BERLIN, DstResolution.EARLIER, null).parse("2017-03-26T02:30:00"))
                .isEqualTo(Instant.parse("2017-03-26T01:30:00Z"));
        assertThat(new ReadingTimeParser("iso", BERLIN, DstResolution.LATER, null).parse("2017-03-26T02:30:00"))
                .isEqualTo(Instant.parse("2017-03-26T00:30:00Z"));
        assertThat(new ReadingTimeParser("iso", BERLIN, DstResolution.LATER, null)
                        .parseWithNote("2017-03-26T03:30:00")
                        .note())
                .as("an ordinary time has no note")
                .isNull();
    }

    /**
     * Seeded property: every local minute of a Berlin year either reads to the one instant whose
     * Berlin wall time it is, or, in a gap or an overlap, is rejected by default; the earlier and
     * later readings of an overlap minute are the two instants that show it, an hour apart.
     */
    @Test
    void every_local_minute_of_a_year_reads_back_to_its_wall_time_or_is_flagged() {
        ReadingTimeParser reject = new ReadingTimeParser("yyyy-MM-dd HH:mm", BERLIN);
        ReadingTimeParser earlier = new ReadingTimeParser("yyyy-MM-dd HH:mm", BERLIN, DstResolution.EARLIER, null);
        ReadingTimeParser later = new ReadingTimeParser("yyyy-MM-dd HH:mm", BERLIN, DstResolution.LATER, null);
        java.time.format.DateTimeFormatter text = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm");
        Random random = new Random(20170326);
        List<String> flagged = new ArrayList<>();
        java.time.LocalDateTime first = java.time.LocalDateTime.of(2017, 1, 1, 0, 0);
        for (int i = 0; i < 20_000; i++) {
            java.time.LocalDateTime local = first.plusMinutes(random.nextInt(365 * 24 * 60));
            if (i < 120) { // and both changes, minute by minute
                local = java.time.LocalDateTime.of(2017, i < 60 ? 3 : 10, i < 60 ? 26 : 29, 2, i % 60);
            }
            String t = local.format(text);
            try {
                Instant instant = reject.parse(t);
                assertThat(instant.atZone(BERLIN).toLocalDateTime()).isEqualTo(local);
            } catch (DateTimeException e) {
                flagged.add(t);
                Instant a = earlier.parse(t);
                Instant b = later.parse(t);
                assertThat(Math.abs(b.getEpochSecond() - a.getEpochSecond())).isEqualTo(3_600);
                if (local.getMonthValue() == 10) {
                    assertThat(a.atZone(BERLIN).toLocalDateTime()).isEqualTo(local);
                    assertThat(b.atZone(BERLIN).toLocalDateTime()).isEqualTo(local);
                    assertThat(a).isBefore(b);
                }
            }
        }
        assertThat(flagged)
                .allMatch(t -> t.startsWith("2017-03-26 02:") || t.startsWith("2017-10-29 02:"))
                .contains("2017-03-26 02:00", "2017-03-26 02:59", "2017-10-29 02:00", "2017-10-29 02:59");
    }
}
