package io.apiary.ingest.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import org.junit.jupiter.api.Test;

class CsvReadingParserTest {

    private final CsvReadingParser parser = new CsvReadingParser("Date",
            new ReadingTimeParser("yyyy-MM-dd HH:mm:ss[XXX]", ZoneOffset.ofHours(-5)), "Tag number",
            columns("temperature=TEMPERATURE:degC", "humidity=HUMIDITY:%RH"), "gw", ',');
    private final List<TelemetryReading> readings = new ArrayList<>();
    private final List<CsvReadingParser.Problem> problems = new ArrayList<>();

    @Test
    void should_turn_each_sensor_cell_into_a_reading_with_the_time_read_in_utc() {
        CsvReadingParser.Totals totals = parse("""
                Date,Tag number,temperature,humidity
                2021-06-19 00:04:58+00:00,3629,26.24,35.45
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 2, 0, 0));
        assertThat(readings).containsExactly(
                new TelemetryReading("3629", "gw", SensorType.TEMPERATURE, "default", Instant.parse("2021-06-19T00:04:58Z"), 26.24, "degC", null),
                new TelemetryReading("3629", "gw", SensorType.HUMIDITY, "default", Instant.parse("2021-06-19T00:04:58Z"), 35.45, "%RH", null));
    }

    @Test
    void should_read_times_without_offset_in_the_given_zone() {
        parse("Date,Tag number,temperature,humidity\n2021-06-01 00:00:00,1,14.6,56.0\n");

        assertThat(readings.get(0).getReadingTime()).isEqualTo(Instant.parse("2021-06-01T05:00:00Z"));
    }

    @Test
    void should_report_each_bad_row_and_cell_with_its_line_number_and_keep_the_good_ones() {
        CsvReadingParser.Totals totals = parse("""
                Date,Tag number,temperature,humidity
                2021-06-19 00:04:58+00:00,3629,26.24,35.45
                yesterday,3629,26.0,35.0
                2021-06-19 00:34:58+00:00,,26.0,35.0
                2021-06-19 00:49:58+00:00,3629,NaN,
                2021-06-19 01:04:58+00:00,3629,warm,40
                2021-06-19 01:19:58+00:00,3629,26.0
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(6, 3, 3, 3));
        assertThat(problems).extracting(CsvReadingParser.Problem::toString).containsExactly(
                "line 3, column 'Date': cannot read time 'yesterday' with the time format 'yyyy-MM-dd HH:mm:ss[XXX]' "
                        + "(--time-format: iso, epoch-ms, epoch-s or a java.time pattern): Text 'yesterday' could not be "
                        + "parsed at index 0",
                "line 4, column 'Tag number': no hive id",
                "line 5, column 'temperature': not a finite decimal number: 'NaN'",
                "line 5, column 'humidity': empty cell, no reading",
                "line 6, column 'temperature': not a finite decimal number: 'warm'",
                "line 7: expected 4 fields, found 3");
    }

