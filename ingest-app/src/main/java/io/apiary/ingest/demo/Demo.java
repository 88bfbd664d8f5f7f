package io.apiary.ingest.demo;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.read.HiveDataReader;
import io.apiary.ingest.read.ReadSettings;
import io.apiary.ingest.read.TimeRange;
import io.apiary.ingest.report.HiveReportFile;
import io.apiary.ingest.simulator.EntranceCountSimulator;
import io.apiary.ingest.topics.Topics;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * The demo, end to end on real parts: starts a local Kafka broker and Cassandra node, applies
 * the CQL, starts the topology and the sink, replays the bundled UrBAN readings plus simulated
 * entrance counts for the same hives, shows progress until everything is written, prints a
 * summary, and stops everything. Not thread-safe; one run per instance.
 */
public final class Demo {

    /**
     * @param workDir       working folder of the local stack, or null for a fresh temporary one
     * @param keepWorkDir   keep the working folder (data and server logs) after the demo
     * @param countInterval entrance-counter interval of the simulated samples
     * @param showHive      hive whose hourly activity the summary shows
     * @param showDay       UTC day whose hourly activity the summary shows
     * @param drainTimeout  longest wait for the pipeline to write everything
     * @param keepRunning   after the summary, keep servers and pipeline running until Ctrl-C
     * @param reportFile    where the HTML report of {@code showHive} for the week around {@code showDay}
     *                      goes; null for {@link #defaultReportFile}
     */
    public record Options(
            Path workDir,
            boolean keepWorkDir,
            Duration countInterval,
            String showHive,
            LocalDate showDay,
            Duration drainTimeout,
            boolean keepRunning,
            Path reportFile) {}

    /**
     * @param hive the hive
     * @param from the report's first day
     * @param to   its last day
     * @return {@code apiary-demo/run-YYYYMMDD-HHMMSS-PID/hive-HIVE-FROM-TO.html} in the JVM's temporary
     *         folder: a folder of this run (UTC start time and process id), so that two demos never
     *         write one file
     */
    public static Path defaultReportFile(String hive, LocalDate from, LocalDate to) {
        return Path.of(
                System.getProperty("java.io.tmpdir"),
                "apiary-demo",
                RUN_FOLDER,
                HiveReportFile.fileName(hive, from.toString(), to.toString()));
    }

    /** This process's run folder name under {@code apiary-demo}. */
    private static final String RUN_FOLDER = "run-"
            + java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                    .withZone(java.time.ZoneOffset.UTC)
                    .format(java.time.Instant.now())
            + "-" + ProcessHandle.current().pid();

    private final Options options;
    private final PrintWriter out;
    private volatile Pipeline pipeline;
    private volatile LocalStack stack;

    /**
     * @param options what to run
     * @param out     where progress and summary go
     */
    public Demo(Options options, PrintWriter out) {
        this.options = Objects.requireNonNull(options);
        this.out = Objects.requireNonNull(out);
    }

