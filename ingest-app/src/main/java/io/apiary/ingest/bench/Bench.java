package io.apiary.ingest.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.topology.BuiltInTables;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;

/**
 * The benchmark: the planned gateway load ({@link BenchWorkload}) through each writer and stage,
 * one after the other, on the same Kafka and Cassandra, measured alike by {@link RunMeter}.
 *
 * <ol>
 *   <li>The rows of each shard strategy are produced once to a row topic of their own.</li>
 *   <li>A warm-up, not measured: rows written as batches and as single INSERTs, so that neither
 *       this JVM's nor Cassandra's JIT compiler works during the first measured run; then, for the
 *       runs that read a topic, rows drained by the naive writer and the sink
 *       ({@link #warmUpReaders}) and gateway records drained by the pass-through application and
 *       the topology, with the sink if an end-to-end run is selected ({@link #warmUpGateway}).</li>
 *   <li>{@code ceiling}: the first strategy's rows, pre-grouped by partition in memory (grouping
 *       not timed), written as single-partition UNLOGGED batches of up to
 *       {@link Options#ceilingBatchRows()} rows straight through the driver ({@link CeilingWriter}):
 *       the best this workload allows, so every sink run is compared with it.</li>
 *   <li>{@code naive}: one async INSERT per row read from the row topic, {@link Options#naiveInFlight()}
 *       in flight ({@link NaiveWriter}), on the first strategy's rows.</li>
 *   <li>{@code sink}: our sink draining each strategy's row topic, with the configured settings.</li>
 *   <li>{@code pass-through}: the same gateway records drained by {@link PassThroughTopology}, a
 *       Kafka Streams application with the topology's settings and serdes that does nothing else:
 *       the topology's floor.</li>
 *   <li>{@code topology}: gateway records (readings and entrance-counter samples) pre-filled into
 *       the gateway topics, processed by the topology alone (validation, bucketing, hourly sums).</li>
 *   <li>{@code end-to-end}: gateway records pre-filled, topology and sink running together, rows
 *       written to Cassandra.</li>
 *   <li>{@code end-to-end-paced}: topology and sink running together while the gateway records
 *       of {@link Options#pacedHives()} hives are produced live at the planned rate
 *       ({@link BenchWorkload#sendGatewayRecordsPaced}), so that every Cassandra partition receives
 *       rows at the planned rate rather than at the pipeline's pace.</li>
 * </ol>
 * Every write run starts from an empty {@code hive_telemetry} (TRUNCATE) in the benchmark's own
 * keyspace, and every run uses topics and consumer groups of its own, deleted afterwards. Not
 * thread-safe; one run per instance.
 */
public final class Bench {

    /** The runs the benchmark can make, in the order it makes them. */
    public enum Run {
        /** Pre-grouped single-partition batches straight through the driver. */
        CEILING,
        /** One async INSERT per row. */
        NAIVE,
        /** The project's sink. */
        SINK,
        /**
         * The sink again, paced ({@code sink.max.rows.per.second}) at {@link #PACED_FRACTION} of the
         * rows/s its unpaced run of the same repeat and shard strategy reached: its latency near, not
         * at, saturation. Needs {@link #SINK}.
         */
        SINK_PACED,
        /** The Spark Cassandra Connector's streaming sink, in a Spark JVM of its own ({@link SparkPeerLaunch}). */
        SPARK,
        /**
         * A Kafka Streams application with the topology's settings and serdes that writes each
         * gateway record unchanged ({@link PassThroughTopology}): the topology's floor.
         */
        PASS_THROUGH,
        /** The topology alone. */
        TOPOLOGY,
        /** Topology and sink together. */
        END_TO_END,
        /**
         * Topology and sink together, the gateway records produced live at the planned rate of
         * {@link Options#pacedHives()} hives for {@link Options#pacedSeconds()} seconds; the
         * producer's threads are left out of the client's CPU.
         */
        END_TO_END_PACED;

        /** @return whether the run writes the rows of a row topic (or, the ceiling, the same rows from memory) */
        public boolean writesRows() {
            return ordinal() <= SPARK.ordinal();
        }

        /**
         * @return whether the run reads gateway records produced to the gateway topics (pass-through,
         *         topology, end-to-end and the runs after them): those warmed up by {@link Bench#warmUpGateway}
         */
        public boolean readsGateway() {
            return ordinal() >= PASS_THROUGH.ordinal();
        }

        /** @return the run's name in output: lower case, words joined by '-' */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /**
         * @param label a label as printed ({@code end-to-end}) or the constant's name, case-insensitive
         * @return the run
         * @throws IllegalArgumentException naming the accepted labels if unknown
         */
        public static Run parse(String label) {
            for (Run run : values()) {
                if (run.label().equalsIgnoreCase(label.trim()) || run.name().equalsIgnoreCase(label.trim())) {
                    return run;
                }
            }
            throw new IllegalArgumentException("Unknown run '" + label + "': use one of "
                    + String.join(
                            ", ",
                            java.util.Arrays.stream(values()).map(Run::label).toList()));
        }
    }

