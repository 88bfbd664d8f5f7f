package io.apiary.ingest.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.stream.DoubleStream;

/**
 * One scrape of a {@code /metrics} endpoint in Prometheus's text format, as {@code run} serves it:
 * its samples, read once, with sums and maxima over label values. Lines that are comments or not
 * samples are skipped; a value that is not a number ({@code NaN}, {@code +Inf}) is kept as the
 * double it names. Immutable and thread-safe.
 */
final class MetricsScrape {

    /**
     * One sample line.
     *
     * @param name   the metric's name, e.g. {@code jvm_memory_used_bytes}
     * @param labels its labels, in the order of the line
     * @param value  its value
     */
    record Sample(String name, Map<String, String> labels, double value) {}

    private final List<Sample> samples;

    private MetricsScrape(List<Sample> samples) {
        this.samples = List.copyOf(samples);
    }

    /**
     * @param text the body of a {@code /metrics} response, not null
     * @return its samples
     * @throws IllegalArgumentException if a sample line is malformed (an unclosed label value, no value)
     */
    static MetricsScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        text.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .forEach(l -> samples.add(sample(l)));
        return new MetricsScrape(samples);
    }

    private static Sample sample(String line) {
        int brace = line.indexOf('{');
        int space = line.indexOf(' ');
        Map<String, String> labels = new LinkedHashMap<>();
        String name;
        int rest;
        if (brace >= 0 && (space < 0 || brace < space)) {
            name = line.substring(0, brace);
            int i = brace + 1;
            while (i < line.length() && line.charAt(i) != '}') {
                int eq = line.indexOf("=\"", i);
                if (eq < 0) {
                    throw new IllegalArgumentException("malformed labels in metrics line: " + line);
                }
                String label = line.substring(i, eq).strip();
                StringBuilder value = new StringBuilder();
                int j = eq + 2;
                for (; j < line.length() && line.charAt(j) != '"'; j++) {
                    char c = line.charAt(j);
                    if (c == '\\' && j + 1 < line.length()) {
                        char next = line.charAt(++j);
                        value.append(next == 'n' ? '\n' : next);
                    } else {
                        value.append(c);
                    }
                }
                if (j >= line.length()) {
                    throw new IllegalArgumentException("unclosed label value in metrics line: " + line);
                }
                labels.put(label, value.toString());
                i = j + 1;
                if (i < line.length() && line.charAt(i) == ',') {
                    i++;
                }
            }
            if (i >= line.length()) {
                throw new IllegalArgumentException("unclosed labels in metrics line: " + line);
            }
            rest = i + 1;
        } else {
            if (space < 0) {
                throw new IllegalArgumentException("no value in metrics line: " + line);
            }
            name = line.substring(0, space);
            rest = space;
        }
        String fields = line.substring(rest).strip();
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("no value in metrics line: " + line);
        }
        int end = fields.indexOf(' '); // a timestamp may follow the value
        return new Sample(name, labels, value(end < 0 ? fields : fields.substring(0, end)));
    }

    private static double value(String text) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }

    /** @return every sample, in the order of the scrape */
    List<Sample> samples() {
        return samples;
    }

    private DoubleStream values(String name, String... labelPairs) {
        Objects.requireNonNull(name, "name");
        if (labelPairs.length % 2 != 0) {
            throw new IllegalArgumentException("labels come in name, value pairs");
        }
        return samples.stream()
                .filter(s -> s.name().equals(name) && matches(s.labels(), labelPairs))
                .mapToDouble(Sample::value);
    }

    private static boolean matches(Map<String, String> labels, String... labelPairs) {
        for (int i = 0; i < labelPairs.length; i += 2) {
            if (!labelPairs[i + 1].equals(labels.get(labelPairs[i]))) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param name       a metric's name
     * @param labelPairs label name, value, ...: only samples with these labels
     * @return whether the scrape has such a sample
     */
    boolean has(String name, String... labelPairs) {
        return values(name, labelPairs).findAny().isPresent();
    }

    /**
     * @param name       a metric's name
     * @param labelPairs label name, value, ...: only samples with these labels
     * @return the sum of those samples' values, 0 if none
     */
    double sum(String name, String... labelPairs) {
        return values(name, labelPairs).sum();
    }

    /**
     * @param name       a metric's name
     * @param labelPairs label name, value, ...: only samples with these labels
     * @return the largest of those samples' values, empty if none
     */
    OptionalDouble max(String name, String... labelPairs) {
        return values(name, labelPairs).max();
    }

    /**
     * @param name  a metric's name
     * @param label a label of its samples
     * @return the sum of the samples' values per value of that label (samples without it left out), sorted
     */
    Map<String, Double> sumBy(String name, String label) {
        Map<String, Double> sums = new TreeMap<>();
        for (Sample s : samples) {
            String key = s.labels().get(label);
            if (s.name().equals(name) && key != null) {
                sums.merge(key, s.value(), Double::sum);
            }
        }
        return sums;
    }
}
