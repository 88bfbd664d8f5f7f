package io.apiary.ingest.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.apiary.ingest.testing.RandomCases;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.io.StringReader;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The long format of {@link CsvReadingParser}: one line per reading, with sensor, value and unit columns. */
class CsvReadingParserLongFormatTest {

    private static final ReadingTimeParser ISO = new ReadingTimeParser("iso", ZoneOffset.UTC);
    private static final CsvReadingParser.LongFormat WITH_UNITS =
            new CsvReadingParser.LongFormat("sensor", "value", "unit");
    private static final CsvReadingParser.LongFormat WITHOUT_UNITS =
            new CsvReadingParser.LongFormat("sensor", "value", null);

    private final List<TelemetryReading> readings = new ArrayList<>();
    private final List<Long> lines = new ArrayList<>();
    private final List<CsvReadingParser.Problem> problems = new ArrayList<>();

    @Test
    void should_turn_each_line_into_one_reading_of_the_sensor_its_sensor_column_names() {
        CsvReadingParser parser = parser(
                ISO,
                CsvReadingParser.HiveSource.column("hive"),
                WITH_UNITS,
                "temp_in=TEMPERATURE:degC",
                "rh=HUMIDITY:%RH");

        CsvReadingParser.Totals totals = parse(parser, """
                time,hive,sensor,value,unit
                2021-07-15T11:00:00Z,3627,temp_in,35.04,degC
                2021-07-15T11:00:00Z,3627,rh,60.5,%RH
                2021-07-15T11:00:00Z,3628,temp_in,34.9,degC
                """);

        Instant t = Instant.parse("2021-07-15T11:00:00Z");
        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(3, 3, 0, 0));
        assertThat(readings)
                .containsExactly(
                        new TelemetryReading("3627", "gw", SensorType.TEMPERATURE, "default", t, 35.04, "degC", null),
                        new TelemetryReading("3627", "gw", SensorType.HUMIDITY, "default", t, 60.5, "%RH", null),
                        new TelemetryReading("3628", "gw", SensorType.TEMPERATURE, "default", t, 34.9, "degC", null));
        assertThat(lines).containsExactly(2L, 3L, 4L);
        assertThat(problems).isEmpty();
    }

    @Test
    void should_convert_each_line_from_its_own_unit_to_the_unit_of_its_sensor() {
        CsvReadingParser parser =
                oneHive("weight=WEIGHT:kg", "batt=BATTERY:V", "temp=TEMPERATURE:degC", "rh=HUMIDITY:%RH");

        CsvReadingParser.Totals totals = parse(parser, """
                time,sensor,value,unit
                2021-07-15T11:00:00Z,weight,39850,g
                2021-07-15T12:00:00Z,weight,39.86,kg
                2021-07-15T13:00:00Z,weight,39870000,mg
                2021-07-15T11:00:00Z,batt,3700,mV
                2021-07-15T12:00:00Z,batt,3.69,V
                2021-07-15T11:00:00Z,temp,95,degF
                2021-07-15T12:00:00Z,temp,300,K
                2021-07-15T11:00:00Z,rh,56.5,%
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(8, 8, 0, 0));
        assertThat(readings)
                .extracting(TelemetryReading::getSensorType, TelemetryReading::getValue, TelemetryReading::getUnit)
                .containsExactly(
                        tuple(SensorType.WEIGHT, 39.85, "kg"),
                        tuple(SensorType.WEIGHT, 39.86, "kg"),
                        tuple(SensorType.WEIGHT, 39.87, "kg"),
                        tuple(SensorType.BATTERY, 3.7, "V"),
                        tuple(SensorType.BATTERY, 3.69, "V"),
                        tuple(SensorType.TEMPERATURE, 35.0, "degC"),
                        tuple(SensorType.TEMPERATURE, 26.85, "degC"),
                        tuple(SensorType.HUMIDITY, 56.5, "%RH"));
        assertThat(problems).isEmpty();
    }

    @Test
    void should_take_one_reading_in_grams_and_kilograms_for_one_value_so_that_the_duplicate_check_finds_it_exact() {
        CsvReadingParser parser = oneHive("weight=WEIGHT:kg");
        DuplicateReadings duplicates = new DuplicateReadings(100);
        List<DuplicateReadings.Conflict> conflicts = new ArrayList<>();

        parser.parseWithLines(
                new StringReader("""
                time,sensor,value,unit
                2021-07-15T11:00:00Z,weight,41000,g
                2021-07-15T11:00:00Z,weight,41,kg
                2021-07-15T11:00:00Z,weight,41.5,kg
                """),
                (reading, line) -> {
                    DuplicateReadings.Conflict conflict = duplicates.offer(reading, line);
                    if (conflict != null) {
                        conflicts.add(conflict);
                    }
                },
                problems::add);

        assertThat(duplicates.duplicates()).as("41000 g and 41 kg").isEqualTo(1);
        assertThat(conflicts)
                .extracting(Object::toString)
                .containsExactly("lines 2 and 4: hive hive-7 WEIGHT sensor default at 2021-07-15T11:00:00Z: 41.0 kg"
                        + " and 41.5 kg");
    }

    @Test
    void should_read_a_value_in_the_unit_its_sensor_was_mapped_with_where_the_unit_cell_is_empty() {
        CsvReadingParser parser = oneHive("weight=WEIGHT:g");

        parse(parser, """
                time,sensor,value,unit
                2021-07-15T11:00:00Z,weight,39850,
                2021-07-15T12:00:00Z,weight,39.86,kg
                2021-07-15T13:00:00Z,weight,39870,g
                """);

        assertThat(readings).extracting(TelemetryReading::getValue).containsExactly(39.85, 39.86, 39.87);
        assertThat(readings).extracting(TelemetryReading::getUnit).containsOnly("kg");
    }

    @Test
    void should_read_every_value_in_the_unit_of_its_sensor_in_a_file_without_a_unit_column() {
        CsvReadingParser parser = parser(
                ISO,
                CsvReadingParser.HiveSource.fixed("hive-7"),
                WITHOUT_UNITS,
                "Gewicht=WEIGHT:g",
                "Temperatur=TEMPERATURE:degC");

        CsvReadingParser.Totals totals = parse(parser, """
                time,sensor,value
                2021-07-15T11:00:00Z,Gewicht,39850
                2021-07-15T11:00:00Z,Temperatur,34.5
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(2, 2, 0, 0));
        assertThat(readings)
                .extracting(TelemetryReading::getSensorType, TelemetryReading::getValue, TelemetryReading::getUnit)
                .containsExactly(tuple(SensorType.WEIGHT, 39.85, "kg"), tuple(SensorType.TEMPERATURE, 34.5, "degC"));
        assertThat(parser.mapping())
                .containsExactly(
                        "sensor name 'Gewicht' -> WEIGHT, sensor default, kg (converted from g)",
                        "sensor name 'Temperatur' -> TEMPERATURE, sensor default, degC");
    }

    @Test
    void should_keep_two_sensors_of_one_type_apart_by_ids_made_from_their_names() {
        CsvReadingParser parser =
                oneHive("T1=TEMPERATURE:degC", "T2=TEMPERATURE:degC", "Temp (brood)=TEMPERATURE:degC:brood");
        DuplicateReadings duplicates = new DuplicateReadings(100);

        CsvReadingParser.Totals totals = parser.parseWithLines(
                new StringReader("""
                time,sensor,value,unit
                2021-07-15T11:00:00Z,T1,35.1,degC
                2021-07-15T11:00:00Z,T2,21.5,degC
                2021-07-15T11:00:00Z,Temp (brood),34.8,degC
                """),
                (reading, line) -> {
                    readings.add(reading);
                    assertThat(duplicates.offer(reading, line)).isNull();
                },
                problems::add);

        assertThat(totals.readings()).isEqualTo(3);
        assertThat(duplicates.duplicates() + duplicates.conflicts())
                .as("three series")
                .isZero();
        assertThat(readings)
                .extracting(TelemetryReading::getSensorId, TelemetryReading::getValue)
                .containsExactly(tuple("T1", 35.1), tuple("T2", 21.5), tuple("brood", 34.8));
        assertThat(parser.mapping())
                .containsExactly(
                        "sensor name 'T1' -> TEMPERATURE, sensor T1, degC (each line's unit from column 'unit' converted"
                                + " to degC; an empty one is degC)",
                        "sensor name 'T2' -> TEMPERATURE, sensor T2, degC (each line's unit from column 'unit' converted"
                                + " to degC; an empty one is degC)",
                        "sensor name 'Temp (brood)' -> TEMPERATURE, sensor brood, degC (each line's unit from column"
                                + " 'unit' converted to degC; an empty one is degC)");
    }

    @Test
    void should_refuse_two_sensor_names_that_would_be_one_series() {
        assertThatThrownBy(() -> parser(
                        ISO,
                        CsvReadingParser.HiveSource.fixed("h"),
                        WITH_UNITS,
                        "Temp (in)=TEMPERATURE:degC",
                        "Temp in=TEMPERATURE:degC"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Temp (in)' and 'Temp in' would both be TEMPERATURE sensor 'Temp_in'");
    }

    @Test
    void should_reject_a_line_whose_unit_is_of_another_quantity_or_unknown_and_go_on() {
        CsvReadingParser parser = oneHive("weight=WEIGHT:kg", "temp=TEMPERATURE:degC");

        CsvReadingParser.Totals totals = parse(parser, """
                time,sensor,value,unit
                2021-07-15T11:00:00Z,weight,40.1,degC
                2021-07-15T11:00:00Z,temp,35,furlongs
                2021-07-15T12:00:00Z,weight,40.2,kg
                2021-07-15T13:00:00Z,weight,40.3,degC
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(4, 1, 3, 0));
        assertThat(problems)
                .extracting(Object::toString)
                .containsExactly(
                        "line 2, column 'unit': sensor name 'weight' is WEIGHT in kg, and 'degC' is not a unit of the"
                                + " same quantity as kg (units of one quantity are converted, e.g. g or lb to kg);"
                                + " the line is not read",
                        "line 3, column 'unit': sensor name 'temp' is TEMPERATURE in degC, and 'furlongs' is not a"
                                + " unit the importer knows (units of one quantity are converted, e.g. degF or K to"
                                + " degC); the line is not read",
                        "line 5, column 'unit': sensor name 'weight' is WEIGHT in kg, and 'degC' is not a unit of the"
                                + " same quantity as kg (units of one quantity are converted, e.g. g or lb to kg);"
                                + " the line is not read");
        assertThat(readings).extracting(TelemetryReading::getValue).containsExactly(40.2);
    }

    @Test
    void should_report_each_sensor_name_no_sensor_maps_once_with_its_count_and_lines_after_the_line_problems() {
        CsvReadingParser parser = oneHive("T1=TEMPERATURE:degC", "weight=WEIGHT:kg");

        CsvReadingParser.Totals totals = parse(parser, """
                time,sensor,value,unit
                2021-07-15T11:00:00Z,battery,3.7,V
                2021-07-15T11:00:00Z,T1,35.1,degC
                2021-07-15T11:00:00Z,t1,35.2,degC
                2021-07-15T12:00:00Z,battery,3.6,V
                2021-07-15T12:00:00Z,T1,warm,degC
                2021-07-15T13:00:00Z,battery,3.5,V
                """);

        assertThat(totals)
                .as("the unmapped lines are rejected rows")
                .isEqualTo(new CsvReadingParser.Totals(6, 1, 5, 0));
        assertThat(problems)
                .extracting(Object::toString)
                .containsExactly(
                        "line 6, column 'value': not a finite decimal number: 'warm'",
                        "line 2, column 'sensor': sensor name 'battery' is mapped by no --sensor: its 3 lines (this"
                                + " one to line 7) not read; map it with --sensor 'battery=TYPE:UNIT' to import it",
                        "line 4, column 'sensor': sensor name 't1' is mapped by no --sensor (names are compared"
                                + " exactly: 'T1' is mapped): its 1 line not read; map it with --sensor 't1=TYPE:UNIT'"
                                + " to import it");
    }

    @Test
    void should_count_the_lines_of_sensor_names_past_the_limit_together() {
        CsvReadingParser parser =
                parser(ISO, CsvReadingParser.HiveSource.fixed("hive-7"), WITHOUT_UNITS, "T1=TEMPERATURE:degC");
        StringBuilder csv = new StringBuilder("time,sensor,value\n");
        int names = CsvReadingParser.MAX_UNMAPPED_NAMES + 5;
        for (int i = 0; i < names; i++) {
            csv.append("2021-07-15T11:00:00Z,s").append(i).append(",1\n");
        }
        csv.append("2021-07-15T11:00:00Z,s0,1\n");

        CsvReadingParser.Totals totals = parse(parser, csv.toString());

        assertThat(totals.rejectedRows()).isEqualTo(names + 1);
        assertThat(problems).hasSize(CsvReadingParser.MAX_UNMAPPED_NAMES + 1);
        assertThat(problems.get(0).toString())
                .isEqualTo("line 2, column 'sensor': sensor name 's0' is mapped by no --sensor: its 2 lines (this one"
                        + " to line " + (names + 2) + ") not read; map it with --sensor 's0=TYPE:UNIT' to import it");
        assertThat(problems.get(problems.size() - 1).toString())
                .isEqualTo("line " + (CsvReadingParser.MAX_UNMAPPED_NAMES + 2) + ", column 'sensor': 5 lines (this"
                        + " one to line " + (names + 1) + ") of further sensor names that no --sensor maps (past the"
                        + " first " + CsvReadingParser.MAX_UNMAPPED_NAMES + " such names, not listed one by one) were"
                        + " not read");
    }

    @Test
    void should_count_empty_values_as_missing_and_reject_non_numeric_values_empty_names_bad_times_and_short_lines() {
        CsvReadingParser parser =
                parser(ISO, CsvReadingParser.HiveSource.column("hive"), WITH_UNITS, "T1=TEMPERATURE:degC");

        CsvReadingParser.Totals totals = parse(parser, """
                time,hive,sensor,value,unit
                2021-07-15T11:00:00Z,h1,T1,,degC
                2021-07-15T11:00:00Z,h1,T1,NaN,degC
                2021-07-15T11:00:00Z,h1,,35,degC
                2021-02-29T11:00:00Z,h1,T1,35,degC
                2021-07-15T11:00:00Z,,T1,35,degC
                2021-07-15T11:00:00Z,h1,T1,35
                2021-07-15T12:00:00Z,h1,T1,1e400,degC
                2021-07-15T13:00:00Z,h1,T1,35.5,degC
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(8, 1, 6, 0, 0, 0, 1, 1, 0));
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::line, CsvReadingParser.Problem::column)
                .containsExactly(
                        tuple(3L, "value"),
                        tuple(4L, "sensor"),
                        tuple(5L, "time"),
                        tuple(6L, "hive"),
                        tuple(7L, null),
                        tuple(8L, "value"));
        assertThat(problems)
                .extracting(CsvReadingParser.Problem::message)
                .containsExactly(
                        "not a finite decimal number: 'NaN'",
                        "empty cell, no sensor name",
                        "cannot read time '2021-02-29T11:00:00Z' with the time format 'iso' (--time-format: iso,"
                                + " epoch-ms, epoch-s, elapsed-ms, elapsed-s, elapsed-min, elapsed-h or a java.time"
                                + " pattern): Text '2021-02-29T11:00:00Z' could not be parsed: Invalid date"
                                + " 'February 29' as '2021' is not a leap year",
                        "no hive id",
                        "expected 5 fields, found 4",
                        "'1e400' is too large for a double (largest 1.7976931348623157E308): it would be read as"
                                + " Infinity; not read");
    }

    @Test
    void should_refuse_a_header_without_a_long_format_column_naming_it_and_the_columns_it_has() {
        CsvReadingParser parser = oneHive("T1=TEMPERATURE:degC");

        assertThatThrownBy(() -> parser.checkHeader(new StringReader("time,sensor,_value\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The CSV header lacks column(s) 'value', 'unit'; its columns are [time, sensor, _value]");
        assertThatThrownBy(() -> parse(parser, "time,value,unit\n2021-07-15T11:00:00Z,1,degC\n"))
                .hasMessage("The CSV header lacks column(s) 'sensor'; its columns are [time, value, unit]");
        assertThat(readings).isEmpty();
    }

    @Test
    void should_refuse_a_long_format_column_that_is_another_column() {
        assertThatThrownBy(() -> new CsvReadingParser.LongFormat("sensor", "sensor", null))
                .hasMessageContaining("sensor, value and unit columns must be three columns");
        assertThatThrownBy(() -> new CsvReadingParser.LongFormat("sensor", "value", "value"))
                .hasMessageContaining("must be three columns");
        assertThatThrownBy(() -> parser(
                        ISO,
                        CsvReadingParser.HiveSource.column("hive"),
                        new CsvReadingParser.LongFormat("sensor", "time", null),
                        "T1=TEMPERATURE:degC"))
                .hasMessage("The column 'time' cannot be both the time column and a column of the long format (sensor,"
                        + " value, unit)");
        assertThatThrownBy(() -> parser(
                        ISO,
                        CsvReadingParser.HiveSource.column("hive"),
                        new CsvReadingParser.LongFormat("sensor", "value", "hive"),
                        "T1=TEMPERATURE:degC"))
                .hasMessageContaining("both the hive column");
    }

    @Test
    void should_skip_comment_lines_and_give_every_line_the_fixed_hive_id() {
        CsvReadingParser parser = new CsvReadingParser(
                "Zeit",
                ISO,
                CsvReadingParser.HiveSource.fixed("keeper-hive-1"),
                columns("Gewicht=WEIGHT:g"),
                "gw",
                ';',
                '#',
                new CsvReadingParser.LongFormat("Sensor", "Wert", "Einheit"));

        CsvReadingParser.Totals totals = parse(parser, """
                # scale export
                Zeit;Sensor;Wert;Einheit
                2017-06-01T10:00:00Z;Gewicht;39850;g
                # battery changed
                2017-06-01T11:00:00Z;Gewicht;x;g
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(2, 1, 1, 0, 0, 2));
        assertThat(readings)
                .containsExactly(new TelemetryReading(
                        "keeper-hive-1",
                        "gw",
                        SensorType.WEIGHT,
                        "default",
                        Instant.parse("2017-06-01T10:00:00Z"),
                        39.85,
                        "kg",
                        null));
        assertThat(problems)
                .extracting(Object::toString)
                .as("line numbers count the comment lines")
                .containsExactly("line 5, column 'Wert': not a finite decimal number: 'x'");
    }

    @Test
    void should_reject_spring_gap_and_autumn_overlap_times_by_default_with_their_lines() {
        CsvReadingParser parser = parser(
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", ZoneId.of("Europe/Berlin")),
                CsvReadingParser.HiveSource.fixed("hive-7"),
                WITHOUT_UNITS,
                "T1=TEMPERATURE:degC",
                "T2=TEMPERATURE:degC");

        CsvReadingParser.Totals totals = parse(parser, """
                time,sensor,value
                2017-03-26 01:30:00,T1,10
                2017-03-26 02:30:00,T1,11
                2017-03-26 02:30:00,T2,21
                2017-10-29 02:30:00,T1,12
                2017-10-29 03:30:00,T2,22
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(5, 2, 3, 0, 0));
        assertThat(problems).extracting(CsvReadingParser.Problem::line).containsExactly(3L, 4L, 5L);
        assertThat(problems.get(0).message()).contains("does not exist in Europe/Berlin");
        assertThat(problems.get(2).message()).contains("occurs twice in Europe/Berlin");
    }

    @Test
    void should_infer_autumn_overlap_times_per_hive_and_sensor_so_that_lines_of_one_time_stay_distinct() {
        // two probes, one line each per 10 minutes, 01:00 to 03:50 wall time through the repeated hour; the lines
        // of one wall time are next to each other, as a long export writes them
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        ZonedDateTime wall = LocalDateTime.of(2017, 10, 29, 1, 0).atZone(berlin);
        StringBuilder csv = new StringBuilder("time,hive,sensor,value\n");
        List<Instant> expected = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            for (String hive : List.of("a", "b")) {
                for (String sensor : List.of("T1", "T2")) {
                    csv.append(wall.toLocalDateTime().toString().replace('T', ' '))
                            .append(":00,")
                            .append(hive)
                            .append(',')
                            .append(sensor)
                            .append(',')
                            .append(i)
                            .append('\n');
                }
            }
            expected.add(wall.toInstant());
            wall = wall.plusMinutes(10);
        }
        CsvReadingParser parser = parser(
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss", berlin, ReadingTimeParser.DstResolution.INFER, null),
                CsvReadingParser.HiveSource.column("hive"),
                WITHOUT_UNITS,
                "T1=TEMPERATURE:degC",
                "T2=TEMPERATURE:degC");
        DuplicateReadings duplicates = new DuplicateReadings(1_000);

        CsvReadingParser.Totals totals = parser.parseWithLines(
                new StringReader(csv.toString()),
                (reading, line) -> {
                    readings.add(reading);
                    assertThat(duplicates.offer(reading, line)).isNull();
                },
                problems::add);

        assertThat(expected).as("02:00-02:50 twice").hasSize(24).doesNotHaveDuplicates();
        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(96, 96, 0, 0, 48));
        assertThat(duplicates.duplicates()).isZero();
        for (String hive : List.of("a", "b")) {
            for (String sensor : List.of("T1", "T2")) {
                assertThat(readings)
                        .filteredOn(r ->
                                r.getHiveId().equals(hive) && r.getSensorId().equals(sensor))
                        .extracting(TelemetryReading::getReadingTime)
                        .as(hive + " " + sensor)
                        .containsExactlyElementsOf(expected);
            }
        }
        assertThat(problems)
                .as("each series' six repeated wall times, first pass then the clock went back")
                .extracting(p -> p.message().substring(p.message().lastIndexOf("(--dst")))
                .containsOnly("(--dst infer: first pass)", "(--dst infer: the clock went back)")
                .filteredOn(note -> note.contains("went back"))
                .hasSize(24);
    }

    @Test
    void should_read_overlap_times_with_the_offset_asked_for_and_report_each_one() {
        CsvReadingParser parser = parser(
                new ReadingTimeParser(
                        "yyyy-MM-dd HH:mm:ss", ZoneId.of("Europe/Berlin"), ReadingTimeParser.DstResolution.LATER, null),
                CsvReadingParser.HiveSource.fixed("hive-7"),
                WITH_UNITS,
                "weight=WEIGHT:kg");

        CsvReadingParser.Totals totals = parse(parser, """
                time,sensor,value,unit
                2017-10-29 02:30:00,weight,41010,g
                2017-03-26 02:30:00,weight,39.86,kg
                """);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(2, 2, 0, 0, 2));
        assertThat(readings)
                .extracting(r -> r.getReadingTime().toString(), TelemetryReading::getValue)
                .containsExactly(tuple("2017-10-29T01:30:00Z", 41.01), tuple("2017-03-26T00:30:00Z", 39.86));
        assertThat(problems).extracting(CsvReadingParser.Problem::line).containsExactly(2L, 3L);
        assertThat(problems).allMatch(p -> p.message().startsWith("resolved: local time"));
    }

    @Test
    void should_report_a_reading_the_consumer_refuses_as_a_rejected_line() {
        CsvReadingParser parser =
                parser(ISO, CsvReadingParser.HiveSource.fixed("hive-7"), WITHOUT_UNITS, "T1=TEMPERATURE:degC");

        CsvReadingParser.Totals totals = parser.parse(
                new StringReader("time,sensor,value\n2021-07-15T11:00:00Z,T1,35\n"),
                r -> {
                    throw new CsvReadingParser.RejectedReading("too large for Kafka");
                },
                problems::add);

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(1, 0, 1, 0));
        assertThat(problems)
                .extracting(Object::toString)
                .containsExactly("line 2, column 'value': too large for Kafka");
    }

    /**
     * A property: a wide file and the long file of the same readings (in any order of its lines, with
     * each value in grams or kilograms at random) give the same readings.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("wideAndLong")
    void should_read_the_same_readings_from_a_wide_file_and_its_long_form(String seed, String wide, String longForm) {
        CsvReadingParser wideParser = parser(
                ISO,
                CsvReadingParser.HiveSource.column("hive"),
                null,
                "T1=TEMPERATURE:degC",
                "T2=TEMPERATURE:degC",
                "weight=WEIGHT:kg");
        CsvReadingParser longParser = parser(
                ISO,
                CsvReadingParser.HiveSource.column("hive"),
                WITH_UNITS,
                "T1=TEMPERATURE:degC",
                "T2=TEMPERATURE:degC",
                "weight=WEIGHT:kg");
        List<TelemetryReading> fromWide = new ArrayList<>();
        List<TelemetryReading> fromLong = new ArrayList<>();

        CsvReadingParser.Totals wideTotals = wideParser.parse(new StringReader(wide), fromWide::add, problems::add);
        CsvReadingParser.Totals longTotals = longParser.parse(new StringReader(longForm), fromLong::add, problems::add);

        assertThat(problems).isEmpty();
        assertThat(longTotals.readings()).isEqualTo(wideTotals.readings()).isEqualTo(fromWide.size());
        assertThat(fromLong).containsExactlyInAnyOrderElementsOf(fromWide);
    }

    static Stream<Arguments> wideAndLong() {
        return RandomCases.cases((SplittableRandom random) -> {
            StringBuilder wide = new StringBuilder("time,hive,T1,T2,weight\n");
            List<String> longLines = new ArrayList<>();
            int rows = 1 + random.nextInt(30);
            for (int i = 0; i < rows; i++) {
                String time = Instant.ofEpochSecond(1_600_000_000L + random.nextInt(10_000_000))
                        .toString();
                String hive = "h" + random.nextInt(3);
                String t1 = Double.toString(random.nextInt(-400, 700) / 10.0);
                String t2 = Double.toString(random.nextInt(-400, 700) / 10.0);
                long grams = random.nextLong(0, 150_000);
                String weight = grams / 1000 + "." + String.format(Locale.ROOT, "%03d", grams % 1000);
                wide.append(String.join(",", time, hive, t1, t2, weight)).append('\n');
                longLines.add(String.join(",", time, hive, "T1", t1, "degC"));
                longLines.add(String.join(",", time, hive, "T2", t2, ""));
                longLines.add(
                        random.nextBoolean()
                                ? String.join(",", time, hive, "weight", weight, "kg")
                                : String.join(",", time, hive, "weight", Long.toString(grams), "g"));
            }
            for (int i = longLines.size() - 1; i > 0; i--) { // the lines in any order
                int j = random.nextInt(i + 1);
                longLines.set(j, longLines.set(i, longLines.get(j)));
            }
            return new Object[] {wide.toString(), "time,hive,sensor,value,unit\n" + String.join("\n", longLines) + "\n"
            };
        });
    }

    private CsvReadingParser.Totals parse(CsvReadingParser parser, String csv) {
        return parser.parseWithLines(
                new StringReader(csv),
                (reading, line) -> {
                    readings.add(reading);
                    lines.add(line);
                },
                problems::add);
    }

    /** A parser of the long format with a unit column, ISO times in column 'time' and the fixed hive id hive-7. */
    private static CsvReadingParser oneHive(String... specs) {
        return parser(ISO, CsvReadingParser.HiveSource.fixed("hive-7"), WITH_UNITS, specs);
    }

    /** A parser of a file with the time in column 'time'; of the wide format if {@code format} is null. */
    private static CsvReadingParser parser(
            ReadingTimeParser time,
            CsvReadingParser.HiveSource hive,
            CsvReadingParser.LongFormat format,
            String... specs) {
        return new CsvReadingParser("time", time, hive, columns(specs), "gw", ',', null, format);
    }

    private static List<SensorColumn> columns(String... specs) {
        return SensorMapping.resolve(
                Arrays.stream(specs).map(SensorColumnSpec::parse).toList());
    }
}
