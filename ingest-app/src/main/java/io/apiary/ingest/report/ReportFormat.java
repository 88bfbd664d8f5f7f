package io.apiary.ingest.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Locale-independent ({@link Locale#ROOT}) text of the report's numbers and units (times: {@link ReportTime}). Stateless,
 * thread-safe.
 */
final class ReportFormat {

    private ReportFormat() {}

    /** @return e.g. {@code 12,345} */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /**
     * @param n        a count
     * @param singular the noun for one, e.g. {@code reading}
     * @param plural   the noun for any other count, e.g. {@code readings}
     * @return the count with thousands separators and its noun, e.g. {@code 1 reading}, {@code 1,318 readings}
     */
    static String count(long n, String singular, String plural) {
        return count(n) + " " + (n == 1 ? singular : plural);
    }

    /**
     * @param value a value, any double
     * @param scale the most decimals to keep (rounded half-even), at least 0
     * @return the value without trailing zeros, e.g. {@code 21.5}, {@code 35}, {@code -0.125}; {@code NaN},
     *         {@code Infinity}, {@code -Infinity} as such
     */
    static String number(double value, int scale) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        BigDecimal rounded = BigDecimal.valueOf(value)
                .setScale(scale, RoundingMode.HALF_EVEN)
                .stripTrailingZeros();
        return rounded.signum() == 0 ? "0" : rounded.toPlainString();
    }

    /**
     * @param value    a value, any double
     * @param decimals decimals to print, 0 to 9
     * @return e.g. {@code 51.00} for 51 with 2 decimals; no minus sign on a value that rounds to 0
     */
    static String fixed(double value, int decimals) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        String text = String.format(Locale.ROOT, "%." + decimals + "f", value);
        return text.startsWith("-") && text.chars().noneMatch(ch -> ch >= '1' && ch <= '9') ? text.substring(1) : text;
    }

    /** @return a reading's exact value, e.g. {@code 35.12}, without an exponent */
    static String exact(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        BigDecimal exact = BigDecimal.valueOf(value).stripTrailingZeros();
        return exact.signum() == 0 ? "0" : exact.toPlainString();
    }

    /**
     * A unit as the pipeline stores it, written as a reader expects it: {@code degC} as
     * {@code °C}, {@code degF} as {@code °F}; every other unit ({@code %RH}, {@code kg}, {@code hPa},
     * {@code mm/s}, ...) as it is.
     *
     * @param unit the stored unit, not null
     * @return its symbol
     */
    static String unitSymbol(String unit) {
        return switch (unit) {
            case "degC" -> "\u00B0C";
            case "degF" -> "\u00B0F";
            default -> unit;
        };
    }
}
