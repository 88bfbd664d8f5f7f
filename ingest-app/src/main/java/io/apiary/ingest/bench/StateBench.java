package io.apiary.ingest.bench;

import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.pipeline.RestoreProgress;
import io.apiary.ingest.topology.HourlyActivityProcessor;
import io.apiary.ingest.topology.StateStoreOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

/**
 * The state benchmark: how big the topology's hourly state grows with many hives, and how long it
 * takes to restore after a crash. {@code hives} hives send one hour of entrance-counter samples
 * ({@link StateWorkload}) to a topology running as a process of its own ({@link TopologyProcess}:
 * {@code ingest-app run --component topology}, its heap set by {@code -Xmx}), with a grace period
 * that keeps the hour open and a quiet-partition timeout ({@value #IDLE_TIMEOUT_HOURS} h) longer
 * than any run, so every (hive, hour) and every sample's identity is held at once: the state at its
 * largest. Then, in order:
 *
 * <ol>
 *   <li>once the topology is RUNNING and its Kafka meters are on {@code /metrics}, a full collection
 *       in its JVM ({@code jcmd GC.run}) and a scrape: the live heap before the feed;</li>
 *   <li>once every sample is committed (the topology's group has no lag), a full collection in the
 *       topology's JVM ({@code jcmd GC.run}) and a scrape of its {@code /metrics}: its live heap and
 *       RocksDB's memory and key estimates (Kafka Streams' RocksDB meters, recording level INFO);
 *       every second from the feed's start to here, the heap used and RocksDB's block cache and
 *       memtables are scraped too, for their peaks;</li>
 *   <li>the bytes of the state folder (per store) and of each store's changelog topic (Kafka's
 *       {@code describeLogDirs}, the largest replica of each partition: one copy);</li>
 *   <li>a SIGKILL of the topology, then a new one on the same state folder, timed until its
 *       {@code /health/ready} answers 200 (RUNNING); its restore lines ({@link RestoreProgress})
 *       give the records restored and the time restoring took.</li>
 * </ol>
 * The run's topics, consumer group and Kafka Streams' internal topics are its own
 * ({@code apiary-bench-state-<time>}) and deleted afterwards. Not thread-safe; one run per instance.
 */
public final class StateBench {

    /**
     * The topology's quiet-partition timeout ({@code activity.idle.timeout.ms}) during the run, hours:
     * longer than any run, so the quiet-partition rule never closes the hour under measurement.
     */
    public static final int IDLE_TIMEOUT_HOURS = 24;

    /** Maximum event-time age during the run: the workload's hour is fixed ({@link StateWorkload#HOUR}). */
    static final Duration MAX_AGE = Duration.ofDays(365L * 20);

    private static final Duration SCRAPE_EVERY = Duration.ofSeconds(1);
    private static final Duration POLL = Duration.ofMillis(100);
    /**
     * Longest wait for Kafka Streams' RocksDB meters on {@code /metrics}: Micrometer looks for new
     * Kafka meters every 60 s, so they appear up to a minute after the stores opened.
     */
    private static final Duration METERS_WAIT = Duration.ofSeconds(90);
    /** Longest wait, once RUNNING, for the restore line (logged as the last partition ends). */
    private static final Duration RESTORE_LINE_WAIT = Duration.ofSeconds(15);

    /**
     * What to run.
     *
     * @param hives          hives, 1 to {@value #MAX_HIVES}
     * @param sampleInterval time between two samples of one hive: whole seconds from 1 s to 1 h
     * @param grace          the hourly windows' grace period, from 0 to
     *                       {@link IngestConfig#ACTIVITY_GRACE_MAX_MS} ms
     * @param heapMiB        the topology JVM's maximum heap, MiB, at least {@value #MIN_HEAP_MIB}
     * @param timeout        longest wait of each step (start, processing, restart), 1 min to 24 h
     */
    public record Options(int hives, Duration sampleInterval, Duration grace, int heapMiB, Duration timeout) {

        /** Most hives of one run. */
        public static final int MAX_HIVES = 10_000_000;
        /** Least heap of the topology JVM, MiB. */
        public static final int MIN_HEAP_MIB = 128;

