package io.apiary.ingest.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The results of a benchmark as its runs make them, so that a failure mid-bench loses none of the
 * runs completed before it ({@link #stopped}). Not thread-safe: the benchmark's thread only.
 */
final class ResultLog {

    private final List<List<BenchResult>> repeats = new ArrayList<>();
    /** The not-completed result of the run under way from a note, or null between runs. */
    private Function<String, BenchResult> running;

    /** A new repeat begins: the runs that follow belong to it. */
    void repeatStarted() {
        repeats.add(new ArrayList<>());
        running = null;
    }

    /**
     * A run begins.
     *
     * @param failed makes the run's result, not completed, with the given note, if it fails before
     *               {@link #ended}; not null
     * @throws IllegalStateException if no repeat has started
     */
    void runStarted(Function<String, BenchResult> failed) {
        if (repeats.isEmpty()) {
            throw new IllegalStateException("a run began outside any repeat");
        }
        running = Objects.requireNonNull(failed, "failed");
    }

    /**
     * The run under way ended with a result (completed or not).
     *
     * @param result its result, not null
     * @throws IllegalStateException if no repeat has started
     */
    void ended(BenchResult result) {
        if (repeats.isEmpty()) {
            throw new IllegalStateException("a run ended outside any repeat");
        }
        repeats.get(repeats.size() - 1).add(Objects.requireNonNull(result, "result"));
        running = null;
    }

    /**
     * @param cause the failure that stops the benchmark, not null
     * @return the exception to throw: every result so far, and the run under way, if any, as not
     *     completed with {@code failed: <cause in one line>} as its note; a repeat with no result is
     *     left out
     */
    BenchStoppedException stopped(Throwable cause) {
        if (running != null) {
            ended(running.apply("failed: " + BenchStoppedException.oneLine(cause)));
        }
        return new BenchStoppedException(
                cause, repeats.stream().filter(r -> !r.isEmpty()).toList());
    }
}
