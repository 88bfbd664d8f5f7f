package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.identity.AlertIds;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.tables.TableNames;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The read path on the real stack: readings of two hives over four UTC days that cross a month
 * end, from two temperature and two humidity sensors and a scale at the same instants, go through
 * the topology (time shards, 8 per day) and the sink into hive_telemetry_v2, and the reader
 * returns exactly them, in order, oldest or newest first, limited and page by page, every sensor,
 * a subset or one sensor; with the legacy hive_telemetry and agent_alerts beside the new tables
 * (created from {@code cql/legacy/}, rows inserted with CQL), each reading and alert once; the
 * hourly activity the topology summed is read back for a day range.
 */
class ReadPathIT {

    private static final String KEYSPACE = "it_read_path";
    private static final String HIVE = "rp-hive-1";
    private static final String OTHER_HIVE = "rp-hive-2";
    private static final Instant FIRST = Instant.parse("2021-01-30T21:00:00Z");
    private static final Instant END = Instant.parse("2021-02-02T03:00:00Z");
    private static final int SHARDS = 8;
    /** The sensors of each hive: (type, sensor id), all reading at the same instants. */
    private static final List<Object[]> SENSORS = List.of(
            new Object[] {SensorType.TEMPERATURE, "inside"},
            new Object[] {SensorType.TEMPERATURE, "outside"},
            new Object[] {SensorType.HUMIDITY, "inside"},
            new Object[] {SensorType.HUMIDITY, "box"},
            new Object[] {SensorType.WEIGHT, "default"});

    private static final Map<SensorType, String> UNITS =
            Map.of(SensorType.TEMPERATURE, "degC", SensorType.HUMIDITY, "%RH", SensorType.WEIGHT, "kg");

