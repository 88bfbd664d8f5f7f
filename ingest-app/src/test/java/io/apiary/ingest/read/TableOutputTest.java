package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableOutputTest {

    private static String table(List<TelemetryRow> rows, int sizingRows) throws IOException {
        StringWriter out = new StringWriter();
        TableOutput.write(RowColumns.TELEMETRY, rows.iterator(), out, sizingRows);
        return out.toString();
    }

    private static TelemetryRow reading(String hive, double value, String unit) {
        return new TelemetryRow(
                hive, "TEMPERATURE", "inside", Instant.parse("2021-07-15T17:00:00Z"), value, unit, "gw-1");
    }

    @Test
    void should_align_columns_under_the_header_when_values_differ_in_length() throws IOException {
        // Given
        List<TelemetryRow> rows = List.of(reading("3627", 21.5, "C"), reading("hive-0042", 1234.125, "g"));

        // When
        List<String> lines = table(rows, 1_000).lines().toList();

        // Then
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("hive_id    sensor_type  sensor_id  reading_time          ");
        assertThat(lines.get(1)).startsWith("---------  -----------  ---------  --------------------  ");
        int valueEnd = lines.get(0).indexOf("value") + "value".length();
        assertThat(lines.get(2).indexOf("21.5") + "21.5".length()).isEqualTo(valueEnd);
        assertThat(lines.get(3).indexOf("1234.125") + "1234.125".length()).isEqualTo(valueEnd);
        assertThat(lines.get(2).indexOf("gw-1")).isEqualTo(lines.get(3).indexOf("gw-1"));
    }

    @Test
    void should_right_align_numbers_when_printing_a_table() throws IOException {
        // Given
        List<TelemetryRow> rows = List.of(reading("h", 5.0, "C"), reading("h", 1234.125, "C"));

        // When
        List<String> lines = table(rows, 1_000).lines().toList();

        // Then
        int endOfFirst = lines.get(2).indexOf("5.0") + "5.0".length();
        int endOfSecond = lines.get(3).indexOf("1234.125") + "1234.125".length();
        assertThat(endOfFirst).isEqualTo(endOfSecond);
    }

    @Test
    void should_show_a_dash_when_a_value_is_null() throws IOException {
        // Given
        TelemetryRow row =
                new TelemetryRow("h", "S", "default", Instant.parse("2021-07-15T17:00:00Z"), 1.0, null, null);

        // When
        String line = table(List.of(row), 1_000).lines().toList().get(2);

        // Then
        assertThat(line).endsWith("  1.0  -     -");
    }

    @Test
    void should_show_a_dash_for_a_null_number_and_0_for_a_zero() throws IOException {
        // When
        List<String> telemetry = table(List.of(OutputRows.TELEMETRY_NULL, OutputRows.TELEMETRY_ZERO), 1_000)
                .lines()
                .toList();
        StringWriter out = new StringWriter();
        TableOutput.write(
                RowColumns.ACTIVITY,
                List.of(OutputRows.ACTIVITY_NULLS, OutputRows.ACTIVITY_ZEROS).iterator(),
                out,
                10);
        List<String> activity = out.toString().lines().toList();

        // Then
        assertThat(telemetry.get(2)).endsWith("    -  C     gw");
        assertThat(telemetry.get(3)).endsWith("  0.0  C     gw");
        assertThat(activity.get(0)).endsWith("bees_in  bees_out  samples");
        assertThat(activity.get(2)).endsWith("  17        -         0        -");
        assertThat(activity.get(3)).endsWith("  18        0         -        0");
    }

    @Test
    void should_keep_one_row_on_one_line_when_a_value_holds_line_breaks_tabs_and_controls() throws IOException {
        // Given
        TelemetryRow row = reading("evil\nhive\r\there\u0007\u202e", 1.0, "C");

        // When
        List<String> lines = table(List.of(row), 1_000).lines().toList();

        // Then
        assertThat(lines).hasSize(3);
        assertThat(lines.get(2)).startsWith("evil\\nhive\\r\\there\\u0007\\u202E  ");
    }

    @Test
    void should_let_a_later_longer_value_overflow_when_it_comes_after_the_sizing_rows() throws IOException {
        // Given
        List<TelemetryRow> rows =
                List.of(reading("h1", 1.0, "C"), reading("h2", 2.0, "C"), reading("a-much-longer-hive-id", 3.0, "C"));

        // When
        List<String> lines = table(rows, 2).lines().toList();

        // Then
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).startsWith("hive_id  sensor_type");
        assertThat(lines.get(4)).startsWith("a-much-longer-hive-id  TEMPERATURE  inside");
    }

    @Test
    void should_print_only_the_header_when_there_are_no_rows() throws IOException {
        // When
        List<String> lines = table(List.of(), 1_000).lines().toList();

        // Then
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).isEqualTo("hive_id  sensor_type  sensor_id  reading_time  value  unit  gateway_id");
    }
}
