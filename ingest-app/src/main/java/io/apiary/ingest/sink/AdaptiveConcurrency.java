package io.apiary.ingest.sink;

/**
 * The sink's limit on write requests in flight, adapted to what Cassandra can take: additive
 * increase, multiplicative decrease (AIMD, the congestion control of TCP, RFC 5681). Each
 * acknowledged request raises the limit by {@code 1/limit} (about +1 per round of requests) up
 * to the configured maximum; a write that fails because Cassandra is overloaded or timed out
 * halves it (not below 1), at most once per {@code decreaseIntervalNanos} so that one burst of
 * failures counts as one signal. Pure logic with an injected clock.
 *
 * <p>Not thread-safe: one thread only (the sink's poll thread, the copy's loop of
 * {@code ingest-app table copy}).
 */
public final class AdaptiveConcurrency {

    private final int max;
    private final long decreaseIntervalNanos;
    private double limit;
    private long lastDecreaseNanos;
    private boolean decreased;

    /**
     * @param max                   the configured maximum, at least 1; also the starting limit
     * @param decreaseIntervalNanos shortest time between two decreases, at least 0
     */
    public AdaptiveConcurrency(int max, long decreaseIntervalNanos) {
        if (max < 1 || decreaseIntervalNanos < 0) {
            throw new IllegalArgumentException("max must be at least 1 and the interval at least 0");
        }
        this.max = max;
        this.decreaseIntervalNanos = decreaseIntervalNanos;
        this.limit = max;
    }

    /** @return the current limit, in [1, max] */
    public int limit() {
        return (int) limit;
    }

    /** Records an acknowledged request. */
    public void onSuccess() {
        limit = Math.min(max, limit + 1.0 / limit);
    }

    /**
     * Records a request that failed because Cassandra is overloaded, timed out or unavailable.
     *
     * @param nowNanos the current time
     * @return true if the limit was lowered by this call
     */
    public boolean onOverload(long nowNanos) {
        if (decreased && nowNanos - lastDecreaseNanos < decreaseIntervalNanos) {
            return false;
        }
        decreased = true;
        lastDecreaseNanos = nowNanos;
        double lowered = Math.max(1.0, Math.floor(limit / 2));
        boolean changed = lowered < limit;
        limit = lowered;
        return changed;
    }
}
