package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.bench.BenchWorkload;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hot-partition detection of a real sink on the local stack: 80 hives send live readings (reading
 * time now) to the hive_telemetry_v2 row topic for 8 s while the sink writes them, with a 2-s window.
 * One hive sending 50 times the others' rate is flagged with its key; the same hives at one rate
 * are not. Prints the WARN lines it saw on lines starting with {@code HOT-IT}.
 */
class SinkHotPartitionsIT {

    private static final String KEYSPACE = "it_hot";
    private static final int HIVES = 80;
    private static final int HOT_HIVE = 42;
    private static final Duration FEED = Duration.ofSeconds(8);
    private static final long TICK_MS = 100;
    private static final int SHARDS = 1_440;

    private static ItEndpoints stack;

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private AbstractAppender appender;

    @BeforeAll
    static void schema() {
        stack = SharedStack.get();
        try (CqlSession session = CassandraSessions.open(config("setup", Map.of()))) {
            SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
        }
    }

    @BeforeEach
    void captureWarnings() {
        appender = new AbstractAppender("hot-it", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
                    warnings.add(event.getMessage().getFormattedMessage());
                }
            }
        };
        appender.start();
        sinkLogger().addAppender(appender);
    }

    @AfterEach
    void stopCapturing() {
        sinkLogger().removeAppender(appender);
        appender.stop();
    }

    private static org.apache.logging.log4j.core.Logger sinkLogger() {
        return ((LoggerContext) LogManager.getContext(false)).getLogger(CassandraSink.class.getName());
    }

    static IngestConfig config(String name, Map<String, Object> extra) {
        Map<String, Object> settings = stack.clientSettings();
        String run = name + "-" + System.currentTimeMillis(); // topics and group of this run only
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
        settings.put(IngestConfig.SINK_GROUP_ID, "hot-it-" + run);
        settings.put(IngestConfig.TOPIC_PARTITIONS, 6);
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, "hot-it." + run + "." + topic);
        }
        settings.put(HotPartitionSettings.SINK_HOT_WINDOW_MS, 2_000L);
        // one-minute slices: a partition's life is short, so that the rate of a catch-up after the
        // sink joins its group does not project the uniform hives past 100,000 cells
        settings.put(IngestConfig.TELEMETRY_SHARDS, SHARDS);
        settings.putAll(extra);
        return ConfigLoader.load(null, Map.of(), settings);
    }

    static String hiveId(int hive) {
        return String.format("hive-%04d", hive);
    }

    /**
     * Sends live readings for {@link #FEED}: every {@value #TICK_MS} ms one reading per hive, and
     * {@code hotRate} readings of hive {@value #HOT_HIVE}; reading time now.
     *
     * @return rows acknowledged by Kafka
     */
    static long feed(IngestConfig config, int hotRate) throws InterruptedException {
        Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic =
                config.topics().telemetryRowsTopic();
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                BenchWorkload.producerSettings(config.kafkaClientSettings()),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            long end = System.currentTimeMillis() + FEED.toMillis();
            for (long tick = System.currentTimeMillis(); tick < end; tick += TICK_MS) {
                for (int hive = 0; hive < HIVES; hive++) {
                    for (int reading = 0; reading < (hive == HOT_HIVE ? hotRate : 1); reading++) {
                        long time = tick + reading; // distinct reading times: one row each
                        HiveTelemetryRow row = new HiveTelemetryRow(
                                hiveId(hive),
                                LocalDate.ofInstant(Instant.ofEpochMilli(time), ZoneOffset.UTC),
                                ShardStrategy.TIME.shard(hiveId(hive), "temperature", time, SHARDS),
                                "temperature",
                                "default",
                                Instant.ofEpochMilli(time),
                                "gw-it",
                                20.0 + reading % 7,
                                "C");
                        producer.send(new ProducerRecord<>(
                                topic.name(),
                                topic.keySerde().serializer().serialize(topic.name(), BenchWorkload.partitionKey(row)),
                                topic.valueSerde().serializer().serialize(topic.name(), row)));
                        sent++;
                    }
                }
                Thread.sleep(Math.max(0, tick + TICK_MS - System.currentTimeMillis()));
            }
            producer.flush();
        }
        return sent;
    }

    /** Runs a sink while the feed runs, until it wrote every row and one more window ended; returns its reports. */
    List<HotPartitionReport> run(IngestConfig config, int hotRate) throws Exception {
        SinkIT.createTopics(config);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        List<HotPartitionReport> reports = new CopyOnWriteArrayList<>();
        try (Pipeline pipeline = Pipeline.start(config, false, true, registry)) {
            Thread watcher = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    HotPartitionReport report = pipeline.sink().hotPartitions();
                    if (!report.tables().isEmpty()
                            && (reports.isEmpty()
                                    || !reports.get(reports.size() - 1)
                                            .windowEnd()
                                            .equals(report.windowEnd()))) {
                        reports.add(report);
                    }
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            watcher.start();
            long sent = feed(config, hotRate);
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> pipeline.sink().rowsWritten("hive_telemetry_v2") >= sent);
            Instant written = Instant.now();
            // the window holding the last rows has ended
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> pipeline.sink().hotPartitions().windowEnd().isAfter(written));
            watcher.interrupt();
            watcher.join();
            HotPartitionReport last = pipeline.sink().hotPartitions();
            if (!last.tables().isEmpty()
                    && !reports.get(reports.size() - 1).windowEnd().equals(last.windowEnd())) {
                reports.add(last);
            }
            System.out.printf(
                    "HOT-IT %s: %,d rows of %d hives (hive %d at %dx), %d windows%n",
                    config.getString(IngestConfig.SINK_GROUP_ID), sent, HIVES, HOT_HIVE, hotRate, reports.size());
        }
        reports.forEach(r -> r.tables()
                .values()
                .forEach(t -> System.out.printf(
                        "HOT-IT window %s: %,d rows, %d partitions, hottest %s %.1f%% of the rows%s; nodes %s%n",
                        r.windowEnd(),
                        t.rows(),
                        t.partitions(),
                        t.top().get(0).key(),
                        t.top().get(0).rowsShare() * 100,
                        t.top().get(0).hot() ? " (hot)" : "",
                        r.nodeShares())));
        warnings.forEach(w -> System.out.println("HOT-IT WARN " + w));
        return reports;
    }

    @Test
    void should_flag_the_hive_sending_50_times_the_rate_of_the_others_with_its_key() throws Exception {
        List<HotPartitionReport> reports = run(config("skewed", Map.of()), 50);

        String key = "(hive_id='" + hiveId(HOT_HIVE) + "', day=";
        // one partition, or two when the feed crossed the end of a one-minute slice
        assertThat(warnings)
                .filteredOn(w -> w.startsWith("Hot partition in hive_telemetry_v2: "))
                .isNotEmpty()
                .allSatisfy(w -> assertThat(w).contains(key).contains("of the rows"));
        assertThat(reports)
                .anySatisfy(r -> assertThat(
                                r.tables().get("hive_telemetry_v2").top().get(0))
                        .satisfies(p -> assertThat(p.key()).startsWith(key))
                        .satisfies(p -> assertThat(p.hot()).isTrue())
                        .satisfies(p -> assertThat(p.rowsShare()).isBetween(0.25, 0.45)));
        assertThat(reports)
                .allSatisfy(r -> assertThat(r.tables().get("hive_telemetry_v2").top())
                        .filteredOn(HotPartitionReport.PartitionLoad::hot)
                        .allSatisfy(p -> assertThat(p.key()).startsWith(key)));
    }

    @Test
    void should_flag_nothing_when_every_hive_sends_at_the_same_rate() throws Exception {
        List<HotPartitionReport> reports = run(config("uniform", Map.of()), 1);

        assertThat(warnings).isEmpty();
        assertThat(reports)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.tables().get("hive_telemetry_v2").top())
                        .noneMatch(HotPartitionReport.PartitionLoad::hot));
        // one node holds every row: a share of 1, its even share, so never hot
        assertThat(reports)
                .allSatisfy(r -> assertThat(r.nodeShares()).hasSize(1).containsValue(1.0));
    }
}