    /**
     * What to run.
     *
     * @param rows             rows per write run (sink, naive, ceiling), at least 1
     * @param gatewayReadings  readings pre-filled for the gateway runs (pass-through, topology, end-to-end; plus their
     *                         entrance-counter samples), at least 1
     * @param hives            hives of the workload, at least 1
     * @param strategies       shard strategies to run the sink with, not empty; the first is also the
     *                         one of the ceiling, naive, topology and end-to-end runs
     * @param runs             which runs to make
     * @param naiveInFlight    the naive writer's concurrent requests
     * @param ceilingBatchRows rows per batch of the ceiling
     * @param ceilingInFlight  the ceiling's concurrent batches
     * @param warmUpRows       rows of the warm-up, each as batches and as single INSERTs, and as rows
     *                         drained from a row topic; also the gateway readings of the gateway runs'
     *                         warm-up; 0 for none
     * @param runTimeout       longest measured window of one run
     * @param keyspace         the benchmark's keyspace (created with {@code cql/}, truncated between runs)
     * @param replication      its replication map in CQL, e.g. {@link SchemaApplier#DEV_REPLICATION}
     * @param repeats          how many times the whole set of runs is made, at least 1; the row topics
     *                         are produced once and read again by every repeat
     * @param spark            the built Spark peer, needed if {@code runs} holds {@link Run#SPARK}
     * @param tableOptions     CQL table options applied to the benchmark's table after it is created
     *                         from {@code cql/} ({@code ALTER TABLE ... WITH <tableOptions>}, e.g.
     *                         {@code memtable = 'trie'}), to measure other options against the
     *                         shipped ones; empty for the shipped options
     * @param rowCompression   the compression type the row topics are produced with ({@code none},
     *                         {@code gzip}, {@code snappy}, {@code lz4} or {@code zstd}, Kafka's
     *                         {@code compression.type} values); the topology's producer uses lz4
     * @param pacedHives       hives of the {@code end-to-end-paced} run, at least 1; each sends
     *                         1,000 readings per minute
     * @param pacedSeconds     seconds of gateway records the {@code end-to-end-paced} run produces
     *                         live, at least 1
     */
    public record Options(
            long rows,
            long gatewayReadings,
            int hives,
            List<ShardStrategy> strategies,
            Set<Run> runs,
            int naiveInFlight,
            int ceilingBatchRows,
            int ceilingInFlight,
            long warmUpRows,
            Duration runTimeout,
            String keyspace,
            String replication,
            int repeats,
            Optional<SparkPeerLaunch> spark,
            Optional<String> tableOptions,
            String rowCompression,
            int pacedHives,
            int pacedSeconds) {

        /** Validates the options. */
        public Options {
            if (rows < 1
                    || gatewayReadings < 1
                    || hives < 1
                    || naiveInFlight < 1
                    || ceilingBatchRows < 1
                    || ceilingInFlight < 1
                    || warmUpRows < 0
                    || repeats < 1
                    || pacedHives < 1
                    || pacedHives > MAX_PACED_HIVES
                    || pacedSeconds < 1
                    || pacedSeconds > MAX_PACED_SECONDS) {
                throw new IllegalArgumentException("rows, gateway readings, hives, in-flight limits, batch rows, "
                        + "repeats, paced hives and paced seconds must be at least 1; paced hives at most "
                        + MAX_PACED_HIVES + " and paced seconds at most " + MAX_PACED_SECONDS);
            }
            Objects.requireNonNull(spark, "spark");
            if (runs.contains(Run.SPARK) && spark.isEmpty()) {
                throw new IllegalArgumentException(
                        "the spark run needs the Spark peer, which is not built: " + SparkPeerLaunch.BUILD_COMMAND);
            }
            if (runs.contains(Run.SINK_PACED) && !runs.contains(Run.SINK)) {
                throw new IllegalArgumentException(
                        "the sink-paced run is paced from the sink run's rows/s: select the sink run too");
            }
            if (strategies.isEmpty() || runs.isEmpty()) {
                throw new IllegalArgumentException("at least one shard strategy and one run are needed");
            }
            strategies = List.copyOf(strategies);
            runs = Set.copyOf(runs);
            Objects.requireNonNull(runTimeout, "runTimeout");
            Objects.requireNonNull(keyspace, "keyspace");
            Objects.requireNonNull(replication, "replication");
            Objects.requireNonNull(tableOptions, "tableOptions");
            tableOptions = tableOptions.map(String::strip).filter(o -> !o.isEmpty());
            if (!ROW_COMPRESSIONS.contains(rowCompression)) {
                throw new IllegalArgumentException(
                        "row compression must be one of " + ROW_COMPRESSIONS + ": '" + rowCompression + "'");
            }
        }
    }

    /** Hives of the {@code end-to-end-paced} run when not chosen. */
    public static final int DEFAULT_PACED_HIVES = 1_000;
    /** Seconds of the {@code end-to-end-paced} run when not chosen. */
    public static final int DEFAULT_PACED_SECONDS = 60;
    /**
     * Seconds of records by which the rows written may trail the records sent when the last is
     * sent, in the {@code end-to-end-paced} run, for the run to count as paced; above it its note
     * starts with {@value #NOT_SUSTAINED}.
     */
    public static final int PACED_MAX_LAG_SECONDS = 10;
    /** The start of an {@code end-to-end-paced} run's note when the pipeline fell behind the pace. */
    public static final String NOT_SUSTAINED = "not sustained";
    /** Wall time between two sends of the {@code end-to-end-paced} run's gateway producer. */
    private static final Duration PACED_SLICE = Duration.ofMillis(10);
    /** Longest wait for the topology to start before the paced producer starts anyway. */
    private static final Duration TOPOLOGY_START = Duration.ofMinutes(2);

    /**
     * Most hives of the {@code end-to-end-paced} run: 1,000,000, about 16.7 million readings/s,
     * far beyond one machine; with {@link #MAX_PACED_SECONDS} it keeps the readings' count
     * ({@link BenchWorkload#pacedReadings}) within a long.
     */
    public static final int MAX_PACED_HIVES = 1_000_000;

    /** Longest {@code end-to-end-paced} run, seconds: one day. */
    public static final int MAX_PACED_SECONDS = 86_400;

    /** The share of the unpaced sink run's rows/s that the {@code sink-paced} run is held to. */
    public static final double PACED_FRACTION = 0.9;

    /** Kafka's {@code compression.type} values a row topic can be produced with. */
    public static final List<String> ROW_COMPRESSIONS = List.of("none", "gzip", "snappy", "lz4", "zstd");

    /** Name of the table every write run fills. */
    static final String TABLE = io.apiary.ingest.tables.TableNames.HIVE_TELEMETRY;

    private static final Duration POLL = Duration.ofMillis(20);
    private static final Duration LAG_POLL = Duration.ofMillis(250);
    /** How long the nodes must show no compaction or flush before a write run is settled. */
    private static final Duration SETTLE_QUIET = Duration.ofSeconds(3);
    /** Longest wait for a write run's compactions and flushes after its window. */
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(3);
    /** Time between looks at the nodes' thread pools while settling. */
    private static final Duration SETTLE_POLL = Duration.ofMillis(250);

    /**
     * What the last {@link #settled} call leaves in its run's note: empty, or why the figure after
     * the window is partial or missing.
     */
    private String settleNote = "";

    /** The results as the runs make them, so that a failure mid-bench keeps those made before. */
    private final ResultLog log = new ResultLog();

    /** A window in which nothing was measured: the figures of a run that failed before its end. */
    private static final RunMeter.Window NOTHING =
            new RunMeter.Window(0, 0, Double.NaN, Double.NaN, Double.NaN, -1, -1, false, Double.NaN, Double.NaN);

    private final IngestConfig base;
    private final Options options;
    private final RunMeter meter;
    private final BenchResources resources;
    private final PrintWriter out;
    private final String tag;
    private final Path stateDir;