        /**
         * Checks the options, each with a message naming its command-line option.
         *
         * @throws IllegalArgumentException naming the option and its range
         */
        public Options {
            Objects.requireNonNull(sampleInterval, "sampleInterval");
            Objects.requireNonNull(grace, "grace");
            Objects.requireNonNull(timeout, "timeout");
            if (hives < 1 || hives > MAX_HIVES) {
                throw new IllegalArgumentException(
                        String.format(Locale.ROOT, "--hives must be from 1 to %,d, was %,d", MAX_HIVES, hives));
            }
            if (sampleInterval.compareTo(Duration.ofSeconds(1)) < 0
                    || sampleInterval.compareTo(Duration.ofHours(1)) > 0
                    || sampleInterval.toMillis() % 1000 != 0) {
                throw new IllegalArgumentException("--sample-interval-seconds must be from 1 to 3600, was "
                        + java.math.BigDecimal.valueOf(sampleInterval.toMillis(), 3)
                                .stripTrailingZeros()
                                .toPlainString());
            }
            if (grace.isNegative() || grace.toMillis() > IngestConfig.ACTIVITY_GRACE_MAX_MS) {
                throw new IllegalArgumentException("--grace-minutes must be from 0 to "
                        + Duration.ofMillis(IngestConfig.ACTIVITY_GRACE_MAX_MS).toMinutes() + ", was "
                        + grace.toMinutes());
            }
            if (heapMiB < MIN_HEAP_MIB) {
                throw new IllegalArgumentException(
                        "--heap-mib must be at least " + MIN_HEAP_MIB + " (the topology's JVM), was " + heapMiB);
            }
            if (timeout.compareTo(Duration.ofMinutes(1)) < 0 || timeout.compareTo(Duration.ofHours(24)) > 0) {
                throw new IllegalArgumentException(
                        "--timeout-minutes must be from 1 to 1440, was " + timeout.toMinutes());
            }
        }

        /** @return the workload these options describe, on {@link StateWorkload#HOUR} */
        public StateWorkload workload() {
            return new StateWorkload(hives, sampleInterval, StateWorkload.HOUR);
        }
    }

    private final IngestConfig base;
    private final Options options;
    private final String mainClass;
    private final Path workDir;
    private final PrintWriter out;
    private final String tag;

