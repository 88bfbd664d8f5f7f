package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;

/**
 * Sorts Cassandra write failures into those worth retrying (the cluster is slow, overloaded or
 * unreachable: timeouts, unavailable replicas, overload, no node, closed connections) and those
 * a retry cannot fix (the server refused the statement as invalid). Stateless, thread-safe.
 */
public final class WriteFailures {

    private WriteFailures() {}

    /** What the sink does with a failed write. */
    public enum Outcome {
        /** Send it again after a back-off: Cassandra may take it later. */
        RETRY,
        /** A refused batch of several rows: send its rows one by one to find the one refused. */
        SPLIT,
        /** A single row Cassandra refuses: to the dead letter topic. */
        DEAD_LETTER
    }

    /**
     * @param error a failure of an idempotent write, not null
     * @param rows  rows the write carried, at least 1
     * @return what to do with it: retry if {@link #retryable}, else split a batch, else dead-letter the row
     */
    public static Outcome outcome(Throwable error, int rows) {
        if (retryable(error)) {
            return Outcome.RETRY;
        }
        return rows > 1 ? Outcome.SPLIT : Outcome.DEAD_LETTER;
    }

    /**
     * @param error a failure of an idempotent write
     * @return true if the same write may succeed later
     */
    public static boolean retryable(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof UnauthorizedException || statementError(cause)) {
            return true; // an operator must fix access or schema; the rows must not be dead-lettered meanwhile
        }
        return !(cause instanceof QueryValidationException || cause instanceof IllegalArgumentException);
    }

    /** Lower-case fragments of Cassandra's messages for a statement every row would fail, whatever its values. */
    private static final java.util.List<String> STATEMENT_ERRORS = java.util.List.of(
            "does not exist",
            "unconfigured table",
            "undefined column",
            "unknown identifier",
            "ttl",
            "consistency",
            "conditional updates",
            "unprepared");

    /**
     * Whether Cassandra refused the statement rather than the row: the table or a column is
     * missing (dropped, not yet created), or the statement's TTL or consistency level is refused.
     * Such writes are retried, with an ERROR log, instead of sending every row to the dead letter
     * topic while the schema is being fixed.
     *
     * @param error a failure of a write
     * @return true if every row written with the same statement would fail the same way
     */
    public static boolean statementError(Throwable error) {
        Throwable cause = unwrap(error);
        if (!(cause instanceof QueryValidationException)) {
            return false;
        }
        String message = String.valueOf(cause.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return STATEMENT_ERRORS.stream().anyMatch(message::contains);
    }

    /**
     * @param error a failure of a write
     * @return true if it signals that Cassandra is overloaded or too slow (timeouts, overload,
     *         unavailable replicas, busy or missing connections, the driver's own throttling):
     *         the sink then lowers its requests in flight
     */
    public static boolean overload(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof com.datastax.oss.driver.api.core.DriverTimeoutException
                || cause instanceof com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException
                || cause instanceof com.datastax.oss.driver.api.core.servererrors.OverloadedException
                || cause instanceof com.datastax.oss.driver.api.core.servererrors.UnavailableException
                || cause instanceof com.datastax.oss.driver.api.core.servererrors.WriteFailureException
                || cause instanceof com.datastax.oss.driver.api.core.connection.BusyConnectionException
                || cause instanceof com.datastax.oss.driver.api.core.RequestThrottlingException
                || cause instanceof com.datastax.oss.driver.api.core.AllNodesFailedException;
    }

    /**
     * @param error a failure
     * @return a short label of its cause, for the retry metric's tag
     */
    public static String cause(Throwable error) {
        return unwrap(error).getClass().getSimpleName();
    }

    /**
     * @param error a failure, possibly wrapped by a future
     * @return the cause inside {@code CompletionException} and {@code ExecutionException} wrappers
     */
    public static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof java.util.concurrent.CompletionException
                        || t instanceof java.util.concurrent.ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