    /**
     * @param base         settings of Kafka, Cassandra and the sink (as for {@code run}); the benchmark
     *                     overrides the keyspace, topic names, group ids and the shard strategy
     * @param options      what to run
     * @param cassandraPids the Cassandra nodes' processes, when they run on this machine (their CPU
     *                     is summed); empty otherwise
     * @param kafkaPid     the Kafka broker's process, when it runs on this machine (for its CPU)
     * @param stateDir     a folder for the topology's state stores
     * @param out          where progress goes
     */
    public Bench(
            IngestConfig base,
            Options options,
            List<Long> cassandraPids,
            OptionalLong kafkaPid,
            Path stateDir,
            PrintWriter out) {
        this.base = Objects.requireNonNull(base);
        this.options = Objects.requireNonNull(options);
        this.meter = new RunMeter(cassandraPids, kafkaPid);
        this.stateDir = Objects.requireNonNull(stateDir);
        this.out = Objects.requireNonNull(out);
        this.resources = new BenchResources(options.keyspace(), TABLE, out);
        // unique per run, so that two benchmarks on one cluster never share topics or groups
        this.tag = "apiary-bench-" + Long.toString(Instant.now().getEpochSecond(), 36)
                + Integer.toString(
                        java.util.concurrent.ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);
    }

    /**
     * Makes the runs {@link Options#repeats()} times, printing a line as each starts and ends. The
     * row topics are produced once, before the first repeat, and every repeat's naive writer, sink
     * and Spark runs read them from the start again (with consumer groups of their own); the
     * warm-ups are made once, before the first repeat; the gateway runs produce their gateway records anew in
     * every repeat.
     *
     * @return per repeat, in order, one result per run made, in order; a run that failed or timed
     *         out is included with {@code completed == false}
     * @throws BenchStoppedException if a run throws (e.g. a TRUNCATE, a count or a topic creation
     *         fails because a server died): no further run is made, and the exception carries the
     *         results made until then
     * @throws InterruptedException if the thread is interrupted
     * @throws Exception if the keyspace cannot be created, a topic cannot be filled or the warm-up
     *         fails, before any run
     */
    public List<List<BenchResult>> run() throws Exception {
        List<List<BenchResult>> repeats = new ArrayList<>();
        IngestConfig setup = config("setup", options.strategies().get(0), Map.of());
        try (CqlSession session = CassandraSessions.open(setup);
                Admin admin = Admin.create(setup.kafkaClientSettings())) {
            SchemaApplier.apply(session, SchemaApplier.load(null, options.keyspace(), options.replication()));
            if (options.tableOptions().isPresent()) {
                resources.alterTable(session, options.tableOptions().get());
            }
            Map<ShardStrategy, IngestConfig> rowConfigs = new LinkedHashMap<>();
            boolean writeRuns = options.runs().stream().anyMatch(Run::writesRows);
            // the ceiling builds its rows in memory: the naive writer, the sink and Spark read a row topic
            if (options.runs().contains(Run.NAIVE)
                    || options.runs().contains(Run.SINK)
                    || options.runs().contains(Run.SPARK)) {
                for (ShardStrategy strategy : options.strategies()) {
                    IngestConfig config = config("rows-" + label(strategy), strategy, Map.of());
                    BenchResources.createTopics(admin, config);
                    long start = System.nanoTime();
                    long sent = workload(strategy)
                            .sendRows(
                                    config.kafkaClientSettings(),
                                    config.topics().telemetryRowsTopic(),
                                    options.rows(),
                                    options.rowCompression());
                    out.printf(
                            "Produced %,d %s rows (shard strategy %s) to %s in %.1f s, compression %s%n",
                            sent,
                            TABLE,
                            label(strategy),
                            config.topics().telemetryRows(),
                            (System.nanoTime() - start) / 1e9,
                            options.rowCompression());
                    out.flush();
                    rowConfigs.put(strategy, config);
                }
            }
            try {
                if (writeRuns) {
                    warmUp(session);
                    warmUpReaders(session, admin);
                }
                warmUpGateway(session, admin);
                for (int repeat = 1; repeat <= options.repeats(); repeat++) {
                    if (options.repeats() > 1) {
                        out.printf("Repeat %d of %d%n", repeat, options.repeats());
                        out.flush();
                    }
                    log.repeatStarted();
                    try {
                        repeats.add(repeat(session, admin, rowConfigs, repeat));
                    } catch (InterruptedException e) {
                        throw e;
                    } catch (Exception e) {
                        throw log.stopped(e);
                    }
                }
            } finally {
                for (IngestConfig config : rowConfigs.values()) {
                    resources.deleteTopicsAndGroups(admin, config, false);
                }
            }
        }
        return repeats;
    }

    /** One repeat of the selected runs; {@code rowConfigs} hold the row topics of each strategy. */
    private List<BenchResult> repeat(
            CqlSession session, Admin admin, Map<ShardStrategy, IngestConfig> rowConfigs, int repeat) throws Exception {
        List<BenchResult> results = new ArrayList<>();
        ShardStrategy first = options.strategies().get(0);
        if (options.runs().contains(Run.CEILING)) {
            results.add(ceiling(session, first));
        }
        if (options.runs().contains(Run.NAIVE)) {
            results.add(naive(session, rowConfigs.get(first), first));
        }
        if (options.runs().contains(Run.SINK)) {
            for (ShardStrategy strategy : options.strategies()) {
                // a consumer group per repeat: each sink run reads the row topic from its start
                IngestConfig config = rowConfigs.get(strategy);
                IngestConfig again = config(
                        "rows-" + label(strategy),
                        strategy,
                        Map.of(
                                IngestConfig.SINK_GROUP_ID,
                                config.getString(IngestConfig.SINK_GROUP_ID) + "-" + repeat));
                BenchResult unpaced;
                try {
                    unpaced = sink(session, again, strategy, Run.SINK);
                    results.add(unpaced);
                } finally {
                    resources.deleteGroup(admin, again.getString(IngestConfig.SINK_GROUP_ID));
                }
                if (options.runs().contains(Run.SINK_PACED) && unpaced.completed()) {
                    long pace = Math.max(1, Math.round(unpaced.perSecond() * PACED_FRACTION));
                    IngestConfig paced = config(
                            "rows-" + label(strategy),
                            strategy,
                            Map.of(
                                    IngestConfig.SINK_GROUP_ID,
                                    config.getString(IngestConfig.SINK_GROUP_ID) + "-paced-" + repeat,
                                    IngestConfig.SINK_MAX_ROWS_PER_SECOND,
                                    Long.toString(pace)));
                    try {
                        results.add(sink(session, paced, strategy, Run.SINK_PACED));
                    } finally {
                        resources.deleteGroup(admin, paced.getString(IngestConfig.SINK_GROUP_ID));
                    }
                }
            }
        }
        if (options.runs().contains(Run.SPARK)) {
            results.add(spark(session, rowConfigs.get(first), first, repeat));
        }
        String suffix = repeat == 1 ? "" : "-r" + repeat;
        if (options.runs().contains(Run.PASS_THROUGH)) {
            results.add(topology(session, admin, Run.PASS_THROUGH, suffix));
        }
        if (options.runs().contains(Run.TOPOLOGY)) {
            results.add(topology(session, admin, Run.TOPOLOGY, suffix));
        }
        if (options.runs().contains(Run.END_TO_END)) {
            results.add(topology(session, admin, Run.END_TO_END, suffix));
        }
        if (options.runs().contains(Run.END_TO_END_PACED)) {
            results.add(endToEndPaced(session, admin, suffix));
        }
        return results;
    }

