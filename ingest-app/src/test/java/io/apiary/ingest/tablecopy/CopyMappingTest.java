package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.identity.AlertIds;
import io.apiary.ingest.identity.Identifiers;
import io.apiary.ingest.read.ShardScheme;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.WeatherReadingRow;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Source rows become target rows as the topology would have written them. */
class CopyMappingTest {

    private static final ShardScheme TIME_96 = new ShardScheme(ShardStrategy.TIME, 96);
    private static final ShardScheme TIME_48 = new ShardScheme(ShardStrategy.TIME, 48);
    private static final ShardScheme WEATHER_4 = new ShardScheme(ShardStrategy.TIME, 4);
    private static final Instant TEN_THIRTY_FIVE = Instant.parse("2021-07-15T10:35:00Z");

    /** A row of the given columns; a column it does not have is refused, as the driver refuses it. */
    private static ColumnValues row(Map<String, Object> values) {
        return new ColumnValues() {
            @Override
            public <V> V get(String column, Class<V> type) {
                if (!values.containsKey(column)) {
                    throw new IllegalArgumentException(column + " is not a column in this row");
                }
                return type.cast(values.get(column));
            }
        };
    }

    private static Map<String, Object> legacyReading() {
        Map<String, Object> values = new HashMap<>();
        values.put("hive_id", "3627");
        values.put("day", LocalDate.parse("2021-07-15"));
        values.put("shard", 42);
        values.put("sensor_type", "TEMPERATURE");
        values.put("reading_time", TEN_THIRTY_FIVE);
        values.put("gateway_id", "gw-1");
        values.put("value", 35.04);
        values.put("unit", "degC");
        return values;
    }

    @SuppressWarnings("unchecked")
    private static <T extends org.apache.avro.specific.SpecificRecord> CopyMapping<T> mapping(
            TableShape from, TableShape to, ShardScheme telemetry) {
        return (CopyMapping<T>) CopyMapping.of(from, to, telemetry, WEATHER_4).orElseThrow();
    }

    @Test
    void should_give_a_legacy_reading_the_default_sensor_id_and_keep_its_values() {
        HiveTelemetryRow mapped = CopyMappingTest.<HiveTelemetryRow>mapping(
                        TableShape.LEGACY_TELEMETRY, TableShape.TELEMETRY, TIME_96)
                .map(row(legacyReading()));

        assertThat(mapped.getSensorId()).isEqualTo(Identifiers.DEFAULT_SENSOR_ID);
        assertThat(mapped.getHiveId()).isEqualTo("3627");
        assertThat(mapped.getDay()).isEqualTo(LocalDate.parse("2021-07-15"));
        assertThat(mapped.getShard()).isEqualTo(42); // 10:35 is the 43rd quarter hour: the source's own shard
        assertThat(mapped.getReadingTime()).isEqualTo(TEN_THIRTY_FIVE);
        assertThat(mapped.getGatewayId()).isEqualTo("gw-1");
        assertThat(mapped.getValue()).isEqualTo(35.04);
        assertThat(mapped.getUnit()).isEqualTo("degC");
    }

    @Test
    void should_put_a_reading_in_the_shard_of_the_new_shard_count_when_the_count_changed() {
        Map<String, Object> values = legacyReading();
        values.put("shard", 7); // written under another scheme
        values.put("day", LocalDate.parse("2021-07-14")); // and a wrong day: both follow from the reading time

        HiveTelemetryRow mapped = CopyMappingTest.<HiveTelemetryRow>mapping(
                        TableShape.LEGACY_TELEMETRY, TableShape.TELEMETRY, TIME_48)
                .map(row(values));

        assertThat(mapped.getShard())
                .isEqualTo(21)
                .isEqualTo(ShardStrategy.TIME.shard("3627", "TEMPERATURE", TEN_THIRTY_FIVE.toEpochMilli(), 48));
        assertThat(mapped.getDay()).isEqualTo(LocalDate.parse("2021-07-15"));
    }

    @Test
    void should_keep_the_sensor_id_of_a_current_reading() {
        Map<String, Object> values = legacyReading();
        values.put("sensor_id", "t_3");

        HiveTelemetryRow mapped = CopyMappingTest.<HiveTelemetryRow>mapping(
                        TableShape.TELEMETRY, TableShape.TELEMETRY, new ShardScheme(ShardStrategy.HASH, 96))
                .map(row(values));

        assertThat(mapped.getSensorId()).isEqualTo("t_3");
        assertThat(mapped.getShard())
                .isEqualTo(ShardStrategy.HASH.shard("3627", "TEMPERATURE", TEN_THIRTY_FIVE.toEpochMilli(), 96));
    }

