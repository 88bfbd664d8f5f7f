package io.apiary.ingest.simulator;

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
 * over 06:00-20:00 solar time for bees_out; bees_in follows the same sine {@value #RETURN_DELAY_MINUTES}
 * minutes later: the bees that left in an interval come back, give or take 5 %, that much later, so
 * a day's entries and exits balance within a few percent (a colony neither gains nor loses foragers). The figures are illustrative, not measured.
 * Immutable and thread-safe.
 */
public final class EntranceCountSimulator {

    /** Peak traffic each way, bees per minute. */
    public static final int PEAK_BEES_PER_MINUTE = 40;

    /** How much later in the day bees_in follows the shape of bees_out, minutes. */
    public static final int RETURN_DELAY_MINUTES = 30;

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
        double solarHour = Math.floorMod(endMillis + SOLAR_OFFSET_MILLIS, 86_400_000L) / 3_600_000.0;
        double perInterval = PEAK_BEES_PER_MINUTE * interval.toSeconds() / 60.0;
        long delayMillis = RETURN_DELAY_MINUTES * 60_000L;
        // the bees that left in the interval ending delayMillis ago come back now, give or take 5 %
        int out = (int) Math.round(daylight(solarHour) * perInterval * tripFactor(hiveId, endMillis));
        double returning = daylight(solarHour - RETURN_DELAY_MINUTES / 60.0)
                * perInterval
                * tripFactor(hiveId, endMillis - delayMillis)
                * (0.95 + 0.1 * new SplittableRandom(seed(hiveId, endMillis) ^ 0x5DEECE66DL).nextDouble());
        int in = (int) Math.round(returning);
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

    /** Share of the peak traffic at a solar hour (may be below 0 or past 24): a sine over 06:00-20:00. */
    private static double daylight(double solarHour) {
        double hour = (solarHour % 24 + 24) % 24;
        return hour < 6 || hour > 20 ? 0 : Math.sin(Math.PI * (hour - 6) / 14);
    }

    /** The noise of the departures of one interval: 0.8 to 1.2 times the expected traffic. */
    private static double tripFactor(String hiveId, long endMillis) {
        return 0.8 + 0.4 * new SplittableRandom(seed(hiveId, endMillis)).nextDouble();
    }

    private static long seed(String hiveId, long endMillis) {
        return hiveId.hashCode() * 0x9E3779B97F4A7C15L ^ endMillis;
    }
}
