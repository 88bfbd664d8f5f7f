package io.apiary.ingest.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The ratios and targets of the benchmark (issue 18), computed from the runs of one repeat:
 * <ul>
 *   <li>sink rows/s over the naive writer's: at least {@value #SINK_OVER_NAIVE};</li>
 *   <li>sink rows/s over the Spark connector's ({@code spark} run), when it ran: at least
 *       {@value #SINK_OVER_SPARK};</li>
 *   <li>sink Cassandra CPU per row over the ceiling's: at most {@value #CASSANDRA_CPU_OVER_CEILING};
 *       here and for the end-to-end run below, a run's Cassandra CPU is its window's and what the
 *       nodes spent after it until no compaction or flush was left
 *       ({@link BenchResult#cassandraAllCpuMicros()}); the window's alone is reported beside it;</li>
 *   <li>sink client CPU per row over the ceiling client's: at most {@value #CLIENT_CPU_OVER_CEILING};</li>
 *   <li>sink total CPU per row ({@link #totalCpuMicros}: client, Cassandra window and after, and
 *       Kafka) over the ceiling's: at most {@value #TOTAL_CPU_OVER_CEILING}; the Spark run's over the
 *       sink's: at least {@value #SPARK_TOTAL_CPU_OVER_SINK} (issue 46); both only where every process's
 *       CPU is measured (a local stack);</li>
 *   <li>end-to-end Cassandra CPU per row over the sink run's of the same shard strategy: at most
 *       {@value #END_TO_END_CASSANDRA_CPU_OVER_SINK};</li>
 *   <li>the p99 write latency of the {@code sink-paced} run (the sink held to
 *       {@link Bench#PACED_FRACTION} of the unpaced sink run's rows/s): at most
 *       {@value #PACED_P99_MILLIS} ms; its rows/s over the unpaced run's, reported;</li>
 *   <li>topology client CPU per record over the {@code pass-through} run's (a Kafka Streams
 *       application with the topology's settings and serdes that does nothing else): at most
 *       {@value #TOPOLOGY_CLIENT_CPU_OVER_PASS_THROUGH} (issue 46); their Kafka CPU per record,
 *       reported;</li>
 *   <li>the {@code end-to-end-paced} run's total CPU per row (client + Cassandra window and after +
 *       Kafka, {@link #totalCpuMicros}) over the sink run's of the same shard strategy: at most
 *       {@value #END_TO_END_PACED_CPU_OVER_SINK}; only for a run that kept the pace (its note does
 *       not start with {@value Bench#NOT_SUSTAINED}); its rows per request and p99, reported;</li>
 *   <li>reported only: sink rows/s over the ceiling's, the p99 write latency of the sink and
 *       end-to-end runs, the sink's peak live heap.</li>
 * </ul>
 * Only completed runs are compared; a check whose baseline is missing is left out. The ceiling,
 * the naive writer and the Spark run use the first shard strategy's rows, so every sink run is
 * compared with them. Stateless and thread-safe.
 */
public final class BenchChecks {

    /** Sink rows/s at least this many times the naive writer's. */
    public static final double SINK_OVER_NAIVE = 2.5;
    /** Sink rows/s at least this many times the Spark connector's. */
    public static final double SINK_OVER_SPARK = 2.0;
    /** Sink Cassandra CPU per row at most this many times the ceiling's. */
    public static final double CASSANDRA_CPU_OVER_CEILING = 1.15;
    /** Sink client CPU per row at most this many times the ceiling client's. */
    public static final double CLIENT_CPU_OVER_CEILING = 1.5;
    /** End-to-end Cassandra CPU per row at most this many times the sink run's. */
    public static final double END_TO_END_CASSANDRA_CPU_OVER_SINK = 1.3;
    /** Topology client CPU per record at most this many times the pass-through's. */
    public static final double TOPOLOGY_CLIENT_CPU_OVER_PASS_THROUGH = 1.3;
    /** End-to-end-paced total CPU per row at most this many times the sink run's (issue 46). */
    public static final double END_TO_END_PACED_CPU_OVER_SINK = 1.5;
    /** Sink total CPU per row (every process, {@link #totalCpuMicros}) at most this many times the ceiling's. */
    public static final double TOTAL_CPU_OVER_CEILING = 1.15;
    /** Spark run's total CPU per row at least this many times the sink's. */
    public static final double SPARK_TOTAL_CPU_OVER_SINK = 1.5;
    /** p99 write latency of the paced sink run at most this, in milliseconds. */
    public static final double PACED_P99_MILLIS = 100;

    /**
     * What a check's value is held to.
     *
     * @param comparison {@code >=}, {@code <=}, or {@link #REPORT} for a figure that is only reported
     * @param threshold  the bound; NaN for a reported figure
     */
    public record Target(String comparison, double threshold) {

        /** The comparison of a figure that is reported, not held to a bound. */
        public static final String REPORT = "report";

        static Target atLeast(double threshold) {
            return new Target(">=", threshold);
        }

        static Target atMost(double threshold) {
            return new Target("<=", threshold);
        }

        static Target report() {
            return new Target(REPORT, Double.NaN);
        }

        /** @return whether this is a reported figure only */
        public boolean reportOnly() {
            return comparison.equals(REPORT);
        }

        /**
         * @param value a measured value
         * @return whether it meets the target; null for a reported figure and for a value that is
         *         NaN or infinite (not measured, or a baseline that did nothing)
         */
        public Boolean met(double value) {
            if (reportOnly() || !Double.isFinite(value)) {
                return null;
            }
            return comparison.equals(">=") ? value >= threshold : value <= threshold;
        }

        /** @return e.g. {@code >= 2.5}, or {@code report} */
        @Override
        public String toString() {
            return reportOnly() ? REPORT : comparison + " " + BenchReport.format(threshold, 2);
        }
    }

    /**
     * One comparison of a run with a baseline, in one repeat.
     *
     * @param name   what is compared, e.g. {@code sink/naive rows/s (time)}; the same in every repeat
     * @param value  the ratio or figure; NaN when not measured
     * @param target what it is held to
     */
    public record Check(String name, double value, Target target) {

        /** @return whether the target is met; null when only reported or not measured */
        public Boolean met() {
            return target.met(value);
        }
    }

    private BenchChecks() {}

    /**
     * @param results the runs of one repeat, in order, not null
     * @return the checks, one set per completed sink, topology and end-to-end run whose baselines completed
     */
    public static List<Check> of(List<BenchResult> results) {
        List<Check> checks = new ArrayList<>();
        Optional<BenchResult> naive = find(results, "naive", null);
        Optional<BenchResult> spark = find(results, "spark", null);
        Optional<BenchResult> ceiling = find(results, "ceiling", null);
        for (BenchResult sink : results) {
            if (!sink.run().equals("sink") || !sink.completed()) {
                continue;
            }
            String s = " (" + sink.shardStrategy() + ")";
            naive.ifPresent(n -> checks.add(new Check(
                    "sink/naive rows/s" + s, sink.perSecond() / n.perSecond(), Target.atLeast(SINK_OVER_NAIVE))));
            spark.ifPresent(p -> checks.add(new Check(
                    "sink/spark rows/s" + s, sink.perSecond() / p.perSecond(), Target.atLeast(SINK_OVER_SPARK))));
            ceiling.ifPresent(c -> {
                checks.add(new Check("sink/ceiling rows/s" + s, sink.perSecond() / c.perSecond(), Target.report()));
                checks.add(new Check(
                        "sink/ceiling Cassandra CPU per row" + s,
                        cassandraRatio(sink, c),
                        Target.atMost(CASSANDRA_CPU_OVER_CEILING)));
                checks.add(new Check(
                        "sink/ceiling Cassandra CPU/row, window only" + s,
                        sink.cassandraCpuMicros() / c.cassandraCpuMicros(),
                        Target.report()));
                checks.add(new Check(
                        "sink/ceiling client CPU per row" + s,
                        sink.clientCpuMicros() / c.clientCpuMicros(),
                        Target.atMost(CLIENT_CPU_OVER_CEILING)));
                double total = totalCpuMicros(sink) / totalCpuMicros(c);
                if (Double.isFinite(total)) { // not when a process's CPU is not measured (a remote cluster)
                    checks.add(new Check(
                            "sink/ceiling total CPU per row" + s, total, Target.atMost(TOTAL_CPU_OVER_CEILING)));
                }
            });
            spark.map(p -> totalCpuMicros(p) / totalCpuMicros(sink))
                    .filter(Double::isFinite)
                    .ifPresent(total -> checks.add(new Check(
                            "spark/sink total CPU per row" + s, total, Target.atLeast(SPARK_TOTAL_CPU_OVER_SINK))));
            checks.add(new Check("sink p99 write ms" + s, sink.p99Millis(), Target.report()));
            checks.add(new Check("sink peak live heap MiB" + s, sink.peakLiveHeapMiB(), Target.report()));
        }
        for (BenchResult paced : results) {
            if (!paced.run().equals("sink-paced") || !paced.completed()) {
                continue;
            }
            String s = " (" + paced.shardStrategy() + ")";
            find(results, "sink", paced.shardStrategy())
                    .ifPresent(sink -> checks.add(new Check(
                            "sink-paced/sink rows/s" + s, paced.perSecond() / sink.perSecond(), Target.report())));
            checks.add(new Check("sink-paced p99 write ms" + s, paced.p99Millis(), Target.atMost(PACED_P99_MILLIS)));
        }
        find(results, "topology", null)
                .ifPresent(topology -> find(results, "pass-through", null).ifPresent(floor -> {
                    String s = " (" + topology.shardStrategy() + ")";
                    checks.add(new Check(
                            "topology/pass-through client CPU per record" + s,
                            topology.clientCpuMicros() / floor.clientCpuMicros(),
                            Target.atMost(TOPOLOGY_CLIENT_CPU_OVER_PASS_THROUGH)));
                    checks.add(new Check(
                            "topology/pass-through Kafka CPU per record" + s,
                            topology.kafkaCpuMicros() / floor.kafkaCpuMicros(),
                            Target.report()));
                }));
        for (BenchResult e2e : results) {
            if (!e2e.run().equals("end-to-end") || !e2e.completed()) {
                continue;
            }
            String s = " (" + e2e.shardStrategy() + ")";
            find(results, "sink", e2e.shardStrategy())
                    .ifPresent(sink -> checks.add(new Check(
                            "end-to-end/sink Cassandra CPU per row" + s,
                            cassandraRatio(e2e, sink),
                            Target.atMost(END_TO_END_CASSANDRA_CPU_OVER_SINK))));
            find(results, "sink", e2e.shardStrategy())
                    .ifPresent(sink -> checks.add(new Check(
                            "end-to-end/sink Cassandra CPU/row, window only" + s,
                            e2e.cassandraCpuMicros() / sink.cassandraCpuMicros(),
                            Target.report())));
            checks.add(new Check("end-to-end p99 write ms" + s, e2e.p99Millis(), Target.report()));
        }
        for (BenchResult paced : results) {
            if (!paced.run().equals("end-to-end-paced")
                    || !paced.completed()
                    || paced.note().startsWith(Bench.NOT_SUSTAINED)) {
                continue;
            }
            String s = " (" + paced.shardStrategy() + ")";
            find(results, "sink", paced.shardStrategy())
                    .ifPresent(sink -> checks.add(new Check(
                            "end-to-end-paced/sink total CPU per row" + s,
                            totalCpuMicros(paced) / totalCpuMicros(sink),
                            Target.atMost(END_TO_END_PACED_CPU_OVER_SINK))));
            checks.add(new Check("end-to-end-paced rows/request" + s, paced.rowsPerRequest(), Target.report()));
            checks.add(new Check("end-to-end-paced p99 write ms" + s, paced.p99Millis(), Target.report()));
        }
        return checks;
    }

    /**
     * A run's CPU per item of every process: client + Cassandra (window and after, or the window's
     * alone when the after figure is missing) + Kafka, microseconds; NaN when a part is not measured.
     *
     * @param r a run's result, not null
     * @return microseconds of CPU per item
     */
    static double totalCpuMicros(BenchResult r) {
        double cassandra =
                Double.isFinite(r.cassandraAllCpuMicros()) ? r.cassandraAllCpuMicros() : r.cassandraCpuMicros();
        return r.clientCpuMicros() + cassandra + r.kafkaCpuMicros();
    }

    /**
     * The ratio of two runs' Cassandra CPU per row: with the work each left for after its window
     * ({@link BenchResult#cassandraAllCpuMicros()}) when both have it, else over the windows.
     */
    static double cassandraRatio(BenchResult run, BenchResult base) {
        double all = run.cassandraAllCpuMicros() / base.cassandraAllCpuMicros();
        return Double.isFinite(all) ? all : run.cassandraCpuMicros() / base.cassandraCpuMicros();
    }

    private static Optional<BenchResult> find(List<BenchResult> results, String run, String strategy) {
        return results.stream()
                .filter(r -> r.run().equals(run)
                        && r.completed()
                        && (strategy == null || r.shardStrategy().equals(strategy)))
                .findFirst();
    }
}
