package io.apiary.ingest.tablecopy;

import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Write times of {@code table copy --fresh-write-time}: the current time in microseconds since
 * the epoch, as Cassandra gives a write without {@code USING TIMESTAMP} (the driver's default
 * timestamp generator: the client's clock in microseconds, strictly increasing), so that a copied
 * row is newer than a delete or write the target received before the copy wrote it. Strictly
 * increasing within one copy, also when the clock stands still or steps back, so that two writes
 * of one target key keep their order. Not thread-safe: the copy's event loop.
 */
final class FreshWriteTimes implements LongSupplier {

    private final LongSupplier clockMicros;
    private long last = Long.MIN_VALUE;

    /** Write times from the system clock. */
    FreshWriteTimes() {
        this(() -> {
            Instant now = Instant.now();
            return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000);
        });
    }

    /** @param clockMicros the current time in microseconds since the epoch (a test's clock) */
    FreshWriteTimes(LongSupplier clockMicros) {
        this.clockMicros = clockMicros;
    }

    /** @return the next write time: the clock's time, or one microsecond after the last one given if that is later */
    @Override
    public long getAsLong() {
        long now = clockMicros.getAsLong();
        last = last == Long.MIN_VALUE ? now : Math.max(now, last + 1);
        return last;
    }
}
