package io.apiary.ingest.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.schema.EntranceCount;
import java.io.StringReader;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Interval logs and event logs into entrance-count samples: what is read, what is reported, in what order. */
class CountLogParserTest {

    private static final CountLogParser.Intervals FIVE_MINUTES =
            new CountLogParser.Intervals("in", "out", 300, CountLogParser.TimeMark.END);
    private static final CountLogParser.Events PER_MINUTE =
            new CountLogParser.Events("dir", Set.of("in", "1"), Set.of("OUT", "-1"), 60);

    private final List<CsvReadingParser.Problem> problems = new ArrayList<>();

    private static CountLogParser parser(
            CountLogParser.Layout layout,
            CsvReadingParser.HiveSource hive,
            ReadingTimeParser times,
            Character comment) {
        return new CountLogParser("time", times, hive, layout, "gw", ',', comment, 1_000);
    }

    private static CountLogParser intervals(CountLogParser.Intervals layout) {
        return parser(
                layout,
                CsvReadingParser.HiveSource.column("hive"),
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", ZoneOffset.UTC),
                null);
    }

    private CountLogParser.Result parse(CountLogParser parser, String csv) {
        return parser.parse(new StringReader(csv), problems::add);
    }

    private static EntranceCount sample(String hive, String end, int in, int out, int interval) {
        return new EntranceCount(hive, "gw", Instant.parse(end), in, out, interval);
    }

    @Test
    void should_make_one_sample_per_interval_line_sorted_by_time_across_hives() {
        CountLogParser.Result result = parse(intervals(FIVE_MINUTES), """
                time,hive,in,out
                2021-07-15 10:05:00,a,12,9
                2021-07-15 10:10:00,a,0,3
                2021-07-15 10:00:00,b,7,7
                2021-07-15 10:05:00,b,1.0,+2
                """);

        assertThat(problems).isEmpty();
        assertThat(result.samples())
                .extracting(CountLogParser.Sample::count)
                .containsExactly(
                        sample("b", "2021-07-15T10:00:00Z", 7, 7, 300),
                        sample("a", "2021-07-15T10:05:00Z", 12, 9, 300),
                        sample("b", "2021-07-15T10:05:00Z", 1, 2, 300),
                        sample("a", "2021-07-15T10:10:00Z", 0, 3, 300));
        assertThat(result.samples()).extracting(CountLogParser.Sample::lines).containsExactly("4", "2", "5", "3");
        assertThat(result.totals()).isEqualTo(new CountLogParser.Totals(4, 0, 4, 0, 0, 0, 0, 0));
    }

    @Test
    void should_add_the_interval_to_times_that_mark_its_start() {
        CountLogParser.Result result = parse(
                intervals(new CountLogParser.Intervals("in", "out", 300, CountLogParser.TimeMark.START)),
                "time,hive,in,out\n2021-07-15 10:55:00,a,4,5\n");

        assertThat(result.samples().get(0).count().getEventTime()).isEqualTo(Instant.parse("2021-07-15T11:00:00Z"));
    }

