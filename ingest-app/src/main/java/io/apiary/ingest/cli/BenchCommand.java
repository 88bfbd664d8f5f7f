package io.apiary.ingest.cli;

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

import io.apiary.ingest.bench.Bench;
import io.apiary.ingest.bench.BenchReport;
import io.apiary.ingest.bench.BenchResult;
import io.apiary.ingest.bench.SparkPeerLaunch;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LocalStackSession;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import io.apiary.ingest.devstack.StackFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bench}: the sink beside a naive writer and the raw ceiling, the topology, end to end. */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measures, in one run on the same Kafka and Cassandra: the sink draining the planned load "
                + "(per shard strategy), a naive writer (one async INSERT per row), the raw ceiling (rows "
                + "pre-grouped by partition, single-partition batches straight through the driver), the topology "
                + "alone, topology plus sink end to end, and (when its module is built) the Spark Cassandra Connector "
                + "draining the same rows from a Spark JVM of its own. Prints a table and writes a JSON (or CSV) file; "
                + "with --repeat N the whole set N times, with each check's median and range.",
            "Without --config (or --set kafka.bootstrap.servers=...) it starts a local Kafka and Cassandra, "
                + "as demo does, and also reports their CPU per row. Against a configured cluster it writes to "
                + "its own keyspace (--keyspace, emptied before each run and kept afterwards with the last run's "
                + "rows) and to topics and consumer groups of its own, deleted after each run."})
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--rows", defaultValue = "2000000", paramLabel = "N",
            description = "Rows per write run (sink, naive, ceiling) (default: ${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--gateway-readings", defaultValue = "500000", paramLabel = "N",
            description = "Gateway readings (plus their entrance-counter samples) for the topology and end-to-end "
                    + "runs (default: ${DEFAULT-VALUE}).")
    long gatewayReadings;

    @Option(names = "--hives", defaultValue = "10000", paramLabel = "N",
            description = "Hives of the workload; each sends 1,000 readings per minute (default: ${DEFAULT-VALUE}).")
    int hives;

    @Option(names = "--shard-strategies", defaultValue = "time,hash", split = ",", paramLabel = "S",
            description = "Shard strategies to run the sink with; the first is also used by the ceiling, the "
                    + "naive writer, the topology and end-to-end runs (default: ${DEFAULT-VALUE}).")
    List<String> strategies;

    @Option(names = "--runs", split = ",", paramLabel = "RUN",
            description = "Which runs to make, of ceiling, naive, sink, spark, topology, end-to-end (default: all; "
                    + "spark only if its module is built: " + SparkPeerLaunch.BUILD_COMMAND + ").")
    List<String> runs;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
            description = "Make the whole set of runs N times and report each check's median and range over them "
                    + "(default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--naive-in-flight", defaultValue = "256", paramLabel = "N",
            description = "Concurrent INSERTs of the naive writer (default: ${DEFAULT-VALUE}).")
    int naiveInFlight;

    @Option(names = "--ceiling-batch-rows", defaultValue = "100", paramLabel = "N",
            description = "Rows per single-partition batch of the ceiling (default: ${DEFAULT-VALUE}).")
    int ceilingBatchRows;

    @Option(names = "--ceiling-in-flight", defaultValue = "32", paramLabel = "N",
            description = "Concurrent batches of the ceiling (default: ${DEFAULT-VALUE}).")
    int ceilingInFlight;

    @Option(names = "--warm-up-rows", defaultValue = "200000", paramLabel = "N",
            description = "Rows written before the measured runs, as batches and again as single INSERTs, so that "
                    + "no run pays for JIT compilation (default: ${DEFAULT-VALUE}; 0 for none).")
    long warmUpRows;

    @Option(names = "--run-timeout-minutes", defaultValue = "10", paramLabel = "MIN",
            description = "Longest measured window of one run; a run that takes longer is reported as not "
                    + "completed (default: ${DEFAULT-VALUE}).")
    int runTimeoutMinutes;

    @Option(names = "--keyspace", defaultValue = "apiary_bench", paramLabel = "NAME",
            description = "Keyspace the benchmark creates (from cql/) and truncates between runs "
                    + "(default: ${DEFAULT-VALUE}).")
    String keyspace;

    @Option(names = "--replication", paramLabel = "CQL-MAP",
            description = "Replication of that keyspace, e.g. \"{'class': 'NetworkTopologyStrategy', 'dc1': 3}\" "
                    + "(default: replication factor 1).")
    String replication = SchemaApplier.DEV_REPLICATION;

    @Option(names = "--table-options", paramLabel = "CQL",
            description = "Table options applied to the benchmark's hive_telemetry_v2 after it is created from "
                    + "cql/, as in ALTER TABLE ... WITH <CQL>, to measure them against the shipped ones, e.g. "
                    + "\"memtable = 'trie' AND compaction = {'class': 'UnifiedCompactionStrategy'}\" "
                    + "(default: none).")
    String tableOptions;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Results file: JSON, or CSV if the name ends with .csv "
                    + "(default: apiary-bench-<UTC time>.json in the current folder).")
    Path output;

    @Option(names = "--work-dir", paramLabel = "DIR",
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
        Path file = output != null ? output : Path.of("apiary-bench-"
                + DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").format(started.atOffset(ZoneOffset.UTC)) + ".json");
        checkWritable(file);
        boolean local = !configured(IngestConfig.KAFKA_BOOTSTRAP_SERVERS)
                && !configured(IngestConfig.CASSANDRA_CONTACT_POINTS);
        if (local) {
            // every setting is checked before anything starts (the stack's addresses are placeholders here)
            config.load(Map.of(IngestConfig.KAFKA_BOOTSTRAP_SERVERS, "127.0.0.1:9092",
                    IngestConfig.CASSANDRA_CONTACT_POINTS, "127.0.0.1:9042",
                    IngestConfig.CASSANDRA_LOCAL_DATACENTER, "datacenter1"));
        } else if (!configured(IngestConfig.KAFKA_BOOTSTRAP_SERVERS)
                || !configured(IngestConfig.CASSANDRA_CONTACT_POINTS)) {
            throw new ParameterException(spec.commandLine(), "Configure both kafka.bootstrap.servers and "
                    + "cassandra.contact.points (a cluster), or neither (a local stack is started)");
        } else if (workDir != null || keepWorkDir) {
            throw new ParameterException(spec.commandLine(),
                    "--work-dir and --keep-work-dir are for the local stack, which is not started with a configured "
                            + "cluster");
        }
        LocalStack stack = null;
        Path tempStateDir = null;
        try {
            IngestConfig base;
            if (local) {
                out.println("Starting a local Kafka broker and Cassandra node (no cluster configured)...");
                out.flush();
                LocalStackOptions.Builder stackOptions = LocalStackOptions.builder().keepWorkDir(keepWorkDir);
                if (workDir != null) {
                    stackOptions.workDir(workDir);
                }
                stack = LocalStack.start(stackOptions.build());
                out.printf("Local stack work folder: %s (%s afterwards)%n", stack.workDir(),
                        keepWorkDir ? "kept" : "deleted");
                base = config.load(LocalStackSession.settings(stack));
            } else {
                base = config.load();
            }
            if (options.keyspace().equals(base.getString(IngestConfig.CASSANDRA_KEYSPACE))) {
                throw new ParameterException(spec.commandLine(), "--keyspace " + options.keyspace() + " is the "
                        + "pipeline's own keyspace (cassandra.keyspace): the benchmark empties its tables, so give it "
                        + "a keyspace of its own");
            }
            if (stack == null) {
                tempStateDir = Files.createTempDirectory("apiary-bench-state");
            }
            Path stateDir = stack != null ? stack.workDir().resolve("bench-state") : tempStateDir;
            Bench bench = new Bench(base, options,
                    stack == null ? OptionalLong.empty() : OptionalLong.of(stack.cassandra().pid()),
                    stack == null ? OptionalLong.empty() : OptionalLong.of(stack.kafka().pid()), stateDir, out);
            boolean writeRuns = options.runs().stream().anyMatch(Bench.Run::writesRows);
            boolean gatewayRuns = options.runs().stream().anyMatch(r -> !r.writesRows());
            out.printf("Workload: %,d hives x 1,000 readings per minute%s%s; %d shards per day; keyspace %s%n", hives,
                    writeRuns ? String.format(", %,d rows per write run", rows) : "",
                    gatewayRuns ? String.format(", %,d gateway readings", gatewayReadings) : "",
                    base.getInt(IngestConfig.TELEMETRY_SHARDS), keyspace);
            out.flush();
            List<List<BenchResult>> results = bench.run();
            BenchReport report = new BenchReport(results, context(started, base, options, local));
            out.println();
            out.printf("Apiary Ingest benchmark, %s, %d cores, %s%n", started.truncatedTo(ChronoUnit.SECONDS),
                    Runtime.getRuntime().availableProcessors(), local ? "local Kafka and Cassandra on this machine"
                            : "configured cluster (Cassandra and Kafka CPU not measured)");
            report.print(out);
            report.write(file);
            out.printf("%nResults written to %s (%.0f s in all)%n", file.toAbsolutePath(),
                    Duration.between(started, Instant.now()).toMillis() / 1000.0);
            out.flush();
            return results.stream().flatMap(List::stream).allMatch(BenchResult::completed) ? 0 : 1;
        } finally {
            if (stack != null) {
                stack.close();
            }
            if (tempStateDir != null) {
                StackFiles.deleteRecursively(tempStateDir);
            }
        }
    }

    private Bench.Options options() {
        require(rows >= 1, "--rows must be at least 1, was " + rows);
        require(gatewayReadings >= 1, "--gateway-readings must be at least 1, was " + gatewayReadings);
        require(hives >= 1, "--hives must be at least 1, was " + hives);
        require(naiveInFlight >= 1, "--naive-in-flight must be at least 1, was " + naiveInFlight);
        require(ceilingBatchRows >= 1, "--ceiling-batch-rows must be at least 1, was " + ceilingBatchRows);
        require(ceilingInFlight >= 1, "--ceiling-in-flight must be at least 1, was " + ceilingInFlight);
        require(warmUpRows >= 0, "--warm-up-rows must be at least 0, was " + warmUpRows);
        require(repeat >= 1 && repeat <= 100, "--repeat must be between 1 and 100, was " + repeat);
        require(runTimeoutMinutes >= 1 && runTimeoutMinutes <= 1_440,
                "--run-timeout-minutes must be between 1 and 1440, was " + runTimeoutMinutes);
        require(SchemaApplier.NAME.matcher(keyspace).matches(), "--keyspace '" + keyspace
                + "' is not a keyspace name: a letter, then up to 47 letters, digits or underscores");
        String map = replication.trim();
        require(map.startsWith("{") && map.endsWith("}") && map.contains("'class'"), "--replication must be a CQL "
                + "replication map such as \"{'class': 'NetworkTopologyStrategy', 'dc1': 3}\", was " + replication);
        require(tableOptions == null || (!tableOptions.isBlank() && tableOptions.indexOf(';') < 0),
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
                    spec.commandLine().getOut().printf("Skipping the spark run: its module is not built (build it "
                            + "with %s)%n", SparkPeerLaunch.BUILD_COMMAND);
                }
            } else {
                for (String r : runs) {
                    parsedRuns.add(Bench.Run.parse(r));
                }
                if (parsedRuns.contains(Bench.Run.SPARK) && spark.isEmpty()) {
                    parsedRuns.remove(Bench.Run.SPARK);
                    spec.commandLine().getOut().printf("Skipping the spark run: its module is not built (no "
                            + "ingest-bench-spark/target/classpath.txt); build it with %s%n", SparkPeerLaunch.BUILD_COMMAND);
                    require(!parsedRuns.isEmpty(), "Nothing left to run without the spark run: build it with "
                            + SparkPeerLaunch.BUILD_COMMAND);
                }
            }
            return new Bench.Options(rows, gatewayReadings, hives, List.copyOf(parsedStrategies), parsedRuns,
                    naiveInFlight, ceilingBatchRows, ceilingInFlight, warmUpRows, Duration.ofMinutes(runTimeoutMinutes),
                    keyspace, replication, repeat, spark, Optional.ofNullable(tableOptions));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    private void require(boolean condition, String message) {
        if (!condition) {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    /** Whether a setting comes from the settings file, an {@code APIARY_*} variable or {@code --set}. */
    private boolean configured(String key) {
        return config.configFile != null || config.overrides.containsKey(key)
                || System.getenv(ConfigLoader.ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_')) != null;
    }

    /** Fails before anything starts if the results file cannot be written. */
    private void checkWritable(Path file) {
        Path folder = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file) || folder == null || !Files.isDirectory(folder) || !Files.isWritable(folder)) {
            throw new ParameterException(spec.commandLine(), "Cannot write the results to " + file.toAbsolutePath()
                    + ": its folder does not exist or is not writable, or it is a folder");
        }
    }

    private Map<String, Object> context(Instant started, IngestConfig base, Bench.Options options, boolean local) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("started", started.truncatedTo(ChronoUnit.SECONDS).toString());
        context.put("cores", Runtime.getRuntime().availableProcessors());
        context.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        context.put("java", System.getProperty("java.vm.name") + " " + Runtime.version());
        context.put("jvm_arguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        context.put("max_heap_mib", Runtime.getRuntime().maxMemory() >> 20);
        context.put("stack", local ? "local: one Kafka broker and one Cassandra node on this machine" : "configured");
        context.put("rows", options.rows());
        context.put("gateway_readings", options.gatewayReadings());
        context.put("hives", options.hives());
        context.put("readings_per_hive_per_minute", 1000);
        context.put("shards", base.getInt(IngestConfig.TELEMETRY_SHARDS));
        context.put("naive_in_flight", options.naiveInFlight());
        context.put("ceiling_batch_rows", options.ceilingBatchRows());
        context.put("ceiling_in_flight", options.ceilingInFlight());
        context.put("repeats", options.repeats());
        options.spark().ifPresent(s -> context.put("spark_peer", s.dir().toString()));
        options.tableOptions().ifPresent(o -> context.put("table_options", o));
        Map<String, Object> sink = new LinkedHashMap<>();
        for (String key : List.of(IngestConfig.SINK_LINGER_MS, IngestConfig.SINK_MAX_IN_FLIGHT,
                IngestConfig.SINK_BATCH_MAX_ROWS, IngestConfig.SINK_BATCH_MAX_BYTES, IngestConfig.SINK_MAX_BUFFERED_ROWS,
                IngestConfig.SINK_MAX_BUFFERED_BYTES, IngestConfig.SINK_COMBINE_REPLICAS, IngestConfig.SINK_CONSISTENCY,
                IngestConfig.TOPIC_PARTITIONS, IngestConfig.TOPOLOGY_PROCESSING_GUARANTEE)) {
            sink.put(key, String.valueOf(base.values().get(key)));
        }
        context.put("settings", sink);
        return context;
    }
}
