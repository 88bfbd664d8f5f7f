package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.cli.IngestApp;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.devstack.CassandraNode;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink on the real local stack: a large time-ordered drain (with and without linger), a
 * Cassandra outage in the middle of a drain, a sink process killed with SIGKILL and restarted,
 * and a row Cassandra refuses. Each prints its figures on lines starting with {@code SINK-IT}.
 */
class SinkIT {

    private static final String KEYSPACE = "it_sink";
    private static final String TABLE = KEYSPACE + ".hive_telemetry_v2";

    private static ItEndpoints stack;
    private static CqlSession session;

    @TempDir
    Path dir;

    @BeforeAll
    static void schema() {
        stack = SharedStack.get();
        session = CassandraSessions.open(config("setup", Map.of()));
        SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
    }

    static Map<String, Object> settings(String name, Map<String, Object> extra) {
        Map<String, Object> settings = stack.clientSettings();
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
        settings.put(IngestConfig.SINK_GROUP_ID, "sink-it-" + name);
        settings.put(IngestConfig.TOPIC_PARTITIONS, 6);
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, "sink-it." + name + "." + topic);
        }
        settings.putAll(extra);
        return settings;
    }

    static IngestConfig config(String name, Map<String, Object> extra) {
        return ConfigLoader.load(null, Map.of(), settings(name, extra));
    }

    /** Creates the topics and waits until every partition of the row topic has a leader. */
    static void createTopics(IngestConfig config) {
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.createMissing(admin, config);
            TopicProvisioner.awaitLeaders(admin, List.of(config.topics().telemetryRows()), Duration.ofMinutes(1));
        }
    }

    static void truncate() {
        session.execute(SimpleStatement.newInstance("TRUNCATE " + TABLE).setTimeout(Duration.ofMinutes(1)));
    }

    static long count() {
        return session.execute(SimpleStatement.newInstance("SELECT COUNT(*) FROM " + TABLE)
                        .setTimeout(Duration.ofMinutes(2)))
                .one()
                .getLong(0);
    }

    /**
     * Counts the rows of a {@link RowFeed} partition by partition (a COUNT over a million rows in
     * one query passes the server's range timeout on a small machine), 64 queries at a time.
     */
    static long countFeed(int hives, int perHive) throws InterruptedException {
        java.util.Set<List<Object>> keys = new java.util.LinkedHashSet<>();
        for (int hive = 0; hive < hives; hive++) {
            for (int reading = 0; reading < perHive; reading++) {
                HiveTelemetryRow row = RowFeed.row(hive, reading);
                keys.add(List.of(row.getHiveId(), row.getDay(), row.getShard()));
            }
        }
        var select = session.prepare("SELECT COUNT(*) FROM " + TABLE + " WHERE hive_id = ? AND day = ? AND shard = ?");
        java.util.concurrent.Semaphore permits = new java.util.concurrent.Semaphore(64);
        AtomicLong total = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (List<Object> key : keys) {
            permits.acquire();
            session.executeAsync(select.bind(key.toArray()).setTimeout(Duration.ofSeconds(30)))
                    .whenComplete((rs, error) -> {
                        if (error != null) {
                            failure.set(error);
                        } else {
                            total.addAndGet(rs.one().getLong(0));
                        }
                        permits.release();
                    });
        }
        permits.acquire(64);
        assertThat(failure.get()).isNull();
        return total.get();
    }

    static double counter(MeterRegistry registry, String name, String... tags) {
        return Search.in(registry).name(name).tags(tags).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    static double gauge(MeterRegistry registry, String name) {
        return Search.in(registry).name(name).gauges().stream()
                .mapToDouble(g -> g.value())
                .sum();
    }

    /** What one drain measured; CPU in seconds of this JVM (the sink) and of the Cassandra process (-1 if unknown). */
    record Drain(
            long rows,
            double seconds,
            long requests,
            double rowsPerRequest,
            double warnings,
            double nonReplica,
            double retries,
            double clientCpuSeconds,
            double serverCpuSeconds,
            long driverMeters) {
        double rowsPerSecond() {
            return rows / seconds;
        }

        String cpu() {
            return String.format(
                    "client CPU %.1f us/row, Cassandra CPU %s us/row",
                    clientCpuSeconds * 1e6 / rows,
                    serverCpuSeconds < 0 ? "?" : String.format("%.1f", serverCpuSeconds * 1e6 / rows));
        }
    }

    /** @return CPU seconds used so far by this JVM */
    static double clientCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean)
                                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime()
                / 1e9;
    }

    /** @return CPU seconds used so far by the local Cassandra node (user + system, from /proc), or -1 */
    static double serverCpuSeconds() {
        if (stack.localStack().isEmpty()) {
            return -1;
        }
        try {
            String stat = Files.readString(Path.of(
                    "/proc", Long.toString(stack.localStack().get().cassandra().pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0; // utime, stime in clock ticks
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Runs an in-process sink until it has written {@code expected} rows, then stops it (drain, commit). */
    static Drain drain(
            IngestConfig config,
            long expected,
            Duration timeout,
            java.util.function.Consumer<MeterRegistry> whileRunning) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Pipeline pipeline = Pipeline.start(config, false, true, registry);
        long start = System.nanoTime();
        double clientCpu = clientCpuSeconds();
        double serverCpu = serverCpuSeconds();
        double seconds;
        long driverMeters;
        try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            whileRunning.accept(registry);
            await().atMost(timeout)
                    .pollInterval(Duration.ofMillis(100))
                    .until(() ->
                            counter(registry, MetricNames.SINK_ROWS_WRITTEN, "table", "hive_telemetry_v2") >= expected);
            seconds = (System.nanoTime() - start) / 1e9;
            clientCpu = clientCpuSeconds() - clientCpu;
            serverCpu = serverCpu < 0 ? -1 : serverCpuSeconds() - serverCpu;
            // drained: every row topic record committed (a retried send may have added a duplicate)
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> lag.lag(
                                    config.getString(IngestConfig.SINK_GROUP_ID),
                                    List.of(config.topics().telemetryRows()))
                            == 0);
            // the driver removes its meters when the session closes: count them now
            driverMeters = registry.getMeters().stream()
                    .filter(m -> m.getId().getName().startsWith("cassandra."))
                    .count();
        } finally {
            pipeline.close();
        }
        var batchRows = registry.find(MetricNames.SINK_BATCH_ROWS).summary();
        return new Drain(
                (long) counter(registry, MetricNames.SINK_ROWS_WRITTEN, "table", "hive_telemetry_v2"),
                seconds,
                batchRows.count(),
                batchRows.mean(),
                counter(registry, MetricNames.SINK_SERVER_WARNINGS),
                counter(registry, MetricNames.SINK_REQUESTS, "coordinator", "non-replica"),
                counter(registry, MetricNames.SINK_RETRIES),
                clientCpu,
                serverCpu,
                driverMeters);
    }

    /** Server-side batch warnings in the local node's log (empty with Testcontainers). */
    static long serverBatchWarningsInLog() throws Exception {
        if (stack.localStack().isEmpty()) {
            return 0;
        }
        Path log = stack.localStack().get().cassandra().logFile();
        try (Stream<String> lines = Files.lines(log)) {
            return lines.filter(l -> l.contains("Batch for") || l.contains("Unlogged batch covering"))
                    .count();
        }
    }

    @Test
    void drains_a_million_time_ordered_rows_of_ten_thousand_hives_exactly_and_without_server_warnings()
            throws Exception {
        int hives = 10_000;
        int perHive = 100;
        IngestConfig lingering = config("million", Map.of());
        createTopics(lingering);
        long sent =
                RowFeed.send(lingering.kafkaClientSettings(), lingering.topics().telemetryRowsTopic(), hives, perHive);
        assertThat(sent).isEqualTo(1_000_000L);
        long logWarningsBefore = serverBatchWarningsInLog();

        truncate();
        Drain withLinger = drain(lingering, sent, Duration.ofMinutes(5), r -> {});
        long rowsWithLinger = countFeed(hives, perHive);

        truncate();
        IngestConfig noLinger = config(
                "million",
                Map.of(IngestConfig.SINK_GROUP_ID, "sink-it-million-linger0", IngestConfig.SINK_LINGER_MS, 0L));
        Drain withoutLinger = drain(noLinger, sent, Duration.ofMinutes(5), r -> {});
        long rowsWithoutLinger = countFeed(hives, perHive);

        for (var entry : Map.of("linger 1000 ms (default)", withLinger, "linger 0", withoutLinger)
                .entrySet()) {
            Drain d = entry.getValue();
            System.out.printf(
                    "SINK-IT drain of %,d rows (%,d hives), %s: %.1f s, %,.0f rows/s, %,d requests, "
                            + "%.1f rows per request, %.0f server warnings, %.0f non-replica coordinators, %.0f retries, %s%n",
                    d.rows(),
                    hives,
                    entry.getKey(),
                    d.seconds(),
                    d.rowsPerSecond(),
                    d.requests(),
                    d.rowsPerRequest(),
                    d.warnings(),
                    d.nonReplica(),
                    d.retries(),
                    d.cpu());
        }
        assertThat(rowsWithLinger).isEqualTo(sent);
        assertThat(rowsWithoutLinger).isEqualTo(sent);
        assertThat(withLinger.warnings()).isZero();
        assertThat(withoutLinger.warnings()).isZero();
        assertThat(serverBatchWarningsInLog()).isEqualTo(logWarningsBefore);
        assertThat(withLinger.nonReplica()).isZero();
        assertThat(withLinger.driverMeters())
                .as("the driver's own metrics in the same registry")
                .isPositive();
        // a request slot takes a batch only when it is free, so a backlog fills batches with or without
        // linger (96.5 and 81.4 rows per request in the first run; 17.3 and 2.8 before the sink took
        // lingered batches on demand)
        assertThat(withLinger.rowsPerRequest())
                .as("rows per request with linger")
                .isGreaterThan(40);
        assertThat(withoutLinger.rowsPerRequest())
                .as("rows per request without linger")
                .isGreaterThan(40);
    }

    @Test
    void a_thirty_second_cassandra_outage_mid_drain_loses_nothing_keeps_memory_bounded_and_recovers_by_itself()
            throws Exception {
        CassandraNode cassandra =
                SharedStack.localStackOrSkip("freeze the Cassandra process").cassandra();
        int maxBuffered = 30_000;
        IngestConfig config = config(
                "outage",
                Map.of(
                        IngestConfig.SINK_MAX_BUFFERED_ROWS,
                        maxBuffered,
                        IngestConfig.SINK_MAX_ROWS_PER_SECOND,
                        40_000L));
        createTopics(config);
        truncate();
        long sent = RowFeed.send(config.kafkaClientSettings(), config.topics().telemetryRowsTopic(), 3_000, 100);

        AtomicLong maxBufferedSeen = new AtomicLong();
        AtomicLong maxPausedSeen = new AtomicLong();
        AtomicReference<Double> retries = new AtomicReference<>(0.0);
        Drain drain = drain(config, sent, Duration.ofMinutes(4), registry -> {
            await().atMost(Duration.ofMinutes(1))
                    .until(() ->
                            counter(registry, MetricNames.SINK_ROWS_WRITTEN, "table", "hive_telemetry_v2") >= 40_000);
            signal("STOP", cassandra.pid());
            long frozenAt = System.nanoTime();
            try {
                while (System.nanoTime() - frozenAt < TimeUnit.SECONDS.toNanos(30)) {
                    maxBufferedSeen.accumulateAndGet((long) gauge(registry, MetricNames.SINK_BUFFERED_ROWS), Math::max);
                    maxPausedSeen.accumulateAndGet(
                            (long) gauge(registry, MetricNames.SINK_PAUSED_PARTITIONS), Math::max);
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                signal("CONT", cassandra.pid());
            }
            retries.set(counter(registry, MetricNames.SINK_RETRIES));
        });
        long rows = countFeed(3_000, 100);
        System.out.printf(
                "SINK-IT outage: %,d rows; Cassandra frozen 30 s; at most %,d rows buffered (bound %,d), "
                        + "%d partitions paused, %.0f retries; whole drain %.1f s%n",
                rows, maxBufferedSeen.get(), maxBuffered, maxPausedSeen.get(), retries.get(), drain.seconds());
        assertThat(rows).isEqualTo(sent);
        // one poll (max.poll.records = 5,000) may land after the bound is reached
        assertThat(maxBufferedSeen.get())
                .isLessThanOrEqualTo(maxBuffered + 5_000L)
                .isGreaterThan(0);
        assertThat(maxPausedSeen.get())
                .as("partitions paused while Cassandra was frozen")
                .isPositive();
        assertThat(retries.get()).as("writes retried during the outage").isPositive();
        try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            assertThat(lag.lag("sink-it-outage", List.of(config.topics().telemetryRows())))
                    .isZero();
        }
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
                    .inheritIO()
                    .start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0)
                    .as("kill -%s %d", signal, pid)
                    .isTrue();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void a_sink_process_killed_with_sigkill_mid_drain_and_restarted_leaves_the_exact_row_count() throws Exception {
        Map<String, Object> settings = settings("crash", Map.of(IngestConfig.SINK_MAX_ROWS_PER_SECOND, 20_000L));
        IngestConfig config = ConfigLoader.load(null, Map.of(), settings);
        createTopics(config);
        truncate();
        long sent = RowFeed.send(config.kafkaClientSettings(), config.topics().telemetryRowsTopic(), 2_000, 100);
        Path configFile = dir.resolve("sink.properties");
        StringBuilder text = new StringBuilder();
        settings.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(configFile, text);

        Process first = startSink(configFile, dir.resolve("first.log"));
        long beforeKill;
        try {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> count() >= 40_000);
        } finally {
            first.destroyForcibly(); // SIGKILL: no drain, no commit
            first.waitFor(30, TimeUnit.SECONDS);
        }
        beforeKill = count();
        assertThat(beforeKill).as("killed mid-drain").isLessThan(sent);

        Process second = startSink(configFile, dir.resolve("second.log"));
        try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(() ->
                            lag.lag("sink-it-crash", List.of(config.topics().telemetryRows())) == 0);
        } finally {
            second.destroy(); // SIGTERM: drain and commit
            assertThat(second.waitFor(60, TimeUnit.SECONDS))
                    .as("exits within 60 s of SIGTERM")
                    .isTrue();
        }
        long rows = countFeed(2_000, 100);
        System.out.printf(
                "SINK-IT crash: %,d rows in Cassandra when the sink was killed, %,d after the restart "
                        + "(%,d sent)%n",
                beforeKill, rows, sent);
        assertThat(rows).isEqualTo(sent);
        assertThat(Files.readString(dir.resolve("second.log"))).contains("Cassandra sink stopped; offsets committed");
    }

    private static Process startSink(Path configFile, Path log) throws java.io.IOException {
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx512m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        IngestApp.class.getName(),
                        "run",
                        "--component",
                        "sink",
                        "--config",
                        configFile.toString(),
                        "--set",
                        "http.port=0")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    @Test
    void a_row_cassandra_refuses_goes_to_the_dead_letter_topic_and_the_rows_beside_it_land() throws Exception {
        IngestConfig config = config("invalid", Map.of());
        createTopics(config);
        Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic =
                config.topics().telemetryRowsTopic();
        String hive = "refused-hive";
        Instant start = Instant.parse("2026-11-03T10:00:00Z");
        LocalDate day = LocalDate.ofInstant(start, ZoneOffset.UTC);
        int shard = 40;
        int rows = 1_000;
        int bad = 500;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                RowFeed.producerSettings(config.kafkaClientSettings()),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            java.util.List<java.util.concurrent.Future<?>> sends = new java.util.ArrayList<>();
            for (int i = 0; i < rows; i++) {
                // a clustering value over 64 KiB: no Cassandra node can store it
                String sensor = i == bad ? "X".repeat(70_000) : "WEIGHT";
                HiveTelemetryRow row = new HiveTelemetryRow(
                        hive, day, shard, sensor, "default", start.plusMillis(i * 100L), "gw", 40.0, "kg");
                sends.add(producer.send(new ProducerRecord<>(
                        topic.name(),
                        topic.keySerde()
                                .serializer()
                                .serialize(topic.name(), new HiveTelemetryPartitionKey(hive, day, shard)),
                        topic.valueSerde().serializer().serialize(topic.name(), row))));
            }
            producer.flush();
            for (java.util.concurrent.Future<?> send : sends) {
                send.get(); // fails the test if Kafka refused a row
            }
        }
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Pipeline pipeline = Pipeline.start(config, false, true, registry);
        try (LagProbe lag = new LagProbe(config.kafkaClientSettings())) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> lag.countRecords(config.topics().deadLetter()) >= 1
                            && counter(registry, MetricNames.SINK_ROWS_WRITTEN, "table", "hive_telemetry_v2")
                                    >= rows - 1);
            Map<String, Long> reasons = lag.countByHeader(config.topics().deadLetter(), DeadLetterHeaders.REASON);
            Map<String, Long> messages = lag.countByHeader(config.topics().deadLetter(), DeadLetterHeaders.MESSAGE);
            System.out.printf(
                    "SINK-IT refused row: dead letters by reason %s, message %s%n", reasons, messages.keySet());
            // (a producer retry may have sent the refused row twice: then it is dead-lettered twice)
            assertThat(reasons).containsOnlyKeys("CASSANDRA_REJECTED");
            assertThat(messages.keySet()).singleElement().asString().isNotBlank();
        } finally {
            pipeline.close();
        }
        long landed = session.execute(
                        "SELECT COUNT(*) FROM " + TABLE + " WHERE hive_id = ? AND day = ? AND shard = ?",
                        hive,
                        day,
                        shard)
                .one()
                .getLong(0);
        assertThat(landed).isEqualTo(rows - 1);
    }
}
