package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.gateway.GatewayProducer;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The read path on the real stack: readings of two hives over four UTC days that cross a month
 * end go through the topology (time shards, 8 per day) and the sink into Cassandra, and the reader
 * returns exactly them, in order, oldest or newest first, limited and page by page; the hourly
 * activity the topology summed is read back for a day range.
 */
class ReadPathIT {

    private static final String KEYSPACE = "it_read_path";
    private static final String HIVE = "rp-hive-1";
    private static final String OTHER_HIVE = "rp-hive-2";
    private static final Instant FIRST = Instant.parse("2021-01-30T21:00:00Z");
    private static final Instant END = Instant.parse("2021-02-02T03:00:00Z");
    private static final List<SensorType> SENSORS = List.of(SensorType.TEMPERATURE, SensorType.HUMIDITY,
            SensorType.WEIGHT);
    private static final Map<SensorType, String> UNITS = Map.of(SensorType.TEMPERATURE, "degC",
            SensorType.HUMIDITY, "%RH", SensorType.WEIGHT, "kg");

    private static Pipeline pipeline;
    private static CqlSession session;
    private static HiveDataReader reader;
    private static IngestConfig config;
    /** Every distinct reading of HIVE sent, oldest first (by time, then sensor type). */
    private static final List<TelemetryRow> SENT = new ArrayList<>();
    /** Bees in and out of HIVE per hour start. */
    private static final TreeMap<Instant, long[]> HOURS = new TreeMap<>();

