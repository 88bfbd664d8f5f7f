package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.apiary.ingest.bucket.ShardStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reader's plan of requests and what it returns, against {@link FakeTelemetryTables}: which
 * statement each partition gets for a read of one sensor, of a subset, of every sensor, with and
 * without the legacy table, limited and page by page. Cassandra itself is in {@code ReadPathIT}.
 */
class HiveDataReaderTest {

    private static final ShardScheme SCHEME = new ShardScheme(ShardStrategy.TIME, 96);
    private static final String V2 = "hive_telemetry_v2";
    private static final String LEGACY = "hive_telemetry";
    /** 10:00 to 10:30 UTC: two partitions of 15 minutes. */
    private static final Instant T0 = Instant.parse("2021-07-15T10:00:00Z");

    private static final TimeRange HALF_HOUR = new TimeRange(T0, T0.plusSeconds(1_800));

    private static ReadSettings settings(int pageSize) {
        return new ReadSettings(
                "ks",
                List.of(SCHEME),
                List.of(new ShardScheme(ShardStrategy.TIME, 4)),
                4,
                pageSize,
                DefaultConsistencyLevel.LOCAL_QUORUM,
                100_000,
                LEGACY,
                "agent_alerts");
    }

    private static TelemetryRow reading(long second, String type, String sensor, double value) {
        return new TelemetryRow("h", type, sensor, T0.plusSeconds(second), value, "u", "gw");
    }

    /** Two temperature and two humidity sensors, each reading every 5 minutes at the same instants. */
    private static List<TelemetryRow> fourSensors() {
        List<TelemetryRow> rows = new ArrayList<>();
        for (long s = 0; s < 1_800; s += 300) {
            rows.add(reading(s, "TEMPERATURE", "outside", 20 + s / 300.0));
            rows.add(reading(s, "TEMPERATURE", "inside", 35 + s / 300.0));
            rows.add(reading(s, "HUMIDITY", "inside", 60 + s / 300.0));
            rows.add(reading(s, "HUMIDITY", "box", 50 + s / 300.0));
        }
        // Outside the range, in its last partition's 15 minutes and in the next one.
        rows.add(reading(-60, "TEMPERATURE", "inside", 1));
        rows.add(reading(1_800, "TEMPERATURE", "inside", 2));
        return rows;
    }

    private static List<TelemetryRow> read(HiveDataReader reader, ReadRequest<TelemetryRow> request) {
        try (MergedRows<TelemetryRow> rows = reader.stream(request)) {
            List<TelemetryRow> read = new ArrayList<>();
            rows.forEachRemaining(read::add);
            return read;
        }
    }

    private static List<String> sensors(List<TelemetryRow> rows) {
        return rows.stream()
                .map(r -> r.readingTime().getEpochSecond() - T0.getEpochSecond() + " " + r.sensorType() + " "
                        + r.sensorId())
                .toList();
    }

    @ParameterizedTest
    @EnumSource(ReadOrder.class)
    void should_return_every_sensor_of_a_type_at_one_instant_in_order_of_sensor_id_with_one_request_per_partition(
            ReadOrder order) {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(SCHEME).with(V2, fourSensors());
        HiveDataReader reader = new HiveDataReader(cassandra, settings(5_000));

        List<TelemetryRow> read = read(
                reader,
                ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR)
                        .withSensors(List.of(SensorSelector.of("TEMPERATURE")))
                        .withOrder(order));

