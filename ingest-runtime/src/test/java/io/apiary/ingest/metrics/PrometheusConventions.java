package io.apiary.ingest.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a Prometheus text scrape ({@code PrometheusMeterRegistry#scrape()}) against the naming
 * practice (https://prometheus.io/docs/practices/naming/): every {@code apiary_} sample is a number
 * (neither NaN nor an infinity), its name ends with a unit or a series suffix, and a histogram has few buckets. Stateless.
 */
public final class PrometheusConventions {

    /** Most {@code _bucket} samples of one histogram series, {@code +Inf} included. */
    public static final int MAX_BUCKETS = 16;

    /** The suffixes an {@code apiary_} sample name may end with: a unit, or a counter's or histogram's series. */
    public static final List<String> SUFFIXES = List.of(
            "_total",
            "_ratio",
            "_count",
            "_sum",
            "_bucket",
            "_max",
            "_seconds",
            "_bytes",
            "_rows",
            "_records",
            "_requests",
            "_partitions",
            "_per_second");

    private static final Pattern SAMPLE = Pattern.compile("(?m)^(apiary_[a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)$");
    private static final Pattern LE = Pattern.compile(",?le=\"[^\"]*\"");

    private PrometheusConventions() {}

    private static boolean finite(String value) {
        return switch (value) {
            case "NaN", "+Inf", "-Inf" -> false;
            default -> Double.isFinite(Double.parseDouble(value));
        };
    }

    /**
     * @param scrape a scrape in Prometheus's text format, not null
     * @return the {@code apiary_} samples read, at least one
     * @throws AssertionError naming each sample that is NaN, lacks a unit suffix, or a histogram
     *                        series with more than {@value #MAX_BUCKETS} buckets
     */
    public static int check(String scrape) {
        List<String> nan = new ArrayList<>();
        List<String> noUnit = new ArrayList<>();
        Map<String, Integer> buckets = new TreeMap<>();
        int samples = 0;
        Matcher m = SAMPLE.matcher(scrape);
        while (m.find()) {
            samples++;
            String name = m.group(1);
            String labels = m.group(2) == null ? "" : m.group(2);
            if (!finite(m.group(3))) {
                nan.add(name + labels);
            }
            if (SUFFIXES.stream().noneMatch(name::endsWith)) {
                noUnit.add(name);
            }
            if (name.endsWith("_bucket")) {
                buckets.merge(name + LE.matcher(labels).replaceAll(""), 1, Integer::sum);
            }
        }
        assertThat(samples).as("apiary_ samples in the scrape").isPositive();
        assertThat(nan).as("samples reading NaN or an infinity").isEmpty();
        assertThat(noUnit)
                .as("sample names without a unit or series suffix " + SUFFIXES)
                .isEmpty();
        assertThat(buckets)
                .as("buckets per histogram series")
                .allSatisfy((series, n) -> assertThat(n).as(series).isLessThanOrEqualTo(MAX_BUCKETS));
        return samples;
    }
}