    /** The Spark peer ({@link SparkRun}) draining the row topic, then the rows it left in the table counted. */
    private BenchResult spark(CqlSession session, IngestConfig config, ShardStrategy strategy, int repeat)
            throws Exception {
        announce(Run.SPARK, strategy);
        resources.truncate(session);
        SparkRun.Outcome o = new SparkRun(options.spark().orElseThrow(), meter, out)
                .run(
                        config,
                        options.keyspace(),
                        TABLE,
                        options.rows(),
                        options.hives(),
                        Files.createDirectories(stateDir.resolve("spark-" + repeat)),
                        options.runTimeout());
        RunMeter.Window window = settled(session, o.window()); // before the count, whose reads are not the run's
        String note = o.note();
        long landed;
        try {
            landed = resources.count(session);
            out.printf("  %,d rows in %s.%s after the spark run%n", landed, options.keyspace(), TABLE);
        } catch (RuntimeException e) {
            // the run is then not counted as completed, and the benchmark goes on
            landed = -1;
            note = "rows in Cassandra not counted (" + e.getMessage() + "); " + note;
            out.printf("  could not count the rows in %s.%s after the spark run: %s%n", options.keyspace(), TABLE, e);
        }
        if (landed >= 0 && o.window().completed() && landed < options.rows()) {
            note = "only " + landed + " of " + options.rows() + " rows are in Cassandra; " + note;
        }
        // the writer is the Spark JVM: no heap of ours, its own latencies, complete only when every row landed
        return report(result(
                Run.SPARK,
                strategy,
                window,
                window.completed() && landed >= options.rows(),
                o.rowsPerRequest(),
                o.requests(),
                o.p50Millis(),
                o.p99Millis(),
                note));
    }

    private BenchResult ceiling(CqlSession session, ShardStrategy strategy) throws InterruptedException {
        return baseline(Run.CEILING, strategy, session, options.ceilingInFlight(), writes -> {
            CeilingWriter writer = new CeilingWriter(table(session), options.ceilingBatchRows(), writes);
            writer.group(workload(strategy), base.topics().telemetryRowsTopic(), options.rows());
            return writer;
        });
    }

    /**
     * Warms up the JIT compilers of this JVM and of the Cassandra node, whose first seconds run
     * interpreted code: {@link Options#warmUpRows()} rows as single-partition batches, then as
     * many as single INSERTs; not measured.
     */
    private void warmUp(CqlSession session) throws InterruptedException {
        if (options.warmUpRows() == 0) {
            return;
        }
        long start = System.nanoTime();
        resources.truncate(session);
        for (int batchRows : new int[] {options.ceilingBatchRows(), 1}) {
            AsyncWrites writes = new AsyncWrites(
                    session,
                    batchRows == 1 ? options.naiveInFlight() : options.ceilingInFlight(),
                    Timer.builder(MetricNames.SINK_WRITE_LATENCY).register(RunRegistry.of(meter)));
            CeilingWriter writer = new CeilingWriter(table(session), batchRows, writes);
            writer.group(
                    workload(options.strategies().get(0)), base.topics().telemetryRowsTopic(), options.warmUpRows());
            writer.run();
            if (writes.failure() != null) {
                throw new IllegalStateException("Warming up failed: " + writes.failure(), writes.failure());
            }
        }
        out.printf(
                "Warmed up with %,d rows in batches and %,d as single INSERTs in %.1f s (not measured)%n",
                options.warmUpRows(), options.warmUpRows(), (System.nanoTime() - start) / 1e9);
        out.flush();
    }

    /**
     * Warms up the code of the runs that read a row topic, which the warm-up of {@link #warmUp}
     * does not reach (the Kafka consumer, decoding from a topic, the sink's loop): without it their
     * first repeat pays for the JIT compilation of that code, and the sink's first repeat costs more
     * client CPU per row than the later ones. Produces
     * {@link Options#warmUpRows()} rows to a row topic of its own, drains it with the naive writer
     * and then with the sink, as their runs do; not measured. Nothing is done when neither run
     * is selected.
     */
    private void warmUpReaders(CqlSession session, Admin admin) throws InterruptedException {
        boolean naive = options.runs().contains(Run.NAIVE);
        boolean sink = options.runs().contains(Run.SINK);
        if (options.warmUpRows() == 0 || !(naive || sink)) {
            return;
        }
        long start = System.nanoTime();
        ShardStrategy first = options.strategies().get(0);
        IngestConfig config = config("warm-up", first, Map.of());
        BenchResources.createTopics(admin, config);
        try {
            workload(first)
                    .sendRows(
                            config.kafkaClientSettings(),
                            config.topics().telemetryRowsTopic(),
                            options.warmUpRows(),
                            options.rowCompression());
            if (naive) {
                resources.truncate(session);
                AsyncWrites writes = new AsyncWrites(
                        session,
                        options.naiveInFlight(),
                        Timer.builder(MetricNames.SINK_WRITE_LATENCY).register(RunRegistry.of(meter)));
                new NaiveWriter(
                                config.kafkaClientSettings(),
                                config.topics().telemetryRows(),
                                options.warmUpRows(),
                                table(session),
                                writes)
                        .run();
                if (writes.failure() != null) {
                    throw new IllegalStateException(
                            "Warming up the naive writer failed: " + writes.failure(), writes.failure());
                }
            }
            if (sink) {
                resources.truncate(session);
                SimpleMeterRegistry registry = RunRegistry.of(meter);
                Pipeline pipeline = Pipeline.start(config, false, true, registry);
                try {
                    awaitWarmUp(
                            "the sink",
                            () -> (long) counter(registry, MetricNames.SINK_ROWS_WRITTEN, MetricNames.TAG_TABLE, TABLE),
                            options.warmUpRows(),
                            () -> pipeline.failure() != null,
                            POLL);
                } finally {
                    pipeline.close();
                }
                if (pipeline.failure() != null) {
                    throw new IllegalStateException("Warming up the sink failed: " + pipeline.failure());
                }
            }
        } finally {
            resources.deleteTopicsAndGroups(admin, config, false);
        }
        out.printf(
                "Warmed up the readers of row topics (%s) with %,d rows in %.1f s (not measured)%n",
                naive && sink ? "naive writer and sink" : naive ? "naive writer" : "sink",
                options.warmUpRows(),
                (System.nanoTime() - start) / 1e9);
        out.flush();
    }

