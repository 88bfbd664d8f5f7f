package io.apiary.ingest.cli;

import io.apiary.ingest.bench.StateBench;
import io.apiary.ingest.bench.StateFigures;
import io.apiary.ingest.bench.StateReport;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LocalStackSession;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.StackFiles;
import io.apiary.ingest.topology.StateStoreOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bench state}: the topology's hourly state under many hives, and its restore after a SIGKILL. */
@Command(
        name = "state",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Measures the topology's hourly state at its largest: --hives hives each send one hour of "
                    + "entrance-counter samples (one every --sample-interval-seconds) to the topology, run as a "
                    + "process of its own ('run --component topology', heap --heap-mib) with grace --grace-minutes, "
                    + "so every (hive, hour) and every sample's identity is held at once. Reports its peak and live "
                    + "heap, resident set, RocksDB's memory against topology.rocksdb.memory.bytes, the changelog "
                    + "topics' and state folder's bytes, each per open hive-hour and per sample; then kills it "
                    + "with SIGKILL, starts it again on the same state folder and reports how long it took to be "
                    + "RUNNING and to restore its stores. Prints a table and writes a JSON file.",
            "Without --config (or --set kafka.bootstrap.servers=...) it starts a local Kafka and schema registry "
                    + "(the local stack's Cassandra is stopped at once: the topology does not use it). The topology "
                    + "takes every other setting as given (topology.store.type, topology.rocksdb.memory.bytes, "
                    + "topic.partitions, streams.*); its topics, group and internal topics are the run's own, "
                    + "deleted afterwards. With the default streams.session.timeout.ms (45 s) the restarted "
                    + "topology waits that long for the killed one's membership to expire; --set "
                    + "streams.session.timeout.ms=6000 shortens it. A small run measures mostly fixed costs (RocksDB's "
                    + "own files before its first flush, the JVM's heap): compare per-sample figures of large runs.",
            "Exit codes: 0 done; 2 a usage error (an option out of range, an unwritable -o file, a bad setting), "
                    + "before anything starts; 1 a step that failed or did not end within --timeout-minutes."
        })
public final class BenchStateCommand implements Callable<Integer> {

    @Option(
            names = "--hives",
            defaultValue = "50000",
            paramLabel = "N",
            description = "Hives, 1 to 10,000,000; each has one open hour (default: ${DEFAULT-VALUE}).")
    int hives;

    @Option(
            names = "--sample-interval-seconds",
            defaultValue = "60",
            paramLabel = "S",
            description = "Seconds between two samples of one hive, 1 to 3600; 3600 / S samples per hive, rounded up "
                    + "(default: ${DEFAULT-VALUE}).")
    long sampleIntervalSeconds;

    @Option(
            names = "--grace-minutes",
            defaultValue = "60",
            paramLabel = "MIN",
            description = "The hourly windows' grace period, activity.window.grace.ms, 0 to 1,051,200 (two years) "
                    + "(default: ${DEFAULT-VALUE}).")
    long graceMinutes;

    @Option(
            names = "--heap-mib",
            defaultValue = "768",
            paramLabel = "MIB",
            description =
                    "Maximum heap of the topology's JVM (-Xmx), MiB, at least 128 (default: ${DEFAULT-VALUE}, the base "
                            + "overlay's: 50%% of its 1536 MiB limit).")
    int heapMiB;

    @Option(
            names = "--timeout-minutes",
            defaultValue = "30",
            paramLabel = "MIN",
            description = "Longest wait of each step, 1 to 1440: the topology's start, the processing of the samples, "
                    + "its restart (default: ${DEFAULT-VALUE}).")
    long timeoutMinutes;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Results file, JSON (default: apiary-bench-state-<UTC time>.json in the current folder).")
    Path output;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Working folder, empty or new: the local stack's, with the run's files (the topology's "
                    + "settings, logs and state) in bench-state/ of it; with a configured cluster, the run's "
                    + "(default: a new temporary folder).")
    Path workDir;

