package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import io.apiary.ingest.bucket.ShardStrategy;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Shard schemes, page tokens, sensor selectors, the CQL of each table and the reader's refusals, without Cassandra. */
class ReadTypesTest {

    private static final ReadSettings SETTINGS = new ReadSettings(
            "ks",
            List.of(new ShardScheme(ShardStrategy.TIME, 96)),
            List.of(new ShardScheme(ShardStrategy.TIME, 4)),
            16,
            5_000,
            DefaultConsistencyLevel.LOCAL_QUORUM,
            100_000,
            "hive_telemetry",
            "agent_alerts");

    @Test
    void should_parse_a_shard_scheme_and_name_the_form_when_it_cannot() {
        assertThat(ShardScheme.parse(" hash:96 ")).isEqualTo(new ShardScheme(ShardStrategy.HASH, 96));
        assertThatThrownBy(() -> ShardScheme.parse("time")).hasMessageContaining("write STRATEGY:COUNT");
        assertThatThrownBy(() -> ShardScheme.parse("time:0")).hasMessageContaining("1 to 100000");
        assertThatThrownBy(() -> ShardScheme.parse("round:4")).hasMessageContaining("use 'time' or 'hash'");
    }

    @Test
    void should_round_trip_a_page_token_with_its_sensor_id_and_refuse_one_of_another_table_order_or_garbage() {
        PageToken token = new PageToken(
                "hive_telemetry_v2", ReadOrder.DESC, Instant.parse("2021-07-15T10:00:00Z"), "TEMPERATURE", "inside");

        assertThat(PageToken.decode(token.encode(), "hive_telemetry_v2", ReadOrder.DESC))
                .isEqualTo(token);
        assertThatThrownBy(() -> PageToken.decode(token.encode(), "hive_telemetry_v2", ReadOrder.ASC))
                .hasMessageContaining("continues a read of hive_telemetry_v2 in desc order");
        assertThatThrownBy(() -> PageToken.decode("%%%", "hive_telemetry_v2", ReadOrder.DESC))
                .hasMessageContaining("is not a page token");
        assertThatThrownBy(() -> PageToken.decode(token.encode().substring(3), "hive_telemetry_v2", ReadOrder.DESC))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_refuse_a_page_token_of_the_format_before_sensor_ids_saying_what_to_do() {
        // The example token of docs/analysts.md of format 1: hive_telemetry, DESC, a time, TEMPERATURE.
        String old = "MQpoaXZlX3RlbGVtZXRyeQpERVNDCjE2MjY0Nzc0NDQwMDAKVEVNUEVSQVRVUkU";
        assertThat(new String(Base64.getUrlDecoder().decode(old), StandardCharsets.UTF_8))
                .startsWith("1\nhive_telemetry\n");

        assertThatThrownBy(() -> PageToken.decode(old, "hive_telemetry_v2", ReadOrder.DESC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "is a page token of an earlier version of ingest-app (format 1, before sensor ids)")
                .hasMessageContaining("run the query again without --page-token");
    }

    @Test
    void should_parse_a_sensor_as_a_type_or_a_type_and_id_and_say_what_is_wrong_with_either() {
        assertThat(SensorSelector.parse(" temperature ")).isEqualTo(SensorSelector.of("TEMPERATURE"));
        assertThat(SensorSelector.parse("TEMPERATURE:inside")).isEqualTo(new SensorSelector("TEMPERATURE", "inside"));
        assertThat(SensorSelector.parse("TEMPERATURE:Inside").sensorId())
                .as("case matters in ids")
                .isEqualTo("Inside");
        assertThatThrownBy(() -> SensorSelector.parse("NOISE:x"))
                .hasMessageContaining("NOISE is not a sensor type: use one of TEMPERATURE, HUMIDITY")
                .hasMessageNotContaining("UNKNOWN");
        assertThatThrownBy(() -> SensorSelector.parse("unknown")).hasMessageContaining("UNKNOWN is never stored");
        assertThatThrownBy(() -> SensorSelector.parse("TEMPERATURE:in side"))
                .hasMessage("TEMPERATURE:in side: the sensor id has the character U+0020 at position 3; "
                        + "only ASCII letters, digits, '_', '-' and '.' are accepted");
        assertThatThrownBy(() -> SensorSelector.parse("TEMPERATURE:")).hasMessageContaining("the sensor id is empty");
    }

    @Test
    void should_select_every_sensor_of_a_type_named_alone_and_single_sensors_otherwise() {
        SensorSelection selection = SensorSelection.of(List.of(
                SensorSelector.parse("TEMPERATURE:inside"),
                SensorSelector.parse("HUMIDITY"),
                SensorSelector.parse("TEMPERATURE:outside"),
                SensorSelector.parse("WEIGHT:default"),
                SensorSelector.parse("HUMIDITY:box")));

        assertThat(selection.types()).containsExactly("TEMPERATURE", "HUMIDITY", "WEIGHT");
        assertThat(selection.includes("TEMPERATURE", "outside")).isTrue();
        assertThat(selection.includes("TEMPERATURE", "brood")).isFalse();
        assertThat(selection.includes("HUMIDITY", "anything")).isTrue();
        assertThat(selection.single(List.of("WEIGHT"))).isEqualTo(new SensorSelection.Sensor("WEIGHT", "default"));
        assertThat(selection.single(List.of("TEMPERATURE"))).as("two sensors").isNull();
        assertThat(selection.single(List.of("HUMIDITY"))).as("every sensor").isNull();
        assertThat(selection.typesWithDefaultSensor()).containsExactly("HUMIDITY", "WEIGHT");
        assertThat(SensorSelection.of(List.of()).types())
                .contains("TEMPERATURE", "VIBRATION")
                .hasSize(9);
    }

    @Test
    void should_query_one_partition_by_its_whole_key_in_every_statement_of_every_table() {
        java.util.Map<TableLayout<?>, String> keys = new java.util.LinkedHashMap<>();
        keys.put(TableLayout.TELEMETRY, "hive_id = ? AND day = ? AND shard = ?");
        keys.put(TableLayout.LEGACY_TELEMETRY, "hive_id = ? AND day = ? AND shard = ?");
        keys.put(TableLayout.WEATHER, "station_id = ? AND day = ? AND shard = ?");
        keys.put(TableLayout.ALERTS, "agent_id = ? AND day = ?");
        keys.put(TableLayout.LEGACY_ALERTS, "agent_id = ? AND day = ?");
        keys.put(TableLayout.ACTIVITY, "hive_id = ?");
        int statements = 0;
        for (var entry : keys.entrySet()) {
            TableLayout<?> layout = entry.getKey();
            List<String> cql = new ArrayList<>();
            for (ReadOrder order : ReadOrder.values()) {
                cql.add(layout.sliceCql("ks", layout.name(), order));
            }
            if (layout.hasSensorTypes()) {
                cql.add(layout.typesCql("ks", layout.name(), false));
            }
            if (layout.hasSensorTypes() && !layout.hasSensorIds()) {
                cql.add(layout.typesCql("ks", layout.name(), true));
            }
            if (layout.hasSensorIds()) {
                cql.add(layout.sensorsCql("ks", layout.name()));
            }
            statements += cql.size();
            assertThat(cql)
                    .as(layout.name())
                    .allSatisfy(text -> assertThat(text)
                            .contains(" FROM ks." + layout.name() + " WHERE " + entry.getValue() + " AND ")
                            .doesNotContainIgnoringCase("ALLOW FILTERING")
                            .doesNotContainIgnoringCase("token(")
                            .doesNotContainPattern("(hive_id|station_id|agent_id|day|shard) IN"));
        }
        assertThat(statements).isEqualTo(16);
    }

    @Test
    void should_slice_the_time_only_where_the_sensor_columns_before_it_are_fixed() {
        assertThat(TableLayout.TELEMETRY.sliceCql("ks", "hive_telemetry_v2", ReadOrder.ASC))
                .isEqualTo("SELECT hive_id, "
                        + "sensor_type, sensor_id, reading_time, value, unit, gateway_id FROM ks.hive_telemetry_v2 WHERE hive_id = ? "
                        + "AND day = ? AND shard = ? AND sensor_type = ? AND sensor_id = ? AND reading_time >= ? AND "
                        + "reading_time < ? ORDER BY sensor_type DESC, sensor_id DESC, reading_time ASC");
        assertThat(TableLayout.TELEMETRY.sliceCql("ks", "hive_telemetry_v2", ReadOrder.DESC))
                .endsWith("ORDER BY sensor_type ASC, sensor_id ASC, reading_time DESC");
        // Every sensor of some types: IN on the first clustering column, the whole partition, no time bounds.
        assertThat(TableLayout.TELEMETRY.typesCql("ks", "hive_telemetry_v2", false))
                .isEqualTo("SELECT hive_id, "
                        + "sensor_type, sensor_id, reading_time, value, unit, gateway_id FROM ks.hive_telemetry_v2 WHERE hive_id = ? "
                        + "AND day = ? AND shard = ? AND sensor_type IN ?");
        assertThatThrownBy(() -> TableLayout.TELEMETRY.typesCql("ks", "hive_telemetry_v2", true))
                .isInstanceOf(IllegalStateException.class);
        // The sensors of a partition: GROUP BY a clustering prefix of one partition.
        assertThat(TableLayout.TELEMETRY.sensorsCql("ks", "hive_telemetry_v2"))
                .isEqualTo("SELECT sensor_type, "
                        + "sensor_id FROM ks.hive_telemetry_v2 WHERE hive_id = ? AND day = ? AND shard = ? AND sensor_type IN ? "
                        + "GROUP BY sensor_type, sensor_id");
        // The legacy layout, named as configured, can slice the time of several types.
        assertThat(TableLayout.LEGACY_TELEMETRY.typesCql("ks", "old_readings", true))
                .isEqualTo("SELECT hive_id, "
                        + "sensor_type, reading_time, value, unit, gateway_id FROM ks.old_readings WHERE hive_id = ? AND day = ? "
                        + "AND shard = ? AND sensor_type IN ? AND reading_time >= ? AND reading_time < ?");
        assertThat(TableLayout.ALERTS.sliceCql("ks", "agent_alerts_v2", ReadOrder.ASC))
                .isEqualTo("SELECT agent_id, "
                        + "alert_time, alert_id, hive_id, severity, alert_type, message FROM ks.agent_alerts_v2 WHERE agent_id = ? "
                        + "AND day = ? AND alert_time >= ? AND alert_time < ? ORDER BY alert_time ASC, alert_id DESC");
        for (TableLayout<?> layout : List.of(TableLayout.WEATHER, TableLayout.ALERTS, TableLayout.ACTIVITY)) {
            assertThatThrownBy(() -> layout.typesCql("ks", layout.name(), false))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> layout.sensorsCql("ks", layout.name())).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void should_read_the_hours_that_start_in_the_range_from_hive_activity() {
        TimeRange range = new TimeRange(Instant.parse("2021-07-15T10:30:00Z"), Instant.parse("2021-07-15T12:00:01Z"));

        List<SeriesTable.Slice> slices = SeriesTable.ACTIVITY.slices("h", "", range, List.of());

        assertThat(slices).singleElement().satisfies(s -> {
            assertThat(Instant.ofEpochMilli(s.fromMillis())).isEqualTo(Instant.parse("2021-07-15T11:00:00Z"));
            assertThat(Instant.ofEpochMilli(s.toMillis())).isEqualTo(Instant.parse("2021-07-15T13:00:00Z"));
        });
        assertThat(SeriesTable.ACTIVITY.slices(
                        "h",
                        "",
                        new TimeRange(Instant.parse("2021-07-15T10:30:00Z"), Instant.parse("2021-07-15T10:59:00Z")),
                        List.of()))
                .isEmpty();
    }

    @Test
    void should_refuse_a_read_that_would_plan_more_partition_queries_than_the_setting_before_querying() {
        CqlSession unreachable = (CqlSession) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {CqlSession.class}, (proxy, method, args) -> {
                    throw new AssertionError("Cassandra must not be asked: " + method.getName());
                });
        HiveDataReader reader = new HiveDataReader(unreachable, SETTINGS);
        TimeRange decade = TimeRange.days(LocalDate.of(2020, 1, 1), LocalDate.of(2029, 12, 31));

        // Every sensor type of a partition is one query: 96 a day, not 9 x 96.
        assertThatThrownBy(() -> reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", decade)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("could take up to 350,688 partition queries (3,653 days x 96 per day)")
                .hasMessageContaining("read.max.partition.queries (100,000)");
        assertThatThrownBy(() -> reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", decade)
                        .withSensors(List.of(SensorSelector.parse("WEIGHT:scale")))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("could take up to 350,688 partition queries (3,653 days x 96 per day)");
    }

    @Test
    void should_count_the_legacy_tables_partitions_against_the_setting_only_when_the_table_exists() {
        TimeRange twoYears = TimeRange.days(LocalDate.of(2020, 1, 1), LocalDate.of(2021, 12, 31));
        List<String> asked = new ArrayList<>();
        for (boolean exists : new boolean[] {false, true}) {
            HiveDataReader reader = new HiveDataReader(
                    new ReadBackend() {
                        @Override
                        public Supplier<CompletionStage<AsyncResultSet>> request(
                                String table, String cql, Object[] values, int pageSize) {
                            throw new AssertionError("Cassandra is asked: " + table);
                        }

                        @Override
                        public boolean tableExists(String table) {
                            asked.add(table);
                            return exists;
                        }
                    },
                    SETTINGS);

            // 731 days x 96 = 70,176 queries; twice that with the legacy table.
            if (exists) {
                assertThatThrownBy(() -> reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", twoYears)))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("could take up to 140,352 partition queries (731 days x 192 per day, "
                                + "in hive_telemetry_v2 and the legacy hive_telemetry)");
            } else {
                assertThatThrownBy(() -> reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", twoYears)))
                        .isInstanceOf(AssertionError.class)
                        .hasMessage("Cassandra is asked: hive_telemetry_v2");
            }
        }
        assertThat(asked).containsExactly("hive_telemetry", "hive_telemetry");
    }

    @Test
    void should_refuse_a_legacy_table_name_that_is_not_an_identifier_or_a_current_table() {
        assertThat(ReadSettings.legacyTableProblem("")).isNull();
        assertThat(ReadSettings.legacyTableProblem("hive_telemetry")).isNull();
        assertThat(ReadSettings.legacyTableProblem("x; DROP TABLE y")).contains("is not a table name");
        assertThat(ReadSettings.legacyTableProblem("hive_telemetry_v2")).contains("is a current table");
        assertThatThrownBy(() -> SETTINGS.withLegacyTables("a.b", ""))
                .hasMessageContaining("'a.b' is not a table name");
    }
}