    /**
     * Waits, looking every {@code poll}, until {@code done} reaches {@code target}, {@code failed}
     * holds, or the run timeout passes (then throws {@link IllegalStateException} naming {@code what}).
     */
    private void awaitWarmUp(
            String what,
            java.util.function.LongSupplier done,
            long target,
            java.util.function.BooleanSupplier failed,
            Duration poll)
            throws InterruptedException {
        long deadline = System.nanoTime() + options.runTimeout().toNanos();
        while (done.getAsLong() < target && !failed.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Warming up " + what + " did not end within "
                        + options.runTimeout().toSeconds() + " s: " + done.getAsLong() + " of " + target + " done");
            }
            Thread.sleep(poll.toMillis());
        }
    }

    /**
     * Warms up the code of the gateway runs ({@link Run#readsGateway()}), which the other warm-ups do
     * not reach (Kafka Streams, the gateway serdes, the topology's processors): without it their
     * first repeat pays for the JIT compilation of that code. Produces {@link Options#warmUpRows()}
     * gateway readings and their entrance-counter samples to gateway topics of their own, as the
     * gateway runs do, and drains them once with the pass-through application, if its run is
     * selected, and once with the topology, if a later gateway run is selected: with the sink, as
     * one pipeline, if a run after {@link Run#TOPOLOGY} is selected (after TRUNCATE). Each
     * application waits as its run does ({@link #progress}); not measured. The topics and consumer
     * groups are deleted afterwards. Nothing is done when no gateway run is selected.
     *
     * @throws IllegalStateException if an application fails or does not end within the run timeout
     */
    private void warmUpGateway(CqlSession session, Admin admin) throws InterruptedException {
        List<Run> apps = gatewayWarmUps(options.runs());
        if (options.warmUpRows() == 0 || apps.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        ShardStrategy first = options.strategies().get(0);
        IngestConfig config = config("warm-up-gateway", first, Map.of());
        // under the topology's application id, so that its topics and group go with the topology's
        String passThroughId = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID) + "-" + Run.PASS_THROUGH.label();
        BenchResources.createTopics(admin, config);
        try {
            workload(first)
                    .sendGatewayRecords(
                            config.kafkaClientSettings(),
                            config.topics().telemetryTopic(),
                            config.topics().entranceCountsTopic(),
                            options.warmUpRows());
            for (Run app : apps) {
                if (app == Run.PASS_THROUGH) {
                    warmUpGateway(
                            config(
                                    "warm-up-gateway",
                                    first,
                                    Map.of(IngestConfig.TOPOLOGY_APPLICATION_ID, passThroughId)),
                            admin,
                            app);
                } else {
                    if (app != Run.TOPOLOGY) {
                        resources.truncate(session);
                    }
                    warmUpGateway(config, admin, app);
                }
            }
        } finally {
            resources.deleteTopicsAndGroups(admin, config, true);
        }
        out.printf(
                "Warmed up the gateway runs (%s) with %,d readings in %.1f s (not measured)%n",
                apps.stream()
                        .map(r -> r == Run.PASS_THROUGH
                                ? "pass-through"
                                : r == Run.TOPOLOGY ? "topology" : "topology and sink")
                        .collect(java.util.stream.Collectors.joining(", ")),
                options.warmUpRows(),
                (System.nanoTime() - start) / 1e9);
        out.flush();
    }

    /**
     * The applications the gateway warm-up ({@link #warmUpGateway}) drains its topics with, in order:
     * {@link Run#PASS_THROUGH} if selected, then the last selected gateway run after it, whose
     * application ({@link GatewayApp#start}) is the topology alone ({@link Run#TOPOLOGY}) or the
     * topology with the sink.
     *
     * @param runs the selected runs, not null
     * @return at most two runs; empty when no gateway run is selected
     */
    static List<Run> gatewayWarmUps(Set<Run> runs) {
        List<Run> apps = new ArrayList<>();
        if (runs.contains(Run.PASS_THROUGH)) {
            apps.add(Run.PASS_THROUGH);
        }
        runs.stream()
                .filter(r -> r.readsGateway() && r != Run.PASS_THROUGH)
                .max(java.util.Comparator.naturalOrder())
                .ifPresent(apps::add);
        return apps;
    }

    /** Drains {@code config}'s filled gateway topics once with the application of {@code run}, not measured. */
    private void warmUpGateway(IngestConfig config, Admin admin, Run run) throws InterruptedException {
        SimpleMeterRegistry registry = RunRegistry.of(meter);
        GatewayApp app = GatewayApp.start(config, admin, run, registry);
        try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            Progress progress = progress(config, run, registry, lag, options.warmUpRows());
            awaitWarmUp(
                    "the " + run.label() + " run",
                    progress.done(),
                    progress.target(),
                    () -> app.failure() != null,
                    progress.poll());
        } finally {
            app.close();
        }
        if (app.failure() != null) {
            throw new IllegalStateException("Warming up the " + run.label() + " run failed: " + app.failure());
        }
    }

    private BenchResult naive(CqlSession session, IngestConfig config, ShardStrategy strategy)
            throws InterruptedException {
        return baseline(
                Run.NAIVE,
                strategy,
                session,
                options.naiveInFlight(),
                writes -> new NaiveWriter(
                        config.kafkaClientSettings(),
                        config.topics().telemetryRows(),
                        options.rows(),
                        table(session),
                        writes));
    }

    /** Runs a baseline writer made by {@code writer} on its own thread and measures it. */
    private BenchResult baseline(
            Run run,
            ShardStrategy strategy,
            CqlSession session,
            int inFlight,
            java.util.function.Function<AsyncWrites, Runnable> writer)
            throws InterruptedException {
        announce(run, strategy);
        resources.truncate(session);
        Timer latency = Timer.builder(MetricNames.SINK_WRITE_LATENCY).register(RunRegistry.of(meter));
        AsyncWrites writes = new AsyncWrites(session, inFlight, latency);
        Thread thread = new Thread(writer.apply(writes), "apiary-bench-" + run.label());
        RunMeter.collectGarbage();
        thread.start();
        RunMeter.Window window;
        try {
            window = meter.measure(
                    writes::acknowledgedRows,
                    options.rows(),
                    () -> writes.failure() != null,
                    POLL,
                    options.runTimeout());
        } finally {
            writes.stop();
            thread.join(TimeUnit.MINUTES.toMillis(1));
        }
        window = settled(session, window);
        return report(result(
                run,
                strategy,
                window,
                window.completed(),
                (double) writes.acknowledgedRows() / Math.max(1, writes.requests()),
                writes.requests(),
                RunRegistry.percentile(latency, 0.5),
                RunRegistry.percentile(latency, 0.99),
                writes.failure() == null ? "" : writes.failure().toString()));
    }

    private SinkTable<?> table(CqlSession session) {
        return BuiltInTables.TELEMETRY.sinkTable(
                session, options.keyspace(), Pipeline.tableOptions(base, TABLE), base.topics());
    }

    /** A sink run ({@code run}: {@link Run#SINK} or {@link Run#SINK_PACED}, as {@code config} sets its pace). */
    private BenchResult sink(CqlSession session, IngestConfig config, ShardStrategy strategy, Run run)
            throws InterruptedException {
        announce(run, strategy);
        if (run == Run.SINK_PACED) {
            out.printf(
                    "  paced at %,d rows/s (%.0f%% of the sink run's)%n",
                    config.getLong(IngestConfig.SINK_MAX_ROWS_PER_SECOND), PACED_FRACTION * 100);
        }
        resources.truncate(session);
        SimpleMeterRegistry registry = RunRegistry.of(meter);
        RunMeter.collectGarbage();
        Pipeline pipeline = Pipeline.start(config, false, true, registry);
        RunMeter.Window window;
        try {
            window = meter.measure(
                    () -> (long) counter(registry, MetricNames.SINK_ROWS_WRITTEN, MetricNames.TAG_TABLE, TABLE),
                    options.rows(),
                    () -> pipeline.failure() != null,
                    POLL,
                    options.runTimeout());
        } finally {
            pipeline.close();
        }
        return sinkResult(run, strategy, settled(session, window), registry, pipeline);
    }

    /**
     * A run on pre-filled gateway records: {@link Run#PASS_THROUGH}, {@link Run#TOPOLOGY} alone, or
     * {@link Run#END_TO_END} (topology and sink together).
     */
    private BenchResult topology(CqlSession session, Admin admin, Run run, String suffix) throws Exception {
        ShardStrategy strategy = options.strategies().get(0);
        boolean withSink = run == Run.END_TO_END;
        announce(run, strategy);
        IngestConfig config = config(run.label() + suffix, strategy, Map.of());
        BenchResources.createTopics(admin, config);
        long start = System.nanoTime();
        long records = workload(strategy)
                .sendGatewayRecords(
                        config.kafkaClientSettings(),
                        config.topics().telemetryTopic(),
                        config.topics().entranceCountsTopic(),
                        options.gatewayReadings());
        out.printf(
                "  produced %,d gateway records (%,d readings and their entrance-counter samples) in %.1f s%n",
                records, options.gatewayReadings(), (System.nanoTime() - start) / 1e9);
        out.flush();
        if (withSink) {
            resources.truncate(session);
        }
        SimpleMeterRegistry registry = RunRegistry.of(meter);
        RunMeter.collectGarbage();
        GatewayApp app = GatewayApp.start(config, admin, run, registry);
        RunMeter.Window window;
        try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            Progress progress = progress(config, run, registry, lag, options.gatewayReadings());
            window = meter.measure(
                    progress.done(),
                    progress.target(),
                    () -> app.failure() != null,
                    progress.poll(),
                    options.runTimeout());
        } finally {
            app.close();
            resources.deleteTopicsAndGroups(admin, config, true);
        }
        if (withSink) {
            return sinkResult(run, strategy, settled(session, window), registry, app.pipeline());
        }
        return report(result(
                run,
                strategy,
                window,
                window.completed(),
                Double.NaN,
                0,
                Double.NaN,
                Double.NaN,
                Objects.toString(app.failure(), "")));
    }

    /**
     * A running gateway application: the pass-through ({@link Run#PASS_THROUGH}) or the pipeline,
     * with the topology and, for the runs after {@link Run#TOPOLOGY}, the sink; exactly one of the
     * two is not null. Thread-safe as the application is.
     */
    private record GatewayApp(PassThroughTopology passThrough, Pipeline pipeline) {

        /** Starts the application of {@code run} on {@code config}'s gateway topics, its meters in {@code registry}. */
        static GatewayApp start(IngestConfig config, Admin admin, Run run, SimpleMeterRegistry registry) {
            return switch (run) {
                case PASS_THROUGH -> new GatewayApp(PassThroughTopology.start(config, admin, registry), null);
                case TOPOLOGY -> new GatewayApp(null, Pipeline.start(config, true, false, registry));
                default -> new GatewayApp(null, Pipeline.start(config, true, true, registry));
            };
        }

        /** @return the application's first failure, or null while there is none */
        String failure() {
            return passThrough != null ? passThrough.failure() : pipeline.failure();
        }

        void close() {
            if (passThrough != null) {
                passThrough.close();
            } else {
                pipeline.close();
            }
        }
    }

    /**
     * How far a gateway application has got: {@code done} rises to {@code target}, read every {@code poll}.
     */
    private record Progress(java.util.function.LongSupplier done, long target, Duration poll) {}

    /**
     * The progress of a gateway application on {@code config}'s gateway topics, which hold
     * {@code readings} readings and their entrance-counter samples: with the sink, the rows it wrote
     * up to {@code readings}; without, the records its consumer group committed up to the topics' end
     * offsets (read now, so the topics must be filled).
     */
    private Progress progress(IngestConfig config, Run run, MeterRegistry registry, LagProbe lag, long readings) {
        if (run != Run.PASS_THROUGH && run != Run.TOPOLOGY) {
            return new Progress(
                    () -> (long) counter(registry, MetricNames.SINK_ROWS_WRITTEN, MetricNames.TAG_TABLE, TABLE),
                    readings,
                    POLL);
        }
        String applicationId = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
        List<String> inputs =
                List.of(config.topics().telemetry(), config.topics().entranceCounts());
        long ends = lag.endOffsets(inputs).values().stream()
                .mapToLong(Long::longValue)
                .sum();
        AtomicReference<Long> committed = new AtomicReference<>(0L);
        return new Progress(
                () -> {
                    try {
                        committed.set(ends - lag.lag(applicationId, inputs));
                    } catch (RuntimeException e) {
                        // the group has not committed yet: keep the last value
                    }
                    return committed.get();
                },
                ends,
                LAG_POLL);
    }

    /**
     * Topology and sink together while the gateway records are produced live at the planned rate
     * ({@link BenchWorkload#sendGatewayRecordsPaced}, on a thread of its own that starts once the
     * topology runs): {@link Options#pacedHives()} hives for {@link Options#pacedSeconds()} seconds.
     * The producer's sending and network threads are the gateways' work, left out of the client's
     * CPU ({@link ThreadsCpu}). When the rows written trail the records sent by more than
     * {@value #PACED_MAX_LAG_SECONDS} s of records as the last is sent, or the producer itself
     * fell that far behind, the pipeline did not keep the pace and the note says {@value #NOT_SUSTAINED}.
     */
    private BenchResult endToEndPaced(CqlSession session, Admin admin, String suffix) throws Exception {
        ShardStrategy strategy = options.strategies().get(0);
        Run run = Run.END_TO_END_PACED;
        announce(run, strategy);
        BenchWorkload workload =
                new BenchWorkload(options.pacedHives(), base.getInt(IngestConfig.TELEMETRY_SHARDS), strategy);
        long readings = workload.pacedReadings(options.pacedSeconds());
        double perSecond = (double) readings / options.pacedSeconds();
        out.printf(
                "  %,d hives x 1,000 readings per minute = %,.0f readings/s, produced live for %d s: %,d readings%n",
                options.pacedHives(), perSecond, options.pacedSeconds(), readings);
        out.flush();
        IngestConfig config = config(run.label() + suffix, strategy, Map.of());
        BenchResources.createTopics(admin, config);
        resources.truncate(session);
        SimpleMeterRegistry registry = RunRegistry.of(meter);
        String clientId = tag + "-" + run.label() + suffix + "-gateways";
        java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicReference<Throwable> sendFailure = new AtomicReference<>();
        long[] sendNanos = {0, 0}; // the sender's start and end
        Thread sender = new Thread(
                () -> {
                    sendNanos[0] = System.nanoTime();
                    try {
                        workload.sendGatewayRecordsPaced(
                                config.kafkaClientSettings(),
                                config.topics().telemetryTopic(),
                                config.topics().entranceCountsTopic(),
                                readings,
                                PACED_SLICE,
                                clientId,
                                sent,
                                stop::get);
                    } catch (Throwable e) {
                        sendFailure.set(e);
                    }
                    sendNanos[1] = System.nanoTime();
                },
                "apiary-bench-gateways");
        ThreadsCpu gatewayCpu = new ThreadsCpu(sender.getId(), "| " + clientId);
        long[] lagAtLastSend = {-1};
        RunMeter.collectGarbage();
        Pipeline pipeline = Pipeline.start(config, true, true, registry);
        RunMeter.Window window;
        try {
            if (!pipeline.awaitTopologyRunning(TOPOLOGY_START)) {
                out.printf("  the topology is not running after %d s; producing anyway%n", TOPOLOGY_START.toSeconds());
            }
            sender.start();
            window = meter.measure(
                    () -> {
                        long written =
                                (long) counter(registry, MetricNames.SINK_ROWS_WRITTEN, MetricNames.TAG_TABLE, TABLE);
                        if (lagAtLastSend[0] < 0 && sent.get() >= readings) {
                            lagAtLastSend[0] = readings - written;
                        }
                        return written;
                    },
                    readings,
                    () -> pipeline.failure() != null || sendFailure.get() != null,
                    POLL,
                    options.runTimeout(),
                    gatewayCpu::seconds);
        } finally {
            stop.set(true);
            sender.join(TimeUnit.MINUTES.toMillis(1));
            pipeline.close();
            resources.deleteTopicsAndGroups(admin, config, true);
        }
        out.printf(
                "  client CPU leaves out the gateway producer's sending and network threads: %.1f s of CPU in all%s%n",
                gatewayCpu.seconds(),
                gatewayCpu.supported() ? "" : " (not measured: this JVM has no thread CPU time; it is counted in)");
        List<String> notes = new ArrayList<>();
        if (sendFailure.get() != null) {
            notes.add("gateway producer failed: " + sendFailure.get());
        }
        if (pipeline.failure() != null) {
            notes.add(pipeline.failure());
        }
        double lagSeconds = lagAtLastSend[0] < 0 ? Double.NaN : lagAtLastSend[0] / perSecond;
        double senderLate = (sendNanos[1] - sendNanos[0]) / 1e9 - options.pacedSeconds();
        if (window.completed()) {
            out.printf(
                    "  rows written trailed the records sent by %.1f s of records when the last was sent; the producer"
                            + " sent its last %.1f s after its planned time%n",
                    lagSeconds, senderLate);
            if (!(lagSeconds <= PACED_MAX_LAG_SECONDS) || senderLate > PACED_MAX_LAG_SECONDS) {
                notes.add(
                        0,
                        String.format(
                                Locale.ROOT,
                                "%s: rows trailed the records sent by %.1f s of records at the last send (at most %d s), the"
                                        + " producer was %.1f s late; the figures are saturated, not paced",
                                NOT_SUSTAINED,
                                lagSeconds,
                                PACED_MAX_LAG_SECONDS,
                                senderLate));
                out.printf("  %s%n", notes.get(0));
            }
        }
        return sinkResult(run, strategy, settled(session, window), registry, String.join("; ", notes));
    }

    /** The result of a run through the sink: its batches and write latencies from the sink's own metrics. */
    private BenchResult sinkResult(
            Run run, ShardStrategy strategy, RunMeter.Window window, SimpleMeterRegistry registry, Pipeline pipeline) {
        return sinkResult(run, strategy, window, registry, Objects.toString(pipeline.failure(), ""));
    }

    /** As the other {@code sinkResult}, with {@code note} as the run's note. */
    private BenchResult sinkResult(
            Run run, ShardStrategy strategy, RunMeter.Window window, SimpleMeterRegistry registry, String note) {
        var batchRows = registry.find(MetricNames.SINK_BATCH_ROWS).summary();
        Timer latency = registry.find(MetricNames.SINK_WRITE_LATENCY).timer();
        return report(result(
                run,
                strategy,
                window,
                window.completed(),
                batchRows == null ? Double.NaN : batchRows.mean(),
                batchRows == null ? 0 : batchRows.count(),
                RunRegistry.percentile(latency, 0.5),
                RunRegistry.percentile(latency, 0.99),
                note));
    }

    /**
     * A write run's window with the Cassandra nodes' CPU after it added: the compactions and
     * flushes the run left behind waited for ({@link RunMeter#settle}, {@link NodeActivity}), and
     * said on the output. A run that wrote nothing, or nodes that cannot be asked, keep the window
     * as it is.
     */
    private RunMeter.Window settled(CqlSession session, RunMeter.Window window) throws InterruptedException {
        settleNote = "";
        if (window.items() == 0) {
            return window;
        }
        RunMeter.Window settled;
        long start = System.nanoTime();
        try {
            settled = meter.settle(window, new NodeActivity(session), SETTLE_QUIET, SETTLE_POLL, SETTLE_TIMEOUT);
        } catch (RuntimeException e) {
            settleNote = "no Cassandra CPU counted after the window: could not ask the nodes about their compactions ("
                    + e.getMessage() + ")";
            out.printf("  %s%n", settleNote);
            return window;
        }
        if (Double.isFinite(settled.afterSeconds())) {
            boolean timedOut = System.nanoTime() - start >= SETTLE_TIMEOUT.toNanos();
            if (timedOut) {
                settleNote = "Cassandra CPU after the window counted up to the " + SETTLE_TIMEOUT.toMinutes()
                        + " min limit, with a compaction or flush still running";
            }
            out.printf(
                    "  after the window, until no compaction or flush was left: %.1f s, %.1f s of Cassandra CPU%s%n",
                    settled.afterSeconds(),
                    settled.cassandraAfterCpuSeconds(),
                    timedOut ? " (still busy at the limit)" : "");
        }
        return settled;
    }

    private BenchResult result(
            Run run,
            ShardStrategy strategy,
            RunMeter.Window w,
            boolean completed,
            double rowsPerRequest,
            long requests,
            double p50Millis,
            double p99Millis,
            String failure) {
        String note = failure;
        if (!w.completed() && note.isEmpty()) {
            note = w.items() == 0
                    ? "nothing done within " + options.runTimeout().toSeconds() + " s"
                    : "incomplete: timed out after " + options.runTimeout().toSeconds() + " s";
        }
        if (!settleNote.isEmpty()) { // the figure after this run's window is partial or missing
            note = note.isEmpty() ? settleNote : note + "; " + settleNote;
            settleNote = "";
        }
        boolean nothing = w.items() == 0;
        boolean ownHeap = run != Run.SPARK; // the spark run's writer is another JVM, whose heap this one does not see
        return new BenchResult(
                run.label(),
                label(strategy),
                run == Run.TOPOLOGY || run == Run.PASS_THROUGH ? "records" : "rows", // these write no rows
                w.items(),
                w.seconds(),
                w.microsPerItem(w.clientCpuSeconds()),
                w.microsPerItem(w.cassandraCpuSeconds()),
                w.microsPerItem(w.cassandraAfterCpuSeconds()),
                w.microsPerItem(w.kafkaCpuSeconds()),
                nothing ? Double.NaN : rowsPerRequest,
                requests,
                nothing ? Double.NaN : p50Millis,
                nothing ? Double.NaN : p99Millis,
                ownHeap ? mib(w.peakHeapBytes()) : Double.NaN,
                ownHeap ? mib(w.peakLiveHeapBytes()) : Double.NaN,
                completed,
                note);
    }

    private static double mib(long bytes) {
        return bytes < 0 ? Double.NaN : bytes / 1048576.0;
    }

    private void announce(Run run, ShardStrategy strategy) {
        log.runStarted(note -> result(run, strategy, NOTHING, false, Double.NaN, 0, Double.NaN, Double.NaN, note));
        out.printf("Run %s (shard strategy %s)...%n", run.label(), label(strategy));
        out.flush();
    }

    private BenchResult report(BenchResult r) {
        log.ended(r);
        out.printf(
                "  %s: %,d %s in %.1f s = %s %s/s; client CPU %s us, Cassandra %s us per %s%s%n",
                r.run(),
                r.items(),
                r.unit(),
                r.seconds(),
                BenchReport.format(r.perSecond(), 0),
                r.unit(),
                BenchReport.format(r.clientCpuMicros(), 1),
                BenchReport.format(r.cassandraCpuMicros(), 1),
                r.unit().replaceAll("s$", ""),
                r.completed() ? "" : "  NOT COMPLETED: " + r.note());
        if (!Double.isNaN(r.p99Millis()) && meter.latencyLeftOut() > 0) {
            out.printf(
                    "    p50 %s ms, p99 %s ms; %,d requests in flight during the live-heap probe's forced collections"
                            + " left out of them%n",
                    BenchReport.format(r.p50Millis(), 1), BenchReport.format(r.p99Millis(), 1), meter.latencyLeftOut());
        }
        out.flush();
        return r;
    }

    static double counter(MeterRegistry registry, String name, String... tags) {
        return Search.in(registry).name(name).tags(tags).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    private BenchWorkload workload(ShardStrategy strategy) {
        return new BenchWorkload(options.hives(), base.getInt(IngestConfig.TELEMETRY_SHARDS), strategy);
    }

    private IngestConfig config(String name, ShardStrategy strategy, Map<String, Object> extra) {
        Map<String, Object> settings = new HashMap<>(base.originals());
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, options.keyspace());
        settings.put(IngestConfig.TELEMETRY_SHARD_STRATEGY, label(strategy));
        settings.put(IngestConfig.SINK_GROUP_ID, tag + "-" + name + "-sink");
        settings.put(IngestConfig.TOPOLOGY_APPLICATION_ID, tag + "-" + name);
        settings.put(IngestConfig.TOPOLOGY_STATE_DIR, stateDir.resolve(name).toString());
        // the workload's event times are fixed (BenchWorkload.START): accept them at any later date
        settings.put(
                IngestConfig.VALIDATION_MAX_AGE_MS,
                Long.toString(Duration.ofDays(365L * 20).toMillis()));
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, tag + "." + name + "." + base.getString(topic));
        }
        settings.putAll(extra);
        return ConfigLoader.load(null, Map.of(), settings);
    }

    private static String label(ShardStrategy strategy) {
        return strategy.name().toLowerCase(Locale.ROOT);
    }
}
