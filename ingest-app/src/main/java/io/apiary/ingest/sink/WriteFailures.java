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