    /**
     * Runs the demo.
     *
     * @return 0 when everything was written and summarized and every hour is exact; 1 when an hour's newest
     *     result differs from the samples sent
     * @throws Exception if a server does not start or the pipeline fails; everything started is stopped
     */
    public int run() throws Exception {
        long t0 = System.nanoTime();
        Thread hook = new Thread(
                () -> {
                    if (pipeline != null || stack != null) {
                        out.println("Stopping the pipeline and the servers...");
                        out.flush();
                    }
                    boolean running = pipeline != null || stack != null;
                    stopAll(Duration.ofSeconds(10));
                    if (running) {
                        out.println("Stopped.");
                        out.flush();
                    }
                },
                "apiary-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            out.println("Apiary Ingest demo: real Kafka and Cassandra, real hive readings (UrBAN, CC BY 4.0)");
            out.println("Starting a Kafka broker, a Cassandra node and a schema registry...");
            out.flush();
            LocalStackOptions.Builder stackOptions = LocalStackOptions.builder().keepWorkDir(options.keepWorkDir());
            if (options.workDir() != null) {
                stackOptions.workDir(options.workDir());
            }
            stack = LocalStack.start(stackOptions.build());
            out.printf(
                    "  Kafka ready at %s in %.1f s; Cassandra ready at %s in %.1f s (work folder %s)%n",
                    stack.kafkaBootstrapServers(),
                    seconds(stack.kafka().startupTime()),
                    LocalStackSession.settings(stack).get(IngestConfig.CASSANDRA_CONTACT_POINTS),
                    seconds(stack.cassandra().startupTime()),
                    stack.workDir());
            stack.registry()
                    .ifPresent(r -> out.printf(
                            "  schema registry ready at %s in %.1f s: the topics carry registry "
                                    + "framing (byte 0, schema id, Avro body)%n",
                            r.confluentApiUrl(), seconds(r.startupTime())));

            IngestConfig config = config(stack);
            long tSetup = System.nanoTime();
            try (CqlSession session = CassandraSessions.open(config);
                    Admin admin = Admin.create(config.kafkaClientSettings())) {
                SchemaApplier.apply(session, SchemaApplier.load(null, keyspace(config), SchemaApplier.DEV_REPLICATION));
                TopicProvisioner.createMissing(admin, config);
            }
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            Metrics.addRegistry(registry);
            pipeline = Pipeline.start(config, true, true, registry);
            if (!pipeline.awaitTopologyRunning(Duration.ofSeconds(60))) {
                throw new IllegalStateException(
                        "The topology did not reach RUNNING within 60 s: " + pipeline.failure());
            }
            out.printf(
                    "Schema applied, topics created, topology and sink running %.1f s later%n",
                    seconds(Duration.ofNanos(System.nanoTime() - tSetup)));

            UrbanDataset data = UrbanDataset.load();
            EntranceCountSimulator simulator = new EntranceCountSimulator(options.countInterval(), "urban-counter");
            Topics topics = config.topics();
            long tIngest = System.nanoTime();
            DemoFeed.Totals sent;
            DemoProgress.Result progress;
            try (GatewayProducer producer = new GatewayProducer(
                            config.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic());
                    LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
                out.printf(
                        "Replaying %,d UrBAN readings of %d hives and their simulated entrance counts (every %d s)...%n",
                        data.readings().size(),
                        data.spans().size(),
                        options.countInterval().toSeconds());
                out.flush();
                CompletableFuture<DemoFeed.Totals> feed =
                        CompletableFuture.supplyAsync(() -> DemoFeed.send(producer, data, simulator));
                progress = new DemoProgress(out, config, pipeline, producer, lag)
                        .awaitDrained(feed, options.drainTimeout());
                sent = feed.get(1, TimeUnit.SECONDS);
            }
            Duration ingest = Duration.ofNanos(System.nanoTime() - tIngest);
            boolean exact = new DemoSummary(out, config)
                    .print(data, sent, progress, ingest, pipeline, options.showHive(), options.showDay());
            writeReport(config);
            if (options.keepRunning()) {
                out.printf("%nThe servers and the pipeline keep running, with the demo's data.%n");
                LocalStackSession.printUsage(out, LocalStackSession.writeSettings(stack), true);
                LocalStackSession.awaitShutdown();
            }
            pipeline.close();
            pipeline = null;
            out.printf(
                    "Demo finished in %.1f s%s. Stopping Kafka and Cassandra...%n",
                    seconds(Duration.ofNanos(System.nanoTime() - t0)),
                    exact ? "" : " (hourly results NOT EXACT: exit code 1)");
            out.flush();
            return exact ? 0 : 1;
        } finally {
            stopAll(Duration.ofSeconds(60));
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting (Ctrl-C); the hook does the same work
            }
            out.flush();
        }
    }

    /** Writes the HTML report of the shown hive for the week around the shown day, and prints its path. */
    private void writeReport(IngestConfig config) throws java.io.IOException {
        LocalDate from = options.showDay().minusDays(3);
        LocalDate to = options.showDay().plusDays(3);
        Path file =
                options.reportFile() != null ? options.reportFile() : defaultReportFile(options.showHive(), from, to);
        try (CqlSession session = CassandraSessions.open(config)) {
            HiveReportFile.Written written = HiveReportFile.write(
                    new HiveDataReader(session, ReadSettings.from(config)),
                    options.showHive(),
                    TimeRange.days(from, to, UrbanDataset.ZONE),
                    file,
                    java.time.Instant.now(),
                    1_000_000,
                    "the hourly bees in and out are simulated by the demo (a counter following the sun at"
                            + " Montreal, entries and exits balanced over the day), not measured; the temperature"
                            + " and humidity are the UrBAN data set's real readings.",
                    UrbanDataset.ZONE);
            out.printf(
                    "%n  Report of hive %s from %s to %s in Montreal time (charts per sensor, hourly bees in and out, tables):%n"
                            + "    %s%n    %s%n",
                    options.showHive(), from, to, written.file().toUri(), written.summary());
        }
    }

    private void stopAll(Duration timeout) {
        Pipeline p = pipeline;
        if (p != null) {
            pipeline = null;
            p.close(timeout);
        }
        LocalStack s = stack;
        if (s != null) {
            stack = null;
            s.close();
        }
    }

    private static IngestConfig config(LocalStack stack) {
        Map<String, String> settings = new java.util.LinkedHashMap<>(LocalStackSession.settings(stack));
        // The feed ends at once: its hives' last hours close by the quiet rule, 10 s after the
        // topology has processed every sample (the rule waits while the input has lag).
        settings.put(IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, "10000");
        settings.put(IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS, "1000");
        return ConfigLoader.load(null, Map.of(), settings);
    }

    private static String keyspace(IngestConfig config) {
        return config.getString(IngestConfig.CASSANDRA_KEYSPACE);
    }

    static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    /** @return the tables the demo writes */
    static List<String> tables() {
        return List.of(
                io.apiary.ingest.tables.TableNames.HIVE_TELEMETRY, io.apiary.ingest.tables.TableNames.HIVE_ACTIVITY);
    }
}
