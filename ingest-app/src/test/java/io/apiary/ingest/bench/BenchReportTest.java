package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.bench.BenchChecks.Check;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {

    @TempDir
    Path dir;

    static BenchResult result(
            String run, String strategy, double perSecond, double clientCpu, double cassandraCpu, boolean completed) {
        return result(run, strategy, perSecond, clientCpu, cassandraCpu, Double.NaN, 50, completed);
    }

    /** As above, with the Cassandra CPU after the window (us per row) and the p99 write latency (ms) given. */
    static BenchResult result(
            String run,
            String strategy,
            double perSecond,
            double clientCpu,
            double cassandraCpu,
            double cassandraAfterCpu,
            double p99,
            boolean completed) {
        return new BenchResult(
                run,
                strategy,
                "rows",
                (long) (perSecond * 10),
                10,
                clientCpu,
                cassandraCpu,
                cassandraAfterCpu,
                Double.NaN,
                run.equals("naive") ? 1 : 20,
                100,
                5,
                p99,
                300,
                120,
                completed,
                completed ? "" : "timed out");
    }

    /** Ceiling 60k rows/s, 6 us client, 20 us Cassandra; the time sink 2.5x naive, 2.5x spark. */
    private static final List<BenchResult> RESULTS = List.of(
            result("ceiling", "time", 60_000, 6, 20, true),
            result("naive", "time", 20_000, 12, 50, true),
            result("sink", "time", 50_000, 8.4, 22, true),
            result("sink", "hash", 10_000, 40, 100, true),
            result("spark", "time", 20_000, 30, 40, true),
            result("end-to-end", "time", 40_000, 30, 30, true));

    private static Map<String, Check> checks(List<BenchResult> results) {
        Map<String, Check> checks = new HashMap<>();
        BenchChecks.of(results).forEach(c -> checks.put(c.name(), c));
        return checks;
    }

    @Test
    void sink_rows_per_second_is_held_to_two_and_a_half_times_the_naive_writers() {
        Map<String, Check> checks = checks(RESULTS);

        assertThat(checks.get("sink/naive rows/s (time)").value()).isEqualTo(2.5);
        assertThat(checks.get("sink/naive rows/s (time)").met()).isTrue();
        assertThat(checks.get("sink/naive rows/s (hash)").value()).isEqualTo(0.5);
        assertThat(checks.get("sink/naive rows/s (hash)").met()).isFalse();
        assertThat(checks(List.of(
                                result("naive", "time", 20_000, 12, 50, true),
                                result("sink", "time", 49_000, 2, 20, true)))
                        .get("sink/naive rows/s (time)")
                        .met())
                .as("2.45 is below 2.5")
                .isFalse();
    }

    @Test
    void sink_rows_per_second_is_held_to_twice_the_spark_runs_when_it_ran() {
        assertThat(checks(RESULTS).get("sink/spark rows/s (time)").value()).isEqualTo(2.5);
        assertThat(checks(RESULTS).get("sink/spark rows/s (time)").met()).isTrue();
        assertThat(checks(RESULTS).get("sink/spark rows/s (hash)").met())
                .as("0.5")
                .isFalse();
        assertThat(checks(RESULTS.subList(0, 4)).keySet()).noneMatch(name -> name.startsWith("sink/spark"));
    }

    @Test
    void sink_cassandra_cpu_per_row_is_held_to_1_15_times_the_ceilings() {
        Map<String, Check> checks = checks(RESULTS);

        assertThat(checks.get("sink/ceiling Cassandra CPU per row (time)").value())
                .isCloseTo(1.1, within(1e-9));
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (time)").met())
                .isTrue();
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (hash)").value())
                .isEqualTo(5.0);
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (hash)").met())
                .isFalse();
        assertThat(checks(List.of(
                                result("ceiling", "time", 60_000, 6, 20, true),
                                result("sink", "time", 50_000, 6, 23.2, true)))
                        .get("sink/ceiling Cassandra CPU per row (time)")
                        .met())
                .as("1.16 is above 1.15")
                .isFalse();
    }

    @Test
    void cassandra_checks_count_what_each_run_left_for_after_its_window_and_report_the_windows_alone() {
        // the ceiling's window holds 10 us of its 20; the sink's 18 of its 22: a window-only ratio of 1.8
        List<BenchResult> results = List.of(
                result("ceiling", "time", 60_000, 6, 10, 10, 50, true),
                result("sink", "time", 50_000, 8, 18, 4, 50, true),
                result("end-to-end", "time", 40_000, 30, 25, 6, 50, true));
        Map<String, Check> checks = checks(results);

        assertThat(checks.get("sink/ceiling Cassandra CPU per row (time)").value())
                .isCloseTo(1.1, within(1e-9));
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (time)").met())
                .isTrue();
        assertThat(checks.get("sink/ceiling Cassandra CPU/row, window only (time)")
                        .value())
                .isCloseTo(1.8, within(1e-9));
        assertThat(checks.get("sink/ceiling Cassandra CPU/row, window only (time)")
                        .met())
                .isNull();
        assertThat(checks.get("end-to-end/sink Cassandra CPU per row (time)").value())
                .isCloseTo(31 / 22.0, within(1e-9));
        assertThat(checks.get("end-to-end/sink Cassandra CPU/row, window only (time)")
                        .value())
                .isCloseTo(25 / 18.0, within(1e-9));
        assertThat(results.get(1).cassandraAllCpuMicros()).isEqualTo(22);
        assertThat(results.get(1).toMap())
                .containsEntry("cassandra_after_cpu_us_per_item", 4.0)
                .containsEntry("cassandra_all_cpu_us_per_item", 22.0);

        List<BenchResult> oneUnmeasured = List.of(
                result("ceiling", "time", 60_000, 6, 10, true), result("sink", "time", 50_000, 8, 18, 4, 50, true));
        assertThat(checks(oneUnmeasured)
                        .get("sink/ceiling Cassandra CPU per row (time)")
                        .value())
                .as("without the ceiling's figure after its window, the windows are compared")
                .isCloseTo(1.8, within(1e-9));
    }

    @Test
    void sink_client_cpu_per_row_is_a_ratio_to_the_ceiling_clients_held_to_1_5() {
        Map<String, Check> checks = checks(RESULTS);

        assertThat(checks.get("sink/ceiling client CPU per row (time)").value()).isCloseTo(1.4, within(1e-9));
        assertThat(checks.get("sink/ceiling client CPU per row (time)").met()).isTrue();
        assertThat(checks.get("sink/ceiling client CPU per row (hash)").value()).isCloseTo(40 / 6.0, within(1e-9));
        assertThat(checks.get("sink/ceiling client CPU per row (hash)").met()).isFalse();
        assertThat(checks.keySet()).as("the absolute 3 us target is gone").noneMatch(n -> n.contains("us/row"));
    }

    /** A completed write run with every process's CPU per row given (us): client, Cassandra window and after, Kafka. */
    private static BenchResult costed(String run, double client, double cassandra, double after, double kafka) {
        return new BenchResult(
                run, "time", "rows", 1_000_000, 10, client, cassandra, after, kafka, 90, 1000, 5, 50, 300, 120, true,
                "");
    }

    @Test
    void total_cpu_per_row_of_every_process_holds_the_sink_to_1_15_of_the_ceiling_and_spark_to_1_5_of_the_sink() {
        List<BenchResult> results = List.of(
                costed("ceiling", 3, 10, 2, 0.1), costed("sink", 6, 12, 1, 0.2), costed("spark", 16, 10.5, 0.2, 1.5));
        Map<String, Check> checks = checks(results);

        assertThat(checks.get("sink/ceiling total CPU per row (time)").value()).isCloseTo(19.2 / 15.1, within(1e-9));
        assertThat(checks.get("sink/ceiling total CPU per row (time)").met()).isFalse();
        assertThat(checks.get("spark/sink total CPU per row (time)").value()).isCloseTo(28.2 / 19.2, within(1e-9));
        assertThat(checks.get("spark/sink total CPU per row (time)").met()).isFalse();

        Map<String, Check> cheaper = checks(List.of(
                costed("ceiling", 3, 10, 2, 0.1), costed("sink", 4, 11, 1, 0.2), costed("spark", 16, 10.5, 0.2, 1.5)));
        assertThat(cheaper.get("sink/ceiling total CPU per row (time)").met())
                .as("16.2 / 15.1")
                .isTrue();
        assertThat(cheaper.get("spark/sink total CPU per row (time)").met())
                .as("28.2 / 16.2")
                .isTrue();
    }

    @Test
    void end_to_end_cassandra_cpu_per_row_is_held_to_1_3_times_the_sink_run_of_its_shard_strategy() {
        Check check = checks(RESULTS).get("end-to-end/sink Cassandra CPU per row (time)");
        assertThat(check.value()).isCloseTo(30 / 22.0, within(1e-9));
        assertThat(check.met()).as("1.36 is above 1.3").isFalse();

        List<BenchResult> cheaper = List.of(
                result("sink", "time", 50_000, 8, 22, true), result("end-to-end", "time", 40_000, 30, 28.6, true));
        assertThat(checks(cheaper)
                        .get("end-to-end/sink Cassandra CPU per row (time)")
                        .met())
                .as("exactly 1.3")
                .isTrue();
        assertThat(checks(List.of(
                                result("sink", "hash", 50_000, 8, 22, true),
                                result("end-to-end", "time", 40_000, 30, 28.6, true)))
                        .keySet())
                .as("no sink run of the same shard strategy")
                .noneMatch(n -> n.startsWith("end-to-end/sink"));
    }

    @Test
    void p99_is_reported_without_a_target() {
        Check p99 = checks(RESULTS).get("sink p99 write ms (time)");
        assertThat(p99.value()).isEqualTo(50);
        assertThat(p99.target().reportOnly()).isTrue();
        assertThat(p99.met()).isNull();
        assertThat(checks(RESULTS)).containsKey("end-to-end p99 write ms (time)");
    }

    @Test
    void the_paced_sink_runs_p99_is_held_to_100_ms_and_its_rate_reported_against_the_unpaced_run() {
        List<BenchResult> results = List.of(
                result("sink", "time", 50_000, 8, 22, true),
                result("sink-paced", "time", 45_000, 8, 21, Double.NaN, 100, true),
                result("sink", "hash", 10_000, 40, 100, true),
                result("sink-paced", "hash", 9_000, 40, 100, Double.NaN, 100.5, true));
        Map<String, Check> checks = checks(results);

        assertThat(checks.get("sink-paced p99 write ms (time)").value()).isEqualTo(100);
        assertThat(checks.get("sink-paced p99 write ms (time)").met())
                .as("exactly 100")
                .isTrue();
        assertThat(checks.get("sink-paced p99 write ms (hash)").met())
                .as("100.5")
                .isFalse();
        assertThat(checks.get("sink-paced/sink rows/s (time)").value()).isCloseTo(0.9, within(1e-9));
        assertThat(checks.get("sink-paced/sink rows/s (time)").met()).isNull();
        assertThat(checks(RESULTS).keySet()).noneMatch(name -> name.startsWith("sink-paced"));
    }

    @Test
    void a_baseline_that_did_not_complete_is_not_compared_with() {
        List<BenchResult> results =
                List.of(result("naive", "time", 20_000, 12, 50, false), result("sink", "time", 50_000, 2.5, 31, true));
        assertThat(BenchChecks.of(results)).extracting(Check::name).noneMatch(name -> name.startsWith("sink/naive"));
    }

    @Test
    void a_figure_that_was_not_measured_is_not_a_met_or_failed_target() {
        List<BenchResult> results = List.of(
                result("ceiling", "time", 60_000, 6, Double.NaN, true),
                result("naive", "time", 0, 12, Double.NaN, true),
                result("sink", "time", 50_000, 2.5, Double.NaN, true),
                result("sink", "hash", 10_000, 40, 100, false));
        BenchReport report = BenchReport.ofSingleRepeat(results, Map.of());
        Map<String, Check> checks = checks(results);

        assertThat(checks.get("sink/naive rows/s (time)").met())
                .as("naive did nothing: infinite ratio")
                .isNull();
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (time)").met())
                .as("remote cluster")
                .isNull();
        assertThat(checks.keySet())
                .as("no checks of a sink run that did not complete")
                .noneMatch(name -> name.endsWith("(hash)"));
        StringWriter text = new StringWriter();
        report.print(new PrintWriter(text));
        assertThat(text.toString())
                .contains("not measured")
                .doesNotContain("NaN")
                .doesNotContain("Infinity");
    }

    @Test
    void checks_over_repeats_have_the_median_and_range_of_each_repeats_value_and_are_judged_on_the_median() {
        // sink/naive rows/s: 2.0, 3.0, 2.6 -> median 2.6 (met), range 2.0-3.0
        List<List<BenchResult>> repeats = List.of(
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 40_000, 2, 20, true)),
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 60_000, 2, 20, true)),
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 52_000, 2, 20, true)));
        BenchReport.Summary summary = new BenchReport(repeats, Map.of())
                .summaries().stream()
                        .filter(s -> s.name().equals("sink/naive rows/s (time)"))
                        .findFirst()
                        .orElseThrow();

        assertThat(summary.values()).containsExactly(2.0, 3.0, 2.6);
        assertThat(summary.spread().median()).isEqualTo(2.6);
        assertThat(summary.spread().min()).isEqualTo(2.0);
        assertThat(summary.spread().max()).isEqualTo(3.0);
        assertThat(summary.met()).as("one repeat below 2.5, the median above").isTrue();
    }

    @Test
    void a_repeat_whose_sink_run_did_not_complete_adds_no_value_to_the_median() {
        List<List<BenchResult>> repeats = List.of(
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 40_000, 2, 20, true)),
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 10_000, 2, 20, false)),
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 44_000, 2, 20, true)));
        BenchReport.Summary summary =
                new BenchReport(repeats, Map.of()).summaries().get(0);

        assertThat(summary.values().get(1)).isNaN();
        assertThat(summary.spread().count()).isEqualTo(2);
        assertThat(summary.spread().median()).isCloseTo(2.1, within(1e-9));
        assertThat(summary.met()).isFalse();
    }

    @Test
    void a_repeat_cut_short_by_a_stopped_bench_counts_only_the_runs_it_holds() {
        // the second repeat stopped after its naive run: no sink there
        List<List<BenchResult>> repeats = List.of(
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 40_000, 2, 20, true)),
                List.of(result("naive", "time", 30_000, 12, 50, true)));
        BenchReport report = new BenchReport(repeats, Map.of());
        BenchReport.Summary summary = report.summaries().stream()
                .filter(s -> s.name().equals("sink/naive rows/s (time)"))
                .findFirst()
                .orElseThrow();

        assertThat(summary.values().get(0)).isEqualTo(2.0);
        assertThat(summary.values().get(1)).isNaN();
        assertThat(summary.spread().median()).isEqualTo(2.0);
        assertThat(report.medians())
                .filteredOn(r -> r.run().equals("sink"))
                .singleElement()
                .extracting(BenchResult::note)
                .isEqualTo("median of 1 of 1 repeats");
    }

    @Test
    void run_medians_take_each_figure_of_the_completed_repeats() {
        List<List<BenchResult>> repeats = List.of(
                List.of(result("sink", "time", 40_000, 3, 20, true)),
                List.of(result("sink", "time", 60_000, 1, 24, true)),
                List.of(result("sink", "time", 50_000, 2, 90, true)));
        BenchResult median = new BenchReport(repeats, Map.of()).medians().get(0);

        assertThat(median.perSecond()).isCloseTo(50_000, within(1e-6));
        assertThat(median.clientCpuMicros()).isEqualTo(2);
        assertThat(median.cassandraCpuMicros()).isEqualTo(24);
        assertThat(median.completed()).isTrue();
        assertThat(median.note()).isEqualTo("median of 3 of 3 repeats");
    }

    @Test
    void the_printed_report_shows_every_repeat_the_medians_and_each_checks_median_and_range() {
        List<List<BenchResult>> repeats = List.of(
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 40_000, 2, 20, true)),
                List.of(result("naive", "time", 20_000, 12, 50, true), result("sink", "time", 60_000, 2, 20, true)));
        StringWriter text = new StringWriter();
        new BenchReport(repeats, Map.of()).print(new PrintWriter(text));

        assertThat(text.toString())
                .contains(
                        "Repeat 1 of 2",
                        "Repeat 2 of 2",
                        "Medians over 2 repeats",
                        "median",
                        "range",
                        "2.00-3.00",
                        "target >= 2.50: met");
    }

    @Test
    void json_holds_context_every_repeats_runs_the_medians_and_the_checks_over_the_repeats() throws Exception {
        Path file = dir.resolve("bench.json");
        new BenchReport(List.of(RESULTS, RESULTS), Map.of("cores", 2)).write(file);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("context").get("cores").asInt()).isEqualTo(2);
        assertThat(json.get("repeats").asInt()).isEqualTo(2);
        assertThat(json.get("runs")).hasSize(12);
        assertThat(json.get("runs").get(6).get("repeat").asInt()).isEqualTo(2);
        JsonNode sink = json.get("runs").get(2);
        assertThat(sink.get("run").asText()).isEqualTo("sink");
        assertThat(sink.get("per_second").asDouble()).isEqualTo(50_000);
        assertThat(sink.get("kafka_cpu_us_per_item").isNull()).isTrue();
        assertThat(json.get("medians")).hasSize(6);
        assertThat(json.get("checks").findValuesAsText("name")).contains("sink/naive rows/s (time)");
        for (JsonNode check : json.get("checks")) {
            boolean reportOnly = check.get("target").asText().equals(BenchChecks.Target.REPORT);
            assertThat(check.get("met").isNull()).as(check.get("name").asText()).isEqualTo(reportOnly);
            assertThat(check.get("values")).hasSize(2);
        }
    }

    @Test
    void csv_has_a_line_per_run_of_each_repeat_and_per_median_and_the_checks_beside_it() throws Exception {
        Path file = dir.resolve("bench.csv");
        new BenchReport(List.of(RESULTS, RESULTS), Map.of()).write(file);

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(1 + 12 + 6);
        assertThat(lines.get(0)).startsWith("repeat,run,shard_strategy,unit,items,seconds,per_second,");
        assertThat(lines.get(3)).startsWith("1,sink,time,rows,500000,10.0,50000.0,8.4,22.0,,,,20.0,");
        assertThat(lines.get(13)).startsWith("median,ceiling,time,");
        List<String> checks = Files.readAllLines(dir.resolve("bench.checks.csv"));
        assertThat(checks.get(0)).isEqualTo("check,target,median,min,max,met,repeat_1,repeat_2");
        assertThat(checks).anyMatch(l -> l.startsWith("sink/naive rows/s (time),>= 2.50,2.5,2.5,2.5,true,2.5,2.5"));
    }

    @Test
    void a_report_needs_a_repeat() {
        assertThatThrownBy(() -> new BenchReport(List.of(), Map.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void runs_parse_by_label_or_name() {
        assertThat(Bench.Run.parse("end-to-end")).isEqualTo(Bench.Run.END_TO_END);
        assertThat(Bench.Run.parse(" END_TO_END ")).isEqualTo(Bench.Run.END_TO_END);
        assertThat(Bench.Run.parse("spark")).isEqualTo(Bench.Run.SPARK);
        assertThatThrownBy(() -> Bench.Run.parse("fast"))
                .hasMessageContaining("ceiling, naive, sink, sink-paced, spark, pass-through, topology")
                .hasMessageEndingWith("end-to-end, end-to-end-paced");
        assertThat(Bench.Run.parse("end-to-end-paced")).isEqualTo(Bench.Run.END_TO_END_PACED);
    }
}