    @BeforeAll
    static void writeThroughThePipeline() {
        Map<String, Object> settings = SharedStack.get().clientSettings();
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
        settings.put(IngestConfig.TOPOLOGY_APPLICATION_ID, "read-path-it");
        settings.put(IngestConfig.SINK_GROUP_ID, "read-path-it-sink");
        // A fresh stack each run: state left by an earlier run (its stream time, closed hours) must go.
        Path stateDir = Path.of("target", "read-path-it-state").toAbsolutePath();
        io.apiary.ingest.devstack.StackFiles.deleteRecursively(stateDir);
        settings.put(IngestConfig.TOPOLOGY_STATE_DIR, stateDir.toString());
        settings.put(IngestConfig.TOPIC_PARTITIONS, 2);
        settings.put(IngestConfig.TELEMETRY_SHARDS, 8);
        settings.put(IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS, 500L);
        settings.put(IngestConfig.VALIDATION_MAX_AGE_MS, Duration.ofDays(365 * 20).toMillis());
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, "read-path-it." + topic);
        }
        config = ConfigLoader.load(null, Map.of(), settings);
        session = CassandraSessions.open(config);
        SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.createMissing(admin, config);
        }
        pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry());
        reader = new HiveDataReader(session, ReadSettings.from(config));

        try (GatewayProducer producer = new GatewayProducer(config.kafkaClientSettings(),
                config.topics().telemetryTopic(), config.topics().entranceCountsTopic())) {
            int i = 0;
            // Every 7 minutes 13 seconds, each sensor at the same instant (ties broken by sensor type),
            // plus every reading sent twice (a duplicate is one row).
            for (Instant t = FIRST; t.isBefore(END); t = t.plusSeconds(7 * 60 + 13), i++) {
                for (SensorType sensor : SENSORS) {
                    // Within each sensor's physical range (validation dead-letters the rest).
                    double value = 10 + sensor.ordinal() + (i % 400) / 10.0;
                    String unit = UNITS.get(sensor);
                    TelemetryReading reading = new TelemetryReading(HIVE, "rp-gw", sensor, "default", t, value, unit, null);
                    producer.send(reading);
                    if (i % 10 == 0) {
                        producer.send(reading);
                    }
                    producer.send(new TelemetryReading(OTHER_HIVE, "rp-gw", sensor, "default", t, value + 1, unit, null));
                    SENT.add(new TelemetryRow(HIVE, sensor.name(), t, value, unit, "rp-gw"));
                }
            }
            for (Instant t = FIRST; t.isBefore(END); t = t.plusSeconds(600)) {
                long in = 5 + (t.getEpochSecond() / 600) % 7;
                long out = 3 + (t.getEpochSecond() / 600) % 5;
                producer.send(new EntranceCount(HIVE, "rp-gw", t, (int) in, (int) out, 600));
                HOURS.merge(t.truncatedTo(java.time.temporal.ChronoUnit.HOURS), new long[] {in, out},
                        (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
            }
            producer.flush();
        }
        SENT.sort(Comparator.comparing(TelemetryRow::readingTime).thenComparing(TelemetryRow::sensorType));
        TimeRange all = new TimeRange(FIRST, END);
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2)).ignoreExceptions().untilAsserted(() ->
                assertThat(readAll(ReadRequest.of(SeriesTable.TELEMETRY, HIVE, all))).hasSize(SENT.size()));
    }

    @AfterAll
    static void stop() {
        if (pipeline != null) {
            pipeline.close();
        }
        if (session != null) {
            session.close();
        }
    }

    @Test
    void should_read_every_reading_of_a_hive_oldest_first_across_days_month_end_and_shards() {
        ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END));

        try (MergedRows<TelemetryRow> rows = reader.stream(request)) {
            List<TelemetryRow> read = new ArrayList<>();
            rows.forEachRemaining(read::add);

            assertThat(read).containsExactlyElementsOf(SENT);
            ReadStats stats = rows.stats();
            // 2021-01-30 21:00 to 2021-02-02 03:00 at 8 shards of 3 h: 1 + 8 + 8 + 1 partitions.
            assertThat(stats.partitionsInRange()).isEqualTo(18);
            assertThat(stats.partitionsRead()).isEqualTo(18);
            // One query per partition for every sensor type (sensor_type IN ?), each under a page.
            assertThat(stats.requests()).isEqualTo(18);
            assertThat(stats.rows()).isEqualTo(SENT.size());
        }
    }

    @Test
    void should_read_newest_first_when_descending() {
        ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END))
                .withOrder(ReadOrder.DESC);

        List<TelemetryRow> read = readAll(request);

        assertThat(read).containsExactlyElementsOf(reversed(SENT));
    }

    @Test
    void should_read_a_sensor_subset_in_a_range_that_crosses_midnight() {
        Instant from = Instant.parse("2021-01-31T22:30:00Z");
        Instant to = Instant.parse("2021-02-01T01:15:00Z");
        ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(from, to))
                .withSeries(List.of("HUMIDITY", "WEIGHT"));

        List<TelemetryRow> read = readAll(request);

        assertThat(read).isNotEmpty().containsExactlyElementsOf(SENT.stream()
                .filter(r -> !r.readingTime().isBefore(from) && r.readingTime().isBefore(to))
                .filter(r -> !r.sensorType().equals("TEMPERATURE")).toList());

        // One sensor type: one streamed query per partition (22:30-24:00 and 00:00-01:15 at 3 h shards).
        try (MergedRows<TelemetryRow> weight = reader.stream(request.withSeries(List.of("WEIGHT"))
                .withOrder(ReadOrder.DESC))) {
            List<TelemetryRow> newestFirst = new ArrayList<>();
            weight.forEachRemaining(newestFirst::add);
            assertThat(newestFirst).isNotEmpty().containsExactlyElementsOf(reversed(read.stream()
                    .filter(r -> r.sensorType().equals("WEIGHT")).toList()));
            assertThat(weight.stats().partitionsRead()).isEqualTo(2);
            assertThat(weight.stats().requests()).isEqualTo(2);
        }
    }

    @Test
    void should_stop_at_the_limit_and_leave_later_partitions_unread() {
        ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END));

        ReadPage<TelemetryRow> page = reader.page(request, 25);

        assertThat(page.rows()).containsExactlyElementsOf(SENT.subList(0, 25));
        assertThat(page.nextPageToken()).isNotNull();
        assertThat(page.stats().partitionsRead()).isLessThan(page.stats().partitionsInRange());
    }

    @Test
    void should_read_slices_larger_than_a_page_sensor_by_sensor_when_the_read_is_limited() {
        // Pages of 10 rows: a limited read holds at most 10 rows of a partition's slice (about 75
        // here), then reads that partition again one streamed query per sensor type.
        ReadSettings defaults = ReadSettings.from(config);
        HiveDataReader smallPages = new HiveDataReader(session, new ReadSettings(defaults.keyspace(),
                defaults.telemetrySchemes(), defaults.weatherSchemes(), defaults.maxInFlight(), 10,
                defaults.consistency(), defaults.maxPartitionQueries()));
        for (ReadOrder order : ReadOrder.values()) {
            ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END))
                    .withOrder(order);
            List<TelemetryRow> want = order == ReadOrder.ASC ? SENT : reversed(SENT);

            ReadPage<TelemetryRow> first = smallPages.page(request, 25);
            ReadPage<TelemetryRow> second = smallPages.page(request.withPageToken(first.nextPageToken()), 25);

            assertThat(first.rows()).as(order.name()).containsExactlyElementsOf(want.subList(0, 25));
            assertThat(second.rows()).as(order.name()).containsExactlyElementsOf(want.subList(25, 50));
            // The first partition took its grouped query's first page, then the three sensor types'
            // own queries; every other partition opened (read ahead) at least one request.
            assertThat(first.stats().requests()).isGreaterThanOrEqualTo(first.stats().partitionsRead() + 3L);
        }
    }

    @Test
    void should_return_every_row_once_page_by_page_in_both_orders() {
        for (ReadOrder order : ReadOrder.values()) {
            ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END))
                    .withOrder(order);
            List<TelemetryRow> read = new ArrayList<>();
            int pages = 0;
            String token = null;
            do {
                ReadPage<TelemetryRow> page = reader.page(request.withPageToken(token), 97);
                assertThat(page.rows()).hasSizeLessThanOrEqualTo(97);
                read.addAll(page.rows());
                token = page.nextPageToken();
                pages++;
            } while (token != null);

            assertThat(read).containsExactlyElementsOf(order == ReadOrder.ASC ? SENT : reversed(SENT));
            assertThat(pages).isEqualTo((SENT.size() + 96) / 97);
        }
    }

    @Test
    void should_read_the_hourly_activity_of_a_day_range() {
        LocalDate first = LocalDate.parse("2021-01-31");
        LocalDate last = LocalDate.parse("2021-02-01");
        ReadRequest<ActivityRow> request = ReadRequest.of(SeriesTable.ACTIVITY, HIVE, TimeRange.days(first, last));
        List<long[]> expected = HOURS.subMap(first.atStartOfDay().toInstant(java.time.ZoneOffset.UTC),
                last.plusDays(1).atStartOfDay().toInstant(java.time.ZoneOffset.UTC)).values().stream().toList();

        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            List<ActivityRow> read = readAll(request);
            assertThat(read).hasSize(48);
            assertThat(read.get(0).time()).isEqualTo(Instant.parse("2021-01-31T00:00:00Z"));
            assertThat(read.stream().map(r -> new long[] {r.beesIn(), r.beesOut()}).toList())
                    .containsExactlyElementsOf(expected);
        });
        List<ActivityRow> newestFirst = readAll(request.withOrder(ReadOrder.DESC));
        assertThat(newestFirst.get(0).time()).isEqualTo(Instant.parse("2021-02-01T23:00:00Z"));
        assertThat(newestFirst).hasSize(48);
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }

    private static <R extends TimedRow> List<R> readAll(ReadRequest<R> request) {
        try (MergedRows<R> rows = reader.stream(request)) {
            List<R> read = new ArrayList<>();
            rows.forEachRemaining(read::add);
            return read;
        }
    }
}
