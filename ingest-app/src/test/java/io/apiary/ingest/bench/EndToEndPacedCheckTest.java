package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.apiary.ingest.bench.BenchChecks.Check;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The end-to-end-paced run is held to 1.5 times the sink run's total CPU per row, when it kept the pace. */
class EndToEndPacedCheckTest {

    private static final String CHECK = "end-to-end-paced/sink total CPU per row (time)";

    /** A run of 100,000 rows with the given CPU per row: client, Cassandra window, after, Kafka. */
    private static BenchResult run(
            String run, double client, double cassandra, double after, double kafka, String note) {
        return new BenchResult(
                run, "time", "rows", 100_000, 10, client, cassandra, after, kafka, 30, 1_000, 5, 40, 300, 120, true,
                note);
    }

    private static Map<String, Check> checks(BenchResult... results) {
        return BenchChecks.of(List.of(results)).stream().collect(Collectors.toMap(Check::name, Function.identity()));
    }

    @Test
    void the_ratio_sums_client_cassandra_window_and_after_and_kafka() {
        // sink 8 + 10 + 2 + 4 = 24 us; paced 12 + 14 + 4 + 6 = 36 us: 1.5
        Map<String, Check> checks = checks(run("sink", 8, 10, 2, 4, ""), run("end-to-end-paced", 12, 14, 4, 6, ""));

        assertThat(checks.get(CHECK).value()).isCloseTo(1.5, within(1e-9));
        assertThat(checks.get(CHECK).met()).isTrue();
        assertThat(checks.get("end-to-end-paced rows/request (time)").value()).isEqualTo(30);
        assertThat(checks.get("end-to-end-paced p99 write ms (time)").value()).isEqualTo(40);
    }

    @Test
    void above_one_and_a_half_times_the_sink_run_is_not_met() {
        Map<String, Check> checks = checks(run("sink", 8, 10, 2, 4, ""), run("end-to-end-paced", 12, 15, 4, 6, ""));

        assertThat(checks.get(CHECK).value()).isCloseTo(37.0 / 24, within(1e-9));
        assertThat(checks.get(CHECK).met()).isFalse();
    }

    @Test
    void without_the_after_figure_the_cassandra_window_alone_is_counted() {
        Map<String, Check> checks =
                checks(run("sink", 8, 12, Double.NaN, 4, ""), run("end-to-end-paced", 12, 18, Double.NaN, 6, ""));

        assertThat(checks.get(CHECK).value()).isCloseTo(1.5, within(1e-9));
    }

    @Test
    void a_run_that_did_not_keep_the_pace_is_not_held_to_the_target() {
        Map<String, Check> checks = checks(
                run("sink", 8, 10, 2, 4, ""),
                run("end-to-end-paced", 12, 14, 4, 6, Bench.NOT_SUSTAINED + ": rows trailed by 30 s"));

        assertThat(checks).doesNotContainKey(CHECK);
    }

    @Test
    void without_a_sink_run_there_is_no_ratio() {
        assertThat(checks(run("end-to-end-paced", 12, 14, 4, 6, ""))).doesNotContainKey(CHECK);
    }
}
