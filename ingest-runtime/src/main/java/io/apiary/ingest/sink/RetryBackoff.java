package io.apiary.ingest.sink;

import java.time.Duration;
import java.util.function.LongUnaryOperator;

/**
 * Exponential backoff with "equal jitter": attempt n waits between half and all of
 * {@code min(max, base x 2^(n-1))}, so retries of many writes spread out instead of hitting a
 * recovering Cassandra together (as described in the AWS Architecture Blog, "Exponential Backoff
 * and Jitter", 2015). Immutable and thread-safe.
 *
 * @param base first delay, positive
 * @param max  longest delay, at least {@code base}
 */
public record RetryBackoff(Duration base, Duration max) {

    /**
     * The delay before an attempt.
     *
     * @param attempt retry number, 1 for the first retry
     * @param random  {@code bound -> uniform value in [0, bound)}, e.g. {@code ThreadLocalRandom::nextLong}
     * @return the delay in nanoseconds, in [cap/2, cap] where cap = min(max, base x 2^(attempt-1))
     */
    public long delayNanos(int attempt, LongUnaryOperator random) {
        long baseNanos = base.toNanos();
        long maxNanos = max.toNanos();
        int doublings = Math.max(0, Math.min(attempt - 1, 62 - (63 - Long.numberOfLeadingZeros(baseNanos))));
        long cap = Math.min(maxNanos, baseNanos << doublings);
        return cap / 2 + random.applyAsLong(cap / 2 + 1);
    }
}