    @Test
    void should_reject_each_unreadable_line_with_its_number_and_keep_the_others() {
        CountLogParser.Result result = parse(intervals(FIVE_MINUTES), """
                time,hive,in,out
                2021-07-15 10:05:00,a,12,9
                2021-07-15 10:10:00,a,,3
                2021-07-15 10:15:00,a,-1,3
                2021-07-15 10:20:00,a,1.5,3
                2021-07-15 10:25:00,a,100001,3
                2021-07-15 10:30:00,a,3
                2023-02-29 12:00:00,a,1,1
                2021-07-15 10:40:00,,1,1
                2021-07-15 10:45:00,a,1,lots
                """);

        assertThat(result.samples()).hasSize(1);
        assertThat(result.totals().rejectedRows()).isEqualTo(8);
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::line)
                .containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(problems.get(0).toString())
                .isEqualTo("line 3, column 'in': empty cell, no count (a counter that saw no bee writes 0)");
        assertThat(problems.get(1).message()).isEqualTo("a count of bees cannot be negative: '-1'");
        assertThat(problems.get(2).message()).isEqualTo("not a whole number of bees: '1.5'");
        assertThat(problems.get(3).message()).startsWith("100001 bees is more than the 100000 a sample may hold");
        assertThat(problems.get(4).message()).isEqualTo("expected 4 fields, found 3");
        assertThat(problems.get(5).message()).contains("cannot read time '2023-02-29 12:00:00'");
        assertThat(problems.get(6).toString()).isEqualTo("line 9, column 'hive': no hive id");
        assertThat(problems.get(7).message()).isEqualTo("not a whole number of bees: 'lots'");
    }

    @Test
    void should_send_an_exact_duplicate_once_and_report_a_conflict_keeping_the_greater_in_either_order() {
        String header = "time,hive,in,out\n";
        String first = "2021-07-15 10:05:00,a,12,9\n";
        String greater = "2021-07-15 10:05:00,a,14,2\n";
        for (String csv : List.of(header + first + greater + first, header + greater + first + first)) {
            problems.clear();
            CountLogParser.Result result = parse(intervals(FIVE_MINUTES), csv);

            assertThat(result.samples())
                    .extracting(CountLogParser.Sample::count)
                    .containsExactly(sample("a", "2021-07-15T10:05:00Z", 14, 2, 300));
            assertThat(result.totals().duplicates()).isEqualTo(1);
            assertThat(result.totals().conflicts()).isEqualTo(1);
            assertThat(problems).hasSize(1);
            assertThat(problems.get(0).message())
                    .startsWith("conflicting duplicate of line 2: hive a interval ending" + " 2021-07-15T10:05:00Z")
                    .contains("14 in, 2 out", "is sent, the greater");
        }
    }

    @Test
    void should_report_a_spring_gap_and_an_autumn_overlap_unless_a_resolution_is_asked_for() {
        String csv = """
                # a Berlin counter log
                time,hive,in,out
                2017-03-26 01:55:00,a,1,1
                2017-03-26 02:30:00,a,2,2
                2017-10-29 02:30:00,a,3,3
                2017-10-29 02:30:00,a,4,4
                """;
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        CountLogParser.Result rejected = parse(
                parser(
                        FIVE_MINUTES,
                        CsvReadingParser.HiveSource.column("hive"),
                        new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", berlin),
                        '#'),
                csv);

        assertThat(rejected.samples()).hasSize(1);
        assertThat(rejected.totals().commentLines()).isEqualTo(1);
        assertThat(problems).extracting(CsvReadingParser.Problem::line).containsExactly(4L, 5L, 6L);

        problems.clear();
        CountLogParser.Result inferred = parse(
                parser(
                        FIVE_MINUTES,
                        CsvReadingParser.HiveSource.column("hive"),
                        new ReadingTimeParser(
                                "yyyy-MM-dd HH:mm:ss", berlin, ReadingTimeParser.DstResolution.INFER, null),
                        '#'),
                csv);

        // the gap cannot be inferred; the overlap's repeat is the second instant, so no two samples merge
        assertThat(inferred.samples())
                .extracting(s -> s.count().getEventTime())
                .containsExactly(
                        Instant.parse("2017-03-26T00:55:00Z"),
                        Instant.parse("2017-10-29T00:30:00Z"),
                        Instant.parse("2017-10-29T01:30:00Z"));
        assertThat(inferred.totals().resolvedTimes()).isEqualTo(2);
        assertThat(inferred.totals().rejectedRows()).isEqualTo(1);
        assertThat(problems).extracting(CsvReadingParser.Problem::line).containsExactly(4L, 5L, 6L);
        assertThat(problems.get(1).message()).startsWith("resolved: ");

        problems.clear();
        CountLogParser.Result later = parse(
                parser(
                        FIVE_MINUTES,
                        CsvReadingParser.HiveSource.column("hive"),
                        new ReadingTimeParser(
                                "yyyy-MM-dd HH:mm:ss", berlin, ReadingTimeParser.DstResolution.LATER, null),
                        '#'),
                csv);

        // 'later' maps both overlap lines to one instant: a conflicting duplicate, reported, never merged silently
        assertThat(later.samples()).hasSize(3);
        assertThat(later.totals().conflicts()).isEqualTo(1);
    }

    @Test
    void should_count_passages_per_bucket_keeping_each_in_its_own_hour() {
        CountLogParser parser = parser(
                PER_MINUTE,
                CsvReadingParser.HiveSource.fixed("h7"),
                new ReadingTimeParser("iso", ZoneOffset.UTC),
                null);
        CountLogParser.Result result = parse(parser, """
                time,dir
                2021-07-15T09:59:01Z,in
                2021-07-15T09:59:59.999Z,IN
                2021-07-15T09:59:30Z,out
                2021-07-15T10:00:00Z,1
                2021-07-15T10:00:59Z,-1
                2021-07-15T10:00:10Z,sideways
                """);

        assertThat(result.samples())
                .extracting(CountLogParser.Sample::count)
                .containsExactly(
                        new EntranceCount("h7", "gw", Instant.parse("2021-07-15T09:59:59.999Z"), 2, 1, 60),
                        new EntranceCount("h7", "gw", Instant.parse("2021-07-15T10:00:59Z"), 1, 1, 60));
        assertThat(result.samples()).extracting(CountLogParser.Sample::lines).containsExactly("2-4", "5-6");
        assertThat(result.totals()).isEqualTo(new CountLogParser.Totals(6, 5, 2, 1, 0, 0, 0, 0));
        assertThat(problems)
                .singleElement()
                .hasToString("line 7, column 'dir': direction 'sideways' is neither in"
                        + " [1, in] nor out [-1, out] (--in-values, --out-values)");
    }

    @Test
    void should_sum_a_seeded_random_event_log_to_the_hourly_counts_of_its_lines() {
        Random random = new Random(20261202L);
        StringBuilder csv = new StringBuilder("time,hive,dir\n");
        Map<String, long[]> expected = new HashMap<>(); // hive + hour -> in, out
        long start = Instant.parse("2021-07-15T00:00:00Z").toEpochMilli();
        for (int i = 0; i < 5_000; i++) {
            long t = start + (long) (random.nextDouble() * 6 * 3_600_000L);
            String hive = "h" + random.nextInt(3);
            boolean in = random.nextBoolean();
            csv.append(Instant.ofEpochMilli(t))
                    .append(',')
                    .append(hive)
                    .append(',')
                    .append(in ? "in" : "out")
                    .append('\n');
            expected.computeIfAbsent(hive + "@" + t / 3_600_000L, k -> new long[2])[in ? 0 : 1]++;
        }
        CountLogParser parser = new CountLogParser(
                "time",
                new ReadingTimeParser("iso", ZoneOffset.UTC),
                CsvReadingParser.HiveSource.column("hive"),
                new CountLogParser.Events("dir", Set.of("in"), Set.of("out"), 300),
                "gw",
                ',',
                null,
                1_000);
        CountLogParser.Result result = parse(parser, csv.toString());

        Map<String, long[]> summed = new HashMap<>();
        Instant previous = Instant.MIN;
        for (CountLogParser.Sample s : result.samples()) {
            assertThat(s.count().getEventTime()).isAfterOrEqualTo(previous);
            previous = s.count().getEventTime();
            long[] sums = summed.computeIfAbsent(
                    s.count().getHiveId() + "@" + s.count().getEventTime().toEpochMilli() / 3_600_000L,
                    k -> new long[2]);
            sums[0] += s.count().getBeesIn();
            sums[1] += s.count().getBeesOut();
        }
        assertThat(summed).usingRecursiveComparison().isEqualTo(expected);
        assertThat(result.totals().passages()).isEqualTo(5_000);
        assertThat(result.samples()).hasSizeLessThanOrEqualTo(3 * 72);
    }

    @Test
    void should_add_passages_of_one_bucket_across_files_and_find_duplicates_across_interval_files() {
        CountLogParser events = parser(
                PER_MINUTE, CsvReadingParser.HiveSource.fixed("x"), new ReadingTimeParser("iso", ZoneOffset.UTC), null);
        events.read(
                new StringReader("time,dir\n2021-07-15T10:00:05Z,in\n2021-07-15T10:00:06Z,in\n"),
                CsvReadingParser.HiveSource.fixed("h"),
                "a.csv",
                problems::add);
        events.read(
                new StringReader("time,dir\n2021-07-15T10:00:50Z,out\n2021-07-15T10:00:51Z,in\n"),
                CsvReadingParser.HiveSource.fixed("h"),
                "b.csv",
                problems::add);
        CountLogParser.Finished buckets = events.finish(problems::add);

        // two files of one hive: their passages add up, never two samples of one identity (the topology would keep one)
        assertThat(buckets.samples()).singleElement().satisfies(s -> {
            assertThat(s.count())
                    .isEqualTo(new EntranceCount("h", "gw", Instant.parse("2021-07-15T10:00:51Z"), 3, 1, 60));
            assertThat(s.lines()).isEqualTo("a.csv:2-b.csv:3");
        });

        CountLogParser intervals = intervals(FIVE_MINUTES);
        intervals.read(
                new StringReader("time,in,out\n2021-07-15 10:05:00,12,9\n2021-07-15 10:10:00,1,1\n"),
                CsvReadingParser.HiveSource.fixed("h"),
                "a.csv",
                problems::add);
        intervals.read(
                new StringReader("time,in,out\n2021-07-15 10:05:00,12,9\n2021-07-15 10:10:00,3,1\n"),
                CsvReadingParser.HiveSource.fixed("h"),
                "b.csv",
                problems::add);
        CountLogParser.Finished finished = intervals.finish(problems::add);

        assertThat(finished.samples())
                .extracting(CountLogParser.Sample::count)
                .containsExactly(
                        sample("h", "2021-07-15T10:05:00Z", 12, 9, 300),
                        sample("h", "2021-07-15T10:10:00Z", 3, 1, 300));
        assertThat(finished.duplicates()).isEqualTo(1);
        assertThat(finished.conflicts()).isEqualTo(1);
        assertThat(problems)
                .singleElement()
                .extracting(CsvReadingParser.Problem::message)
                .asString()
                .contains("(line a.csv:3) and 3 in, 1 out (line b.csv:3); line b.csv:3 is sent");
        assertThatThrownBy(() -> intervals.finish(problems::add)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void should_give_two_parts_of_one_bucket_from_two_runs_two_identities_and_a_rerun_the_same() {
        String first = "time,dir\n2021-07-15T10:00:10Z,in\n2021-07-15T10:00:20Z,in\n";
        String second = "time,dir\n2021-07-15T10:00:30Z,in\n2021-07-15T10:01:30Z,in\n";
        CountLogParser parser1 = parser(
                PER_MINUTE, CsvReadingParser.HiveSource.fixed("h"), new ReadingTimeParser("iso", ZoneOffset.UTC), null);
        CountLogParser parser2 = parser(
                PER_MINUTE, CsvReadingParser.HiveSource.fixed("h"), new ReadingTimeParser("iso", ZoneOffset.UTC), null);
        CountLogParser again = parser(
                PER_MINUTE, CsvReadingParser.HiveSource.fixed("h"), new ReadingTimeParser("iso", ZoneOffset.UTC), null);
        EntranceCount a = parse(parser1, first).samples().get(0).count();
        EntranceCount b = parse(parser2, second).samples().get(0).count();

        // (hive, gateway, event time) identifies a sample in the topology: equal ones with other counts are a conflict
        assertThat(a.getEventTime()).isNotEqualTo(b.getEventTime());
        assertThat(a.getEventTime()).isEqualTo(Instant.parse("2021-07-15T10:00:20Z"));
        assertThat(parse(again, first).samples().get(0).count()).isEqualTo(a);
    }

    @Test
    void should_not_take_two_passages_at_one_ambiguous_time_for_the_clock_going_back() {
        CountLogParser parser = parser(
                PER_MINUTE,
                CsvReadingParser.HiveSource.fixed("h"),
                new ReadingTimeParser(
                        "yyyy-MM-dd HH:mm:ss", ZoneId.of("Europe/Berlin"), ReadingTimeParser.DstResolution.INFER, null),
                null);
        CountLogParser.Result result = parse(parser, """
                time,dir
                2024-10-27 02:10:00,in
                2024-10-27 02:10:00,in
                2024-10-27 02:50:00,in
                2024-10-27 02:05:00,out
                2024-10-27 02:05:00,out
                """);

        // first pass 02:10 and 02:50 (+02:00: 00:10Z, 00:50Z), then the clock went back: 02:05 is +01:00, 01:05Z
        assertThat(result.samples())
                .extracting(CountLogParser.Sample::count)
                .containsExactly(
                        new EntranceCount("h", "gw", Instant.parse("2024-10-27T00:10:00Z"), 2, 0, 60),
                        new EntranceCount("h", "gw", Instant.parse("2024-10-27T00:50:00Z"), 1, 0, 60),
                        new EntranceCount("h", "gw", Instant.parse("2024-10-27T01:05:00Z"), 0, 2, 60));
    }

    @Test
    void should_reject_times_and_counts_the_pipeline_cannot_take_as_lines() {
        CountLogParser parser = new CountLogParser(
                "time",
                new ReadingTimeParser("epoch-ms", ZoneOffset.UTC),
                CsvReadingParser.HiveSource.fixed("a"),
                FIVE_MINUTES,
                "gw",
                ',',
                null,
                10);
        CountLogParser.Result result = parse(parser, """
                time,in,out
                9223372036854775807,1,1
                -1000,1,1
                1626343500000,99999999999,1
                1626343500000,3,1
                """);

        assertThat(result.samples()).hasSize(1);
        assertThat(problems).extracting(CsvReadingParser.Problem::line).containsExactly(2L, 3L, 4L);
        assertThat(problems.get(0).message()).contains("before year 10000, the range the pipeline takes");
        assertThat(problems.get(1).message()).contains("is not after 1970-01-01T00:00:00Z");
        assertThat(problems.get(2).message()).startsWith("99999999999 bees is more than the 100000");
    }

    @Test
    void should_refuse_a_file_with_more_samples_than_it_may_hold_before_anything_is_sent() {
        CountLogParser parser = new CountLogParser(
                "time",
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", ZoneOffset.UTC),
                CsvReadingParser.HiveSource.fixed("a"),
                FIVE_MINUTES,
                "gw",
                ',',
                null,
                2);

        assertThatThrownBy(() -> parser.parse(new StringReader("""
                time,in,out
                2021-07-15 10:05:00,1,1
                2021-07-15 10:10:00,1,1
                2021-07-15 10:15:00,1,1
                """), problems::add))
                .isInstanceOf(CountLogParser.TooManySamples.class)
                .hasMessageContaining("The input holds more than 2 samples (at line 4)")
                .hasMessageContaining("--max-samples");
    }

    @Test
    void should_refuse_layouts_that_cannot_be_right() {
        assertThatThrownBy(() -> new CountLogParser.Events("dir", Set.of("in"), Set.of("out"), 7))
                .hasMessageContaining("divides an hour");
        assertThatThrownBy(() -> new CountLogParser.Events("dir", Set.of("in", "x"), Set.of("X"), 60))
                .hasMessageContaining("[x] mean both in and out");
        assertThatThrownBy(() -> new CountLogParser.Intervals("in", "out", 3_601, CountLogParser.TimeMark.END))
                .hasMessageContaining("1 to 3600 s");
        assertThatThrownBy(() -> new CountLogParser.Intervals("n", "n", 60, CountLogParser.TimeMark.END))
                .hasMessageContaining("must differ");
        assertThatThrownBy(() -> new CountLogParser(
                        "in",
                        new ReadingTimeParser("iso", ZoneOffset.UTC),
                        CsvReadingParser.HiveSource.fixed("a"),
                        FIVE_MINUTES,
                        "gw",
                        ',',
                        null,
                        10))
                .hasMessageContaining("two roles");
    }

    @Test
    void should_name_the_columns_a_file_has_when_one_is_missing() {
        assertThatThrownBy(() -> intervals(FIVE_MINUTES).checkHeader(new StringReader("time,hive,bees_in,out\n")))
                .hasMessage("The CSV header lacks column(s) 'in'; its columns are [time, hive, bees_in, out]");
    }

    @Test
    void should_tell_whether_a_data_line_follows_the_header() {
        assertThat(intervals(FIVE_MINUTES).checkHeader(new StringReader("time,hive,in,out\n\n")))
                .isFalse();
        assertThat(intervals(FIVE_MINUTES)
                        .checkHeader(new StringReader("time,hive,in,out\n2021-07-15 10:05:00,a,1,2\n")))
                .isTrue();
    }

    @Test
    void should_count_the_rejected_lines_whose_count_or_direction_cells_are_all_empty() {
        CountLogParser counts = intervals(FIVE_MINUTES);
        CountLogParser.FileTotals totals =
                counts.read(new StringReader("""
                        time,hive,in,out
                        2021-07-15 10:05:00,a,,
                        2021-07-15 10:10:00,a,3,
                        2021-07-15 10:15:00,a,,
                        """), CsvReadingParser.HiveSource.column("hive"), null, problems::add);

        assertThat(totals).isEqualTo(new CountLogParser.FileTotals(3, 0, 3, 0, 0, 2));
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::toString)
                .containsExactly(
                        "line 2, column 'in': empty cell, no count (a counter that saw no bee writes 0)",
                        "line 3, column 'out': empty cell, no count (a counter that saw no bee writes 0)",
                        "line 4, column 'in': empty cell, no count (a counter that saw no bee writes 0)");

        CountLogParser events = parser(
                PER_MINUTE, CsvReadingParser.HiveSource.fixed("h"), new ReadingTimeParser("iso", ZoneOffset.UTC), null);
        assertThat(events.read(
                        new StringReader("time,dir\n2021-07-15T10:00:05Z,\n2021-07-15T10:00:06Z,in\n"),
                        CsvReadingParser.HiveSource.fixed("h"),
                        null,
                        problems::add))
                .isEqualTo(new CountLogParser.FileTotals(2, 1, 1, 0, 0, 1));
    }
}