    private static Pipeline pipeline;
    private static CqlSession session;
    private static HiveDataReader reader;
    private static IngestConfig config;
    /** Every distinct reading of HIVE sent, oldest first (by time, sensor type, sensor id). */
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
        settings.put(IngestConfig.TELEMETRY_SHARDS, SHARDS);
        settings.put(IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS, 500L);
        settings.put(
                IngestConfig.VALIDATION_MAX_AGE_MS, Duration.ofDays(365 * 20).toMillis());
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, "read-path-it." + topic);
        }
        config = ConfigLoader.load(null, Map.of(), settings);
        session = CassandraSessions.open(config);
        SchemaApplier.apply(session, SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION));
        dropLegacyTables();
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.createMissing(admin, config);
        }
        pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry());
        reader = new HiveDataReader(session, ReadSettings.from(config));

        try (GatewayProducer producer = new GatewayProducer(
                config.kafkaClientSettings(),
                config.topics().telemetryTopic(),
                config.topics().entranceCountsTopic())) {
            int i = 0;
            // Every 7 minutes 13 seconds, each sensor at the same instant (ties broken by sensor type,
            // then sensor id), plus every tenth reading sent twice (a duplicate is one row).
            for (Instant t = FIRST; t.isBefore(END); t = t.plusSeconds(7 * 60 + 13), i++) {
                for (int s = 0; s < SENSORS.size(); s++) {
                    SensorType type = (SensorType) SENSORS.get(s)[0];
                    String sensor = (String) SENSORS.get(s)[1];
                    // Within each type's physical range (validation dead-letters the rest); each sensor its own.
                    double value = 10 + type.ordinal() + s / 10.0 + (i % 300) / 10.0;
                    String unit = UNITS.get(type);
                    TelemetryReading reading = new TelemetryReading(HIVE, "rp-gw", type, sensor, t, value, unit, null);
                    producer.send(reading);
                    if (i % 10 == 0) {
                        producer.send(reading);
                    }
                    producer.send(new TelemetryReading(OTHER_HIVE, "rp-gw", type, sensor, t, value + 1, unit, null));
                    SENT.add(new TelemetryRow(HIVE, type.name(), sensor, t, value, unit, "rp-gw"));
                }
            }
            for (Instant t = FIRST; t.isBefore(END); t = t.plusSeconds(600)) {
                long in = 5 + (t.getEpochSecond() / 600) % 7;
                long out = 3 + (t.getEpochSecond() / 600) % 5;
                producer.send(new EntranceCount(HIVE, "rp-gw", t, (int) in, (int) out, 600));
                HOURS.merge(t.truncatedTo(java.time.temporal.ChronoUnit.HOURS), new long[] {in, out}, (a, b) ->
                        new long[] {a[0] + b[0], a[1] + b[1]});
            }
            producer.flush();
        }
        SENT.sort(MergedRows.rowOrder(ReadOrder.ASC));
        TimeRange all = new TimeRange(FIRST, END);
        await().atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(2))
                .ignoreExceptions()
                .untilAsserted(() -> assertThat(readAll(ReadRequest.of(SeriesTable.TELEMETRY, HIVE, all)))
                        .hasSize(SENT.size()));
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
    void should_read_every_reading_of_every_sensor_oldest_first_across_days_month_end_and_shards() {
        ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END));

        try (MergedRows<TelemetryRow> rows = reader.stream(request)) {
            List<TelemetryRow> read = new ArrayList<>();
            rows.forEachRemaining(read::add);

            // Two temperature and two humidity sensors at every instant: each its own row.
            assertThat(read).containsExactlyElementsOf(SENT);
            assertThat(read.stream()
                            .filter(r -> r.sensorType().equals("TEMPERATURE"))
                            .count())
                    .isEqualTo(2L
                            * read.stream()
                                    .filter(r -> r.sensorType().equals("WEIGHT"))
                                    .count());
            ReadStats stats = rows.stats();
            // 2021-01-30 21:00 to 2021-02-02 03:00 at 8 shards of 3 h: 1 + 8 + 8 + 1 partitions.
            assertThat(stats.partitionsInRange()).isEqualTo(18);
            assertThat(stats.partitionsRead()).isEqualTo(18);
            // One query per partition for every sensor (sensor_type IN ?), each under a page; the
            // legacy table does not exist, so no request for it.
            assertThat(stats.requests()).isEqualTo(18);
            assertThat(stats.tables()).containsExactly(TableNames.HIVE_TELEMETRY);
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
    void should_read_a_sensor_subset_and_a_single_sensor_in_a_range_that_crosses_midnight() {
        Instant from = Instant.parse("2021-01-31T22:30:00Z");
        Instant to = Instant.parse("2021-02-01T01:15:00Z");
        TimeRange range = new TimeRange(from, to);
        ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, range)
                .withSensors(List.of(SensorSelector.parse("TEMPERATURE:outside"), SensorSelector.parse("HUMIDITY")));

        List<TelemetryRow> read = readAll(request);

        List<TelemetryRow> inRange = SENT.stream()
                .filter(r -> range.contains(r.readingTime().toEpochMilli()))
                .toList();
        assertThat(read)
                .isNotEmpty()
                .containsExactlyElementsOf(inRange.stream()
                        .filter(r -> r.sensorType().equals("HUMIDITY")
                                || r.sensorId().equals("outside"))
                        .toList());

        // One sensor: one streamed time slice per partition (22:30-24:00 and 00:00-01:15 at 3 h shards).
        try (MergedRows<TelemetryRow> box =
                reader.stream(request.withSensors(List.of(SensorSelector.parse("HUMIDITY:box")))
                        .withOrder(ReadOrder.DESC))) {
            List<TelemetryRow> newestFirst = new ArrayList<>();
            box.forEachRemaining(newestFirst::add);
            assertThat(newestFirst)
                    .isNotEmpty()
                    .containsExactlyElementsOf(reversed(inRange.stream()
                            .filter(r -> r.sensorType().equals("HUMIDITY")
                                    && r.sensorId().equals("box"))
                            .toList()));
            assertThat(box.stats().partitionsRead()).isEqualTo(2);
            assertThat(box.stats().requests()).isEqualTo(2);
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
    void should_list_the_sensors_of_partitions_larger_than_a_page_and_stream_each_when_the_read_is_limited() {
        // Pages of 10 rows: a limited read fetches at most 10 rows of a partition read whole (about
        // 125 here), then lists that partition's sensors (GROUP BY sensor_type, sensor_id) and
        // reads each as a streamed time slice.
        HiveDataReader smallPages =
                new HiveDataReader(session, ReadSettings.from(config).withPageSize(10));
        for (ReadOrder order : ReadOrder.values()) {
            ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END))
                    .withOrder(order);
            List<TelemetryRow> want = order == ReadOrder.ASC ? SENT : reversed(SENT);

            ReadPage<TelemetryRow> first = smallPages.page(request, 25);
            ReadPage<TelemetryRow> second = smallPages.page(request.withPageToken(first.nextPageToken()), 25);

            assertThat(first.rows()).as(order.name()).containsExactlyElementsOf(want.subList(0, 25));
            assertThat(second.rows()).as(order.name()).containsExactlyElementsOf(want.subList(25, 50));
            // The first partition took its query's first page, the list of its sensors, then the
            // five sensors' own queries; every other partition opened (read ahead) at least one request.
            assertThat(first.stats().requests())
                    .isGreaterThanOrEqualTo(first.stats().partitionsRead() + 6L);
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
                // 97 rows a page: page ends fall between sensors of one instant.
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
    void should_read_the_legacy_tables_beside_the_new_ones_returning_each_reading_and_alert_once() {
        TimeRange week = TimeRange.days(LocalDate.parse("2021-01-27"), LocalDate.parse("2021-02-02"));
        long requestsWithout = requests(readStats(ReadRequest.of(SeriesTable.TELEMETRY, HIVE, week)));
        SchemaApplier.apply(
                session, SchemaApplier.load(Path.of("..", "cql", "legacy"), KEYSPACE, SchemaApplier.DEV_REPLICATION));
        try {
            TelemetryRow weight = SENT.stream()
                    .filter(r -> r.sensorType().equals("WEIGHT"))
                    .skip(40)
                    .findFirst()
                    .orElseThrow();
            TelemetryRow temperature = SENT.stream()
                    .filter(r -> r.sensorType().equals("TEMPERATURE"))
                    .skip(90)
                    .findFirst()
                    .orElseThrow();
            // A migrated copy of a scale reading (sensor default in both tables); the collapsed row
            // of the two temperature sensors at one instant; a reading only the legacy table has.
            insertLegacy(weight);
            insertLegacy(new TelemetryRow(
                    HIVE, "TEMPERATURE", "default", temperature.readingTime(), temperature.value(), "degC", "old-gw"));
            TelemetryRow onlyLegacy = new TelemetryRow(
                    HIVE, "TEMPERATURE", "default", temperature.readingTime().plusSeconds(1), 19.5, "degC", "old-gw");
            insertLegacy(onlyLegacy);
            List<TelemetryRow> expected = new ArrayList<>(SENT);
            expected.add(onlyLegacy);
            expected.sort(MergedRows.rowOrder(ReadOrder.ASC));

            try (MergedRows<TelemetryRow> rows =
                    reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END)))) {
                List<TelemetryRow> read = new ArrayList<>();
                rows.forEachRemaining(read::add);
                assertThat(read).containsExactlyElementsOf(expected);
                // Both tables' 18 partitions, one request each.
                assertThat(rows.stats().partitionsInRange()).isEqualTo(36);
                assertThat(rows.stats().requests()).isEqualTo(36);
                assertThat(rows.stats().tables())
                        .containsExactly(TableNames.HIVE_TELEMETRY, TableNames.LEGACY_HIVE_TELEMETRY);
            }
            // Only the sensor asked for, and only the default sensor reads the legacy table.
            assertThat(readAll(ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END))
                            .withSensors(List.of(SensorSelector.parse("TEMPERATURE:default")))))
                    .containsExactly(onlyLegacy);
            assertThat(readAll(ReadRequest.of(SeriesTable.TELEMETRY, HIVE, new TimeRange(FIRST, END))
                            .withOrder(ReadOrder.DESC)))
                    .containsExactlyElementsOf(reversed(expected));

            long requestsWith = requests(readStats(ReadRequest.of(SeriesTable.TELEMETRY, HIVE, week)));
            // A week at 8 shards: 56 partitions; as many again in the legacy table.
            System.out.printf(
                    "ReadPathIT: a one-hive week of every sensor type at %d time shards took %d requests "
                            + "without the legacy table, %d with it%n",
                    SHARDS, requestsWithout, requestsWith);
            assertThat(requestsWithout).isEqualTo(7 * SHARDS);
            assertThat(requestsWith).isEqualTo(2 * 7 * SHARDS);

            readsAlertsOfBothLayouts();
        } finally {
            dropLegacyTables();
        }
    }

    /** An agent's alerts: a migrated copy once, two alerts of one millisecond both, one only in the legacy table. */
    private static void readsAlertsOfBothLayouts() {
        Instant t = Instant.parse("2021-01-31T10:15:00.250Z");
        LocalDate day = DayBucket.of(t.toEpochMilli());
        String copied = AlertIds.derive(HIVE, "WARNING", "SWARMING_SUSPECTED", "weight dropped by 1.2 kg");
        String insertV2 = "INSERT INTO " + KEYSPACE + ".agent_alerts_v2 (agent_id, day, alert_time, alert_id, hive_id, "
                + "severity, alert_type, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
        String insertLegacy = "INSERT INTO " + KEYSPACE + ".agent_alerts (agent_id, day, alert_time, hive_id, "
                + "severity, alert_type, message) VALUES (?, ?, ?, ?, ?, ?, ?)";
        session.execute(
                insertV2,
                "rp-agent",
                day,
                t,
                copied,
                HIVE,
                "WARNING",
                "SWARMING_SUSPECTED",
                "weight dropped by 1.2 kg");
        session.execute(insertV2, "rp-agent", day, t, "agent-7", HIVE, "CRITICAL", "HIVE_OPENED", "lid open");
        session.execute(
                insertLegacy, "rp-agent", day, t, HIVE, "WARNING", "SWARMING_SUSPECTED", "weight dropped by 1.2 kg");
        session.execute(insertLegacy, "rp-agent", day, t.plusSeconds(60), HIVE, "INFO", "BATTERY_LOW", "3.4 V");

        for (ReadOrder order : ReadOrder.values()) {
            List<String> read =
                    readAll(ReadRequest.of(SeriesTable.ALERTS, "rp-agent", TimeRange.days(day, day))
                                    .withOrder(order))
                            .stream()
                            .map(a -> a.alertTime() + " " + a.alertId() + " " + a.message())
                            .toList();

            // At one millisecond by alert id ('agent-7' before 'c-...'); the legacy copy of the first
            // alert is hidden behind it, the legacy-only one gets the id derived from its content.
            List<String> ascending = List.of(
                    t + " agent-7 lid open",
                    t + " " + copied + " weight dropped by 1.2 kg",
                    t.plusSeconds(60) + " " + AlertIds.derive(HIVE, "INFO", "BATTERY_LOW", "3.4 V") + " 3.4 V");
            assertThat(read)
                    .as(order.name())
                    .containsExactlyElementsOf(order == ReadOrder.ASC ? ascending : reversed(ascending));
        }
    }

    @Test
    void should_read_the_hourly_activity_of_a_day_range() {
        LocalDate first = LocalDate.parse("2021-01-31");
        LocalDate last = LocalDate.parse("2021-02-01");
        ReadRequest<ActivityRow> request = ReadRequest.of(SeriesTable.ACTIVITY, HIVE, TimeRange.days(first, last));
        List<long[]> expected = HOURS
                .subMap(
                        first.atStartOfDay().toInstant(java.time.ZoneOffset.UTC),
                        last.plusDays(1).atStartOfDay().toInstant(java.time.ZoneOffset.UTC))
                .values()
                .stream()
                .toList();

        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> {
                    List<ActivityRow> read = readAll(request);
                    assertThat(read).hasSize(48);
                    assertThat(read.get(0).time()).isEqualTo(Instant.parse("2021-01-31T00:00:00Z"));
                    assertThat(read.stream()
                                    .map(r -> new long[] {r.beesIn(), r.beesOut()})
                                    .toList())
                            .containsExactlyElementsOf(expected);
                });
        List<ActivityRow> newestFirst = readAll(request.withOrder(ReadOrder.DESC));
        assertThat(newestFirst.get(0).time()).isEqualTo(Instant.parse("2021-02-01T23:00:00Z"));
        assertThat(newestFirst).hasSize(48);
    }

    /**
     * A year of readings on 20 scattered days, at 96 time shards (the default): with probes, the
     * read asks which partitions hold rows, 1,000 per request, and queries only those; without,
     * it queries every partition of the range. Three years, past read.max.partition.queries
     * without probes, read too. A dense day is not probed.
     */
    @Test
    void should_read_a_sparse_year_with_a_request_per_thousand_partitions_plus_one_per_partition_with_rows() {
        String hive = "rp-sparse";
        int shards = 96;
        Map<String, Object> settings = new java.util.HashMap<>(config.originals());
        settings.put(IngestConfig.TELEMETRY_SHARDS, shards);
        ReadSettings probing = ReadSettings.from(ConfigLoader.load(null, Map.of(), settings));
        HiveDataReader withProbes = new HiveDataReader(session, probing);
        HiveDataReader withoutProbes = new HiveDataReader(session, probing.withProbes(0, 1));
        java.util.Random random = new java.util.Random(20261202);
        List<TelemetryRow> written = new ArrayList<>();
        java.util.TreeSet<Integer> days = new java.util.TreeSet<>();
        while (days.size() < 20) {
            days.add(random.nextInt(365));
        }
        java.util.Set<List<Object>> partitions = new java.util.HashSet<>();
        for (int day : days) {
            for (int i = 0; i < 1 + random.nextInt(4); i++) { // 1 to 4 readings at random times of the day
                Instant t = Instant.parse("2022-01-01T00:00:00Z")
                        .plus(Duration.ofDays(day))
                        .plusSeconds(random.nextInt(86_400));
                long millis = t.toEpochMilli();
                int shard = ShardStrategy.TIME.shard(hive, "WEIGHT", millis, shards);
                session.execute(
                        "INSERT INTO " + KEYSPACE + ".hive_telemetry_v2 (hive_id, day, shard, sensor_type, "
                                + "sensor_id, reading_time, gateway_id, value, unit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        hive,
                        DayBucket.of(millis),
                        shard,
                        "WEIGHT",
                        "default",
                        t,
                        "rp-gw",
                        40.0 + i,
                        "kg");
                written.add(new TelemetryRow(hive, "WEIGHT", "default", t, 40.0 + i, "kg", "rp-gw"));
                partitions.add(List.of(DayBucket.of(millis), shard));
            }
        }
        written.sort(MergedRows.rowOrder(ReadOrder.ASC));
        ReadRequest<TelemetryRow> year = ReadRequest.of(
                SeriesTable.TELEMETRY,
                hive,
                TimeRange.days(LocalDate.parse("2022-01-01"), LocalDate.parse("2022-12-31")));

        ReadPage<TelemetryRow> before = readWith(withoutProbes, year);
        ReadPage<TelemetryRow> after = readWith(withProbes, year);

        System.out.printf(
                "ReadPathIT sparse year: %d readings in %d partitions of %d; without probes %,d requests in "
                        + "%d ms, with probes %,d requests in %d ms%n",
                written.size(),
                partitions.size(),
                after.stats().partitionsInRange(),
                before.stats().requests(),
                before.stats().elapsed().toMillis(),
                after.stats().requests(),
                after.stats().elapsed().toMillis());
        assertThat(before.rows()).containsExactlyElementsOf(written);
        assertThat(after.rows()).containsExactlyElementsOf(written);
        assertThat(before.stats().requests()).isEqualTo(365L * shards);
        assertThat(after.stats().partitionsInRange()).isEqualTo(365 * shards);
        assertThat(after.stats().partitionsRead()).isEqualTo(partitions.size());
        // 1,000 partitions a probe: 10 days of 96 shards each, so 37 probes for 365 days
        assertThat(after.stats().requests()).isEqualTo(37L + partitions.size());

        ReadRequest<TelemetryRow> threeYears = ReadRequest.of(
                SeriesTable.TELEMETRY,
                hive,
                TimeRange.days(LocalDate.parse("2021-01-01"), LocalDate.parse("2023-12-31")));
        ReadPage<TelemetryRow> three = readWith(withProbes, threeYears);
        System.out.printf(
                "ReadPathIT sparse three years: %,d partitions, with probes %,d requests in %d ms%n",
                three.stats().partitionsInRange(),
                three.stats().requests(),
                three.stats().elapsed().toMillis());
        assertThat(three.rows())
                .as("1,095 days x 96 shards, past 100,000 queries")
                .containsExactlyElementsOf(written);

        LocalDate first = LocalDate.ofEpochDay(LocalDate.parse("2022-01-01").toEpochDay() + days.first());
        ReadRequest<TelemetryRow> oneDay = ReadRequest.of(SeriesTable.TELEMETRY, hive, TimeRange.days(first, first));
        assertThat(readWith(withProbes, oneDay).stats().requests())
                .as("a day is not probed")
                .isEqualTo(readWith(withoutProbes, oneDay).stats().requests())
                .isEqualTo(shards);
    }

    /** @return every row of the read, with its cost */
    private static ReadPage<TelemetryRow> readWith(HiveDataReader reader, ReadRequest<TelemetryRow> request) {
        try (MergedRows<TelemetryRow> rows = reader.stream(request)) {
            List<TelemetryRow> read = new ArrayList<>();
            rows.forEachRemaining(read::add);
            return new ReadPage<>(read, null, rows.stats());
        }
    }

    /** Inserts a row into the legacy hive_telemetry, bucketed as the old topology wrote it (8 time shards). */
    private static void insertLegacy(TelemetryRow row) {
        long millis = row.readingTime().toEpochMilli();
        session.execute(
                "INSERT INTO " + KEYSPACE + ".hive_telemetry (hive_id, day, shard, sensor_type, reading_time, "
                        + "gateway_id, value, unit) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                row.hiveId(),
                DayBucket.of(millis),
                ShardStrategy.TIME.shard(row.hiveId(), row.sensorType(), millis, SHARDS),
                row.sensorType(),
                row.readingTime(),
                row.gatewayId(),
                row.value(),
                row.unit());
    }

    /** Drops the legacy tables; the driver refreshes its schema metadata before the answer, so reads skip them. */
    private static void dropLegacyTables() {
        for (String table : List.of(TableNames.LEGACY_HIVE_TELEMETRY, TableNames.LEGACY_AGENT_ALERTS)) {
            // A schema change takes longer than the driver's default 2 s on a busy machine (as SchemaApplier allows).
            session.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                            "DROP TABLE IF EXISTS " + KEYSPACE + "." + table)
                    .setTimeout(Duration.ofSeconds(60)));
        }
    }

    private static ReadStats readStats(ReadRequest<TelemetryRow> request) {
        try (MergedRows<TelemetryRow> rows = reader.stream(request)) {
            rows.forEachRemaining(r -> {});
            return rows.stats();
        }
    }

    private static long requests(ReadStats stats) {
        return stats.requests();
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
