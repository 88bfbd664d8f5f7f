package io.apiary.ingest.sink;

/**
 * Lets a repeated warning through at most once per interval, so a fault that fails every write
 * logs a line every few seconds rather than thousands. Pure logic: the caller passes the time.
 * Not thread-safe: one thread only.
 */
final class WarnThrottle {

    private final long intervalNanos;
    private long lastNanos;
    private boolean warned;

    /** @param intervalNanos shortest time between two warnings let through, at least 0 */
    WarnThrottle(long intervalNanos) {
        if (intervalNanos < 0) {
            throw new IllegalArgumentException("interval must not be negative: " + intervalNanos);
        }
        this.intervalNanos = intervalNanos;
    }

    /**
     * @param nowNanos the current time (any one clock, consistently)
     * @return true if a warning may be logged now (the first call always may); the time is then
     *         remembered
     */
    boolean allow(long nowNanos) {
        if (warned && nowNanos - lastNanos < intervalNanos) {
            return false;
        }
        warned = true;
        lastNanos = nowNanos;
        return true;
    }
}
