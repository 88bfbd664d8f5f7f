package io.apiary.ingest.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The benchmark's results as a table for people and as a JSON or CSV file for machines, with the
 * ratios and targets of the benchmark issue:
 * <ul>
 *   <li>sink rows/s over the naive writer's (target at least 2);</li>
 *   <li>sink rows/s over the ceiling's, and sink Cassandra CPU per row over the ceiling's
 *       (target at most 1.5); the ceiling is the best the workload allows (its first shard
 *       strategy's rows, pre-grouped), so every sink run is compared with it;</li>
 *   <li>sink client CPU per row (target at most 3 µs);</li>
 *   <li>the sink's peak live heap (after a forced full collection).</li>
 * </ul>
 * Immutable and thread-safe.
 */
public final class BenchReport {

    /**
     * One comparison of the sink with a baseline.
     *
     * @param name   what is compared, e.g. {@code sink/naive rows/s (time)}
     * @param value  the ratio, or the figure for absolute targets
     * @param target the target in words, e.g. {@code >= 2}, or {@value BenchReport#REPORT} for a figure only reported
     * @param met    whether the target is met; null for a reported figure, and when the value could not
     *               be measured (the Cassandra CPU of a remote cluster, a baseline that did nothing)
     */
    public record Check(String name, double value, String target, Boolean met) {
    }

    /** The target of a figure that is reported, not compared: {@link Check#met()} is then null. */
    static final String REPORT = "report";

    private final List<BenchResult> results;
    private final Map<String, Object> context;

    /**
     * @param results the runs, in order
     * @param context what was run where: date, machine, command, settings (written as given)
     */
    public BenchReport(List<BenchResult> results, Map<String, Object> context) {
        this.results = List.copyOf(results);
        this.context = new LinkedHashMap<>(context);
    }

    /** @return the ratios and targets, one per sink run and baseline present */
    public List<Check> checks() {
        List<Check> checks = new ArrayList<>();
        Optional<BenchResult> naive = find("naive", null);
        for (BenchResult sink : results) {
            if (!sink.run().equals("sink") || !sink.completed()) {
                continue;
            }
            String s = sink.shardStrategy();
            naive.ifPresent(n -> checks.add(atLeast("sink/naive rows/s (" + s + ")",
                    sink.perSecond() / n.perSecond(), 2)));
            find("ceiling", null).ifPresent(c -> {
                checks.add(new Check("sink/ceiling rows/s (" + s + ")", sink.perSecond() / c.perSecond(), REPORT,
                        null));
                checks.add(atMost("sink/ceiling Cassandra CPU per row (" + s + ")",
                        sink.cassandraCpuMicros() / c.cassandraCpuMicros(), 1.5));
            });
            checks.add(atMost("sink client CPU us/row (" + s + ")", sink.clientCpuMicros(), 3));
            checks.add(new Check("sink peak live heap MiB (" + s + ")", sink.peakLiveHeapMiB(), REPORT, null));
        }
        return checks;
    }

    private static Check atLeast(String name, double value, double target) {
        return new Check(name, value, ">= " + format(target, 1), Double.isFinite(value) ? value >= target : null);
    }

    private static Check atMost(String name, double value, double target) {
        return new Check(name, value, "<= " + format(target, 1), Double.isFinite(value) ? value <= target : null);
    }

    private Optional<BenchResult> find(String run, String strategy) {
        return results.stream().filter(r -> r.run().equals(run) && r.completed()
                && (strategy == null || r.shardStrategy().equals(strategy))).findFirst();
    }

    /**
     * Prints the table, the ratios and the targets.
     *
     * @param out where to print
     */
    public void print(PrintWriter out) {
        String header = String.format(Locale.ROOT, "%-11s %-5s %10s %8s %9s %12s %10s %10s %9s %8s %8s %9s %9s",
                "run", "shard", "items", "seconds", "items/s", "client us", "Cassandra", "Kafka",
                "rows/req", "p50 ms", "p99 ms", "heap MiB", "live heap");
        out.println(header);
        out.println(String.format(Locale.ROOT, "%-11s %-5s %10s %8s %9s %12s %10s %10s %9s %8s %8s %9s %9s",
                "", "", "", "", "", "per item", "us/item", "us/item", "", "", "", "peak", "peak"));
        for (BenchResult r : results) {
            out.println(String.format(Locale.ROOT, "%-11s %-5s %,10d %8.1f %9s %12s %10s %10s %9s %8s %8s %9s %9s%s",
                    r.run(), r.shardStrategy(), r.items(), r.seconds(), format(r.perSecond(), 0), format(r.clientCpuMicros(), 1),
                    format(r.cassandraCpuMicros(), 1), format(r.kafkaCpuMicros(), 1), format(r.rowsPerRequest(), 1),
                    format(r.p50Millis(), 1), format(r.p99Millis(), 1), format(r.peakHeapMiB(), 0),
                    format(r.peakLiveHeapMiB(), 0), r.completed() ? "" : "  NOT COMPLETED: " + r.note()));
        }
        List<Check> checks = checks();
        if (!checks.isEmpty()) {
            out.println();
            for (Check c : checks) {
                out.println(String.format(Locale.ROOT, "  %-50s %9s   %s", c.name(), format(c.value(), 2),
                        c.target().equals(REPORT) ? "" : "target " + c.target() + ": " + (c.met() == null ? "not measured"
                        : c.met() ? "met" : "NOT met")));
            }
        }
        out.flush();
    }

    /**
     * Writes the results: CSV (one row per run) if the file name ends with {@code .csv},
     * otherwise JSON ({@code context}, {@code runs}, {@code checks}).
     *
     * @param file where to write; its folder must exist
     * @throws IOException if it cannot be written
     */
    public void write(Path file) throws IOException {
        if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")) {
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                 CSVPrinter csv = new CSVPrinter(w, CSVFormat.DEFAULT)) {
                csv.printRecord(results.isEmpty() ? List.of() : results.get(0).toMap().keySet());
                for (BenchResult r : results) {
                    csv.printRecord(r.toMap().values());
                }
            }
            return;
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("context", context);
        json.put("runs", results.stream().map(BenchResult::toMap).toList());
        json.put("checks", checks().stream().map(c -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", c.name());
            m.put("value", BenchResult.figure(c.value()));
            m.put("target", c.target());
            m.put("met", c.met());
            return m;
        }).toList());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    /**
     * @param value    a figure
     * @param decimals digits after the point
     * @return the figure with thousands separators, or {@code n/a} if NaN or infinite
     */
    static String format(double value, int decimals) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%,." + decimals + "f", value) : "n/a";
    }
}
