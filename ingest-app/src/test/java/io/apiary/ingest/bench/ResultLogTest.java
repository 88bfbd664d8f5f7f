package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A bench that fails mid-way keeps the results of the runs made before the failure. */
class ResultLogTest {

    private static final RuntimeException CASSANDRA_DOWN = new IllegalStateException(
            "All 1 node(s) tried for the query failed\nNode(endPoint=/127.0.0.1:9042): connection refused");

    private static BenchResult made(String run) {
        return BenchReportTest.result(run, "time", 50_000, 8, 20, true);
    }

    private static BenchResult failed(String run, String note) {
        return new BenchResult(
                run,
                "time",
                "rows",
                0,
                0,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                0,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                false,
                note);
    }

    /** Makes {@code runs} per repeat, {@code repeats} times; the run numbered {@code failing} (from 1) throws. */
    private static List<List<BenchResult>> bench(int repeats, List<String> runs, int failing) {
        ResultLog log = new ResultLog();
        int n = 0;
        try {
            for (int r = 0; r < repeats; r++) {
                log.repeatStarted();
                for (String run : runs) {
                    log.runStarted(note -> failed(run, note));
                    if (++n == failing) {
                        throw CASSANDRA_DOWN;
                    }
                    log.ended(made(run));
                }
            }
        } catch (RuntimeException e) {
            BenchStoppedException stopped = log.stopped(e);
            assertThat(stopped).hasCause(e);
            return stopped.results();
        }
        throw new AssertionError("run " + failing + " never came");
    }

    @Test
    void the_runs_before_a_failing_run_are_kept_and_the_failing_run_is_not_completed_with_its_cause() {
        List<List<BenchResult>> kept = bench(2, List.of("ceiling", "naive", "sink"), 5);

        assertThat(kept).hasSize(2);
        assertThat(kept.get(0)).extracting(BenchResult::run).containsExactly("ceiling", "naive", "sink");
        assertThat(kept.get(0)).allMatch(BenchResult::completed);
        assertThat(kept.get(1)).extracting(BenchResult::run).containsExactly("ceiling", "naive");
        BenchResult naive = kept.get(1).get(1);
        assertThat(naive.completed()).isFalse();
        assertThat(naive.note()).isEqualTo("failed: IllegalStateException: All 1 node(s) tried for the query failed");
    }

    @Test
    void a_failure_in_the_first_run_keeps_that_run_alone_as_not_completed() {
        List<List<BenchResult>> kept = bench(3, List.of("ceiling", "sink"), 1);

        assertThat(kept).hasSize(1);
        assertThat(kept.get(0)).singleElement().satisfies(r -> {
            assertThat(r.run()).isEqualTo("ceiling");
            assertThat(r.completed()).isFalse();
        });
    }

    @Test
    void a_failure_between_runs_adds_no_run_and_an_empty_repeat_is_left_out() {
        ResultLog log = new ResultLog();
        log.repeatStarted();
        log.runStarted(note -> failed("sink", note));
        log.ended(made("sink"));
        log.repeatStarted(); // fails before its first run begins

        List<List<BenchResult>> kept = log.stopped(CASSANDRA_DOWN).results();

        assertThat(kept).containsExactly(List.of(made("sink")));
    }

    @Test
    void a_failure_before_any_repeat_keeps_nothing_and_says_why_in_one_line() {
        BenchStoppedException stopped = new ResultLog().stopped(CASSANDRA_DOWN);

        assertThat(stopped.results()).isEmpty();
        assertThat(stopped.reason()).isEqualTo("IllegalStateException: All 1 node(s) tried for the query failed");
        assertThat(stopped.getMessage()).doesNotContain("\n");
    }
}