        List<String> ascending = new ArrayList<>();
        for (long s = 0; s < 1_800; s += 300) {
            ascending.add(s + " TEMPERATURE inside");
            ascending.add(s + " TEMPERATURE outside");
        }
        assertThat(sensors(read)).containsExactlyElementsOf(order == ReadOrder.ASC ? ascending : reversed(ascending));
        // Every sensor of a type: one query per partition, without time bounds (the rows at 09:59
        // and 10:30 are dropped by the reader); the legacy table was looked for and is absent.
        assertThat(cassandra.sent())
                .hasSize(2)
                .allSatisfy(s ->
                        assertThat(s.cql()).endsWith("AND sensor_type IN ?").doesNotContain("reading_time >="));
        assertThat(cassandra.existenceAsked()).containsExactly(LEGACY);
    }

    @Test
    void should_stream_one_sensors_time_slice_when_one_sensor_is_asked_for() {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(SCHEME).with(V2, fourSensors());
        HiveDataReader reader = new HiveDataReader(cassandra, settings(2));

        List<TelemetryRow> read = read(
                reader,
                ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR)
                        .withSensors(List.of(SensorSelector.parse("HUMIDITY:box")))
                        .withOrder(ReadOrder.DESC));

        assertThat(sensors(read))
                .containsExactly(
                        "1500 HUMIDITY box",
                        "1200 HUMIDITY box",
                        "900 HUMIDITY box",
                        "600 HUMIDITY box",
                        "300 HUMIDITY box",
                        "0 HUMIDITY box");
        assertThat(cassandra.sent()).hasSize(2).allSatisfy(s -> {
            assertThat(s.cql())
                    .contains("AND sensor_type = ? AND sensor_id = ? AND reading_time >= ? AND "
                            + "reading_time < ? ORDER BY sensor_type ASC, sensor_id ASC, reading_time DESC");
            assertThat(s.values().subList(3, 5)).containsExactly("HUMIDITY", "box");
        });
        // Not the default sensor: the legacy table cannot hold it, so it is not even looked for.
        assertThat(cassandra.existenceAsked()).isEmpty();
    }

    @Test
    void should_return_only_the_sensors_asked_for_when_a_subset_is_read() {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(SCHEME).with(V2, fourSensors());
        HiveDataReader reader = new HiveDataReader(cassandra, settings(5_000));

        List<TelemetryRow> read = read(
                reader,
                ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR)
                        .withSensors(
                                List.of(SensorSelector.parse("TEMPERATURE:inside"), SensorSelector.parse("HUMIDITY"))));

        assertThat(sensors(read).subList(0, 6))
                .containsExactly(
                        "0 HUMIDITY box",
                        "0 HUMIDITY inside",
                        "0 TEMPERATURE inside",
                        "300 HUMIDITY box",
                        "300 HUMIDITY inside",
                        "300 TEMPERATURE inside");
        assertThat(read).hasSize(18).noneMatch(r -> r.sensorId().equals("outside"));
        assertThat(cassandra.sent()).hasSize(2);
    }

    @ParameterizedTest
    @EnumSource(ReadOrder.class)
    void should_return_each_reading_once_when_the_legacy_table_is_read_beside_the_new_one(ReadOrder order) {
        // 10:00 migrated (sensor default in both); 10:05 written by the new pipeline with real ids and
        // by the old one into the legacy table; 10:10 only in the legacy table; humidity only new.
        FakeTelemetryTables cassandra = new FakeTelemetryTables(SCHEME)
                .with(
                        V2,
                        List.of(
                                reading(0, "TEMPERATURE", "default", 30),
                                reading(300, "TEMPERATURE", "inside", 35),
                                reading(300, "TEMPERATURE", "outside", 21),
                                reading(300, "HUMIDITY", "default", 60)))
                .with(
                        LEGACY,
                        List.of(
                                reading(0, "TEMPERATURE", "x", 30),
                                reading(300, "TEMPERATURE", "x", 35),
                                reading(600, "TEMPERATURE", "x", 33),
                                reading(900, "WEIGHT", "x", 40)));
        HiveDataReader reader = new HiveDataReader(cassandra, settings(5_000));

        try (MergedRows<TelemetryRow> rows = reader.stream(
                ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR).withOrder(order))) {
            List<TelemetryRow> read = new ArrayList<>();
            rows.forEachRemaining(read::add);

            List<String> ascending = List.of(
                    "0 TEMPERATURE default",
                    "300 HUMIDITY default",
                    "300 TEMPERATURE inside",
                    "300 TEMPERATURE outside",
                    "600 TEMPERATURE default",
                    "900 WEIGHT default");
            assertThat(sensors(read))
                    .containsExactlyElementsOf(order == ReadOrder.ASC ? ascending : reversed(ascending));
            assertThat(read.get(order == ReadOrder.ASC ? 4 : 1).value()).isEqualTo(33);
            // Both tables' two partitions, one request each, counted in the statistics.
            assertThat(rows.stats().requests()).isEqualTo(4);
            assertThat(rows.stats().partitionsInRange()).isEqualTo(4);
            assertThat(rows.stats().tables()).containsExactly(V2, LEGACY);
            assertThat(rows.stats().tablesText()).isEqualTo("hive_telemetry_v2 and the legacy hive_telemetry");
        }
        assertThat(cassandra.sent())
                .filteredOn(s -> s.table().equals(LEGACY))
                .hasSize(2)
                .allSatisfy(s -> assertThat(s.cql()).contains("sensor_type IN ? AND reading_time >= ?"));
    }

    @Test
    void should_read_every_sensor_of_a_type_to_hide_legacy_rows_when_only_its_default_sensor_is_asked_for() {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(SCHEME)
                .with(
                        V2,
                        List.of(reading(300, "TEMPERATURE", "inside", 35), reading(600, "TEMPERATURE", "default", 33)))
                .with(LEGACY, List.of(reading(0, "TEMPERATURE", "x", 30), reading(300, "TEMPERATURE", "x", 35)));
        HiveDataReader reader = new HiveDataReader(cassandra, settings(5_000));

        List<TelemetryRow> read = read(
                reader,
                ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR)
                        .withSensors(List.of(SensorSelector.parse("TEMPERATURE:default"))));

        // 10:05 is the sensor inside's (not asked for), so the legacy row of 10:05 is not sensor default's.
        assertThat(sensors(read)).containsExactly("0 TEMPERATURE default", "600 TEMPERATURE default");
        assertThat(cassandra.sent())
                .filteredOn(s -> s.table().equals(V2))
                .allSatisfy(s -> assertThat(s.cql()).endsWith("sensor_type IN ?"));
    }

    @Test
    void should_send_no_request_for_an_absent_legacy_table_and_none_when_it_is_disabled() {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(SCHEME).with(V2, fourSensors());

        try (MergedRows<TelemetryRow> rows = new HiveDataReader(cassandra, settings(5_000))
                .stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR))) {
            rows.forEachRemaining(r -> {});
            assertThat(rows.stats().requests()).isEqualTo(2);
            assertThat(rows.stats().tables()).containsExactly(V2);
        }
        new HiveDataReader(cassandra, settings(5_000).withLegacyTables("", ""))
                .stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR)).close();

        assertThat(cassandra.existenceAsked()).containsExactly(LEGACY);
    }

    @ParameterizedTest
    @EnumSource(ReadOrder.class)
    void should_page_across_sensors_at_equal_times_returning_each_row_once(ReadOrder order) {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(SCHEME)
                .with(V2, fourSensors())
                .with(LEGACY, List.of(reading(0, "TEMPERATURE", "x", 1), reading(0, "WEIGHT", "x", 2)));
        HiveDataReader reader = new HiveDataReader(cassandra, settings(5_000));
        ReadRequest<TelemetryRow> request =
                ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR).withOrder(order);
        List<TelemetryRow> all = read(reader, request);

        for (int limit : new int[] {1, 3}) {
            List<TelemetryRow> paged = new ArrayList<>();
            String token = null;
            do {
                ReadPage<TelemetryRow> page = reader.page(request.withPageToken(token), limit);
                assertThat(page.rows()).hasSizeLessThanOrEqualTo(limit);
                paged.addAll(page.rows());
                token = page.nextPageToken();
            } while (token != null);

            assertThat(paged).as("pages of %d", limit).containsExactlyElementsOf(all);
        }
        // 24 readings of the four sensors, and the legacy weight (its temperature is hidden).
        assertThat(all).hasSize(25);
    }

    @Test
    void should_list_the_sensors_of_a_partition_too_large_to_hold_and_stream_each_when_a_read_is_limited() {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(SCHEME).with(V2, fourSensors());
        // Pages of 3: a limited read holds 3 fetched rows of a partition read whole at most.
        HiveDataReader reader = new HiveDataReader(cassandra, settings(3));
        ReadRequest<TelemetryRow> request = ReadRequest.of(SeriesTable.TELEMETRY, "h", HALF_HOUR)
                .withSensors(List.of(SensorSelector.of("TEMPERATURE"), SensorSelector.parse("HUMIDITY:box")));

        ReadPage<TelemetryRow> page = reader.page(request, 5);

        assertThat(sensors(page.rows()))
                .containsExactly(
                        "0 HUMIDITY box",
                        "0 TEMPERATURE inside",
                        "0 TEMPERATURE outside",
                        "300 HUMIDITY box",
                        "300 TEMPERATURE inside");
        List<String> statements =
                cassandra.sent().stream().map(FakeTelemetryTables.Sent::cql).toList();
        assertThat(statements).anySatisfy(cql -> assertThat(cql).endsWith("GROUP BY sensor_type, sensor_id"));
        // The sensors listed, then those asked for streamed: box, inside, outside (not HUMIDITY inside).
        assertThat(cassandra.sent())
                .filteredOn(s -> s.cql().contains("sensor_id = ?"))
                .extracting(s -> s.values().get(3) + ":" + s.values().get(4))
                .contains("HUMIDITY:box", "TEMPERATURE:inside", "TEMPERATURE:outside")
                .doesNotContain("HUMIDITY:inside");
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        Collections.reverse(copy);
        return copy;
    }

    /** Readings on 3 days of 40 at 96 shards: probed 1,000 partitions a request by default. */
    private static List<TelemetryRow> sparse() {
        List<TelemetryRow> rows = new ArrayList<>();
        for (int day : new int[] {2, 17, 33}) {
            rows.add(new TelemetryRow(
                    "h",
                    "WEIGHT",
                    "default",
                    Instant.parse("2021-07-01T06:00:00Z").plus(java.time.Duration.ofDays(day)),
                    40.0 + day,
                    "kg",
                    "gw"));
        }
        return rows;
    }

    private static final ShardScheme NINETY_SIX = new ShardScheme(ShardStrategy.TIME, 96);

    /** @param per partitions a probe asks about; no legacy table */
    private static ReadSettings probing(int per) {
        return new ReadSettings(
                "ks",
                List.of(NINETY_SIX),
                List.of(new ShardScheme(ShardStrategy.TIME, 4)),
                4,
                5_000,
                DefaultConsistencyLevel.LOCAL_QUORUM,
                100_000,
                "",
                "agent_alerts",
                per,
                400_000);
    }

    private static final TimeRange FORTY_DAYS =
            TimeRange.days(java.time.LocalDate.parse("2021-07-01"), java.time.LocalDate.parse("2021-08-09"));

    @Test
    void should_probe_a_sparse_range_and_query_only_the_partitions_that_hold_rows() {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(NINETY_SIX).with(V2, sparse());
        ReadSettings probing = probing(1_000);

        try (MergedRows<TelemetryRow> rows =
                new HiveDataReader(cassandra, probing).stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", FORTY_DAYS))) {
            List<TelemetryRow> read = new ArrayList<>();
            rows.forEachRemaining(read::add);
            assertThat(read).containsExactlyElementsOf(sparse());
            // 40 days x 96 shards: 10 days a probe (960 partitions), then the 3 partitions with rows
            assertThat(cassandra.probeSizes()).containsExactly(960, 960, 960, 960);
            assertThat(cassandra.sent()).hasSize(3);
            assertThat(rows.stats().requests()).isEqualTo(4 + 3);
            assertThat(rows.stats().partitionsInRange()).isEqualTo(40 * 96);
            assertThat(rows.stats().partitionsRead()).isEqualTo(3);
        }
    }

    @Test
    void should_probe_a_day_of_more_shards_than_a_probe_asks_about_in_pieces() {
        FakeTelemetryTables cassandra = new FakeTelemetryTables(NINETY_SIX).with(V2, sparse());
        ReadSettings probing = probing(40);

        assertThat(read(new HiveDataReader(cassandra, probing), ReadRequest.of(SeriesTable.TELEMETRY, "h", FORTY_DAYS)))
                .containsExactlyElementsOf(sparse());
        assertThat(cassandra.probeSizes()).hasSize(40 * 3).allMatch(n -> n <= 40);
        assertThat(cassandra.sent()).hasSize(3);
    }

    @Test
    void should_read_every_partition_when_cassandra_refuses_the_probe() {
        FakeTelemetryTables cassandra =
                new FakeTelemetryTables(NINETY_SIX).with(V2, sparse()).refusingProbes();
        ReadSettings probing = probing(1_000);

        assertThat(read(new HiveDataReader(cassandra, probing), ReadRequest.of(SeriesTable.TELEMETRY, "h", FORTY_DAYS)))
                .containsExactlyElementsOf(sparse());
        assertThat(cassandra.sent()).as("every partition, as without probes").hasSize(40 * 96);
    }
}
