package io.apiary.ingest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.apiary.ingest.bench.BenchChecks.Check;
import io.apiary.ingest.bench.BenchChecks.Target;
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
import java.util.function.ToDoubleFunction;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The benchmark's results over its repeats ({@code bench --repeat N}) as tables for people and as
 * a JSON or CSV file for machines: every repeat's runs, each run's medians over the repeats, and
 * for each check of {@link BenchChecks} its value per repeat, its median and its range
 * ({@link Spread}); whether a target is met is judged on the median. Immutable and thread-safe.
 */
public final class BenchReport {

    /**
     * A check over the repeats.
     *
     * @param name   the check's name, as in {@link Check#name()}
     * @param target what its median is held to
     * @param values its value in each repeat, in order; NaN in a repeat where it was not measured
     *               or its runs did not complete
     * @param spread median and range of the finite values
     */
    public record Summary(String name, Target target, List<Double> values, Spread spread) {

        /** @return whether the median meets the target; null when only reported or not measured */
        public Boolean met() {
            return target.met(spread.median());
        }
    }

    private final List<List<BenchResult>> repeats;
    private final Map<String, Object> context;

    /**
     * @param repeats the runs of each repeat, in order; at least one repeat
     * @param context what was run where: date, machine, command, settings (written as given)
     * @throws IllegalArgumentException if there is no repeat
     */
    public BenchReport(List<List<BenchResult>> repeats, Map<String, Object> context) {
        if (repeats.isEmpty()) {
            throw new IllegalArgumentException("a report needs at least one repeat");
        }
        this.repeats = repeats.stream().map(List::copyOf).toList();
        this.context = new LinkedHashMap<>(context);
    }

    /**
     * @param results the runs of a single repeat
     * @param context as for {@link #BenchReport(List, Map)}
     * @return the report of that one repeat
     */
    public static BenchReport ofSingleRepeat(List<BenchResult> results, Map<String, Object> context) {
        return new BenchReport(List.of(results), context);
    }

    /** @return the runs of each repeat, unmodifiable */
    public List<List<BenchResult>> repeats() {
        return repeats;
    }

    /**
     * @param repeat 1-based repeat number
     * @return the checks of that repeat
     */
    public List<Check> checks(int repeat) {
        return BenchChecks.of(repeats.get(repeat - 1));
    }

    /** @return every check met in any repeat, in first-seen order, with its values, median and range */
    public List<Summary> summaries() {
        Map<String, Target> targets = new LinkedHashMap<>();
        List<Map<String, Double>> values = new ArrayList<>();
        for (List<BenchResult> repeat : repeats) {
            Map<String, Double> byName = new LinkedHashMap<>();
            for (Check c : BenchChecks.of(repeat)) {
                targets.putIfAbsent(c.name(), c.target());
                byName.put(c.name(), c.value());
            }
            values.add(byName);
        }
        List<Summary> summaries = new ArrayList<>();
        targets.forEach((name, target) -> {
            List<Double> perRepeat =
                    values.stream().map(m -> m.getOrDefault(name, Double.NaN)).toList();
            summaries.add(new Summary(name, target, perRepeat, Spread.of(perRepeat)));
        });
        return summaries;
    }

    /**
     * @return one result per run (and shard strategy) whose figures are the medians over the
     *         repeats of its completed instances (all instances when none completed); items and
     *         requests are rounded medians, {@code completed} whether every repeat's completed
     */
    public List<BenchResult> medians() {
        Map<String, List<BenchResult>> byRun = new LinkedHashMap<>();
        for (List<BenchResult> repeat : repeats) {
            for (BenchResult r : repeat) {
                byRun.computeIfAbsent(r.run() + "/" + r.shardStrategy(), k -> new ArrayList<>())
                        .add(r);
            }
        }
        return byRun.values().stream().map(BenchReport::median).toList();
    }

