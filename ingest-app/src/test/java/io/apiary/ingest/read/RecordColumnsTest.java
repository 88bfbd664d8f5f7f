package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import com.datastax.oss.driver.api.core.type.reflect.GenericType;
import io.apiary.ingest.cassandra.CqlTypes;
import io.apiary.ingest.tables.TableCatalog;
import io.apiary.ingest.tables.TableDescriptor;
import io.apiary.ingest.tables.TableNames;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The row records are the read path's one list of each table's columns: held here to {@code cql/}. */
class RecordColumnsTest {

    private static final Map<String, Class<? extends Record>> ROWS = Map.of(
            TableNames.HIVE_TELEMETRY, TelemetryRow.class,
            TableNames.WEATHER_READINGS, WeatherRow.class,
            TableNames.AGENT_ALERTS, AlertRow.class,
            TableNames.HIVE_ACTIVITY, ActivityRow.class);

    @Test
    void every_row_record_reads_its_tables_columns_with_the_drivers_java_types() {
        ROWS.forEach((table, rowType) -> {
            TableDescriptor descriptor = TableCatalog.bundled().table(table);
            RecordColumns<?> record = RecordColumns.of(rowType);

            assertThat(descriptor.columns()).as(table).containsAll(record.names());
            assertThat(record.names())
                    .as("%s: the partition key and clustering columns are read", table)
                    .containsAll(descriptor.clusteringColumns())
                    .containsAll(descriptor.partitionKey().stream()
                            .filter(c -> !c.equals("day") && !c.equals("shard"))
                            .toList());
            var components = rowType.getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                String column = record.names().get(i);
                Class<?> javaType = CodecRegistry.DEFAULT
                        .codecFor(CqlTypes.of(descriptor.cqlType(column)))
                        .getJavaType()
                        .getRawType();
                assertThat(boxed(components[i].getType()))
                        .as("%s.%s", table, column)
                        .isEqualTo(javaType);
            }
        });
    }

    @Test
    void the_output_columns_are_the_components_in_order_with_numbers_on_the_right() {
        List<OutputColumn<WeatherRow>> columns = RowColumns.WEATHER;

        assertThat(columns)
                .extracting(OutputColumn::name)
                .as("the order of WeatherRow's components")
                .startsWith("station_id", "reading_time", "temperature_c")
                .endsWith("rainfall_mm", "solar_radiation_wm2")
                .hasSize(9);
        assertThat(columns)
                .extracting(OutputColumn::align)
                .containsExactly(
                        OutputColumn.Align.LEFT,
                        OutputColumn.Align.LEFT,
                        OutputColumn.Align.RIGHT,
                        OutputColumn.Align.RIGHT,
                        OutputColumn.Align.RIGHT,
                        OutputColumn.Align.RIGHT,
                        OutputColumn.Align.RIGHT,
                        OutputColumn.Align.RIGHT,
                        OutputColumn.Align.RIGHT);
        WeatherRow row = new WeatherRow("ws-1", Instant.EPOCH, 21.5, null, 1013.0, 2.0, 180.0, 0.0, 512.0);
        assertThat(columns)
                .<Object>extracting(c -> c.value().apply(row))
                .containsExactly("ws-1", Instant.EPOCH, 21.5, null, 1013.0, 2.0, 180.0, 0.0, 512.0);
        assertThat(RowColumns.ACTIVITY)
                .extracting(OutputColumn::name)
                .containsExactly("hive_id", "day", "hour", "bees_in", "bees_out", "samples");
        assertThat(RowColumns.ACTIVITY.get(1).value().apply(new ActivityRow("h", LocalDate.EPOCH, 3, 4L, 5L, 6)))
                .isEqualTo(LocalDate.EPOCH);
        assertThat(RowColumns.of(AlertRow.class)).isSameAs(RowColumns.ALERT);
    }

    @Test
    void every_column_outside_the_primary_key_is_a_reference_component_so_a_null_cell_reads_as_null() {
        ROWS.forEach((table, rowType) -> {
            TableDescriptor descriptor = TableCatalog.bundled().table(table);
            List<String> names = RecordColumns.of(rowType).names();
            var components = rowType.getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                String column = names.get(i);
                if (!descriptor.partitionKey().contains(column)
                        && !descriptor.clusteringColumns().contains(column)) {
                    assertThat(components[i].getType().isPrimitive())
                            .as("%s.%s may be null: a primitive would read it as 0", table, column)
                            .isFalse();
                }
            }
        });
    }

    @Test
    void a_null_number_cell_reads_as_null_and_a_zero_as_zero() {
        Instant t = Instant.parse("2021-07-15T11:00:00Z");
        var telemetry = RecordColumns.of(TelemetryRow.class).mapper();
        var activity = RecordColumns.of(ActivityRow.class).mapper();

        assertThat(telemetry.apply(FakeResults.row("h", "S", "default", t, null, "C", "gw")))
                .isEqualTo(new TelemetryRow("h", "S", "default", t, null, "C", "gw"));
        assertThat(telemetry
                        .apply(FakeResults.row("h", "S", "default", t, 0.0, "C", "gw"))
                        .value())
                .isEqualTo(0.0);
        assertThat(activity.apply(FakeResults.row("h", LocalDate.EPOCH, 3, null, 0L, null)))
                .isEqualTo(new ActivityRow("h", LocalDate.EPOCH, 3, null, 0L, null));
        assertThat(activity.apply(FakeResults.row("h", LocalDate.EPOCH, 3, 0L, null, 0)))
                .isEqualTo(new ActivityRow("h", LocalDate.EPOCH, 3, 0L, null, 0));
    }

    @Test
    void a_null_cell_of_a_primitive_component_fails_the_mapping_rather_than_read_as_zero() {
        var activity = RecordColumns.of(ActivityRow.class).mapper();

        assertThatThrownBy(() -> activity.apply(FakeResults.row("h", LocalDate.EPOCH, null, 1L, 2L, 3)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("column hour is null, but ActivityRow reads it into a primitive");
    }

    @Test
    void a_legacy_reading_with_a_null_value_reads_as_null() {
        Instant t = Instant.parse("2021-07-15T11:00:00Z");

        assertThat(TableLayout.LEGACY_TELEMETRY
                        .map(FakeResults.row("h", "S", t, null, "C", "gw"))
                        .value())
                .isNull();
    }

    @Test
    void camel_case_components_are_snake_case_columns() {
        assertThat(RecordColumns.snakeCase("solarRadiationWm2")).isEqualTo("solar_radiation_wm2");
        assertThat(RecordColumns.snakeCase("hiveId")).isEqualTo("hive_id");
        assertThat(RecordColumns.snakeCase("value")).isEqualTo("value");
    }

    @Test
    void a_row_type_that_is_not_a_record_has_no_columns() {
        assertThatThrownBy(() -> RowColumns.of(NotARecord.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a record");
    }

    private static Class<?> boxed(Class<?> type) {
        return GenericType.of(type).wrap().getRawType();
    }

    private static final class NotARecord implements TimedRow {
        @Override
        public Instant time() {
            return Instant.EPOCH;
        }

        @Override
        public String series() {
            return "";
        }
    }
}
