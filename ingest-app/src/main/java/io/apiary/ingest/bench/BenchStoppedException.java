package io.apiary.ingest.bench;

import java.util.List;
import java.util.Objects;

/**
 * Thrown by {@link Bench#run()} when a run fails in a way the benchmark cannot go on from (a
 * TRUNCATE, a count or a topic creation throws, e.g. because a Cassandra node or the Kafka broker
 * died): the bench stops there and this carries what it measured until then. Immutable.
 */
public final class BenchStoppedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<List<BenchResult>> results;

    /**
     * @param cause   the failure that stopped the bench, not null
     * @param results per repeat, in order, the results of the runs made before the failure, the run
     *                that failed last in its repeat with {@code completed == false}; empty when it
     *                failed before any run began
     */
    BenchStoppedException(Throwable cause, List<List<BenchResult>> results) {
        super("the bench stopped early: " + oneLine(Objects.requireNonNull(cause, "cause")), cause);
        this.results = results.stream().map(List::copyOf).toList();
    }

    /** @return per repeat, in order, the results made before the failure, unmodifiable; may be empty */
    public List<List<BenchResult>> results() {
        return results;
    }

    /** @return the failure in one line, as {@link #oneLine(Throwable)} */
    public String reason() {
        return oneLine(getCause());
    }

    /**
     * @param failure an exception, not null
     * @return its simple class name and the first line of its message (drivers give several lines),
     *     e.g. {@code AllNodesFailedException: All 1 node(s) tried for the query failed ...}
     */
    public static String oneLine(Throwable failure) {
        String message = failure.getMessage();
        String name = failure.getClass().getSimpleName();
        if (message == null || message.isBlank()) {
            return name;
        }
        return name + ": " + message.strip().lines().findFirst().orElse("");
    }
}