    static BenchResult median(List<BenchResult> instances) {
        List<BenchResult> completed =
                instances.stream().filter(BenchResult::completed).toList();
        List<BenchResult> of = completed.isEmpty() ? instances : completed;
        BenchResult first = of.get(0);
        double seconds = m(of, BenchResult::seconds);
        double perSecond = m(of, BenchResult::perSecond);
        // items/seconds must give the median rate: keep the median items, derive the window
        long items = Math.round(m(of, r -> r.items()));
        return new BenchResult(
                first.run(),
                first.shardStrategy(),
                first.unit(),
                items,
                perSecond > 0 ? items / perSecond : seconds,
                m(of, BenchResult::clientCpuMicros),
                m(of, BenchResult::cassandraCpuMicros),
                m(of, BenchResult::cassandraAfterCpuMicros),
                m(of, BenchResult::kafkaCpuMicros),
                m(of, BenchResult::rowsPerRequest),
                Math.round(m(of, r -> r.requests())),
                m(of, BenchResult::p50Millis),
                m(of, BenchResult::p99Millis),
                m(of, BenchResult::peakHeapMiB),
                m(of, BenchResult::peakLiveHeapMiB),
                completed.size() == instances.size(),
                "median of " + of.size() + " of " + instances.size() + " repeats");
    }

    private static double m(List<BenchResult> results, ToDoubleFunction<BenchResult> figure) {
        return Spread.of(results.stream().mapToDouble(figure).toArray()).median();
    }

    /**
     * Prints each repeat's table, then (with more than one repeat) the medians, and the checks:
     * with one repeat each check's value, otherwise its median and range.
     *
     * @param out where to print
     */
    public void print(PrintWriter out) {
        for (int i = 0; i < repeats.size(); i++) {
            if (repeats.size() > 1) {
                out.printf(Locale.ROOT, "%sRepeat %d of %d%n", i == 0 ? "" : "\n", i + 1, repeats.size());
            }
            table(out, repeats.get(i));
        }
        boolean many = repeats.size() > 1;
        if (many) {
            out.printf(Locale.ROOT, "%nMedians over %d repeats%n", repeats.size());
            table(out, medians());
        }
        List<Summary> summaries = summaries();
        if (!summaries.isEmpty()) {
            out.println();
            if (many) {
                out.println(String.format(Locale.ROOT, "  %-56s %9s %17s", "check", "median", "range"));
            }
            for (Summary s : summaries) {
                String verdict = s.target().reportOnly()
                        ? ""
                        : "target " + s.target() + ": "
                                + (s.met() == null ? "not measured" : s.met() ? "met" : "NOT met");
                out.println(
                        many
                                ? String.format(
                                        Locale.ROOT,
                                        "  %-56s %9s %17s   %s",
                                        s.name(),
                                        format(s.spread().median(), 2),
                                        s.spread().range(2),
                                        verdict)
                                : String.format(
                                        Locale.ROOT,
                                        "  %-56s %9s   %s",
                                        s.name(),
                                        format(s.spread().median(), 2),
                                        verdict));
            }
        }
        out.flush();
    }

    private static void table(PrintWriter out, List<BenchResult> results) {
        String columns = "%-11s %-5s %10s %8s %9s %12s %10s %10s %10s %9s %8s %8s %9s %9s";
        out.println(String.format(
                Locale.ROOT,
                columns,
                "run",
                "shard",
                "items",
                "seconds",
                "items/s",
                "client us",
                "Cassandra",
                "Cass after",
                "Kafka",
                "rows/req",
                "p50 ms",
                "p99 ms",
                "heap MiB",
                "live heap"));
        out.println(String.format(
                Locale.ROOT,
                columns,
                "",
                "",
                "",
                "",
                "",
                "per item",
                "us/item",
                "us/item",
                "us/item",
                "",
                "",
                "",
                "peak",
                "peak"));
        for (BenchResult r : results) {
            out.println(String.format(
                    Locale.ROOT,
                    "%-11s %-5s %,10d %8.1f %9s %12s %10s %10s %10s %9s %8s %8s %9s %9s%s",
                    r.run(),
                    r.shardStrategy(),
                    r.items(),
                    r.seconds(),
                    format(r.perSecond(), 0),
                    format(r.clientCpuMicros(), 1),
                    format(r.cassandraCpuMicros(), 1),
                    format(r.cassandraAfterCpuMicros(), 1),
                    format(r.kafkaCpuMicros(), 1),
                    format(r.rowsPerRequest(), 1),
                    format(r.p50Millis(), 1),
                    format(r.p99Millis(), 1),
                    format(r.peakHeapMiB(), 0),
                    format(r.peakLiveHeapMiB(), 0),
                    r.completed() ? "" : "  NOT COMPLETED: " + r.note()));
        }
    }

