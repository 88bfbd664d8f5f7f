package io.apiary.ingest.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The descriptors of the bundled {@code cql/} and {@code cql/legacy/}, as every part reads them. */
class TableDescriptorTest {

    private static TableDescriptor table(String name) {
        return TableCatalog.bundled().table(name);
    }

    @Test
    void should_hold_every_table_of_cql_and_cql_legacy() {
        assertThat(TableCatalog.bundled().tables().stream().map(TableDescriptor::name))
                .containsExactlyInAnyOrder(
                        TableNames.HIVE_TELEMETRY,
                        TableNames.HIVE_ACTIVITY,
                        TableNames.WEATHER_READINGS,
                        TableNames.AGENT_ALERTS,
                        TableNames.LEGACY_HIVE_TELEMETRY,
                        TableNames.LEGACY_AGENT_ALERTS);
        assertThat(TableNames.CURRENT)
                .allSatisfy(
                        name -> assertThat(TableCatalog.bundled().find(name)).isPresent());
    }

    @Test
    void should_order_columns_key_then_clustering_then_regular() {
        TableDescriptor telemetry = table(TableNames.HIVE_TELEMETRY);
        assertThat(telemetry.columns())
                .containsExactly(
                        "hive_id",
                        "day",
                        "shard",
                        "sensor_type",
                        "sensor_id",
                        "reading_time",
                        "gateway_id",
                        "value",
                        "unit");
        assertThat(telemetry.primaryKeySize()).isEqualTo(6);
        assertThat(telemetry.regularColumns()).containsExactly("gateway_id", "value", "unit");
        assertThat(telemetry.cqlType("reading_time")).isEqualTo("timestamp");
        assertThat(telemetry.index("value")).isEqualTo(7);
    }

    @Test
    void should_find_the_bucket_time_and_series_columns_by_the_naming_rule() {
        TableDescriptor telemetry = table(TableNames.HIVE_TELEMETRY);
        assertThat(telemetry.dayColumn()).isEqualTo(1);
        assertThat(telemetry.shardColumn()).isEqualTo(2);
        assertThat(telemetry.entityColumns()).containsExactly("hive_id");
        assertThat(telemetry.timeColumn()).contains("reading_time");
        assertThat(telemetry.seriesColumns()).containsExactly("sensor_type", "sensor_id");
        assertThat(telemetry.clusteringOrder())
                .containsExactly("sensor_type ASC", "sensor_id ASC", "reading_time DESC");

        TableDescriptor alerts = table(TableNames.AGENT_ALERTS);
        assertThat(alerts.shardColumn()).isEqualTo(-1);
        assertThat(alerts.timeColumn()).contains("alert_time");
        assertThat(alerts.seriesColumns()).isEmpty();
        assertThat(alerts.clusteringOrder()).containsExactly("alert_time DESC", "alert_id ASC");

        TableDescriptor activity = table(TableNames.HIVE_ACTIVITY);
        assertThat(activity.dayColumn()).isEqualTo(-1); // day is a clustering column there, not a bucket
        assertThat(activity.timeColumn()).isEmpty();
        assertThat(activity.clusteringOrder()).containsExactly("day DESC", "hour DESC");
    }

    @Test
    void should_take_retention_from_default_time_to_live() {
        assertThat(table(TableNames.HIVE_TELEMETRY).retention()).isEqualTo(Duration.ofDays(90));
        assertThat(table(TableNames.HIVE_ACTIVITY).retention()).isEqualTo(Duration.ofDays(730));
        assertThat(table(TableNames.WEATHER_READINGS).retention()).isEqualTo(Duration.ofDays(365));
    }

    @Test
    void should_keep_the_layout_under_another_name() {
        TableDescriptor copy = table(TableNames.HIVE_TELEMETRY).named("hive_telemetry_v3");
        assertThat(copy.name()).isEqualTo("hive_telemetry_v3");
        assertThat(copy.columns()).isEqualTo(table(TableNames.HIVE_TELEMETRY).columns());
    }

    @Test
    void should_name_the_known_tables_when_one_is_missing() {
        assertThatThrownBy(() -> TableCatalog.bundled().table("hive_weight"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no table hive_weight")
                .hasMessageContaining(TableNames.HIVE_TELEMETRY);
        assertThatThrownBy(() -> table(TableNames.HIVE_TELEMETRY).index("nope"))
                .hasMessageContaining("has no column nope");
    }
}
