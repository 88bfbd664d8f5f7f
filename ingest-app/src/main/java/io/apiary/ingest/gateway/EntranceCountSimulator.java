package io.apiary.ingest.gateway;

import io.apiary.schema.EntranceCount;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Simulated entrance-counter samples for a hive, as a gateway's counter would send them: one
 * sample per interval with the bees that went in and out during it. Deterministic: the same hive
 * and instant always give the same counts (the random source is seeded from both), so a test can
 * recompute what the demo produced.
 *
 * <p>Traffic follows the sun at Montreal (solar time about UTC-5): none at night, peaking at
 * about {@value #PEAK_BEES_PER_MINUTE} bees per minute each way around solar noon, from a sine
 * over 06:00-20:00 solar time; bees_in trails bees_out a little. The figures are illustrative,
 * not measured. Immutable and thread-safe.
 */
public final class EntranceCountSimulator {

    /** Peak traffic each way, bees per minute. */
    public static final int PEAK_BEES_PER_MINUTE = 40;

    private static final long SOLAR_OFFSET_MILLIS = Duration.ofHours(-5).toMillis();

    private final Duration interval;
    private final String gatewayId;

    /**
     * @param interval  counting interval, at least one second
     * @param gatewayId gateway id of the samples, not null
     */
    public EntranceCountSimulator(Duration interval, String gatewayId) {
        if (interval.toSeconds() < 1) {
            throw new IllegalArgumentException("interval must be at least 1 s, was " + interval);
        }
        this.interval = interval;
        this.gatewayId = Objects.requireNonNull(gatewayId);
    }

    /**
     * The sample whose counting interval ends at an instant.
     *
     * @param hiveId   hive id, not null
     * @param endMillis end of the counting interval, milliseconds since the epoch
     * @return the sample
     */
    public EntranceCount sample(String hiveId, long endMillis) {
        SplittableRandom random = new SplittableRandom(hiveId.hashCode() * 0x9E3779B97F4A7C15L ^ endMillis);
        double solarHour = Math.floorMod(endMillis + SOLAR_OFFSET_MILLIS, 86_400_000L) / 3_600_000.0;
        double daylight = solarHour < 6 || solarHour > 20 ? 0 : Math.sin(Math.PI * (solarHour - 6) / 14);
        double expectedOut = daylight * PEAK_BEES_PER_MINUTE * interval.toSeconds() / 60.0;
        int out = noisy(expectedOut, random);
        int in = noisy(expectedOut * 0.97, random);
        return new EntranceCount(
                hiveId, gatewayId, Instant.ofEpochMilli(endMillis), in, out, (int) interval.toSeconds());
    }

    /**
     * Every sample of a hive whose interval ends in [from, to), aligned to multiples of the
     * interval since the epoch.
     *
     * @param hiveId hive id
     * @param from   first instant, inclusive
     * @param to     last instant, exclusive
     * @param out    receives the samples in time order
     * @return the number of samples
     */
    public long samples(String hiveId, Instant from, Instant to, Consumer<EntranceCount> out) {
        long step = interval.toMillis();
        long first = Math.floorDiv(from.toEpochMilli() + step - 1, step) * step;
        long count = 0;
        for (long t = first; t < to.toEpochMilli(); t += step) {
            out.accept(sample(hiveId, t));
            count++;
        }
        return count;
    }

    /** @return the counting interval */
    public Duration interval() {
        return interval;
    }

    private static int noisy(double expected, SplittableRandom random) {
        if (expected <= 0) {
            return 0;
        }
        double value = expected * (0.8 + 0.4 * random.nextDouble());
        return (int) Math.round(value);
    }
}
