package io.apiary.ingest.bench;

import java.util.Arrays;
import java.util.Collection;

/**
 * The median and range of one figure over the benchmark's repeats ({@code bench --repeat N}).
 * Immutable and thread-safe.
 *
 * @param median the median of the finite values: the middle one of an odd count, the mean of
 *               the two middle ones of an even count; NaN when there is none
 * @param min    the smallest finite value, NaN when there is none
 * @param max    the largest finite value, NaN when there is none
 * @param count  how many finite values there were (a repeat whose run did not complete, or a
 *               figure that was not measured, adds none)
 */
public record Spread(double median, double min, double max, int count) {

    /** No value at all. */
    static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN, 0);

    /**
     * @param values one figure per repeat, not null; NaN and infinite values are left out
     * @return their median and range
     */
    public static Spread of(Collection<Double> values) {
        return of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /**
     * @param values one figure per repeat, not null; NaN and infinite values are left out
     * @return their median and range
     */
    public static Spread of(double... values) {
        double[] finite =
                Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
        int n = finite.length;
        if (n == 0) {
            return NONE;
        }
        double median = n % 2 == 1 ? finite[n / 2] : (finite[n / 2 - 1] + finite[n / 2]) / 2;
        return new Spread(median, finite[0], finite[n - 1], n);
    }

    /**
     * @param decimals digits after the point
     * @return {@code min-max}, e.g. {@code 2.41-2.77}, or {@code n/a} when there was no value
     */
    public String range(int decimals) {
        return count == 0 ? "n/a" : BenchReport.format(min, decimals) + "-" + BenchReport.format(max, decimals);
    }
}
