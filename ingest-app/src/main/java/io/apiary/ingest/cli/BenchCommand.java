package io.apiary.ingest.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.bench.Bench;
import io.apiary.ingest.bench.BenchReport;
import io.apiary.ingest.bench.BenchResult;
import io.apiary.ingest.bench.BenchStoppedException;
import io.apiary.ingest.bench.SparkPeerLaunch;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.RingWait;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LocalStackSession;
import io.apiary.ingest.devstack.CassandraCluster;
import io.apiary.ingest.devstack.CassandraNode;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import io.apiary.ingest.devstack.StackFiles;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bench}: the sink beside a naive writer and the raw ceiling, the topology, end to end. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        subcommands = BenchStateCommand.class,
        description = {
            "Measures, in one run on the same Kafka and Cassandra: the sink draining the planned load "
                    + "(per shard strategy), a naive writer (one async INSERT per row), the raw ceiling (rows "
                    + "pre-grouped by partition, single-partition batches straight through the driver), the topology "
                    + "alone, topology plus sink end to end, and (when its module is built) the Spark Cassandra Connector "
                    + "draining the same rows from a Spark JVM of its own. Prints a table and writes a JSON (or CSV) file; "
                    + "with --repeat N the whole set N times, with each check's median and range.",
            "Without --config (or --set kafka.bootstrap.servers=...) it starts a local Kafka and Cassandra, "
                    + "as demo does, and also reports their CPU per row. Against a configured cluster it writes to "
                    + "its own keyspace (--keyspace, emptied before each run and kept afterwards with the last run's "
                    + "rows) and to topics and consumer groups of its own, deleted after each run.",
            "With the local stack, after each write run it waits until no node has a compaction or memtable flush "
                    + "running or queued (3 s quiet, at most 3 min more per run) and reports the nodes' CPU from the "
                    + "run's end until then, per row, as 'Cass after': the compactions and flushes the run left, the "
                    + "collector's work on its garbage, and the quiet tail. The Cassandra checks count window and after.",
            "'bench state' measures the topology's hourly state under many hives instead: see bench state --help."
        })
public final class BenchCommand implements Callable<Integer> {

    /** Most nodes {@code --cassandra-nodes} starts on one machine (each a JVM of up to 1 GiB of heap). */
    static final int MAX_LOCAL_NODES = 5;
    /** A {@code 'key': value} entry of a CQL replication map; the value's digits in group 2 (absent for the class). */
    private static final Pattern REPLICATION_ENTRY = Pattern.compile("'([^']+)'\\s*:\\s*'?(\\d+)?");
    /** How long the driver may take to see a new local cluster whole. */
    static final Duration RING_TIMEOUT = Duration.ofSeconds(120);

    @Option(
            names = "--rows",
            defaultValue = "2000000",
            paramLabel = "N",
            description = "Rows per write run (sink, naive, ceiling) (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(
            names = "--gateway-readings",
            paramLabel = "N",
            description =
                    "Gateway readings (plus their entrance-counter samples) for the pass-through, topology and end-to-end "
                            + "runs (default: --rows, so that the end-to-end run writes as many rows per Cassandra "
                            + "partition as the sink run and their costs per row compare).")
    Long gatewayReadings;

    @Option(
            names = "--hives",
            defaultValue = "10000",
            paramLabel = "N",
            description = "Hives of the workload; each sends 1,000 readings per minute (default: ${DEFAULT-VALUE}).")
    int hives;

    @Option(
            names = "--shard-strategies",
            defaultValue = "time,hash",
            split = ",",
            paramLabel = "S",
            description = "Shard strategies to run the sink with; the first is also used by the ceiling, the "
                    + "naive writer, the topology and end-to-end runs (default: ${DEFAULT-VALUE}).")
    List<String> strategies;

