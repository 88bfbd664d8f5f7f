package io.apiary.ingest.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark of this module once, briefly and in this JVM, so that a benchmark that no
 * longer compiles against ingest-app, fails in its setup or throws is caught by the build. It
 * checks that code runs, not how fast: no warmup, one measurement iteration of 100 ms, no fork.
 */
class JmhSmokeTest {

    @Test
    void every_benchmark_runs_and_reports_a_positive_score() throws Exception {
        Set<String> known = BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of())
                .stream()
                .map(BenchmarkListEntry::getUsername)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(known).as("benchmarks generated into META-INF/BenchmarkList").hasSizeGreaterThanOrEqualTo(10);

        Options options = new OptionsBuilder()
                .include("io\\.apiary\\.ingest\\..*")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(100))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.NORMAL)
                .build();
        Collection<RunResult> results = new Runner(options).run();

        Set<String> ran = new TreeSet<>();
        for (RunResult result : results) {
            String label = result.getParams().getBenchmark()
                    + result.getParams().getParamsKeys().stream()
                            .map(k -> " " + k + "=" + result.getParams().getParam(k))
                            .collect(Collectors.joining());
            double score = result.getPrimaryResult().getScore();
            assertThat(score).as("score of %s", label).isFinite().isPositive();
            ran.add(result.getParams().getBenchmark());
        }
        assertThat(ran).as("benchmarks that ran").isEqualTo(known);
    }
}
