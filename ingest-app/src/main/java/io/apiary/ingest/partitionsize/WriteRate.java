package io.apiary.ingest.partitionsize;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A write rate: {@code count} rows per {@code unitSeconds} seconds, e.g. {@code 1000/min}. Kept
 * as a count and a unit rather than a rate per second so that figures such as 1,000 rows a
 * minute for a day stay exact (1,440,000). Immutable and thread-safe.
 *
 * @param count       rows per unit, at least 0
 * @param unitSeconds the unit in seconds, at least 1
 * @param unit        the unit's name as written (s, min, h, day)
 */
public record WriteRate(BigDecimal count, long unitSeconds, String unit) {

    private static final Pattern SYNTAX = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*/\\s*([a-z]+)\\s*");

    /** The highest rate accepted, rows per second: far above any one entity's, low enough that no count overflows. */
    public static final long MAX_PER_SECOND = 1_000_000_000L;

    /** Checks the values. */
    public WriteRate {
        if (count.signum() < 0 || unitSeconds < 1) {
            throw new IllegalArgumentException("rate out of range: " + count + "/" + unitSeconds + " s");
        }
        if (count.compareTo(BigDecimal.valueOf(MAX_PER_SECOND).multiply(BigDecimal.valueOf(unitSeconds))) > 0) {
            throw new IllegalArgumentException("rate " + count.toPlainString() + "/" + unit
                    + " is above the accepted maximum of 1,000,000,000 rows/s");
        }
    }

    /**
     * @param factor a multiplier, at least 0
     * @return this rate times {@code factor}, in the same unit
     * @throws IllegalArgumentException if the result is above {@link #MAX_PER_SECOND}
     */
    public WriteRate times(long factor) {
        return new WriteRate(count.multiply(BigDecimal.valueOf(factor)), unitSeconds, unit);
    }

    /**
     * Parses {@code COUNT/UNIT}: COUNT a decimal number, UNIT one of s, min, h, day.
     *
     * @param text e.g. {@code 1000/min}, {@code 0.1/s}, {@code 1/h}
     * @return the rate
     * @throws IllegalArgumentException saying what is expected
     */
    public static WriteRate parse(String text) {
        Matcher m = SYNTAX.matcher(text == null ? "" : text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "Invalid rate '" + text + "': use COUNT/UNIT with UNIT s, min, h or day, " + "e.g. 1000/min");
        }
        long seconds = switch (m.group(2)) {
            case "s", "sec" -> 1;
            case "min" -> 60;
            case "h", "hour" -> 3_600;
            case "d", "day" -> 86_400;
            default -> throw new IllegalArgumentException("Invalid rate unit in '" + text + "': use s, min, h or day");
        };
        return new WriteRate(new BigDecimal(m.group(1)), seconds, m.group(2));
    }

    /**
     * @param seconds a span of time in seconds, at least 0
     * @return rows written in that span at this rate (not rounded)
     */
    public BigDecimal rowsIn(long seconds) {
        return count.multiply(BigDecimal.valueOf(seconds))
                .divide(BigDecimal.valueOf(unitSeconds), java.math.MathContext.DECIMAL64);
    }

    /** @return rows per second */
    public double perSecond() {
        return count.doubleValue() / unitSeconds;
    }

    @Override
    public String toString() {
        return count.stripTrailingZeros().toPlainString() + "/" + unit;
    }
}