    @Option(
            names = "--runs",
            split = ",",
            paramLabel = "RUN",
            description =
                    "Which runs to make, of ceiling, naive, sink, sink-paced (the sink held to 90%% of the sink run's rows/s; "
                            + "needs sink), spark, pass-through (a Kafka Streams application with the topology's settings and "
                            + "serdes that does nothing else), topology, end-to-end, end-to-end-paced (gateway records produced "
                            + "live at the planned rate, see --paced-hives) (default: all; "
                            + "spark only if its module is built: " + SparkPeerLaunch.BUILD_COMMAND + ").")
    List<String> runs;

    @Option(
            names = "--paced-hives",
            defaultValue = "" + Bench.DEFAULT_PACED_HIVES,
            paramLabel = "N",
            description = "Hives of the end-to-end-paced run, whose gateway records are produced live: each hive "
                    + "sends 1,000 readings per minute, so 1,000 hives are 16,667 readings/s (default: "
                    + "${DEFAULT-VALUE}, within what an idle 2-core machine sustains; fewer where the run's note says "
                    + "'not sustained', as the hive count does not change the rate per Cassandra partition).")
    int pacedHives;

    @Option(
            names = "--paced-seconds",
            defaultValue = "" + Bench.DEFAULT_PACED_SECONDS,
            paramLabel = "S",
            description = "Seconds of gateway records the end-to-end-paced run produces live; it writes "
                    + "hives x seconds x 1000 / 60 rows (default: ${DEFAULT-VALUE}).")
    int pacedSeconds;

    @Option(
            names = "--repeat",
            defaultValue = "1",
            paramLabel = "N",
            description = "Make the whole set of runs N times and report each check's median and range over them "
                    + "(default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(
            names = "--naive-in-flight",
            defaultValue = "256",
            paramLabel = "N",
            description = "Concurrent INSERTs of the naive writer (default: ${DEFAULT-VALUE}).")
    int naiveInFlight;

    @Option(
            names = "--ceiling-batch-rows",
            defaultValue = "100",
            paramLabel = "N",
            description = "Rows per single-partition batch of the ceiling (default: ${DEFAULT-VALUE}).")
    int ceilingBatchRows;

    @Option(
            names = "--ceiling-in-flight",
            defaultValue = "32",
            paramLabel = "N",
            description = "Concurrent batches of the ceiling (default: ${DEFAULT-VALUE}).")
    int ceilingInFlight;

    @Option(
            names = "--warm-up-rows",
            defaultValue = "200000",
            paramLabel = "N",
            description = "Rows written before the measured runs, as batches and again as single INSERTs, then "
                    + "drained from a row topic, and as many gateway readings drained by the gateway runs' "
                    + "applications, so that "
                    + "no run pays for JIT compilation (default: ${DEFAULT-VALUE}; 0 for none).")
    long warmUpRows;

    @Option(
            names = "--run-timeout-minutes",
            defaultValue = "10",
            paramLabel = "MIN",
            description = "Longest measured window of one run; a run that takes longer is reported as not "
                    + "completed (default: ${DEFAULT-VALUE}).")
    int runTimeoutMinutes;

    @Option(
            names = "--keyspace",
            defaultValue = "apiary_bench",
            paramLabel = "NAME",
            description = "Keyspace the benchmark creates (from cql/) and truncates between runs "
                    + "(default: ${DEFAULT-VALUE}).")
    String keyspace;

    @Option(
            names = "--replication",
            paramLabel = "CQL-MAP",
            description = "Replication of that keyspace, e.g. \"{'class': 'NetworkTopologyStrategy', 'dc1': 3}\" "
                    + "(default: replication factor 1; with --cassandra-nodes N above 1, NetworkTopologyStrategy with factor "
                    + "min(N, 3) in datacenter1, the local nodes' data center).")
    String replication;

    @Option(
            names = "--cassandra-nodes",
            defaultValue = "1",
            paramLabel = "N",
            description = "Nodes of the local Cassandra cluster, 1 to 5, all on this machine: with more than 1 the "
                    + "benchmark starts a cluster of N nodes instead of the stack's single node, waits until the "
                    + "driver sees every node up with its tokens, and sums the nodes' CPU (default: "
                    + "${DEFAULT-VALUE}; local stack only).")
    int cassandraNodes;