    @Option(names = "--keep-work-dir", description = "Keep the working folder afterwards.")
    boolean keepWorkDir;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        StateBench.Options options;
        try {
            options = new StateBench.Options(
                    hives,
                    Duration.ofSeconds(sampleIntervalSeconds),
                    Duration.ofMinutes(graceMinutes),
                    heapMiB,
                    Duration.ofMinutes(timeoutMinutes));
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        Instant started = Instant.now();
        Path file = output != null ? output : BenchCommand.defaultResultsFile("apiary-bench-state", started);
        BenchCommand.checkWritable(spec.commandLine(), file);
        boolean local = !BenchCommand.configured(config, IngestConfig.KAFKA_BOOTSTRAP_SERVERS);
        if (local) {
            BenchCommand.checkSettingsForLocalStack(config);
        }
        LocalStack stack = null;
        Path runDir = null;
        boolean deleteRunDir = false;
        try {
            IngestConfig base;
            if (local) {
                stack = BenchCommand.startLocalStack(out, "Kafka broker and schema registry", workDir, keepWorkDir);
                stack.cassandra().stop();
                out.printf(
                        "Local stack work folder: %s (%s afterwards); its Cassandra is stopped (not used)%n",
                        stack.workDir(), keepWorkDir ? "kept" : "deleted");
                base = config.load(LocalStackSession.settings(stack));
                runDir = Files.createDirectories(stack.workDir().resolve("bench-state"));
            } else {
                base = config.load();
                if (workDir != null) {
                    runDir = Files.createDirectories(workDir);
                } else {
                    runDir = Files.createTempDirectory("apiary-bench-state");
                }
                deleteRunDir = !keepWorkDir;
            }
            out.printf(
                    "Workload: %,d hives x %,d samples (one every %d s of one hour), grace %d min; topology heap %d MiB, "
                            + "%s %s, %s %,d bytes%n",
                    hives,
                    options.workload().samplesPerHive(),
                    sampleIntervalSeconds,
                    graceMinutes,
                    heapMiB,
                    StateStoreOptions.TOPOLOGY_STORE_TYPE,
                    base.getString(StateStoreOptions.TOPOLOGY_STORE_TYPE),
                    StateStoreOptions.TOPOLOGY_ROCKSDB_MEMORY_BYTES,
                    base.getLong(StateStoreOptions.TOPOLOGY_ROCKSDB_MEMORY_BYTES));
            out.flush();
            StateFigures figures = new StateBench(base, options, IngestApp.class.getName(), runDir, out).run();
            StateReport report = new StateReport(figures, context(started, base, local));
            out.println();
            out.printf(
                    "Apiary Ingest state benchmark, %s, %d cores, %s%n",
                    started.truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                    Runtime.getRuntime().availableProcessors(),
                    local ? "local Kafka on this machine" : "configured Kafka");
            report.print(out);
            report.write(file);
            out.printf(
                    "%nResults written to %s (%.0f s in all)%n",
                    file.toAbsolutePath(),
                    Duration.between(started, Instant.now()).toMillis() / 1000.0);
            out.flush();
            return 0;
        } finally {
            if (stack != null) {
                stack.close();
            }
            if (deleteRunDir) {
                StackFiles.deleteRecursively(runDir);
            }
        }
    }

    private Map<String, Object> context(Instant started, IngestConfig base, boolean local) {
        Map<String, Object> context = BenchCommand.machineContext(started);
        context.put("stack", local ? "local: one Kafka broker on this machine" : "configured");
        context.put("hives", hives);
        context.put("sample_interval_seconds", sampleIntervalSeconds);
        context.put("grace_minutes", graceMinutes);
        context.put("topology_heap_mib", heapMiB);
        Map<String, Object> settings = new LinkedHashMap<>();
        for (String key : List.of(
                StateStoreOptions.TOPOLOGY_STORE_TYPE,
                StateStoreOptions.TOPOLOGY_ROCKSDB_MEMORY_BYTES,
                StateStoreOptions.TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO,
                IngestConfig.TOPIC_PARTITIONS,
                IngestConfig.TOPOLOGY_PROCESSING_GUARANTEE)) {
            settings.put(key, String.valueOf(base.values().get(key)));
        }
        context.put("settings", settings);
        return context;
    }
}
