package io.apiary.ingest.serde;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Whether a schema registry is serving this process's requests, as its requests found it: an
 * outage begins with a request the registry does not serve ({@link SchemaRegistryException#unavailable()}:
 * no answer, a timeout, 5xx, 401, 403, 408, 429) and ends with the next request it answers (any
 * other status). The client asks the registry only for what it has not cached (a schema id it has
 * not seen, a schema it has not registered), so while an outage lasts, records wait on it: a stream
 * thread retries the record whose schema it lacks.
 *
 * <p>An outage no request has confirmed for {@code staleAfter} is over: a record that waited may
 * have moved to another instance (a rebalance) and nothing here asks the registry again. The
 * client sets {@code staleAfter} longer than the gap between two failed attempts of a waiting
 * record ({@link SchemaRegistryClient}).
 *
 * <p>Thread-safe: any request thread records, any thread reads.
 */
public final class RegistryAvailability {

    /**
     * A current outage.
     *
     * @param lastError  the message of the last failed request (what it asked, which URL, what came
     *                   back), never a credential; not null
     * @param sinceNanos when the first failed request of the outage ended, on the availability's clock
     * @param lastNanos  when the last one ended, on the same clock
     * @param failures   failed requests in the outage, at least 1
     */
    public record Outage(String lastError, long sinceNanos, long lastNanos, long failures) {

        /** Checks the values. */
        public Outage {
            Objects.requireNonNull(lastError, "lastError");
        }
    }

    private final LongSupplier nanoClock;
    private final long staleAfterNanos;
    private final AtomicReference<Outage> outage = new AtomicReference<>();

    /**
     * @param staleAfter how long an outage lasts without a failed request confirming it, positive
     * @param nanoClock  {@link System#nanoTime()} or a test clock, not null
     * @throws IllegalArgumentException if {@code staleAfter} is not positive
     */
    public RegistryAvailability(Duration staleAfter, LongSupplier nanoClock) {
        if (staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive, got " + staleAfter);
        }
        this.staleAfterNanos = staleAfter.toNanos();
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** Records a request the registry answered: an outage, if any, is over. */
    void answered() {
        outage.set(null);
    }

    /**
     * Records a request the registry did not serve.
     *
     * @param failure the request's error, with {@link SchemaRegistryException#unavailable()} true; not null
     */
    void failed(SchemaRegistryException failure) {
        long now = nanoClock.getAsLong();
        String message = String.valueOf(failure.getMessage());
        outage.updateAndGet(current -> current == null || now - current.lastNanos() > staleAfterNanos
                ? new Outage(message, now, now, 1)
                : new Outage(message, current.sinceNanos(), now, current.failures() + 1));
    }

    /** @return the current outage, or empty while the registry serves requests (or none was made) */
    public Optional<Outage> outage() {
        Outage current = outage.get();
        if (current == null || nanoClock.getAsLong() - current.lastNanos() > staleAfterNanos) {
            return Optional.empty();
        }
        return Optional.of(current);
    }

    /** @return the clock's now, to measure an {@link Outage}'s age with */
    public long nowNanos() {
        return nanoClock.getAsLong();
    }
}