    /**
     * @param base      settings of Kafka (and the schema registry, security, the topology's own
     *                  settings such as {@code topology.store.type}); the run replaces the topic
     *                  names, application id, state folder, grace, quiet-partition timeout and
     *                  maximum age; not null
     * @param options   what to run, not null
     * @param mainClass the command line's main class, which the topology's JVM runs, not null
     * @param workDir   an existing folder for the topology's settings, logs and state, not null
     * @param out       where progress goes, not null
     */
    public StateBench(IngestConfig base, Options options, String mainClass, Path workDir, PrintWriter out) {
        this.base = Objects.requireNonNull(base);
        this.options = Objects.requireNonNull(options);
        this.mainClass = Objects.requireNonNull(mainClass);
        this.workDir = Objects.requireNonNull(workDir);
        this.out = Objects.requireNonNull(out);
        this.tag = "apiary-bench-state-" + Long.toString(Instant.now().getEpochSecond(), 36)
                + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);
    }

    /**
     * Makes the run, printing a line per step.
     *
     * @return what it measured
     * @throws IllegalStateException naming the step, the wait and the topology's log, if a topology
     *                               process ended early or a step did not end within the timeout
     * @throws org.apache.kafka.common.KafkaException if Kafka refused a sample or a topic
     * @throws Exception             if Kafka's Admin API failed
     */
    public StateFigures run() throws Exception {
        Map<String, String> settings = topologySettings();
        IngestConfig config = ConfigLoader.load(null, Map.of(), settings);
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            BenchResources.createTopics(admin, config);
            try {
                return measure(admin, config, settings);
            } finally {
                BenchResources.deleteTopicsAndGroups(admin, config, true, out);
            }
        }
    }

    /** @return the settings of the topology under test: the base settings with the run's own */
    Map<String, String> topologySettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        base.originals().forEach((key, value) -> settings.put(key, String.valueOf(value)));
        settings.put(IngestConfig.TOPOLOGY_APPLICATION_ID, tag);
        settings.put(IngestConfig.SINK_GROUP_ID, tag + "-sink");
        settings.put(
                IngestConfig.TOPOLOGY_STATE_DIR,
                workDir.resolve("state").toAbsolutePath().toString());
        settings.put(
                IngestConfig.ACTIVITY_GRACE_MS, Long.toString(options.grace().toMillis()));
        settings.put(
                IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                Long.toString(Duration.ofHours(IDLE_TIMEOUT_HOURS).toMillis()));
        settings.put(IngestConfig.VALIDATION_MAX_AGE_MS, Long.toString(MAX_AGE.toMillis()));
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, tag + "." + base.getString(topic));
        }
        return settings;
    }

    private StateFigures measure(Admin admin, IngestConfig config, Map<String, String> settings) throws Exception {
        StateWorkload workload = options.workload();
        boolean rocksDb =
                config.getString(StateStoreOptions.TOPOLOGY_STORE_TYPE).equals("rocksdb");
        Path stateDir = Path.of(config.getString(IngestConfig.TOPOLOGY_STATE_DIR));
        String entranceCounts = config.topics().entranceCounts();
        int partitions = admin.describeTopics(List.of(entranceCounts))
                .allTopicNames()
                .get(1, TimeUnit.MINUTES)
                .get(entranceCounts)
                .partitions()
                .size();
        List<String> jvm = List.of("-Xmx" + options.heapMiB() + "m");
        out.printf(
                Locale.ROOT,
                "Topics %s.*; the topology's settings, log and state in %s%n",
                tag,
                workDir.toAbsolutePath());
        out.flush();

        Peaks peaks = new Peaks();
        long liveStart;
        double feedSeconds;
        double processSeconds;
        MetricsScrape atPeak;
        long liveHeap;
        long residentPeak;
        Map<String, Long> folders;
        List<StateFigures.Store> stores = new ArrayList<>();
        long sent;
        long[] firstClosedAndLate;
        long killedAt;
        try (TopologyProcess first = TopologyProcess.start(mainClass, settings, workDir, "topology-1", jvm)) {
            long launched = System.nanoTime();
            awaitReady(first, "to start");
            out.printf(
                    Locale.ROOT,
                    "Topology RUNNING (pid %d, -Xmx%dm) in %.1f s%n",
                    first.pid(),
                    options.heapMiB(),
                    (System.nanoTime() - launched) / 1e9);
            out.flush();
            // the baseline once Kafka Streams' meters are registered (Micrometer adds them within a minute),
            // so that the growth is the state's and not theirs
            awaitMeters(first, "kafka_stream_state_put_rate");
            liveStart = liveHeap(first);
            Thread sampler = peaks.start(first);
            try {
                long feedStart = System.nanoTime();
                sent = workload.send(
                        config.kafkaClientSettings(), config.topics().entranceCountsTopic());
                feedSeconds = (System.nanoTime() - feedStart) / 1e9;
                out.printf(
                        Locale.ROOT,
                        "Fed %,d samples (%,d hives x %,d, one every %d s of one hour) in %.1f s%n",
                        sent,
                        workload.hives(),
                        workload.samplesPerHive(),
                        workload.sampleInterval().toSeconds(),
                        feedSeconds);
                out.flush();
                awaitCommitted(first, config, entranceCounts);
                processSeconds = (System.nanoTime() - feedStart) / 1e9;
                out.printf(
                        Locale.ROOT,
                        "The topology committed every sample %.1f s after the feed began%n",
                        processSeconds);
                out.flush();
                if (rocksDb) {
                    awaitMeters(first, "kafka_stream_state_block_cache_usage");
                }
                boolean collected = first.collectGarbage();
                atPeak = scrape(first, "at the peak");
                peaks.add(atPeak);
                liveHeap = collected ? heapUsed(atPeak) : -1;
            } finally {
                peaks.stop(sampler);
            }
            TopologyProcess.Resident resident = first.resident();
            residentPeak = resident == null ? -1 : resident.peakBytes();
            List<String> storeNames = List.of(
                    HourlyActivityProcessor.HIVES_STORE,
                    HourlyActivityProcessor.HOURS_STORE,
                    HourlyActivityProcessor.SAMPLES_STORE,
                    HourlyActivityProcessor.CORRECTIONS_STORE);
            folders = folderBytes(stateDir, storeNames);
            Map<String, long[]> changelogs =
                    changelogs(admin, config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID), storeNames);
            Map<String, Double> keys = atPeak.sumBy("kafka_stream_state_estimate_num_keys", "rocksdb_state_id");
            for (String store : storeNames) {
                long[] changelog = changelogs.get(store);
                stores.add(new StateFigures.Store(
                        store,
                        keys.containsKey(store) ? keys.get(store).longValue() : -1,
                        changelog[0],
                        changelog[1],
                        folders.getOrDefault(store, 0L),
                        -1));
            }
            firstClosedAndLate = closedAndLate(atPeak);
            first.kill();
            killedAt = System.nanoTime();
            out.printf(Locale.ROOT, "Killed the topology (SIGKILL) at the state's peak; starting it again%n");
            out.flush();
        }

        long[] closedAndLate;
        double launchToRunning;
        double killToRunning;
        List<RestoreProgress.Round> rounds;
        long folderAfter;
        try (TopologyProcess second = TopologyProcess.start(mainClass, settings, workDir, "topology-2", jvm)) {
            long launched = System.nanoTime();
            awaitReady(second, "to restart after the SIGKILL");
            long running = System.nanoTime();
            launchToRunning = (running - launched) / 1e9;
            killToRunning = (running - killedAt) / 1e9;
            rounds = awaitRestoreLines(second);
            folderAfter = folderBytes(stateDir, List.of()).get(TOTAL);
            MetricsScrape after = second.metrics();
            long[] secondClosed = after == null ? new long[2] : closedAndLate(after);
            closedAndLate =
                    new long[] {firstClosedAndLate[0] + secondClosed[0], firstClosedAndLate[1] + secondClosed[1]};
            if (!second.stop(Duration.ofMinutes(1))) {
                out.println("  (the restarted topology did not stop within 1 min of SIGTERM and was killed)");
            }
        }
        Map<String, Long> stopped = folderBytes(
                stateDir, stores.stream().map(StateFigures.Store::name).toList());
        List<StateFigures.Store> withStopped = stores.stream()
                .map(s -> new StateFigures.Store(
                        s.name(),
                        s.keys(),
                        s.changelogBytes(),
                        s.changelogRecords(),
                        s.folderBytes(),
                        stopped.get(s.name())))
                .toList();
        long restored =
                rounds.stream().mapToLong(RestoreProgress.Round::records).sum();
        int restoredPartitions =
                rounds.stream().mapToInt(RestoreProgress.Round::partitions).sum();
        double restoreSeconds =
                rounds.stream().mapToDouble(RestoreProgress.Round::seconds).sum();
        out.printf(
                Locale.ROOT,
                "Restarted topology RUNNING %.1f s after the kill; it restored %,d records in %.1f s%n",
                killToRunning,
                restored,
                restoreSeconds);
        out.flush();
        return new StateFigures(
                workload.hives(),
                workload.samplesPerHive(),
                sent,
                options.grace(),
                config.getString(StateStoreOptions.TOPOLOGY_STORE_TYPE),
                partitions,
                options.heapMiB() * 1024L * 1024L,
                config.getLong(StateStoreOptions.TOPOLOGY_ROCKSDB_MEMORY_BYTES),
                feedSeconds,
                processSeconds,
                peaks.heap.get(),
                liveStart,
                liveHeap,
                residentPeak,
                rocksDb ? peaks.cache.get() : -1,
                rocksDb
                        ? (long) atPeak.max("kafka_stream_state_block_cache_capacity")
                                .orElse(-1)
                        : -1,
                rocksDb ? peaks.memtables.get() : -1,
                rocksDb ? (long) atPeak.sum("kafka_stream_state_estimate_table_readers_mem") : -1,
                withStopped,
                folders.get(TOTAL),
                killToRunning,
                launchToRunning,
                restored,
                restoredPartitions,
                restoreSeconds,
                folderAfter,
                stopped.get(TOTAL),
                closedAndLate[0],
                closedAndLate[1]);
    }

    /** The peaks the sampler thread keeps, read once it has stopped. */
    private static final class Peaks {
        final AtomicLong heap = new AtomicLong(-1);
        final AtomicLong cache = new AtomicLong(-1);
        final AtomicLong memtables = new AtomicLong(-1);
        private volatile boolean stopping;

        Thread start(TopologyProcess process) {
            Thread thread = new Thread(
                    () -> {
                        while (!stopping) {
                            try {
                                MetricsScrape scrape = process.metrics();
                                if (scrape != null) {
                                    add(scrape);
                                }
                                Thread.sleep(SCRAPE_EVERY.toMillis());
                            } catch (InterruptedException e) {
                                return;
                            } catch (RuntimeException e) {
                                // one unreadable scrape: the next one counts
                            }
                        }
                    },
                    "apiary-bench-state-scrape");
            thread.setDaemon(true);
            thread.start();
            return thread;
        }

        void add(MetricsScrape scrape) {
            heap.accumulateAndGet(heapUsed(scrape), Math::max);
            scrape.max("kafka_stream_state_block_cache_usage")
                    .ifPresent(v -> cache.accumulateAndGet((long) v, Math::max));
            if (scrape.has("kafka_stream_state_size_all_mem_tables")) {
                memtables.accumulateAndGet((long) scrape.sum("kafka_stream_state_size_all_mem_tables"), Math::max);
            }
        }

        void stop(Thread thread) throws InterruptedException {
            stopping = true;
            thread.interrupt();
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    private static long heapUsed(MetricsScrape scrape) {
        return (long) scrape.sum("jvm_memory_used_bytes", "area", "heap");
    }

    private static long[] closedAndLate(MetricsScrape scrape) {
        return new long[] {
            (long) scrape.sum("apiary_topology_hours_closed_total"),
            (long) scrape.sum("apiary_topology_late_records_total")
        };
    }

    /** @return the live heap: heap used right after a full collection; -1 where none can be forced */
    private long liveHeap(TopologyProcess process) throws InterruptedException {
        if (!process.collectGarbage()) {
            out.println("  (no jcmd beside this JVM: the live heap is not measured)");
            return -1;
        }
        return heapUsed(scrape(process, "after a full collection"));
    }

    private MetricsScrape scrape(TopologyProcess process, String when) {
        MetricsScrape scrape = process.metrics();
        if (scrape == null) {
            throw new IllegalStateException(
                    "the topology's /metrics did not answer " + when + "; its log: " + process.log());
        }
        return scrape;
    }

    private void awaitReady(TopologyProcess process, String what) throws InterruptedException {
        long deadline = System.nanoTime() + options.timeout().toNanos();
        while (!process.ready()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the topology process ended before it was RUNNING (" + what
                        + "); its log: " + process.log() + "\n" + tail(process.logText()));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the topology was not RUNNING within "
                        + options.timeout().toMinutes()
                        + " min (" + what + "; --timeout-minutes); its log: " + process.log() + "\n"
                        + tail(process.logText()));
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private void awaitCommitted(TopologyProcess process, IngestConfig config, String topic)
            throws InterruptedException {
        long deadline = System.nanoTime() + options.timeout().toNanos();
        String group = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
        try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            long left = Long.MAX_VALUE;
            while (left > 0) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the topology process ended while processing the samples; its log: "
                            + process.log() + "\n" + tail(process.logText()));
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(String.format(
                            Locale.ROOT,
                            "the topology had not committed every sample within %d min (%,d left; --timeout-minutes,"
                                    + " or a larger --heap-mib if its log shows long collections): %s",
                            options.timeout().toMinutes(),
                            left,
                            process.log()));
                }
                try {
                    left = lag.lag(group, List.of(topic));
                } catch (RuntimeException e) {
                    // the group has not committed yet
                }
                Thread.sleep(250);
            }
        }
    }

    private void awaitMeters(TopologyProcess process, String name) throws InterruptedException {
        long deadline = System.nanoTime() + METERS_WAIT.toNanos();
        while (true) {
            MetricsScrape scrape = process.metrics();
            if (scrape != null && scrape.has(name)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the topology's /metrics still has no " + name + " after "
                        + METERS_WAIT.toSeconds() + " s; its log: " + process.log());
            }
            Thread.sleep(SCRAPE_EVERY.toMillis());
        }
    }

    /** The restore lines of the restarted topology, waiting a little for the first one. */
    private List<RestoreProgress.Round> awaitRestoreLines(TopologyProcess process) throws InterruptedException {
        long deadline = System.nanoTime() + RESTORE_LINE_WAIT.toNanos();
        while (true) {
            List<RestoreProgress.Round> rounds = process.logText()
                    .lines()
                    .map(RestoreProgress.Round::parse)
                    .filter(Objects::nonNull)
                    .toList();
            if (!rounds.isEmpty() || System.nanoTime() > deadline) {
                if (rounds.isEmpty()) {
                    out.println("  (the restarted topology logged no restore: nothing to restore, or its log level is"
                            + " above INFO)");
                }
                return rounds;
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /** Key of {@link #folderBytes}'s total. */
    static final String TOTAL = "";

    /**
     * The bytes of the files in a Kafka Streams state folder, per store: the files below a
     * {@code rocksdb/<store>/} folder of any task ({@code <state>/<application>/<task>/rocksdb/<store>/...})
     * count for that store.
     *
     * @param stateDir the state folder; a missing folder has 0 bytes
     * @param stores   the stores to count apart
     * @return bytes per store (0 for one without files) and the total of every file under {@link #TOTAL}
     * @throws UncheckedIOException if the folder cannot be read
     */
    static Map<String, Long> folderBytes(Path stateDir, List<String> stores) {
        Map<String, Long> bytes = new HashMap<>();
        stores.forEach(s -> bytes.put(s, 0L));
        bytes.put(TOTAL, 0L);
        if (!Files.isDirectory(stateDir)) {
            return bytes;
        }
        try (Stream<Path> files = Files.walk(stateDir)) {
            files.filter(Files::isRegularFile).forEach(file -> {
                long size;
                try {
                    size = Files.size(file);
                } catch (IOException e) {
                    return; // deleted meanwhile (RocksDB's compaction)
                }
                bytes.merge(TOTAL, size, Long::sum);
                Path relative = stateDir.relativize(file);
                for (int i = 0; i + 1 < relative.getNameCount() - 1; i++) {
                    String store = relative.getName(i + 1).toString();
                    if (relative.getName(i).toString().equals("rocksdb") && bytes.containsKey(store)) {
                        bytes.merge(store, size, Long::sum);
                        break;
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the state folder " + stateDir + ": " + e.getMessage(), e);
        } catch (UncheckedIOException e) {
            // a folder deleted while walking (RocksDB's compaction): count what was seen
        }
        return bytes;
    }

    /**
     * @return per store, {bytes of one copy of its changelog, offsets its partitions span}
     */
    private static Map<String, long[]> changelogs(Admin admin, String applicationId, List<String> stores)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<String, String> topicStore = new HashMap<>();
        stores.forEach(s -> topicStore.put(applicationId + "-" + s + "-changelog", s));
        List<Integer> brokers = admin.describeCluster().nodes().get(1, TimeUnit.MINUTES).stream()
                .map(Node::id)
                .toList();
        Map<TopicPartition, Long> sizes = new HashMap<>();
        for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers)
                .allDescriptions()
                .get(1, TimeUnit.MINUTES)
                .values()) {
            for (LogDirDescription dir : dirs.values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> replica :
                        dir.replicaInfos().entrySet()) {
                    if (topicStore.containsKey(replica.getKey().topic())) {
                        sizes.merge(replica.getKey(), replica.getValue().size(), Math::max);
                    }
                }
            }
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        admin.describeTopics(topicStore.keySet())
                .allTopicNames()
                .get(1, TimeUnit.MINUTES)
                .forEach((name, d) -> d.partitions().forEach(p -> {
                    latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest());
                    earliest.put(new TopicPartition(name, p.partition()), OffsetSpec.earliest());
                }));
        var ends = admin.listOffsets(latest).all().get(1, TimeUnit.MINUTES);
        var starts = admin.listOffsets(earliest).all().get(1, TimeUnit.MINUTES);
        Map<String, long[]> result = new HashMap<>();
        stores.forEach(s -> result.put(s, new long[2]));
        sizes.forEach((tp, size) -> result.get(topicStore.get(tp.topic()))[0] += size);
        ends.forEach((tp, end) -> result.get(topicStore.get(tp.topic()))[1] +=
                end.offset() - starts.get(tp).offset());
        return result;
    }

    private static String tail(String log) {
        List<String> lines = log.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