    @Option(
            names = "--table-options",
            paramLabel = "CQL",
            description = "Table options applied to the benchmark's hive_telemetry_v2 after it is created from "
                    + "cql/, as in ALTER TABLE ... WITH <CQL>, to measure them against the shipped ones, e.g. "
                    + "\"memtable = 'trie' AND compaction = {'class': 'UnifiedCompactionStrategy'}\" "
                    + "(default: none).")
    String tableOptions;

    @Option(
            names = "--row-compression",
            defaultValue = "lz4",
            paramLabel = "TYPE",
            description = "Compression the row topics are produced with, as Kafka's compression.type: none, gzip, "
                    + "snappy, lz4 or zstd (default: ${DEFAULT-VALUE}, as the topology's producer); the sink's "
                    + "and the naive writer's fetches decompress it.")
    String rowCompression;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Results file: JSON, or CSV if the name ends with .csv "
                    + "(default: apiary-bench-<UTC time>.json in the current folder).")
    Path output;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Working folder of the local Kafka and Cassandra (default: a new temporary folder).")
    Path workDir;

    @Option(names = "--keep-work-dir", description = "Keep the local stack's working folder afterwards.")
    boolean keepWorkDir;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Bench.Options options = options();
        PrintWriter out = spec.commandLine().getOut();
        Instant started = Instant.now();
        Path file = output != null ? output : defaultResultsFile("apiary-bench", started);
        checkWritable(spec.commandLine(), file);
        boolean local =
                !configured(IngestConfig.KAFKA_BOOTSTRAP_SERVERS) && !configured(IngestConfig.CASSANDRA_CONTACT_POINTS);
        if (local) {
            checkLocalReplication(options.replication());
            checkSettingsForLocalStack(config);
        } else if (!configured(IngestConfig.KAFKA_BOOTSTRAP_SERVERS)
                || !configured(IngestConfig.CASSANDRA_CONTACT_POINTS)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Configure both kafka.bootstrap.servers and "
                            + "cassandra.contact.points (a cluster), or neither (a local stack is started)");
        } else if (workDir != null
                || keepWorkDir
                || spec.commandLine().getParseResult().hasMatchedOption("--cassandra-nodes")) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--work-dir, --keep-work-dir and --cassandra-nodes are for the local stack, which is not started "
                            + "with a configured cluster");
        }
        LocalStack stack = null;
        CassandraCluster cluster = null;
        boolean keepClusterDir = keepWorkDir;
        Path tempStateDir = null;
        try {
            IngestConfig base;
            if (local) {
                stack = startLocalStack(out, "Kafka broker and Cassandra node", workDir, keepWorkDir);
                out.printf(
                        "Local stack work folder: %s (%s afterwards)%n",
                        stack.workDir(), keepWorkDir ? "kept" : "deleted");
                Map<String, String> settings = new LinkedHashMap<>(LocalStackSession.settings(stack));
                if (cassandraNodes > 1) {
                    keepClusterDir = true; // until the cluster has started and been seen whole
                    cluster = startCluster(stack, out);
                    keepClusterDir = keepWorkDir;
                    settings.put(
                            IngestConfig.CASSANDRA_CONTACT_POINTS,
                            cluster.contactPoints().stream()
                                    .map(a -> a.getHostString() + ":" + a.getPort())
                                    .collect(Collectors.joining(",")));
                }
                base = config.load(settings);
            } else {
                base = config.load();
            }
            if (options.runs().contains(Bench.Run.SPARK)
                    && base.wireFormat().write() == io.apiary.ingest.serde.WireFormat.Framing.REGISTRY) {
                throw new ParameterException(
                        spec.commandLine(),
                        "the spark run's peer reads single-object encoded "
                                + "rows only: add --set " + io.apiary.ingest.serde.RegistrySettings.WIRE_FORMAT_WRITE
                                + "=single-object to compare with it (every run then uses that format)");
            }
            if (options.keyspace().equals(base.getString(IngestConfig.CASSANDRA_KEYSPACE))) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--keyspace " + options.keyspace() + " is the "
                                + "pipeline's own keyspace (cassandra.keyspace): the benchmark empties its tables, so give it "
                                + "a keyspace of its own");
            }
            if (stack == null) {
                tempStateDir = Files.createTempDirectory("apiary-bench-state");
            }
            Path stateDir = stack != null ? stack.workDir().resolve("bench-state") : tempStateDir;
            List<Long> cassandraPids = cluster != null
                    ? cluster.nodes().stream().map(CassandraNode::pid).collect(Collectors.toList())
                    : stack != null ? List.of(stack.cassandra().pid()) : List.of();
            Bench bench = new Bench(
                    base,
                    options,
                    cassandraPids,
                    stack == null
                            ? OptionalLong.empty()
                            : OptionalLong.of(stack.kafka().pid()),
                    stateDir,
                    out);
            boolean writeRuns = options.runs().stream().anyMatch(Bench.Run::writesRows);
            boolean gatewayRuns = options.runs().stream().anyMatch(r -> !r.writesRows());
            out.printf(
                    "Workload: %,d hives x 1,000 readings per minute%s%s; %d shards per day; keyspace %s, "
                            + "replication %s, writes at %s%n",
                    hives,
                    writeRuns ? String.format(", %,d rows per write run", rows) : "",
                    gatewayRuns ? String.format(", %,d gateway readings", gatewayReadings) : "",
                    base.getInt(IngestConfig.TELEMETRY_SHARDS),
                    keyspace,
                    replication,
                    base.getString(IngestConfig.SINK_CONSISTENCY));
            out.flush();
            List<List<BenchResult>> results;
            String stoppedBy = null;
            try {
                results = bench.run();
            } catch (BenchStoppedException e) {
                if (e.results().isEmpty() && e.getCause() instanceof Exception cause) {
                    throw cause; // nothing measured to keep
                }
                results = e.results();
                stoppedBy = e.reason();
                if (org.slf4j.LoggerFactory.getLogger(BenchCommand.class).isDebugEnabled()) {
                    e.printStackTrace(spec.commandLine().getErr());
                }
            }
            return report(
                    results,
                    stoppedBy,
                    context(started, base, options, local),
                    String.format(
                            "Apiary Ingest benchmark, %s, %d cores, %s",
                            started.truncatedTo(ChronoUnit.SECONDS),
                            Runtime.getRuntime().availableProcessors(),
                            stackDescription(local)),
                    file,
                    started,
                    out,
                    spec.commandLine().getErr());
        } finally {
            if (cluster != null) {
                cluster.close();
                if (!keepClusterDir) {
                    StackFiles.deleteRecursively(cluster.workDir());
                }
            }
            if (stack != null) {
                stack.close();
            }
            if (tempStateDir != null) {
                StackFiles.deleteRecursively(tempStateDir);
            }
        }
    }

    /**
     * Prints the results and writes them to {@code file}, also when the bench stopped early.
     *
     * @param results   per repeat, the results made; at least one repeat
     * @param stoppedBy why the bench stopped before its last run, in one line, or null if it made them all;
     *                  written to the context as {@code stopped_early} and {@code stopped_by}
     * @param context   the results file's context (added to)
     * @param heading   the line above the tables
     * @param file      the results file (JSON, or CSV by its name)
     * @param started   when the command started
     * @param out       where the tables go
     * @param err       where the reason of an early stop goes, as {@code error: ...}
     * @return the exit code: 0 if every run completed, else 1 (a run not completed, or an early stop)
     * @throws java.io.IOException if the file cannot be written
     */
    static int report(
            List<List<BenchResult>> results,
            String stoppedBy,
            Map<String, Object> context,
            String heading,
            Path file,
            Instant started,
            PrintWriter out,
            PrintWriter err)
            throws java.io.IOException {
        context.put("stopped_early", stoppedBy != null);
        context.put("stopped_by", stoppedBy);
        BenchReport report = new BenchReport(results, context);
        out.println();
        out.println(heading);
        report.print(out);
        report.write(file);
        out.printf(
                "%nResults written to %s (%.0f s in all)%n",
                file.toAbsolutePath(), Duration.between(started, Instant.now()).toMillis() / 1000.0);
        out.flush();
        if (stoppedBy != null) {
            err.printf(
                    "error: the bench stopped early: %s (the results of the runs before are in %s)%n",
                    stoppedBy, file.toAbsolutePath());
            err.flush();
            return 1;
        }
        return results.stream().flatMap(List::stream).allMatch(BenchResult::completed) ? 0 : 1;
    }

    private Bench.Options options() {
        require(rows >= 1, "--rows must be at least 1, was " + rows);
        if (gatewayReadings == null) {
            gatewayReadings = rows;
        }
        require(gatewayReadings >= 1, "--gateway-readings must be at least 1, was " + gatewayReadings);
        require(hives >= 1, "--hives must be at least 1, was " + hives);
        require(naiveInFlight >= 1, "--naive-in-flight must be at least 1, was " + naiveInFlight);
        require(ceilingBatchRows >= 1, "--ceiling-batch-rows must be at least 1, was " + ceilingBatchRows);
        require(ceilingInFlight >= 1, "--ceiling-in-flight must be at least 1, was " + ceilingInFlight);
        require(warmUpRows >= 0, "--warm-up-rows must be at least 0, was " + warmUpRows);
        require(repeat >= 1 && repeat <= 100, "--repeat must be between 1 and 100, was " + repeat);
        require(
                pacedHives >= 1 && pacedHives <= Bench.MAX_PACED_HIVES,
                "--paced-hives must be between 1 and " + Bench.MAX_PACED_HIVES + ", was " + pacedHives);
        require(
                pacedSeconds >= 1 && pacedSeconds <= Bench.MAX_PACED_SECONDS,
                "--paced-seconds must be between 1 and " + Bench.MAX_PACED_SECONDS + ", was " + pacedSeconds);
        require(
                runTimeoutMinutes >= 1 && runTimeoutMinutes <= 1_440,
                "--run-timeout-minutes must be between 1 and 1440, was " + runTimeoutMinutes);
        require(
                SchemaApplier.NAME.matcher(keyspace).matches(),
                "--keyspace '" + keyspace
                        + "' is not a keyspace name: a letter, then up to 47 letters, digits or underscores");
        require(
                cassandraNodes >= 1 && cassandraNodes <= MAX_LOCAL_NODES,
                "--cassandra-nodes must be between 1 and " + MAX_LOCAL_NODES + ", was " + cassandraNodes);
        if (replication == null) {
            replication = defaultReplication(cassandraNodes);
        }
        String map = replication.trim();
        require(
                map.startsWith("{") && map.endsWith("}") && map.contains("'class'"),
                "--replication must be a CQL "
                        + "replication map such as \"{'class': 'NetworkTopologyStrategy', 'datacenter1': 3}\", was "
                        + replication);
        require(
                tableOptions == null || (!tableOptions.isBlank() && tableOptions.indexOf(';') < 0),
                "--table-options must be the options of one ALTER TABLE ... WITH clause (not blank, no ';'), was '"
                        + tableOptions + "'");
        Set<ShardStrategy> parsedStrategies = new LinkedHashSet<>();
        Set<Bench.Run> parsedRuns = new LinkedHashSet<>();
        try {
            for (String s : strategies) {
                parsedStrategies.add(ShardStrategy.parse(s));
            }
            Optional<SparkPeerLaunch> spark = SparkPeerLaunch.locate();
            if (runs == null || runs.isEmpty()) {
                parsedRuns.addAll(List.of(Bench.Run.values()));
                if (spark.isEmpty()) {
                    parsedRuns.remove(Bench.Run.SPARK);
                    spec.commandLine()
                            .getOut()
                            .printf(
                                    "Skipping the spark run: its module is not built (build it " + "with %s)%n",
                                    SparkPeerLaunch.BUILD_COMMAND);
                }
            } else {
                for (String r : runs) {
                    parsedRuns.add(Bench.Run.parse(r));
                }
                if (parsedRuns.contains(Bench.Run.SPARK) && spark.isEmpty()) {
                    parsedRuns.remove(Bench.Run.SPARK);
                    spec.commandLine()
                            .getOut()
                            .printf(
                                    "Skipping the spark run: its module is not built (no "
                                            + "ingest-bench-spark/target/classpath.txt); build it with %s%n",
                                    SparkPeerLaunch.BUILD_COMMAND);
                    require(
                            !parsedRuns.isEmpty(),
                            "Nothing left to run without the spark run: build it with "
                                    + SparkPeerLaunch.BUILD_COMMAND);
                }
            }
            return new Bench.Options(
                    rows,
                    gatewayReadings,
                    hives,
                    List.copyOf(parsedStrategies),
                    parsedRuns,
                    naiveInFlight,
                    ceilingBatchRows,
                    ceilingInFlight,
                    warmUpRows,
                    Duration.ofMinutes(runTimeoutMinutes),
                    keyspace,
                    replication,
                    repeat,
                    spark,
                    Optional.ofNullable(tableOptions),
                    rowCompression,
                    pacedHives,
                    pacedSeconds);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /**
     * @param nodes nodes of the local cluster, at least 1
     * @return the keyspace replication used when {@code --replication} is not given: factor 1 on one node,
     *     else {@code NetworkTopologyStrategy} with factor min(nodes, 3) in the local data center
     */
    static String defaultReplication(int nodes) {
        return nodes == 1
                ? SchemaApplier.DEV_REPLICATION
                : "{'class': 'NetworkTopologyStrategy', '" + CassandraNode.LOCAL_DATACENTER + "': " + Math.min(nodes, 3)
                        + "}";
    }

    private String stackDescription(boolean local) {
        if (!local) {
            return "configured cluster (Cassandra and Kafka CPU not measured)";
        }
        return cassandraNodes == 1
                ? "local Kafka and Cassandra on this machine"
                : "local Kafka and a " + cassandraNodes + "-node Cassandra cluster on this machine (Cassandra CPU "
                        + "summed over the nodes)";
    }

    /** The results file's {@code stack} value: the same words as before local clusters existed. */
    private String stackContext(boolean local) {
        if (!local) {
            return "configured";
        }
        return cassandraNodes == 1
                ? "local: one Kafka broker and one Cassandra node on this machine"
                : "local: one Kafka broker and a " + cassandraNodes + "-node Cassandra cluster on this machine";
    }

    /**
     * Refuses, before anything starts, a replication map the local nodes cannot hold: every factor in it (the
     * {@code replication_factor} of SimpleStrategy, or a data center's of NetworkTopologyStrategy) must be at most
     * {@link #cassandraNodes}, and the only data center is {@value CassandraNode#LOCAL_DATACENTER} (writes at
     * LOCAL_QUORUM fail, or keep fewer copies than the output says, otherwise).
     */
    private void checkLocalReplication(String map) {
        Matcher m = REPLICATION_ENTRY.matcher(map);
        while (m.find()) {
            String key = m.group(1);
            if (key.equals("class")) {
                continue;
            }
            require(
                    key.equals("replication_factor") || key.equals(CassandraNode.LOCAL_DATACENTER),
                    "--replication "
                            + "names data center '" + key + "', but the local Cassandra's only data center is "
                            + CassandraNode.LOCAL_DATACENTER);
            require(m.group(2) != null, "--replication gives '" + key + "' no replica count: " + map);
            int factor = Integer.parseInt(m.group(2));
            require(
                    factor >= 1 && factor <= cassandraNodes,
                    "--replication asks for " + factor + " replicas, but the "
                            + "local Cassandra has " + cassandraNodes + " node" + (cassandraNodes == 1 ? "" : "s")
                            + " (--cassandra-nodes)");
        }
    }

    /**
     * Replaces the stack's single Cassandra node by a cluster of {@link #cassandraNodes} nodes in a folder of the
     * stack's work folder, and waits until a driver session sees all of them up with their tokens (token-aware
     * routing and the sink's grouping by replicas need the whole ring).
     */
    private CassandraCluster startCluster(LocalStack stack, PrintWriter out) {
        out.printf(
                "Stopping the stack's single Cassandra node; starting a %d-node cluster instead (one node after "
                        + "the other, about 30 s each on 2 cores)...%n",
                cassandraNodes);
        out.flush();
        stack.cassandra().stop();
        // beside the stack's folder, not in it: the stack deletes its own whole, the cluster keeps its own on failure
        Path dir = stack.workDir().resolveSibling(stack.workDir().getFileName() + "-cassandra-cluster");
        CassandraCluster cluster = CassandraCluster.start(
                stack.options().toBuilder().workDir(dir).keepWorkDir(true).build(), cassandraNodes);
        boolean seen = false;
        try (CqlSession session = CqlSession.builder()
                .addContactPoints(cluster.contactPoints())
                .withLocalDatacenter(cluster.localDatacenter())
                .build()) {
            RingWait.await(session, cassandraNodes, RING_TIMEOUT);
            seen = true;
        } finally {
            if (!seen) {
                cluster.close();
                out.printf(
                        "The Cassandra cluster did not come up whole; its folder (with each node's logs) is kept: "
                                + "%s%n",
                        dir);
                out.flush();
            }
        }
        out.printf("Cassandra cluster of %d nodes ready: CQL at %s%n", cassandraNodes, cluster.contactPoints());
        out.flush();
        return cluster;
    }

    private void require(boolean condition, String message) {
        if (!condition) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    /** Whether a setting comes from the settings file, an {@code APIARY_*} variable or {@code --set}. */
    private boolean configured(String key) {
        return configured(config, key);
    }

    /**
     * @param config the command's settings options
     * @param key    an option name
     * @return whether a settings file is given, or the setting comes from an {@code APIARY_*} variable or
     *     {@code --set}
     */
    static boolean configured(ConfigOptions config, String key) {
        return config.configFile != null
                || config.overrides.containsKey(key)
                || System.getenv(ConfigLoader.ENV_PREFIX
                                + key.toUpperCase(Locale.ROOT).replace('.', '_'))
                        != null;
    }

    /**
     * @param prefix  the file name's start, e.g. {@code apiary-bench}
     * @param started when the command started
     * @return {@code <prefix>-<UTC time, basic ISO>.json} in the current folder
     */
    static Path defaultResultsFile(String prefix, Instant started) {
        return Path.of(prefix + "-"
                + DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").format(started.atOffset(ZoneOffset.UTC))
                + ".json");
    }

    /**
     * Loads the settings with the local stack's addresses as placeholders, so that every other
     * setting is checked before anything starts.
     *
     * @throws io.apiary.ingest.config.ConfigException naming the first bad setting
     */
    static void checkSettingsForLocalStack(ConfigOptions config) {
        config.load(Map.of(
                IngestConfig.KAFKA_BOOTSTRAP_SERVERS,
                "127.0.0.1:9092",
                IngestConfig.CASSANDRA_CONTACT_POINTS,
                "127.0.0.1:9042",
                IngestConfig.CASSANDRA_LOCAL_DATACENTER,
                "datacenter1"));
    }

    /**
     * Starts the local stack, saying so on {@code out} first.
     *
     * @param what        what is started, for the message (e.g. "Kafka broker and Cassandra node")
     * @param workDir     its working folder, or null for a new temporary one
     * @param keepWorkDir whether that folder stays afterwards
     * @return the started stack; the caller closes it
     * @throws io.apiary.ingest.devstack.LocalStackException if a server does not start
     */
    static LocalStack startLocalStack(PrintWriter out, String what, Path workDir, boolean keepWorkDir) {
        out.println("Starting a local " + what + " (no cluster configured)...");
        out.flush();
        LocalStackOptions.Builder stackOptions = LocalStackOptions.builder().keepWorkDir(keepWorkDir);
        if (workDir != null) {
            stackOptions.workDir(workDir);
        }
        return LocalStack.start(stackOptions.build());
    }

    /**
     * Fails before anything starts if the results file cannot be written.
     *
     * @throws ParameterException naming the file, if its folder is missing or not writable or it is a folder
     */
    static void checkWritable(CommandLine cli, Path file) {
        Path folder = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file) || folder == null || !Files.isDirectory(folder) || !Files.isWritable(folder)) {
            throw new ParameterException(
                    cli,
                    "Cannot write the results to " + file.toAbsolutePath()
                            + ": its folder does not exist or is not writable, or it is a folder");
        }
    }

    /**
     * @param started when the command started
     * @return a results file's first context entries: start time, cores, operating system, Java, this JVM's
     *     arguments and maximum heap
     */
    static Map<String, Object> machineContext(Instant started) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("started", started.truncatedTo(ChronoUnit.SECONDS).toString());
        context.put("cores", Runtime.getRuntime().availableProcessors());
        context.put(
                "os",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
        context.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        context.put("jvm_arguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        context.put("max_heap_mib", Runtime.getRuntime().maxMemory() >> 20);
        return context;
    }

    private Map<String, Object> context(Instant started, IngestConfig base, Bench.Options options, boolean local) {
        Map<String, Object> context = machineContext(started);
        context.put("stack", stackContext(local));
        context.put("cassandra_nodes", local ? cassandraNodes : null);
        context.put("replication", options.replication());
        context.put("rows", options.rows());
        context.put("gateway_readings", options.gatewayReadings());
        context.put("hives", options.hives());
        context.put("readings_per_hive_per_minute", 1000);
        context.put("shards", base.getInt(IngestConfig.TELEMETRY_SHARDS));
        context.put("naive_in_flight", options.naiveInFlight());
        context.put("ceiling_batch_rows", options.ceilingBatchRows());
        context.put("ceiling_in_flight", options.ceilingInFlight());
        context.put("repeats", options.repeats());
        if (options.runs().contains(Bench.Run.END_TO_END_PACED)) {
            context.put("paced_hives", options.pacedHives());
            context.put("paced_seconds", options.pacedSeconds());
        }
        options.spark().ifPresent(s -> context.put("spark_peer", s.dir().toString()));
        options.tableOptions().ifPresent(o -> context.put("table_options", o));
        context.put("row_compression", options.rowCompression());
        Map<String, Object> sink = new LinkedHashMap<>();
        for (String key : List.of(
                IngestConfig.SINK_LINGER_MS,
                IngestConfig.SINK_MAX_IN_FLIGHT,
                IngestConfig.SINK_BATCH_MAX_ROWS,
                IngestConfig.SINK_BATCH_MAX_BYTES,
                IngestConfig.SINK_MAX_BUFFERED_ROWS,
                IngestConfig.SINK_MAX_BUFFERED_BYTES,
                IngestConfig.SINK_COMBINE_REPLICAS,
                IngestConfig.SINK_CONSISTENCY,
                IngestConfig.TOPIC_PARTITIONS,
                IngestConfig.TOPOLOGY_PROCESSING_GUARANTEE)) {
            sink.put(key, String.valueOf(base.values().get(key)));
        }
        context.put("settings", sink);
        return context;
    }
}
