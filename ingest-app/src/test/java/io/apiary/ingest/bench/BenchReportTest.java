package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {

    @TempDir
    Path dir;

    private static BenchResult result(String run, String strategy, double perSecond, double clientCpu,
            double cassandraCpu, boolean completed) {
        return new BenchResult(run, strategy, "rows", (long) (perSecond * 10), 10, clientCpu, cassandraCpu, Double.NaN,
                run.equals("naive") ? 1 : 20, 100, 5, 50, 300, 120, completed, completed ? "" : "timed out");
    }

    private static final List<BenchResult> RESULTS = List.of(
            result("ceiling", "time", 60_000, 6, 20, true),
            result("naive", "time", 20_000, 12, 50, true),
            result("sink", "time", 50_000, 2.5, 31, true),
            result("sink", "hash", 10_000, 40, 100, true));

    @Test
    void checks_compare_each_sink_run_with_the_naive_writer_and_the_ceiling() {
        Map<String, BenchReport.Check> checks = new java.util.HashMap<>();
        new BenchReport(RESULTS, Map.of()).checks().forEach(c -> checks.put(c.name(), c));

        assertThat(checks.get("sink/naive rows/s (time)").value()).isEqualTo(2.5);
        assertThat(checks.get("sink/naive rows/s (time)").met()).isTrue();
        assertThat(checks.get("sink/naive rows/s (hash)").value()).isEqualTo(0.5);
        assertThat(checks.get("sink/naive rows/s (hash)").met()).isFalse();
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (time)").value()).isEqualTo(1.55);
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (time)").met()).isFalse();
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (hash)").value()).isEqualTo(5.0);
        assertThat(checks.get("sink client CPU us/row (time)").met()).isTrue();
        assertThat(checks.get("sink client CPU us/row (hash)").met()).isFalse();
    }

    @Test
    void a_baseline_that_did_not_complete_is_not_compared_with() {
        List<BenchResult> results = List.of(result("naive", "time", 20_000, 12, 50, false),
                result("sink", "time", 50_000, 2.5, 31, true));
        assertThat(new BenchReport(results, Map.of()).checks()).extracting(BenchReport.Check::name)
                .noneMatch(name -> name.startsWith("sink/naive"));
    }

    @Test
    void a_figure_that_was_not_measured_is_not_a_met_or_failed_target() {
        List<BenchResult> results = List.of(result("ceiling", "time", 60_000, 6, Double.NaN, true),
                result("naive", "time", 0, 12, Double.NaN, true), result("sink", "time", 50_000, 2.5, Double.NaN, true),
                result("sink", "hash", 10_000, 40, 100, false));
        BenchReport report = new BenchReport(results, Map.of());
        Map<String, BenchReport.Check> checks = new java.util.HashMap<>();
        report.checks().forEach(c -> checks.put(c.name(), c));

        assertThat(checks.get("sink/naive rows/s (time)").met()).as("naive did nothing: infinite ratio").isNull();
        assertThat(checks.get("sink/ceiling Cassandra CPU per row (time)").met()).as("remote cluster").isNull();
        assertThat(checks.keySet()).as("no checks of a sink run that did not complete")
                .noneMatch(name -> name.endsWith("(hash)"));
        StringWriter text = new StringWriter();
        report.print(new PrintWriter(text));
        assertThat(text.toString()).contains("not measured").doesNotContain("NaN").doesNotContain("Infinity");
    }

    @Test
    void json_holds_context_runs_and_checks_with_null_for_what_was_not_measured() throws Exception {
        Path file = dir.resolve("bench.json");
        new BenchReport(RESULTS, Map.of("cores", 2)).write(file);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("context").get("cores").asInt()).isEqualTo(2);
        assertThat(json.get("runs")).hasSize(4);
        JsonNode sink = json.get("runs").get(2);
        assertThat(sink.get("run").asText()).isEqualTo("sink");
        assertThat(sink.get("per_second").asDouble()).isEqualTo(50_000);
        assertThat(sink.get("kafka_cpu_us_per_item").isNull()).isTrue();
        assertThat(json.get("checks").findValuesAsText("name")).contains("sink/naive rows/s (time)");
        for (JsonNode check : json.get("checks")) {
            boolean reportOnly = check.get("target").asText().equals(BenchReport.REPORT);
            assertThat(check.get("met").isNull()).as(check.get("name").asText()).isEqualTo(reportOnly);
            assertThat(check.get("met").isBoolean()).isEqualTo(!reportOnly);
        }
    }

    @Test
    void csv_has_a_header_and_one_line_per_run() throws Exception {
        Path file = dir.resolve("bench.csv");
        new BenchReport(RESULTS, Map.of()).write(file);

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).startsWith("run,shard_strategy,unit,items,seconds,per_second,");
        assertThat(lines.get(3)).startsWith("sink,time,rows,500000,10.0,50000.0,2.5,31.0,,20.0,");
    }

    @Test
    void the_table_shows_every_run_and_whether_targets_are_met() {
        StringWriter text = new StringWriter();
        new BenchReport(List.of(RESULTS.get(1), RESULTS.get(2), result("topology", "time", 30_000, 20, Double.NaN,
                false)), Map.of()).print(new PrintWriter(text));

        assertThat(text.toString()).contains("naive", "sink", "50,000", "n/a", "NOT COMPLETED: timed out",
                "target >= 2.0: met", "target <= 3.0: met");
    }

    @Test
    void runs_parse_by_label_or_name() {
        assertThat(Bench.Run.parse("end-to-end")).isEqualTo(Bench.Run.END_TO_END);
        assertThat(Bench.Run.parse(" END_TO_END ")).isEqualTo(Bench.Run.END_TO_END);
        assertThatThrownBy(() -> Bench.Run.parse("fast")).hasMessageContaining("ceiling, naive, sink");
    }
}