    @Test
    void should_give_a_legacy_alert_the_id_derived_from_its_content_as_the_topology_does() {
        Map<String, Object> values = new HashMap<>();
        values.put("agent_id", "agent-1");
        values.put("day", LocalDate.parse("2021-07-15"));
        values.put("alert_time", TEN_THIRTY_FIVE);
        values.put("hive_id", null);
        values.put("severity", "WARNING");
        values.put("alert_type", "BATTERY_LOW");
        values.put("message", "battery at 9%");

        AgentAlertRow mapped = CopyMappingTest.<AgentAlertRow>mapping(
                        TableShape.LEGACY_ALERTS, TableShape.ALERTS, TIME_96)
                .map(row(values));

        assertThat(mapped.getAlertId())
                .isEqualTo(AlertIds.derive(null, "WARNING", "BATTERY_LOW", "battery at 9%"))
                .startsWith(AlertIds.DERIVED_PREFIX);
        assertThat(mapped.getHiveId()).isNull();
        assertThat(mapped.getMessage()).isEqualTo("battery at 9%");

        values.put("alert_id", "agent-own-7");
        AgentAlertRow current = CopyMappingTest.<AgentAlertRow>mapping(TableShape.ALERTS, TableShape.ALERTS, TIME_96)
                .map(row(values));
        assertThat(current.getAlertId()).isEqualTo("agent-own-7");
    }

    @Test
    void should_reshard_a_weather_reading_and_keep_absent_measurements_absent() {
        Map<String, Object> values = new HashMap<>();
        values.put("station_id", "ws-9");
        values.put("day", LocalDate.parse("2021-07-15"));
        values.put("shard", 0);
        values.put("reading_time", TEN_THIRTY_FIVE);
        values.put("temperature_c", 21.5);
        for (String absent : new String[] {
            "relative_humidity",
            "pressure_hpa",
            "wind_speed_ms",
            "wind_direction_deg",
            "rainfall_mm",
            "solar_radiation_wm2"
        }) {
            values.put(absent, null);
        }

        WeatherReadingRow mapped = CopyMappingTest.<WeatherReadingRow>mapping(
                        TableShape.WEATHER, TableShape.WEATHER, TIME_96)
                .map(row(values));

        assertThat(mapped.getShard()).isEqualTo(1); // 10:35 in the second 6-hour slice of 4
        assertThat(mapped.getTemperatureC()).isEqualTo(21.5);
        assertThat(mapped.getPressureHpa()).isNull();
    }

    @Test
    void should_refuse_pairs_it_cannot_map() {
        assertThat(CopyMapping.of(TableShape.LEGACY_TELEMETRY, TableShape.ALERTS, TIME_96, WEATHER_4))
                .isEmpty();
        assertThat(CopyMapping.of(TableShape.TELEMETRY, TableShape.LEGACY_TELEMETRY, TIME_96, WEATHER_4))
                .isEmpty();
        assertThat(CopyMapping.of(TableShape.WEATHER, TableShape.TELEMETRY, TIME_96, WEATHER_4))
                .isEmpty();
    }

    @Test
    void should_name_the_null_column_of_a_row_it_cannot_map() {
        Map<String, Object> values = legacyReading();
        values.put("value", null);

        assertThatThrownBy(() -> mapping(TableShape.LEGACY_TELEMETRY, TableShape.TELEMETRY, TIME_96)
                        .map(row(values)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be mapped to the telemetry layout")
                .hasMessageContaining("value is null");
    }

    @Test
    void should_read_a_stored_row_with_a_null_value_under_its_key_and_name_the_null_column() {
        Map<String, Object> stored = legacyReading();
        stored.put("sensor_id", "default");
        stored.put("value", null);
        CopyMapping<HiveTelemetryRow> mapping = mapping(TableShape.LEGACY_TELEMETRY, TableShape.TELEMETRY, TIME_96);

        CopyMapping.Stored<HiveTelemetryRow> read = mapping.readStored(row(stored));

        assertThat(read.nullColumns()).containsExactly("value");
        assertThat(read.row().getHiveId()).isEqualTo("3627");
        assertThat(read.row().getReadingTime()).isEqualTo(TEN_THIRTY_FIVE);
        assertThat(read.row().getUnit()).isEqualTo("degC");
    }

    @Test
    void should_read_a_whole_stored_row_with_no_null_column() {
        Map<String, Object> stored = legacyReading();
        stored.put("sensor_id", "inside");
        CopyMapping<HiveTelemetryRow> mapping = mapping(TableShape.LEGACY_TELEMETRY, TableShape.TELEMETRY, TIME_96);

        CopyMapping.Stored<HiveTelemetryRow> read = mapping.readStored(row(stored));

        assertThat(read.nullColumns()).isEmpty();
        assertThat(read.row().getValue()).isEqualTo(35.04);
    }
}