    /**
     * Writes the results. JSON unless the file name ends with {@code .csv}: {@code context},
     * {@code repeats} (their count), {@code runs} (every repeat's runs, each with its
     * {@code repeat} number), {@code medians} (as {@link #medians()}), {@code checks} (as
     * {@link #summaries()}: {@code name}, {@code target}, {@code values} per repeat, {@code median},
     * {@code min}, {@code max}, {@code met}). CSV: one line per run of each repeat and one per
     * median ({@code repeat} column: the repeat number or {@code median}); the checks go to a file
     * beside it, its name ending {@code .checks.csv}.
     *
     * @param file where to write; its folder must exist
     * @throws IOException if it cannot be written
     */
    public void write(Path file) throws IOException {
        String name = file.getFileName().toString();
        if (name.toLowerCase(Locale.ROOT).endsWith(".csv")) {
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                    CSVPrinter csv = new CSVPrinter(w, CSVFormat.DEFAULT)) {
                for (Map<String, Object> row : runRows()) {
                    if (csv.getRecordCount() == 0) {
                        csv.printRecord(row.keySet());
                    }
                    csv.printRecord(row.values());
                }
            }
            Path checks = file.resolveSibling(name.substring(0, name.length() - 4) + ".checks.csv");
            try (Writer w = Files.newBufferedWriter(checks, StandardCharsets.UTF_8);
                    CSVPrinter csv = new CSVPrinter(w, CSVFormat.DEFAULT)) {
                List<Object> header = new ArrayList<>(List.of("check", "target", "median", "min", "max", "met"));
                for (int i = 1; i <= repeats.size(); i++) {
                    header.add("repeat_" + i);
                }
                csv.printRecord(header);
                for (Summary s : summaries()) {
                    List<Object> row =
                            new ArrayList<>(List.of(s.name(), s.target().toString()));
                    row.add(BenchResult.figure(s.spread().median()));
                    row.add(BenchResult.figure(s.spread().min()));
                    row.add(BenchResult.figure(s.spread().max()));
                    row.add(s.met());
                    s.values().forEach(v -> row.add(BenchResult.figure(v)));
                    csv.printRecord(row);
                }
            }
            return;
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("context", context);
        json.put("repeats", repeats.size());
        List<Map<String, Object>> rows = runRows();
        json.put(
                "runs",
                rows.stream().filter(r -> !r.get("repeat").equals("median")).toList());
        json.put("medians", medians().stream().map(BenchResult::toMap).toList());
        json.put(
                "checks",
                summaries().stream()
                        .map(s -> {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("name", s.name());
                            m.put("target", s.target().toString());
                            m.put(
                                    "values",
                                    s.values().stream().map(BenchResult::figure).toList());
                            m.put("median", BenchResult.figure(s.spread().median()));
                            m.put("min", BenchResult.figure(s.spread().min()));
                            m.put("max", BenchResult.figure(s.spread().max()));
                            m.put("met", s.met());
                            return m;
                        })
                        .toList());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    /** Every repeat's runs, then the medians, each led by its {@code repeat}: a number or {@code median}. */
    private List<Map<String, Object>> runRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < repeats.size(); i++) {
            for (BenchResult r : repeats.get(i)) {
                rows.add(withRepeat(i + 1, r));
            }
        }
        for (BenchResult r : medians()) {
            rows.add(withRepeat("median", r));
        }
        return rows;
    }

    private static Map<String, Object> withRepeat(Object repeat, BenchResult r) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("repeat", repeat);
        row.putAll(r.toMap());
        return row;
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
