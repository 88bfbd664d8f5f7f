package io.apiary.ingest.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.io.StringReader;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvReadingParserTest {

    private final CsvReadingParser parser = new CsvReadingParser(
            "Date",
            new ReadingTimeParser("yyyy-MM-dd HH:mm:ss[XXX]", ZoneOffset.ofHours(-5)),
            "Tag number",
            columns("temperature=TEMPERATURE:degC", "humidity=HUMIDITY:%RH"),
            "gw",
            ',');
    private final List<TelemetryReading> readings = new ArrayList<>();
    private final List<CsvReadingParser.Problem> problems = new ArrayList<>();

    @Test
    void should_turn_each_sensor_cell_into_a_reading_with_the_time_read_in_utc() {
        CsvReadingParser.Totals totals = parse("""
                Date,Tag number,temperature,humidity
                2021-06-19 00:04:58+00:00,3629,26.24,35.45
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 2, 0, 0));
        assertThat(readings)
                .containsExactly(
                        new TelemetryReading(
                                "3629",
                                "gw",
                                SensorType.TEMPERATURE,
                                "default",
                                Instant.parse("2021-06-19T00:04:58Z"),
                                26.24,
                                "degC",
                                null),
                        new TelemetryReading(
                                "3629",
                                "gw",
                                SensorType.HUMIDITY,
                                "default",
                                Instant.parse("2021-06-19T00:04:58Z"),
                                35.45,
                                "%RH",
                                null));
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

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(6, 3, 3, 2, 0, 0, 1));
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::toString)
                .containsExactly(
                        "line 3, column 'Date': cannot read time 'yesterday' with the time format 'yyyy-MM-dd HH:mm:ss[XXX]' "
                                + "(--time-format: iso, epoch-ms, epoch-s, elapsed-ms, elapsed-s, elapsed-min, elapsed-h or a java.time "
                                + "pattern): Text 'yesterday' could not be "
                                + "parsed at index 0",
                        "line 4, column 'Tag number': no hive id",
                        "line 5, column 'temperature': not a finite decimal number: 'NaN'",
                        "line 6, column 'temperature': not a finite decimal number: 'warm'",
                        "line 7: expected 4 fields, found 3");
    }

    @Test
    void should_skip_a_byte_order_mark_and_refuse_hexadecimal_and_suffixed_numbers() {
        CsvReadingParser.Totals totals =
                parse("\uFEFFDate,Tag number,temperature,humidity\n" + "2021-06-19 00:04:58+00:00,3629,0x1p3,2.5f\n");

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 0, 0, 2));
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::message)
                .containsExactly("not a finite decimal number: '0x1p3'", "not a finite decimal number: '2.5f'");
    }

    @Test
    void should_report_a_reading_the_consumer_refuses_and_go_on() {
        CsvReadingParser.Totals totals = parser.parse(
                new StringReader("""
                Date,Tag number,temperature,humidity
                2021-06-19 00:04:58+00:00,3629,26.24,35.45
                """),
                r -> {
                    if (r.getSensorType() == SensorType.HUMIDITY) {
                        throw new CsvReadingParser.RejectedReading("too large for Kafka");
                    }
                    readings.add(r);
                },
                problems::add);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 1, 0, 1));
        assertThat(problems)
                .extracting(Object::toString)
                .containsExactly("line 2, column 'humidity': too large for Kafka");
    }

    @Test
    void should_refuse_an_empty_file_and_a_header_that_names_a_column_twice() {
        assertThatThrownBy(() -> parse("")).hasMessage("The CSV is empty: it has no header line");
        assertThatThrownBy(() -> parse("Date,Tag number,temperature,temperature,humidity\n"))
                .hasMessageContaining("The CSV header is not usable")
                .hasMessageContaining("temperature");
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
        CsvReadingParser twoProbes = new CsvReadingParser(
                "time",
                new ReadingTimeParser("iso", ZoneOffset.UTC),
                "hive",
                columns("Temp (inside)=TEMPERATURE:degC", "temp_out=TEMPERATURE:degC", "rh=HUMIDITY:%RH"),
                "gw",
                ',');

        CsvReadingParser.Totals totals = twoProbes.parse(new StringReader("""
                time,hive,Temp (inside),temp_out,rh
                2021-07-15T11:03:43Z,3627,35.04,21.5,60
                """), readings::add, problems::add);

        Instant t = Instant.parse("2021-07-15T11:03:43Z");
        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 3, 0, 0));
        assertThat(readings)
                .containsExactly(
                        new TelemetryReading(
                                "3627", "gw", SensorType.TEMPERATURE, "Temp_inside", t, 35.04, "degC", null),
                        new TelemetryReading("3627", "gw", SensorType.TEMPERATURE, "temp_out", t, 21.5, "degC", null),
                        new TelemetryReading("3627", "gw", SensorType.HUMIDITY, "default", t, 60.0, "%RH", null));
    }

    @Test
    void should_give_each_reading_its_line_so_that_a_conflicting_duplicate_names_both_lines() {
        DuplicateReadings duplicates = new DuplicateReadings(100);
        List<DuplicateReadings.Conflict> conflicts = new ArrayList<>();

        parser.parseWithLines(
                new StringReader("""
                Date,Tag number,temperature,humidity
                2021-07-15 11:03:43+00:00,3627,35.04,50.1

                2021-07-15 11:03:43+00:00,3627,35.1,50.1
                """),
                (reading, line) -> {
                    DuplicateReadings.Conflict conflict = duplicates.offer(reading, line);
                    if (conflict != null) {
                        conflicts.add(conflict);
                    }
                },
                problems::add);

        assertThat(conflicts)
                .extracting(Object::toString)
                .containsExactly("lines 2 and 4: hive 3627 TEMPERATURE"
                        + " sensor default at 2021-07-15T11:03:43Z: 35.04 degC and 35.1 degC");
        assertThat(duplicates.duplicates()).isEqualTo(1);
    }

    @Test
    void should_refuse_two_columns_of_one_series() {
        List<SensorColumn> oneSeries = List.of(
                new SensorColumn("a", SensorType.TEMPERATURE, "degC", "x"),
                new SensorColumn("b", SensorType.TEMPERATURE, "degC", "x"));

        assertThatThrownBy(() -> new CsvReadingParser(
                        "Date", new ReadingTimeParser("iso", ZoneOffset.UTC), "hive", oneSeries, "gw", ','))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Sensor columns 'a' and 'b' would both be TEMPERATURE sensor 'x'");
    }

    @Test
    void should_give_every_row_a_fixed_hive_id_and_skip_comment_lines_before_and_after_the_header() {
        CsvReadingParser oneHive = new CsvReadingParser(
                "time",
                new ReadingTimeParser("iso", ZoneOffset.UTC),
                CsvReadingParser.HiveSource.fixed("hive-7"),
                columns("weight=WEIGHT:kg"),
                "gw",
                ',',
                '#',
                null);

        CsvReadingParser.Totals totals =
                oneHive.parseWithLines(new StringReader("""
                # exported by the scale, firmware 1.2
                # units: kg
                time,weight
                2021-07-15T11:00:00Z,40.5
                # scale recalibrated
                2021-07-15T12:00:00Z,nan
                """), (reading, line) -> readings.add(reading), problems::add);

        assertThat(totals)
                .as("three comment lines skipped, counted")
                .isEqualTo(new CsvReadingParser.Totals(2, 1, 0, 1, 0, 3));
        assertThat(readings)
                .containsExactly(new TelemetryReading(
                        "hive-7",
                        "gw",
                        SensorType.WEIGHT,
                        "default",
                        Instant.parse("2021-07-15T11:00:00Z"),
                        40.5,
                        "kg",
                        null));
        assertThat(problems)
                .extracting(Object::toString)
                .as("line numbers count the comment lines")
                .containsExactly("line 6, column 'weight': not a finite decimal number: 'nan'");
    }

    @Test
    void should_refuse_a_bad_fixed_hive_id_and_a_comment_marker_that_is_the_delimiter() {
        assertThatThrownBy(() -> CsvReadingParser.HiveSource.fixed("hive 7"))
                .hasMessageStartingWith("The hive id 'hive 7'");
        assertThatThrownBy(() -> new CsvReadingParser(
                        "time",
                        new ReadingTimeParser("iso", ZoneOffset.UTC),
                        CsvReadingParser.HiveSource.fixed("h"),
                        columns("weight=WEIGHT:kg"),
                        "gw",
                        ';',
                        ';',
                        null))
                .hasMessageContaining("comment marker must not be the delimiter");
        for (char marker : new char[] {'2', 'a', '-', ' '}) {
            assertThatThrownBy(() -> new CsvReadingParser(
                            "time",
                            new ReadingTimeParser("iso", ZoneOffset.UTC),
                            CsvReadingParser.HiveSource.fixed("h"),
                            columns("weight=WEIGHT:kg"),
                            "gw",
                            ',',
                            marker,
                            null))
                    .as("'%s' starts data lines", marker)
                    .hasMessageContaining("data lines start with those");
        }
    }

    @Test
    void should_convert_grams_to_kilograms_and_fahrenheit_to_celsius() {
        CsvReadingParser converting = new CsvReadingParser(
                "time",
                new ReadingTimeParser("iso", ZoneOffset.UTC),
                "hive",
                columns("weight_g=WEIGHT:g", "temp_f=TEMPERATURE:degF"),
                "gw",
                ',');

        converting.parse(
                new StringReader("time,hive,weight_g,temp_f\n2021-07-15T11:00:00Z,1,39850,95\n"),
                readings::add,
                problems::add);

        assertThat(readings)
                .extracting(TelemetryReading::getValue, TelemetryReading::getUnit)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(39.85, "kg"),
                        org.assertj.core.groups.Tuple.tuple(35.0, "degC"));
        assertThat(columns("weight_g=WEIGHT:g").get(0).describe())
                .isEqualTo("column 'weight_g' -> WEIGHT, sensor default, kg (converted from g)");
    }

    @Test
    void should_reject_spring_gap_and_autumn_overlap_times_by_default_and_report_each_one_resolved_on_request() {
        String csv = """
                time,hive,t
                2017-03-26 01:30:00,1,10
                2017-03-26 02:30:00,1,11
                2017-03-26 03:30:00,1,12
                2017-10-29 02:30:00,1,13
                2017-10-29 02:30:00,1,14
                2017-10-29 03:30:00,1,15
                """;
        java.time.ZoneId berlin = java.time.ZoneId.of("Europe/Berlin");
        CsvReadingParser rejecting = new CsvReadingParser(
                "time",
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", berlin),
                "hive",
                columns("t=TEMPERATURE:degC"),
                "gw",
                ',');

        CsvReadingParser.Totals totals = rejecting.parse(new StringReader(csv), readings::add, problems::add);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(6, 3, 3, 0, 0));
        assertThat(problems).extracting(CsvReadingParser.Problem::line).containsExactly(3L, 5L, 6L);
        assertThat(problems.get(0).message()).contains("does not exist in Europe/Berlin");
        assertThat(problems.get(1).message()).contains("occurs twice in Europe/Berlin");

        readings.clear();
        problems.clear();
        CsvReadingParser resolving = new CsvReadingParser(
                "time",
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", berlin, ReadingTimeParser.DstResolution.EARLIER, null),
                CsvReadingParser.HiveSource.column("hive"),
                columns("t=TEMPERATURE:degC"),
                "gw",
                ',',
                null,
                null);
        totals = resolving.parse(new StringReader(csv), readings::add, problems::add);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(6, 6, 0, 0, 3));
        assertThat(problems).extracting(CsvReadingParser.Problem::line).containsExactly(3L, 5L, 6L);
        assertThat(problems).allMatch(p -> p.message().startsWith("resolved: local time"));
        assertThat(readings)
                .extracting(r -> r.getReadingTime().toString())
                .containsExactly(
                        "2017-03-26T00:30:00Z",
                        "2017-03-26T01:30:00Z",
                        "2017-03-26T01:30:00Z",
                        "2017-10-29T00:30:00Z",
                        "2017-10-29T00:30:00Z",
                        "2017-10-29T02:30:00Z");
    }

    @Test
    void should_infer_autumn_overlap_times_from_the_order_of_each_hive_and_keep_every_reading_distinct() {
        StringBuilder csv = new StringBuilder("time,hive,t\n");
        java.time.LocalDateTime local = java.time.LocalDateTime.of(2017, 10, 29, 1, 0);
        java.time.ZoneId berlin = java.time.ZoneId.of("Europe/Berlin");
        java.time.ZonedDateTime wall = local.atZone(berlin);
        List<Instant> expected = new ArrayList<>();
        for (int i = 0; i < 24; i++) { // 10-minute readings 01:00 to 03:50 wall time, through the repeated hour
            for (String hive : List.of("a", "b")) { // two hives interleaved
                csv.append(wall.toLocalDateTime().toString().replace('T', ' '))
                        .append(":00,")
                        .append(hive)
                        .append(',')
                        .append(i)
                        .append('\n');
            }
            expected.add(wall.toInstant());
            wall = wall.plusMinutes(10);
        }
        CsvReadingParser inferring = new CsvReadingParser(
                "time",
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", berlin, ReadingTimeParser.DstResolution.INFER, null),
                CsvReadingParser.HiveSource.column("hive"),
                columns("t=TEMPERATURE:degC"),
                "gw",
                ',',
                null,
                null);

        CsvReadingParser.Totals totals =
                inferring.parse(new StringReader(csv.toString()), readings::add, problems::add);

        assertThat(expected)
                .as("24 instants: 01:00 to 03:50 wall time with 02:00-02:50 twice")
                .hasSize(24)
                .doesNotHaveDuplicates();
        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(48, 48, 0, 0, 24));
        for (String hive : List.of("a", "b")) {
            assertThat(readings)
                    .filteredOn(r -> r.getHiveId().equals(hive))
                    .extracting(TelemetryReading::getReadingTime)
                    .containsExactlyElementsOf(expected);
        }
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::message)
                .anyMatch(m -> m.endsWith("(--dst infer: first pass)"))
                .anyMatch(m -> m.endsWith("(--dst infer: the clock went back)"));
    }

    @Test
    void should_infer_the_second_of_two_equal_overlap_times_of_an_hourly_log_as_the_later_instant() {
        CsvReadingParser inferring = new CsvReadingParser(
                "time",
                new ReadingTimeParser(
                        "yyyy-MM-dd HH:mm:ss",
                        java.time.ZoneId.of("Europe/Berlin"),
                        ReadingTimeParser.DstResolution.INFER,
                        null),
                CsvReadingParser.HiveSource.column("hive"),
                columns("t=TEMPERATURE:degC"),
                "gw",
                ',',
                null,
                null);

        inferring.parse(
                new StringReader("time,hive,t\n2017-10-29 01:30:00,a,1\n2017-10-29 02:30:00,a,2\n"
                        + "2017-10-29 02:30:00,a,3\n2017-10-29 03:30:00,a,4\n"),
                readings::add,
                problems::add);

        assertThat(readings)
                .extracting(r -> r.getReadingTime().toString())
                .containsExactly(
                        "2017-10-28T23:30:00Z", "2017-10-29T00:30:00Z", "2017-10-29T01:30:00Z", "2017-10-29T02:30:00Z");
    }

    @Test
    void should_reject_a_spring_gap_time_even_when_inferring() {
        CsvReadingParser inferring = new CsvReadingParser(
                "time",
                new ReadingTimeParser(
                        "yyyy-MM-dd HH:mm:ss",
                        java.time.ZoneId.of("Europe/Berlin"),
                        ReadingTimeParser.DstResolution.INFER,
                        null),
                CsvReadingParser.HiveSource.column("hive"),
                columns("t=TEMPERATURE:degC"),
                "gw",
                ',',
                null,
                null);

        CsvReadingParser.Totals totals = inferring.parse(
                new StringReader(
                        "time,hive,t\n2017-03-26 01:50:00,a,1\n2017-03-26 02:10:00,a,2\n2017-03-26 03:10:00,a,3\n"),
                readings::add,
                problems::add);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(3, 2, 1, 0, 0));
        assertThat(problems)
                .singleElement()
                .satisfies(
                        p -> assertThat(p.message()).contains("does not exist").contains("--dst infer cannot infer"));
    }

    @Test
    void should_reject_a_value_that_its_conversion_takes_out_of_the_range_of_a_double() {
        CsvReadingParser converting = new CsvReadingParser(
                "time",
                new ReadingTimeParser("iso", ZoneOffset.UTC),
                "hive",
                columns("b=BATTERY:kV", "w=WEIGHT:g", "t=TEMPERATURE:degF"),
                "gw",
                ',');

        CsvReadingParser.Totals totals = converting.parse(
                new StringReader("time,hive,b,w,t\n2021-07-15T11:00:00Z,1,1e306,1e-322,32\n"),
                readings::add,
                problems::add);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 1, 0, 2, 0, 0, 0, 1, 1));
        assertThat(problems).extracting(CsvReadingParser.Problem::column).containsExactly("b", "w");
        assertThat(readings)
                .singleElement()
                .satisfies(r -> assertThat(r.getValue()).as("32 degF").isEqualTo(0.0));
    }

    @Test
    void should_read_missing_value_markers_as_missing_by_number_and_by_text_ignoring_case() {
        parser.missingValues(List.of("-100", "9999", "NA", " n/a "));

        CsvReadingParser.Totals totals = parse("""
                Date,Tag number,temperature,humidity
                2021-06-19 00:04:58+00:00,3629,-100.0,na
                2021-06-19 00:19:58+00:00,3629,-100,9999.00
                2021-06-19 00:34:58+00:00,3629,-100.5,N/A
                2021-06-19 00:49:58+00:00,3629,-99.9,
                2021-06-19 01:04:58+00:00,3629,NaN,99999
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(5, 3, 0, 1, 0, 0, 6));
        assertThat(readings)
                .extracting(TelemetryReading::getValue)
                .as("-100.5, -99.9 and 99999 are not markers: read as values (for the validator to judge)")
                .containsExactly(-100.5, -99.9, 99999.0);
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::toString)
                .containsExactly("line 6, column 'temperature': not a finite decimal number: 'NaN'");
    }

    @Test
    void should_refuse_an_empty_missing_value_marker() {
        assertThatThrownBy(() -> parser.missingValues(List.of("-100", " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot be empty");
    }

    @Test
    void should_withhold_a_value_whose_decimal_text_a_double_cannot_hold_naming_its_line_column_and_reason() {
        CsvReadingParser.Totals totals = parse("""
                Date,Tag number,temperature,humidity
                2021-06-19 00:04:58+00:00,3629,1e-400,1e400
                2021-06-19 00:19:58+00:00,3629,-1e400,0e-400
                2021-06-19 00:34:58+00:00,3629,0.0000e-999,1e-300
                """);

        assertThat(totals)
                .as("1e-400 is not 0 and 1e400 not infinity: withheld, not stored as 0.0 or refused as text")
                .isEqualTo(new CsvReadingParser.Totals(3, 3, 0, 3, 0, 0, 0, 2, 1));
        assertThat(readings).extracting(TelemetryReading::getValue).containsExactly(0.0, 0.0, 1e-300);
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::toString)
                .containsExactly(
                        "line 2, column 'temperature': '1e-400' is not zero but too small for a double (smallest"
                                + " 4.9E-324): it would be read as 0; not read",
                        "line 2, column 'humidity': '1e400' is too large for a double (largest"
                                + " 1.7976931348623157E308): it would be read as Infinity; not read",
                        "line 3, column 'temperature': '-1e400' is too large for a double (largest"
                                + " 1.7976931348623157E308): it would be read as -Infinity; not read");
    }

    @Test
    void should_refuse_a_missing_value_marker_that_a_double_cannot_hold() {
        assertThatThrownBy(() -> parser.missingValues(List.of("NA", "1e-400")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the missing-value marker '1e-400' is not zero but too small for a double (smallest"
                        + " 4.9E-324): it would be read as 0");
    }

    @Test
    void should_count_the_cells_each_missing_value_marker_matched_and_the_empty_ones_apart() {
        parser.missingValues(List.of("0", "NA", "-100", "-100.0"));

        CsvReadingParser.Totals totals = parse("""
                Date,Tag number,temperature,humidity
                2021-06-19 00:04:58+00:00,3629,0.0,na
                2021-06-19 00:19:58+00:00,3629,-100,0
                2021-06-19 00:34:58+00:00,3629,,-0
                2021-06-19 00:49:58+00:00,3629,-100.00,
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(4, 0, 0, 0, 0, 0, 8));
        assertThat(parser.missingValueMatches())
                .as("-100.0 repeats -100: counted under the first")
                .containsExactly(
                        java.util.Map.entry("0", 3L), java.util.Map.entry("NA", 1L), java.util.Map.entry("-100", 2L));
    }

    @Test
    void should_name_each_numeric_marker_inside_a_sensor_types_accepted_range_with_the_columns() {
        CsvReadingParser grams = new CsvReadingParser(
                        "time",
                        new ReadingTimeParser("iso", ZoneOffset.UTC),
                        "hive",
                        columns("t=TEMPERATURE:degC", "rh=HUMIDITY:%RH", "w=WEIGHT:g"),
                        "gw",
                        ',')
                .missingValues(List.of("0", "-100", "NA", "9999"));

        assertThat(grams.missingValuesInRange(io.apiary.ingest.validation.SensorRanges.DEFAULTS))
                .containsExactly(
                        "--missing-values marker '0' lies inside the accepted range of TEMPERATURE [-50, 80] degC"
                                + " (column 't'), HUMIDITY [0, 103] %RH (column 'rh'), WEIGHT [-10, 500] kg (column"
                                + " 'w', where 0 g is 0 kg): real readings of 0 there are read as missing and not sent"
                                + " (the summary line counts the cells each marker matched)",
                        "--missing-values marker '-100' lies inside the accepted range of WEIGHT [-10, 500] kg"
                                + " (column 'w', where -100 g is -0.1 kg): real readings of -100 there are read as"
                                + " missing and not sent (the summary line counts the cells each marker matched)",
                        "--missing-values marker '9999' lies inside the accepted range of WEIGHT [-10, 500] kg"
                                + " (column 'w', where 9999 g is 9.999 kg): real readings of 9999 there are read as"
                                + " missing and not sent (the summary line counts the cells each marker matched)");
        assertThat(grams.missingValuesInRange(io.apiary.ingest.validation.SensorRanges.DEFAULTS
                        .with("TEMPERATURE", new io.apiary.ingest.validation.SensorRanges.Range(1, 40))
                        .with("HUMIDITY", new io.apiary.ingest.validation.SensorRanges.Range(1, 100))
                        .with("WEIGHT", new io.apiary.ingest.validation.SensorRanges.Range(1, 5))))
                .as("the configured ranges, not the defaults")
                .isEmpty();
    }

    @Test
    void should_tell_whether_a_data_row_follows_the_header_skipping_comment_and_blank_lines() {
        CsvReadingParser commented = new CsvReadingParser(
                "time",
                new ReadingTimeParser("iso", ZoneOffset.UTC),
                CsvReadingParser.HiveSource.fixed("h"),
                columns("t=TEMPERATURE:degC"),
                "gw",
                ',',
                '#',
                null);

        assertThat(commented.checkHeader(new StringReader("# export\ntime,t\n\n# nothing today\n")))
                .isFalse();
        assertThat(commented.checkHeader(new StringReader("time,t\n2021-06-19T00:00:00Z,20\n")))
                .isTrue();
        assertThat(commented.parse(new StringReader("time,t\n"), readings::add, problems::add))
                .isEqualTo(new CsvReadingParser.Totals(0, 0, 0, 0));
    }

    private CsvReadingParser.Totals parse(String csv) {
        return parser.parse(new StringReader(csv), readings::add, problems::add);
    }

    private static List<SensorColumn> columns(String... specs) {
        return SensorMapping.resolve(
                java.util.Arrays.stream(specs).map(SensorColumnSpec::parse).toList());
    }
}