    @Test
    void should_skip_a_byte_order_mark_and_refuse_hexadecimal_and_suffixed_numbers() {
        CsvReadingParser.Totals totals = parse("\uFEFFDate,Tag number,temperature,humidity\n"
                + "2021-06-19 00:04:58+00:00,3629,0x1p3,2.5f\n");

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 0, 0, 2));
        assertThat(problems).extracting(CsvReadingParser.Problem::message)
                .containsExactly("not a finite decimal number: '0x1p3'", "not a finite decimal number: '2.5f'");
    }

    @Test
    void should_report_a_reading_the_consumer_refuses_and_go_on() {
        CsvReadingParser.Totals totals = parser.parse(new StringReader("""
                Date,Tag number,temperature,humidity
                2021-06-19 00:04:58+00:00,3629,26.24,35.45
                """), r -> {
                    if (r.getSensorType() == SensorType.HUMIDITY) {
                        throw new CsvReadingParser.RejectedReading("too large for Kafka");
                    }
                    readings.add(r);
                }, problems::add);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 1, 0, 1));
        assertThat(problems).extracting(Object::toString).containsExactly("line 2, column 'humidity': too large for Kafka");
    }

    @Test
    void should_refuse_an_empty_file_and_a_header_that_names_a_column_twice() {
        assertThatThrownBy(() -> parse("")).hasMessage("The CSV is empty: it has no header line");
        assertThatThrownBy(() -> parse("Date,Tag number,temperature,temperature,humidity\n"))
                .hasMessageContaining("The CSV header is not usable").hasMessageContaining("temperature");
    }

    @Test
    void should_name_the_missing_and_available_columns_when_the_header_does_not_match() {
        assertThatThrownBy(() -> parse("time,hive,temperature\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lacks column(s) 'Date', 'Tag number', 'humidity'")
                .hasMessageContaining("[time, hive, temperature]");
    }

    @Test
    void should_keep_two_columns_of_one_type_apart_by_sensor_ids_made_from_their_names() {
        CsvReadingParser twoProbes = new CsvReadingParser("time", new ReadingTimeParser("iso", ZoneOffset.UTC), "hive",
                columns("Temp (inside)=TEMPERATURE:degC", "temp_out=TEMPERATURE:degC", "rh=HUMIDITY:%RH"), "gw", ',');

        CsvReadingParser.Totals totals = twoProbes.parse(new StringReader("""
                time,hive,Temp (inside),temp_out,rh
                2021-07-15T11:03:43Z,3627,35.04,21.5,60
                """), readings::add, problems::add);

        Instant t = Instant.parse("2021-07-15T11:03:43Z");
        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 3, 0, 0));
        assertThat(readings).containsExactly(
                new TelemetryReading("3627", "gw", SensorType.TEMPERATURE, "Temp_inside", t, 35.04, "degC", null),
                new TelemetryReading("3627", "gw", SensorType.TEMPERATURE, "temp_out", t, 21.5, "degC", null),
                new TelemetryReading("3627", "gw", SensorType.HUMIDITY, "default", t, 60.0, "%RH", null));
    }

    @Test
    void should_give_each_reading_its_line_so_that_a_conflicting_duplicate_names_both_lines() {
        DuplicateReadings duplicates = new DuplicateReadings(100);
        List<DuplicateReadings.Conflict> conflicts = new ArrayList<>();

        parser.parseWithLines(new StringReader("""
                Date,Tag number,temperature,humidity
                2021-07-15 11:03:43+00:00,3627,35.04,50.1

                2021-07-15 11:03:43+00:00,3627,35.1,50.1
                """), (reading, line) -> {
                    DuplicateReadings.Conflict conflict = duplicates.offer(reading, line);
                    if (conflict != null) {
                        conflicts.add(conflict);
                    }
                }, problems::add);

        assertThat(conflicts).extracting(Object::toString).containsExactly("lines 2 and 4: hive 3627 TEMPERATURE"
                + " sensor default at 2021-07-15T11:03:43Z: 35.04 degC and 35.1 degC");
        assertThat(duplicates.duplicates()).isEqualTo(1);
    }

    @Test
    void should_refuse_two_columns_of_one_series() {
        List<SensorColumn> oneSeries = List.of(new SensorColumn("a", SensorType.TEMPERATURE, "degC", "x"),
                new SensorColumn("b", SensorType.TEMPERATURE, "degC", "x"));

        assertThatThrownBy(() -> new CsvReadingParser("Date", new ReadingTimeParser("iso", ZoneOffset.UTC), "hive",
                oneSeries, "gw", ',')).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Sensor columns 'a' and 'b' would both be TEMPERATURE sensor 'x'");
    }

    private CsvReadingParser.Totals parse(String csv) {
        return parser.parse(new StringReader(csv), readings::add, problems::add);
    }

    private static List<SensorColumn> columns(String... specs) {
        return SensorMapping.resolve(java.util.Arrays.stream(specs).map(SensorColumnSpec::parse).toList());
    }
}
