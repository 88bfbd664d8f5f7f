package io.apiary.ingest.sink;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.SettableLimit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import java.util.Locale;

/**
 * The limit on write requests in flight, following Cassandra's latency, from Netflix's
 * <a href="https://github.com/Netflix/concurrency-limits">concurrency-limits</a>: the smaller of
 * <ul>
 *   <li>a latency-aware limit ({@link Algorithm#VEGAS} or {@link Algorithm#GRADIENT2}: both
 *       estimate the round trip without queueing and lower the limit as requests start to queue
 *       at the server, so latency stays near the unloaded one while throughput holds), and</li>
 *   <li>an overload guard (additive increase, multiplicative decrease, as TCP's congestion
 *       control, RFC 5681, held in the library's {@link SettableLimit}): when Cassandra is
 *       overloaded or a write timed out it drops to half of the limit in force (at most once per
 *       {@code decreaseIntervalNanos}, so that one burst of failures halves the limit once), and
 *       each acknowledged request raises it by 1 while at least half of it is in flight, up to
 *       the maximum. The latency-aware part is told of the failure as a drop too.</li>
 * </ul>
 * {@link Algorithm#AIMD} uses the guard alone (the sink's behaviour before the latency-aware
 * limit), {@link Algorithm#FIXED} neither. The limit lies in [1, max].
 *
 * <p>Samples carry the request's round trip from send to answer, in nanoseconds of
 * {@link System#nanoTime()} (or any clock of the caller's, consistently), and the requests in
 * flight when it was sent. Not thread-safe: one thread only (the sink's poll thread, the copy's
 * loop of {@code ingest-app table copy}).
 */
public final class ConcurrencyLimit {

    /** The latency-aware algorithm, by the library's names. */
    public enum Algorithm {
        /** {@link VegasLimit}: TCP Vegas' queue estimate from the minimum round trip. */
        VEGAS,
        /** {@link Gradient2Limit}: the gradient of a short against a long average round trip. */
        GRADIENT2,
        /** No latency-aware part: the overload guard alone. */
        AIMD,
        /** The configured maximum always. */
        FIXED;

        /**
         * @param name a name, case-insensitive ({@code vegas}, {@code gradient2}, {@code aimd}, {@code fixed})
         * @return the algorithm
         * @throws IllegalArgumentException naming the accepted values if unknown
         */
        public static Algorithm parse(String name) {
            try {
                return valueOf(name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Unknown concurrency limit algorithm '" + name + "': use vegas, gradient2, aimd or fixed", e);
            }
        }
    }

    private final Algorithm algorithm;
    private final int max;
    private final Limit latency;
    private final SettableLimit overload;
    private final long decreaseIntervalNanos;
    private long lastDropNanos;
    private boolean dropped;

    /**
     * @param algorithm             the latency-aware part, not null
     * @param max                   the configured maximum, at least 1; the guard starts there, the
     *                              latency-aware part at a quarter of it (at least 1)
     * @param decreaseIntervalNanos shortest time between two drops fed to the guard, at least 0
     * @throws IllegalArgumentException if a value is out of range
     */
    public ConcurrencyLimit(Algorithm algorithm, int max, long decreaseIntervalNanos) {
        if (max < 1 || decreaseIntervalNanos < 0) {
            throw new IllegalArgumentException("max must be at least 1 and the interval at least 0");
        }
        this.algorithm = algorithm;
        this.max = max;
        this.decreaseIntervalNanos = decreaseIntervalNanos;
        int initial = Math.max(1, max / 4);
        this.latency = switch (algorithm) {
            case VEGAS ->
                VegasLimit.newBuilder()
                        .initialLimit(initial)
                        .maxConcurrency(max)
                        .build();
            case GRADIENT2 ->
                Gradient2Limit.newBuilder()
                        .initialLimit(initial)
                        .minLimit(1)
                        .maxConcurrency(max)
                        .build();
            case AIMD, FIXED -> FixedLimit.of(max);
        };
        this.overload = SettableLimit.startingAt(max);
    }

    /** @return the current limit, in [1, max] */
    public int limit() {
        return Math.max(1, Math.min(latency.getLimit(), overload.getLimit()));
    }

    /** @return the algorithm of the latency-aware part */
    public Algorithm algorithm() {
        return algorithm;
    }

    /** @return the configured maximum */
    public int max() {
        return max;
    }

    /**
     * Records an acknowledged request.
     *
     * @param startNanos when it was sent
     * @param rttNanos   its round trip, at least 1
     * @param inFlight   requests in flight when it was sent, itself included
     */
    public void onSuccess(long startNanos, long rttNanos, int inFlight) {
        long rtt = Math.max(1, rttNanos);
        latency.onSample(startNanos, rtt, inFlight, false);
        int guard = overload.getLimit();
        if (guard < max && inFlight * 2 >= guard) {
            overload.setLimit(guard + 1);
        }
    }

    /**
     * Records a request that failed because Cassandra is overloaded, timed out or unavailable.
     * Failures within {@code decreaseIntervalNanos} of the last one counted are one burst: they
     * reach neither part.
     *
     * @param startNanos when it was sent
     * @param nowNanos   when it failed (same clock)
     * @param inFlight   requests in flight when it was sent, itself included
     * @return true if the limit was lowered by this call
     */
    public boolean onOverload(long startNanos, long nowNanos, int inFlight) {
        int before = limit();
        long rtt = Math.max(1, nowNanos - startNanos);
        // one burst of failures is one signal, to the latency-aware part as to the guard
        boolean signal = !dropped || nowNanos - lastDropNanos >= decreaseIntervalNanos;
        if (signal) {
            latency.onSample(startNanos, rtt, inFlight, true);
        }
        if (algorithm != Algorithm.FIXED && signal) {
            dropped = true;
            lastDropNanos = nowNanos;
            overload.setLimit(Math.max(1, before / 2));
        }
        return limit() < before;
    }
}
