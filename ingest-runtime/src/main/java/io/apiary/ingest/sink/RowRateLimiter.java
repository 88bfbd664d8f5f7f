package io.apiary.ingest.sink;

/**
 * A token bucket counting rows: refills at {@code rowsPerSecond}, holds at most one second of
 * rows, and lets a whole batch through whenever the bucket is not empty, taking its rows on
 * credit (the balance may go negative, so a batch larger than the rate never blocks forever and
 * the long-run rate still holds). Pure logic with an injected clock.
 *
 * <p>Not thread-safe: one thread only (the sink's poll thread, the copy's loop).
 */
public final class RowRateLimiter {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long rowsPerSecond;
    private double tokens;
    private long lastRefillNanos;

    /**
     * @param rowsPerSecond the rate, at least 0; 0 admits everything at once
     * @param nowNanos      the current time
     */
    public RowRateLimiter(long rowsPerSecond, long nowNanos) {
        if (rowsPerSecond < 0) {
            throw new IllegalArgumentException("rowsPerSecond must be at least 0: " + rowsPerSecond);
        }
        this.rowsPerSecond = rowsPerSecond;
        this.tokens = rowsPerSecond;
        this.lastRefillNanos = nowNanos;
    }

    /**
     * @param rows     rows of the batch to send
     * @param nowNanos the current time
     * @return true if the batch may go now (its rows are taken), false to wait
     */
    public boolean tryAcquire(int rows, long nowNanos) {
        if (rowsPerSecond == 0) {
            return true;
        }
        refill(nowNanos);
        if (tokens <= 0) {
            return false;
        }
        tokens -= rows;
        return true;
    }

    /**
     * @param nowNanos the current time
     * @return nanoseconds until {@link #tryAcquire} can succeed, 0 if now
     */
    public long nanosUntilAvailable(long nowNanos) {
        if (rowsPerSecond == 0) {
            return 0;
        }
        refill(nowNanos);
        return tokens > 0 ? 0 : (long) Math.ceil((1 - tokens) * NANOS_PER_SECOND / rowsPerSecond);
    }

    private void refill(long nowNanos) {
        long elapsed = nowNanos - lastRefillNanos;
        if (elapsed > 0) {
            tokens = Math.min(rowsPerSecond, tokens + (double) elapsed * rowsPerSecond / NANOS_PER_SECOND);
            lastRefillNanos = nowNanos;
        }
    }
}
