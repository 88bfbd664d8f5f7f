package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.Writer;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class RowOutputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOSTILE = "a,b \"quoted\"\nnext line\r\tend\u0001\u202e";

    static Stream<Arguments> rowsOfEachType() {
        return Stream.of(
                Arguments.of(
                        TelemetryRow.class,
                        OutputRows.TELEMETRY,
                        List.of("hive_id", "sensor_type", "sensor_id", "reading_time", "value", "unit", "gateway_id")),
                Arguments.of(
                        ActivityRow.class,
                        OutputRows.ACTIVITY,
                        List.of("hive_id", "day", "hour", "bees_in", "bees_out", "samples")),
                Arguments.of(
                        WeatherRow.class,
                        OutputRows.WEATHER,
                        List.of(
                                "station_id",
                                "reading_time",
                                "temperature_c",
                                "relative_humidity",
                                "pressure_hpa",
                                "wind_speed_ms",
                                "wind_direction_deg",
                                "rainfall_mm",
                                "solar_radiation_wm2")),
                Arguments.of(
                        AlertRow.class,
                        OutputRows.ALERT,
                        List.of("agent_id", "alert_time", "alert_id", "hive_id", "severity", "alert_type", "message")));
    }

    private static <R extends TimedRow> String write(OutputFormat format, Class<R> type, List<R> rows)
            throws IOException {
        StringWriter out = new StringWriter();
        RowOutput.write(format, type, rows.iterator(), out);
        return out.toString();
    }

    private static List<CSVRecord> parseCsv(String csv) throws IOException {
        return CSVFormat.DEFAULT.parse(new StringReader(csv)).getRecords();
    }

    @ParameterizedTest
    @MethodSource("rowsOfEachType")
    <R extends TimedRow> void should_write_a_header_of_the_cql_column_names_when_writing_csv(
            Class<R> type, R row, List<String> names) throws IOException {
        // When
        List<CSVRecord> records = parseCsv(write(OutputFormat.CSV, type, List.of(row)));

        // Then
        assertThat(records).hasSize(2);
        assertThat(records.get(0).toList()).isEqualTo(names);
        assertThat(records.get(1).size()).isEqualTo(names.size());
    }

    @ParameterizedTest
    @MethodSource("rowsOfEachType")
    <R extends TimedRow> void should_write_one_object_with_the_cql_column_names_when_writing_json(
            Class<R> type, R row, List<String> names) throws IOException {
        // When
        String json = write(OutputFormat.JSON, type, List.of(row, row));

        // Then
        String[] lines = json.split("\n", -1);
        assertThat(lines).hasSize(3);
        assertThat(lines[2]).isEmpty();
        JsonNode object = JSON.readTree(lines[0]);
        assertThat(object.fieldNames()).toIterable().containsExactlyElementsOf(names);
    }

    @Test
    void should_print_values_as_iso_times_and_plain_doubles_with_empty_nulls_when_writing_csv() throws IOException {
        // When
        List<CSVRecord> records = parseCsv(write(OutputFormat.CSV, TelemetryRow.class, List.of(OutputRows.TELEMETRY)));

        // Then
        assertThat(records.get(1).toList())
                .containsExactly("3627", "TEMPERATURE", "inside", "2021-07-15T17:00:00Z", "21.5", "C", "");
    }

    @Test
    void should_print_json_types_and_nulls_when_writing_json() throws IOException {
        // When
        JsonNode weather = JSON.readTree(write(OutputFormat.JSON, WeatherRow.class, List.of(OutputRows.WEATHER)));
        JsonNode activity = JSON.readTree(write(OutputFormat.JSON, ActivityRow.class, List.of(OutputRows.ACTIVITY)));

        // Then
        assertThat(weather.get("reading_time").textValue()).isEqualTo("2021-07-15T17:00:00Z");
        assertThat(weather.get("temperature_c").isNumber()).isTrue();
        assertThat(weather.get("temperature_c").doubleValue()).isEqualTo(24.25);
        assertThat(weather.get("relative_humidity").isNull()).isTrue();
        assertThat(activity.get("day").textValue()).isEqualTo("2021-07-15");
        assertThat(activity.get("bees_in").longValue()).isEqualTo(1200L);
    }

    @Test
    void should_print_a_null_number_as_an_empty_field_and_a_zero_as_zero_when_writing_csv() throws IOException {
        // When
        List<CSVRecord> telemetry = parseCsv(write(
                OutputFormat.CSV, TelemetryRow.class, List.of(OutputRows.TELEMETRY_NULL, OutputRows.TELEMETRY_ZERO)));
        List<CSVRecord> activity = parseCsv(write(
                OutputFormat.CSV, ActivityRow.class, List.of(OutputRows.ACTIVITY_NULLS, OutputRows.ACTIVITY_ZEROS)));

        // Then
        assertThat(telemetry.get(0).get(4)).isEqualTo("value");
        assertThat(telemetry.get(1).get(4)).isEmpty();
        assertThat(telemetry.get(2).get(4)).isEqualTo("0.0");
        assertThat(activity.get(0).toList().subList(3, 6)).containsExactly("bees_in", "bees_out", "samples");
        assertThat(activity.get(1).toList().subList(3, 6)).containsExactly("", "0", "");
        assertThat(activity.get(2).toList().subList(3, 6)).containsExactly("0", "", "0");
    }

    @Test
    void should_print_a_null_number_as_json_null_and_a_zero_as_the_number_zero_when_writing_json() throws IOException {
        // When
        List<JsonNode> telemetry =
                jsonLines(TelemetryRow.class, List.of(OutputRows.TELEMETRY_NULL, OutputRows.TELEMETRY_ZERO));
        List<JsonNode> activity =
                jsonLines(ActivityRow.class, List.of(OutputRows.ACTIVITY_NULLS, OutputRows.ACTIVITY_ZEROS));

        // Then
        assertThat(telemetry.get(0).get("value").isNull()).isTrue();
        assertThat(telemetry.get(1).get("value").isNumber()).isTrue();
        assertThat(telemetry.get(1).get("value").doubleValue()).isZero();
        assertThat(activity.get(0).get("bees_in").isNull()).isTrue();
        assertThat(activity.get(0).get("bees_out").isIntegralNumber()).isTrue();
        assertThat(activity.get(0).get("bees_out").longValue()).isZero();
        assertThat(activity.get(0).get("samples").isNull()).isTrue();
        assertThat(activity.get(1).get("bees_in").longValue()).isZero();
        assertThat(activity.get(1).get("bees_out").isNull()).isTrue();
        assertThat(activity.get(1).get("samples").isIntegralNumber()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(
            value = OutputFormat.class,
            names = {"CSV", "JSON"})
    void should_read_back_the_same_doubles_when_values_have_many_digits(OutputFormat format) throws IOException {
        // Given
        double[] values = {0.1 + 0.2, 1e-7, 123456789.123, -0.0, Double.MIN_VALUE, Double.MAX_VALUE, 21.5};
        List<TelemetryRow> rows = LongStream.range(0, values.length)
                .mapToObj(i -> new TelemetryRow("h", "S", "default", OutputRows.TIME, values[(int) i], null, null))
                .toList();

        // When
        String text = write(format, TelemetryRow.class, rows);

        // Then
        double[] read = format == OutputFormat.CSV
                ? parseCsv(text).stream()
                        .skip(1)
                        .mapToDouble(r -> Double.parseDouble(r.get(4)))
                        .toArray()
                : text.lines()
                        .mapToDouble(line -> readJson(line).get("value").doubleValue())
                        .toArray();
        assertThat(read).containsExactly(values);
        assertThat(text).contains("21.5").doesNotContain("21.50");
    }

    @Test
    void should_keep_hostile_text_intact_when_writing_csv() throws IOException {
        // Given
        AlertRow row = new AlertRow("agent,\"1\"", OutputRows.TIME, "a-1", "h", "W", "T", HOSTILE);

        // When
        List<CSVRecord> records = parseCsv(write(OutputFormat.CSV, AlertRow.class, List.of(row)));

        // Then
        assertThat(records).hasSize(2);
        assertThat(records.get(1).get(0)).isEqualTo("agent,\"1\"");
        assertThat(records.get(1).get(6)).isEqualTo(HOSTILE);
    }

    @Test
    void should_keep_hostile_text_intact_on_one_line_when_writing_json() throws IOException {
        // Given
        AlertRow row = new AlertRow("agent,\"1\"", OutputRows.TIME, "a-1", "h", "W", "T", HOSTILE);

        // When
        String json = write(OutputFormat.JSON, AlertRow.class, List.of(row));

        // Then
        assertThat(json.lines()).hasSize(1);
        assertThat(JSON.readTree(json).get("message").textValue()).isEqualTo(HOSTILE);
        assertThat(JSON.readTree(json).get("agent_id").textValue()).isEqualTo("agent,\"1\"");
    }

    @ParameterizedTest
    @EnumSource(
            value = OutputFormat.class,
            names = {"CSV", "JSON"})
    void should_write_output_before_the_last_row_is_read_when_streaming(OutputFormat format) throws IOException {
        // Given
        long total = 200_000;
        AtomicLong pulled = new AtomicLong();
        AtomicLong pulledAtFirstWrite = new AtomicLong(-1);
        Iterator<TelemetryRow> rows = LongStream.range(0, total)
                .mapToObj(i -> {
                    pulled.incrementAndGet();
                    return new TelemetryRow("h", "S", "default", Instant.ofEpochMilli(i), (double) i, "C", "g");
                })
                .iterator();
        Writer out = new Writer() {
            @Override
            public void write(char[] buf, int off, int len) {
                pulledAtFirstWrite.compareAndSet(-1, pulled.get());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };

        // When
        long written = RowOutput.write(format, TelemetryRow.class, rows, out);

        // Then
        assertThat(written).isEqualTo(total);
        assertThat(pulledAtFirstWrite.get()).isBetween(0L, total / 10);
    }

    @ParameterizedTest
    @EnumSource(OutputFormat.class)
    void should_leave_the_writer_open_when_done(OutputFormat format) throws IOException {
        // Given
        StringWriter target = new StringWriter();
        Writer out = new java.io.FilterWriter(target) {
            private boolean closed;

            @Override
            public void write(String str, int off, int len) throws IOException {
                if (closed) {
                    throw new IOException("closed");
                }
                super.write(str, off, len);
            }

            @Override
            public void close() {
                closed = true;
            }
        };

        // When
        RowOutput.write(
                format, TelemetryRow.class, List.of(OutputRows.TELEMETRY).iterator(), out);
        out.write("after");

        // Then
        assertThat(target.toString()).endsWith("after");
    }

    private static <R extends TimedRow> List<JsonNode> jsonLines(Class<R> type, List<R> rows) throws IOException {
        return write(OutputFormat.JSON, type, rows)
                .lines()
                .map(RowOutputTest::readJson)
                .toList();
    }

    private static JsonNode readJson(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
