package io.apiary.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deploy.MonitoringQueries;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric name that deploy/components/monitoring's alert rules and dashboard select is in the
 * {@code /metrics} scrape of a topology and a sink running as child processes on the shared stack,
 * after readings have gone through to Cassandra, a record that is not Avro has been dead-lettered
 * and a write has been retried (the table dropped under the running sink, which retries a statement
 * Cassandra refuses for its schema): the dead-letter and retry counters are registered with their
 * first event, per reason and cause. A name must be a sample name of the scrape (which holds
 * {@code _total}, {@code _bucket}, {@code _count} and {@code _sum} as written), not only a family
 * of its {@code # TYPE} lines: a histogram's family name selects no series in Prometheus, so a
 * panel on it would stay empty. The names missing are reported by name.
 */
class MonitoringScrapeIT {

    private static final String NAME = "monitoring";
    private static final int HIVES = 5;
    private static final int READINGS_PER_HIVE = 20;
    private static final String PARTITION_LAG = "kafka_consumer_fetch_manager_records_lag{";
    private static final Pattern SAMPLE = Pattern.compile("(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{| )");

    @TempDir
    Path dir;

    private static Map<String, Object> settings() {
        Map<String, Object> settings = new HashMap<>(SharedStack.get().clientSettings());
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, "it_" + NAME);
        settings.put(IngestConfig.TOPOLOGY_APPLICATION_ID, NAME + "-it");
        settings.put(IngestConfig.SINK_GROUP_ID, NAME + "-it-sink");
        settings.put(IngestConfig.TOPIC_PARTITIONS, 2);
        settings.put(
                IngestConfig.VALIDATION_MAX_AGE_MS, Duration.ofDays(365 * 20).toMillis());
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, NAME + "-it." + topic);
        }
        return settings;
    }

    @Test
    void should_find_every_metric_of_the_rules_and_the_dashboard_in_the_scrape_of_a_running_pipeline()
            throws Exception {
        long started = System.nanoTime();
        Set<String> referenced = MonitoringQueries.metricNames();
        Map<String, Object> settings = settings();
        IngestConfig config = ItPipelineSettings.of(NAME, settings);
        Map<String, Object> topologySettings = new HashMap<>(settings);
        topologySettings.put(IngestConfig.TOPOLOGY_STATE_DIR, config.getString(IngestConfig.TOPOLOGY_STATE_DIR));
        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
        }
        try (AppProcess topology = AppProcess.start("topology", topologySettings, dir.resolve("topology.log"));
                AppProcess sink = AppProcess.start("sink", settings, dir.resolve("sink.log"))) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> topology.status("/health/ready") == 200 && sink.status("/health/ready") == 200);
            send(config, READINGS_PER_HIVE, 0);
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(() -> rows(config) >= (long) HIVES * READINGS_PER_HIVE
                            && scrape(topology).contains("apiary_dead_letter_records_total"));
            // a retry: the sink's table dropped under it, then one more reading
            try (CqlSession session = CassandraSessions.open(config)) {
                // a schema change: the driver's 2 s default timed out on a busy CI machine (2026-12-05)
                session.execute(SimpleStatement.newInstance("DROP TABLE "
                                + config.getString(IngestConfig.CASSANDRA_KEYSPACE) + ".hive_telemetry_v2")
                        .setTimeout(Duration.ofMinutes(1)));
            }
            send(config, 1, READINGS_PER_HIVE);
            // and the consumers' per-partition lag, which Micrometer's Kafka binders add at their
            // next scan of the clients' metrics (every 60 s) after the partitions were assigned
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> scrape(sink).contains("apiary_sink_retries_total{")
                            && scrape(sink).contains(PARTITION_LAG)
                            && scrape(topology).contains(PARTITION_LAG));
            String topologyScrape = scrape(topology);
            String sinkScrape = scrape(sink);
            // kept for a look when a name is missing
            Path kept = java.nio.file.Files.createDirectories(Path.of("target", "monitoring-scrape-it"));
            java.nio.file.Files.writeString(kept.resolve("topology.prom"), topologyScrape);
            java.nio.file.Files.writeString(kept.resolve("sink.prom"), sinkScrape);

            Set<String> scraped = new TreeSet<>(names(topologyScrape));
            scraped.addAll(names(sinkScrape));
            Set<String> missing = new TreeSet<>(referenced);
            missing.removeAll(scraped);
            missing.remove("up"); // Prometheus's own, per target
            System.out.printf(
                    "MONITORING-SCRAPE-IT %d names referenced, scrapes of %d and %d bytes (%d and %d names), "
                            + "missing %s, %d ms%n",
                    referenced.size(),
                    topologyScrape.length(),
                    sinkScrape.length(),
                    names(topologyScrape).size(),
                    names(sinkScrape).size(),
                    missing,
                    (System.nanoTime() - started) / 1_000_000);

            assertThat(missing)
                    .as(
                            "metric names of the rules and the dashboard absent from the topology's and the sink's /metrics")
                    .isEmpty();
        }
    }

    private static String scrape(AppProcess app) {
        var response = app.get("/metrics");
        assertThat(response.statusCode()).as("GET /metrics").isEqualTo(200);
        return response.body();
    }

    private static Set<String> names(String scrape) {
        Set<String> names = new TreeSet<>();
        Matcher sample = SAMPLE.matcher(scrape);
        while (sample.find()) {
            names.add(sample.group(1));
        }
        return names;
    }

    private static long rows(IngestConfig config) {
        try (CqlSession session = CassandraSessions.open(config)) {
            return session.execute("SELECT COUNT(*) FROM " + config.getString(IngestConfig.CASSANDRA_KEYSPACE)
                            + ".hive_telemetry_v2")
                    .one()
                    .getLong(0);
        }
    }

    /**
     * Sends {@code readings} readings per hive, at seconds {@code first}, {@code first + 1}, ... of
     * the minute an hour ago, and one record that is not Avro.
     */
    private static void send(IngestConfig config, int readings, int first) {
        Instant start = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MINUTES);
        try (GatewayProducer producer = new GatewayProducer(
                config.kafkaClientSettings(),
                config.topics().telemetryTopic(),
                config.topics().entranceCountsTopic())) {
            for (int i = first; i < first + readings; i++) {
                for (int hive = 0; hive < HIVES; hive++) {
                    producer.send(new TelemetryReading(
                            "monitoring-hive-" + hive,
                            "gw",
                            SensorType.TEMPERATURE,
                            "default",
                            start.plusSeconds(i),
                            30.0 + i % 10,
                            "degC",
                            null));
                }
            }
            producer.flush();
        }
        Map<String, Object> raw = new HashMap<>(config.kafkaClientSettings());
        raw.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        raw.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(raw)) {
            // Not Avro: the topology dead-letters it.
            producer.send(new ProducerRecord<>(
                    config.topics().telemetryTopic().name(),
                    "monitoring-hive-0".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    new byte[] {1, 2, 3}));
            producer.flush();
        }
    }
}
