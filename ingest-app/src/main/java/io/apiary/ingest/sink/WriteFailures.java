package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;

/**
 * Sorts Cassandra write failures into those worth retrying (the cluster is slow, overloaded or
 * unreachable: timeouts, unavailable replicas, overload, no node, closed connections) and those
 * a retry cannot fix (the server refused the statement as invalid). Stateless, thread-safe.
 */
final class WriteFailures {

    private WriteFailures() {
    }

    /**
     * @param error a failure of an idempotent write
     * @return true if the same write may succeed later
     */
    static boolean retryable(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof UnauthorizedException) {
            return true; // an operator must grant access; the rows must not be dead-lettered meanwhile
        }
        return !(cause instanceof QueryValidationException
                || cause instanceof IllegalArgumentException);
    }

    /**
     * @param error a failure of a write
     * @return true if it signals that Cassandra is overloaded or too slow (timeouts, overload,
     *         unavailable replicas, busy or missing connections, the driver's own throttling):
     *         the sink then lowers its requests in flight
     */
    static boolean overload(Throwable error) {
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
    static String cause(Throwable error) {
        return unwrap(error).getClass().getSimpleName();
    }

    static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
