package io.apiary.ingest.importer;

import io.apiary.ingest.identity.Identifiers;
import io.apiary.schema.TelemetryReading;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Turns a CSV of readings into gateway telemetry readings. Two layouts: the wide format, one row
 * per time and hive with one column per sensor; and the long format ({@link LongFormat}), one line
 * per reading, with a column that names its sensor, one with its value and optionally one with its
 * unit. A row whose time or hive cannot be read is rejected whole; in the wide format a sensor cell
 * that is empty or not a finite number is rejected alone, in the long format the line is its one
 * reading and is rejected whole (as is a line whose unit does not convert to its sensor's); every
 * rejection is reported with its line number and nothing is skipped silently: lines of a sensor
 * name that no sensor maps are reported once per name, with their count, at the end of the file.
 * Each sensor's readings carry its sensor type, unit and sensor id ({@link SensorColumn});
 * readings that repeat a series and time are not this class's concern ({@link DuplicateReadings}
 * finds them). Not thread-safe; one parser per file.
 */
public final class CsvReadingParser {

    /**
     * One rejected row or cell.
     *
     * @param line    1-based line number in the file (the header is line 1)
     * @param column  the offending column, or null for the whole row
     * @param message what is wrong
     */
    public record Problem(long line, String column, String message) {
        @Override
        public String toString() {
            return "line " + line + (column == null ? "" : ", column '" + column + "'") + ": " + message;
        }
    }

    /**
     * Totals of one parse.
     *
     * @param rows         data rows read
     * @param readings     readings produced
     * @param rejectedRows rows rejected whole
     * @param rejectedCells sensor cells rejected
     * @param resolvedTimes local times a daylight-saving change made missing or ambiguous, read by
     *                      the chosen resolution (each also reported, as a problem starting "resolved:")
     * @param commentLines  lines skipped as comments (with a comment marker), before the header included
     * @param missingCells  values that are missing: empty cells and cells of a missing-value marker
     *                      ({@link #missingValues}); neither read nor rejected, and not reported one by one
     * @param tooLarge      values (cells in the wide format, lines in the long format; among the rejected
     *                      ones) whose decimal text, or its conversion, is beyond the largest double: they
     *                      would read as infinity
     * @param tooSmall      values (among the rejected ones) whose decimal text, or its conversion, is not zero
     *                      but nearer zero than the smallest double: they would read as 0
     */
    public record Totals(
            long rows,
            long readings,
            long rejectedRows,
            long rejectedCells,
            long resolvedTimes,
            long commentLines,
            long missingCells,
            long tooLarge,
            long tooSmall) {
        /**
         * Totals without values a double cannot hold.
         *
         * @param rows          data rows read
         * @param readings      readings produced
         * @param rejectedRows  rows rejected whole
         * @param rejectedCells sensor cells rejected
         * @param resolvedTimes daylight-saving times resolved
         * @param commentLines  lines skipped as comments
         * @param missingCells  values that are missing
         */
        public Totals(
                long rows,
                long readings,
                long rejectedRows,
                long rejectedCells,
                long resolvedTimes,
                long commentLines,
                long missingCells) {
            this(rows, readings, rejectedRows, rejectedCells, resolvedTimes, commentLines, missingCells, 0, 0);
        }

        /**
         * Totals without missing cells.
         *
         * @param rows          data rows read
         * @param readings      readings produced
         * @param rejectedRows  rows rejected whole
         * @param rejectedCells sensor cells rejected
         * @param resolvedTimes daylight-saving times resolved
         * @param commentLines  lines skipped as comments
         */
        public Totals(
                long rows,
                long readings,
                long rejectedRows,
                long rejectedCells,
                long resolvedTimes,
                long commentLines) {
            this(rows, readings, rejectedRows, rejectedCells, resolvedTimes, commentLines, 0);
        }

        /**
         * Totals without comment lines.
         *
         * @param rows          data rows read
         * @param readings      readings produced
         * @param rejectedRows  rows rejected whole
         * @param rejectedCells sensor cells rejected
         * @param resolvedTimes daylight-saving times resolved
         */
        public Totals(long rows, long readings, long rejectedRows, long rejectedCells, long resolvedTimes) {
            this(rows, readings, rejectedRows, rejectedCells, resolvedTimes, 0);
        }

        /**
         * Totals without resolved times.
         *
         * @param rows          data rows read
         * @param readings      readings produced
         * @param rejectedRows  rows rejected whole
         * @param rejectedCells sensor cells rejected
         */
        public Totals(long rows, long readings, long rejectedRows, long rejectedCells) {
            this(rows, readings, rejectedRows, rejectedCells, 0);
        }
    }

    /**
     * Where a row's hive id comes from: a column of the file, or one id for the whole file (most
     * public hive data sets are one file per hive, without a hive column).
     *
     * @param column  header of the hive id column, or null
     * @param fixedId the hive id of every row, valid under {@link Identifiers#problem}, or null;
     *                exactly one of the two is given
     */
    public record HiveSource(String column, String fixedId) {
        /**
         * @throws IllegalArgumentException unless exactly one is given, or if the fixed id is not valid
         */
        public HiveSource {
            if ((column == null) == (fixedId == null)) {
                throw new IllegalArgumentException("give either a hive id column or a fixed hive id");
            }
            if (fixedId != null && Identifiers.problem(fixedId) != null) {
                throw new IllegalArgumentException("The hive id '" + fixedId + "' " + Identifiers.problem(fixedId));
            }
        }

        /** @param column header of the hive id column, not null @return the source */
        public static HiveSource column(String column) {
            return new HiveSource(Objects.requireNonNull(column), null);
        }

        /** @param hiveId the hive id of every row, not null @return the source */
        public static HiveSource fixed(String hiveId) {
            return new HiveSource(null, Objects.requireNonNull(hiveId));
        }
    }

    /**
     * The long ("tidy") format: one line per reading, as InfluxDB's annotated CSV ({@code _time},
     * {@code _field}, {@code _value}) and most database exports write it. The sensor column names each line's sensor ({@code temp_in},
     * {@code weight}, {@code T1}): a name is mapped to a sensor type, sensor id and unit by the
     * {@link SensorColumn} whose {@link SensorColumn#column() column} is that name (compared
     * exactly). The unit column, when there is one, gives each line's unit, converted to the unit
     * of its sensor ({@link UnitConversion#find(String, String, String)}); an empty unit cell, or no
     * unit column, reads the value in the unit the sensor was mapped with.
     *
     * @param sensorColumn header of the column naming each line's sensor, not null
     * @param valueColumn  header of the column with each line's value, not null
     * @param unitColumn   header of the column with each line's unit, or null when the file has none
     */
    public record LongFormat(String sensorColumn, String valueColumn, String unitColumn) {
        /**
         * @throws IllegalArgumentException if two of the columns are one
         * @throws NullPointerException if the sensor or the value column is null
         */
        public LongFormat {
            Objects.requireNonNull(sensorColumn);
            Objects.requireNonNull(valueColumn);
            if (sensorColumn.equals(valueColumn) || sensorColumn.equals(unitColumn) || valueColumn.equals(unitColumn)) {
                throw new IllegalArgumentException("The long format's sensor, value and unit columns must be three"
                        + " columns, were '" + sensorColumn + "', '" + valueColumn + "' and '" + unitColumn + "'");
            }
        }

        /** @return the headers this format reads, in order (sensor, value, unit if given) */
        List<String> columns() {
            return unitColumn == null
                    ? List.of(sensorColumn, valueColumn)
                    : List.of(sensorColumn, valueColumn, unitColumn);
        }
    }

    private final String timeColumn;
    private final ReadingTimeParser timeParser;
    private final HiveSource hive;
    private final List<SensorColumn> sensors;
    private final String gatewayId;
    private final char delimiter;
    private final Character commentMarker;
    /** null for the wide format */
    private final LongFormat longFormat;
    /** the long format's sensors by the name in the sensor column */
    private final Map<String, SensorColumn> bySensorName = new HashMap<>();
    /** the long format's conversions of the units lines give, by sensor name and unit; bounded */
    private final Map<String, LineUnit> lineUnits = new HashMap<>();
    /**
     * the last time read of each series, for {@link ReadingTimeParser.DstResolution#INFER}: of each
     * hive in the wide format (a row is one time of the hive), of each hive and sensor in the long format
     */
    private final Map<String, Instant> previousTimes = new HashMap<>();
    /** Missing-value markers that are not numbers, in lower case, to the marker as given. */
    private Map<String, String> missingTexts = Map.of();
    /** Missing-value markers that are numbers (0.0 for either zero), to the marker as given. */
    private Map<Double, String> missingNumbers = Map.of();
    /** Cells each missing-value marker matched, by the marker as given, in the order given. */
    private final Map<String, Long> missingMatches = new LinkedHashMap<>();

    /** Distinct (sensor, unit) conversions a long-format parser keeps; more are found again per line. */
    private static final int MAX_LINE_UNITS = 1_000;
    /** Distinct unmapped sensor names counted one by one; lines of more names are counted together. */
    static final int MAX_UNMAPPED_NAMES = 1_000;

    /** The conversion of a unit a line gives, or why there is none. */
    private record LineUnit(UnitConversion conversion, String problem) {}

    /**
     * A parser of files with a hive id column and no comment lines.
     *
     * @param timeColumn header of the time column
     * @param timeParser how to read it
     * @param hiveColumn header of the hive id column
     * @param sensors    sensor columns, at least one, no two with one name or one sensor type and id
     *                   (see {@link SensorMapping})
     * @param gatewayId  gateway id given to every reading
     * @param delimiter  field delimiter
     * @throws IllegalArgumentException if there is no sensor column, or two share a name or a series
     */
    public CsvReadingParser(
            String timeColumn,
            ReadingTimeParser timeParser,
            String hiveColumn,
            List<SensorColumn> sensors,
            String gatewayId,
            char delimiter) {
        this(timeColumn, timeParser, HiveSource.column(hiveColumn), sensors, gatewayId, delimiter, null, null);
    }

    /**
     * A parser of the wide format ({@code longFormat} null) or the long format.
     *
     * @param timeColumn    header of the time column, not null
     * @param timeParser    how to read it, not null
     * @param hive          where the hive id comes from, not null
     * @param sensors       at least one, no two with one name or one sensor type and id (see
     *                      {@link SensorMapping}); in the wide format each {@link SensorColumn#column()} is
     *                      a header, in the long format a sensor name of the sensor column
     * @param gatewayId     gateway id given to every reading, not null
     * @param delimiter     field delimiter
     * @param commentMarker null, or the character that starts a comment line, skipped wherever it
     *                      is (before the header too) and counted; not the delimiter, the quote, a
     *                      letter, a digit, a sign, a point or white space
     * @param longFormat    the long format's columns, or null for the wide format
     * @throws IllegalArgumentException if there is no sensor, two share a name or a series, the
     *                                  comment marker is one it cannot be, or a column of the long
     *                                  format is the time or the hive column
     */
    public CsvReadingParser(
            String timeColumn,
            ReadingTimeParser timeParser,
            HiveSource hive,
            List<SensorColumn> sensors,
            String gatewayId,
            char delimiter,
            Character commentMarker,
            LongFormat longFormat) {
        if (sensors.isEmpty()) {
            throw new IllegalArgumentException(
                    longFormat == null ? "at least one sensor column is needed" : "at least one sensor is needed");
        }
        SensorMapping.requireDistinct(sensors);
        CsvFiles.requireCommentMarker(commentMarker, delimiter);
        this.timeColumn = Objects.requireNonNull(timeColumn);
        this.timeParser = Objects.requireNonNull(timeParser);
        this.hive = Objects.requireNonNull(hive);
        this.sensors = List.copyOf(sensors);
        this.gatewayId = Objects.requireNonNull(gatewayId);
        this.delimiter = delimiter;
        this.commentMarker = commentMarker;
        this.longFormat = longFormat;
        if (longFormat != null) {
            for (String column : longFormat.columns()) {
                if (column.equals(timeColumn) || column.equals(hive.column())) {
                    throw new IllegalArgumentException("The column '" + column + "' cannot be both the "
                            + (column.equals(timeColumn) ? "time" : "hive") + " column and a column of the long"
                            + " format (sensor, value, unit)");
                }
            }
            sensors.forEach(sensor -> bySensorName.put(sensor.column(), sensor));
        }
    }

    /**
     * How each sensor is read, for a person: one line per sensor, in the order given, e.g.
     * {@code column 'temp_in' -> TEMPERATURE, sensor temp_in, degC} (wide) or
     * {@code sensor name 'weight' -> WEIGHT, sensor default, kg (converted from g)} (long; with a unit
     * column, {@code ... kg (each line's unit from column 'unit' converted to kg; an empty one is g)}).
     *
     * @return the lines, not null
     */
    public List<String> mapping() {
        if (longFormat == null) {
            return sensors.stream().map(SensorColumn::describe).toList();
        }
        return sensors.stream()
                .map(sensor -> "sensor name '" + sensor.column() + "' -> " + sensor.sensorType() + ", sensor "
                        + sensor.sensorId() + ", "
                        + (longFormat.unitColumn() == null
                                ? sensor.conversion().toString()
                                : sensor.unit() + " (each line's unit from column '" + longFormat.unitColumn()
                                        + "' converted to " + sensor.unit() + "; an empty one is "
                                        + sensor.conversion().from() + ")"))
                .toList();
    }

    /**
     * Thrown by a readings consumer to refuse one reading (for example, too large for Kafka); the
     * parser reports it as a problem of that line and cell and goes on.
     */
    public static final class RejectedReading extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** @param message why the reading is refused */
        public RejectedReading(String message) {
            super(message, null, false, false);
        }
    }

    /** Receives each reading with its line. */
    @FunctionalInterface
    public interface LineReadings {
        /**
         * @param reading the reading, not null
         * @param line    its 1-based line in the file (the header is line 1)
         * @throws RejectedReading to refuse the reading
         */
        void accept(TelemetryReading reading, long line);
    }

    /**
     * Reads a whole file; as {@link #parseWithLines}, without the line numbers of the readings.
     *
     * @param in       the CSV, with a header line; closed by the caller
     * @param readings receives each reading, in file order; may throw {@link RejectedReading}
     * @param problems receives each rejected row or cell
     * @return the totals
     * @throws IllegalArgumentException as {@link #parseWithLines}
     * @throws UncheckedIOException as {@link #parseWithLines}
     */
    public Totals parse(Reader in, Consumer<TelemetryReading> readings, Consumer<Problem> problems) {
        return parseWithLines(in, (reading, line) -> readings.accept(reading), problems);
    }

    /**
     * Reads a whole file.
     *
     * @param in       the CSV, with a header line (a leading byte-order mark is skipped); closed by the caller
     * @param readings receives each reading with its line, in file order; may throw {@link RejectedReading}
     * @param problems receives each rejected row or cell, in file order; in the long format then, at the
     *                 end, one problem per sensor name that no sensor maps (at its first line, with the
     *                 count of its lines, which are counted as rejected rows)
     * @return the totals
     * @throws IllegalArgumentException if the file is empty, or its header lacks a configured column or
     *                                  names one twice, saying which columns it has
     * @throws UncheckedIOException if reading fails, naming the line (for example, text that is not in
     *                              the expected character set)
     */
    public Totals parseWithLines(Reader in, LineReadings readings, Consumer<Problem> problems) {
        // rows, readings, rejected rows, rejected cells, resolved times, comments, missing, too large, too small
        long[] totals = new long[9];
        Map<String, long[]> unmapped = new LinkedHashMap<>(); // name -> lines, first line, last line
        CSVParser parser = CsvFiles.open(in, delimiter, commentMarker);
        totals[5] = CsvFiles.forEachRecord(parser, columns(), record -> {
            totals[0]++;
            parseRow(record, parser, readings, problems, totals, unmapped);
        });
        reportUnmapped(unmapped, problems);
        return new Totals(
                totals[0], totals[1], totals[2], totals[3], totals[4], totals[5], totals[6], totals[7], totals[8]);
    }

    /** Counts one value's outcome: read, missing, or rejected ({@code rejected} the index of the rejected count). */
    private static void count(Outcome outcome, long[] totals, int rejected) {
        switch (outcome) {
            case READ -> totals[1]++;
            case MISSING -> totals[6]++;
            case TOO_LARGE -> {
                totals[rejected]++;
                totals[7]++;
            }
            case TOO_SMALL -> {
                totals[rejected]++;
                totals[8]++;
            }
            case REJECTED -> totals[rejected]++;
        }
    }

    private void parseRow(
            CSVRecord record,
            CSVParser parser,
            LineReadings readings,
            Consumer<Problem> problems,
            long[] totals,
            Map<String, long[]> unmapped) {
        long line = parser.getCurrentLineNumber();
        if (!record.isConsistent()) {
            problems.accept(new Problem(
                    line, null, "expected " + parser.getHeaderMap().size() + " fields, found " + record.size()));
            totals[2]++;
            return;
        }
        String hiveId = hive.fixedId() != null ? hive.fixedId() : record.get(hive.column());
        if (hiveId.isEmpty()) {
            problems.accept(new Problem(line, hive.column(), "no hive id"));
            totals[2]++;
            return;
        }
        if (longFormat != null) {
            parseLine(record, line, hiveId, readings, problems, totals, unmapped);
            return;
        }
        Instant time = time(record, line, hiveId, problems, totals);
        if (time == null) {
            totals[2]++;
            return;
        }
        for (SensorColumn sensor : sensors) {
            Outcome outcome = read(
                    record.get(sensor.column()),
                    sensor.column(),
                    sensor,
                    sensor.conversion(),
                    hiveId,
                    time,
                    line,
                    readings,
                    problems);
            count(outcome, totals, 3);
        }
    }

    /** One line of the long format: its sensor, time, unit and value; rejected whole if any is wrong. */
    private void parseLine(
            CSVRecord record,
            long line,
            String hiveId,
            LineReadings readings,
            Consumer<Problem> problems,
            long[] totals,
            Map<String, long[]> unmapped) {
        String name = record.get(longFormat.sensorColumn());
        SensorColumn sensor = bySensorName.get(name);
        if (sensor == null) {
            if (name.isEmpty()) {
                problems.accept(new Problem(line, longFormat.sensorColumn(), "empty cell, no sensor name"));
            } else {
                countUnmapped(unmapped, name, line);
            }
            totals[2]++;
            return;
        }
        Instant time = time(record, line, hiveId + '\u0000' + name, problems, totals);
        if (time == null) {
            totals[2]++;
            return;
        }
        UnitConversion conversion = sensor.conversion();
        String unit = longFormat.unitColumn() == null ? "" : record.get(longFormat.unitColumn());
        if (!unit.isEmpty() && !unit.equals(conversion.from())) {
            LineUnit lineUnit = lineUnit(sensor, unit);
            if (lineUnit.problem() != null) {
                problems.accept(new Problem(line, longFormat.unitColumn(), lineUnit.problem()));
                totals[2]++;
                return;
            }
            conversion = lineUnit.conversion();
        }
        Outcome outcome = read(
                record.get(longFormat.valueColumn()),
                longFormat.valueColumn(),
                sensor,
                conversion,
                hiveId,
                time,
                line,
                readings,
                problems);
        count(outcome, totals, 2);
    }

    /**
     * Reads a row's time in the series given (for {@link ReadingTimeParser.DstResolution#INFER}),
     * reporting a resolved one (counted) or one it cannot read.
     *
     * @return the time, or null if it cannot be read (the row is rejected)
     */
    private Instant time(CSVRecord record, long line, String series, Consumer<Problem> problems, long[] totals) {
        try {
            ReadingTimeParser.Parsed parsed =
                    timeParser.parseWithNote(record.get(timeColumn), previousTimes.get(series));
            previousTimes.put(series, parsed.instant());
            if (parsed.note() != null) {
                problems.accept(new Problem(line, timeColumn, "resolved: " + parsed.note()));
                totals[4]++;
            }
            return parsed.instant();
        } catch (RuntimeException e) {
            problems.accept(new Problem(
                    line,
                    timeColumn,
                    "cannot read time " + CsvFiles.quote(record.get(timeColumn))
                            + " with the time format '" + timeParser.format() + "' (--time-format: "
                            + String.join(", ", ReadingTimeParser.NAMED_FORMATS) + " or a java.time pattern): "
                            + e.getMessage()));
            return null;
        }
    }

    /** What became of one value. */
    private enum Outcome {
        /** A reading was passed on and taken. */
        READ,
        /** The cell is empty or a missing-value marker: no reading, nothing reported. */
        MISSING,
        /** The value was reported as a problem. */
        REJECTED,
        /** Reported: its decimal text, or its conversion, is beyond the largest double. */
        TOO_LARGE,
        /** Reported: its decimal text, or its conversion, is not zero but would be read as 0. */
        TOO_SMALL
    }

    /**
     * Reads one value in the unit of {@code conversion} into a reading of the sensor and passes it on.
     *
     * @return what became of it
     */
    private Outcome read(
            String cell,
            String column,
            SensorColumn sensor,
            UnitConversion conversion,
            String hiveId,
            Instant time,
            long line,
            LineReadings readings,
            Consumer<Problem> problems) {
        if (cell.isEmpty() || isMissing(cell)) {
            return Outcome.MISSING;
        }
        Double value = parseValue(cell);
        if (value == null) {
            Outcome lost = lostInParsing(cell);
            problems.accept(new Problem(
                    line,
                    column,
                    lost == null ? "not a finite decimal number: " + CsvFiles.quote(cell) : lostMessage(cell, lost)));
            return lost == null ? Outcome.REJECTED : lost;
        }
        double converted = conversion.apply(value);
        if (!Double.isFinite(converted) || (converted == 0 && value != 0 && conversion.apply(0) == 0)) {
            problems.accept(new Problem(
                    line,
                    column,
                    CsvFiles.quote(cell) + " " + conversion.from() + " is " + converted + " " + sensor.unit()
                            + ", out of the range of a double"));
            return Double.isFinite(converted) ? Outcome.TOO_SMALL : Outcome.TOO_LARGE;
        }
        try {
            readings.accept(
                    new TelemetryReading(
                            hiveId,
                            gatewayId,
                            sensor.sensorType(),
                            sensor.sensorId(),
                            time,
                            converted,
                            sensor.unit(),
                            null),
                    line);
            return Outcome.READ;
        } catch (RejectedReading e) {
            problems.accept(new Problem(line, column, e.getMessage()));
            return Outcome.REJECTED;
        }
    }

    /** @return the conversion of a unit a line gives for a sensor, or why there is none */
    private LineUnit lineUnit(SensorColumn sensor, String unit) {
        String key = sensor.column() + '\u0000' + unit;
        LineUnit known = lineUnits.get(key);
        if (known != null) {
            return known;
        }
        LineUnit found;
        try {
            found = new LineUnit(UnitConversion.find(sensor.sensorType().name(), unit, sensor.unit()), null);
        } catch (IllegalArgumentException e) {
            found = new LineUnit(
                    null,
                    "sensor name '" + sensor.column() + "' is " + sensor.sensorType() + " in " + sensor.unit()
                            + ", and " + e.getMessage() + "; the line is not read");
        }
        if (lineUnits.size() < MAX_LINE_UNITS) {
            lineUnits.put(key, found);
        }
        return found;
    }

    /**
     * Counts a line of a sensor name no sensor maps: lines, first line, last line per name, the
     * first {@link #MAX_UNMAPPED_NAMES} names one by one, the lines of any further names together
     * (under the key null), so that a file of ever new names cannot fill the memory.
     */
    private static void countUnmapped(Map<String, long[]> unmapped, String name, long line) {
        String key = unmapped.containsKey(name) || unmapped.size() < MAX_UNMAPPED_NAMES ? name : null;
        long[] lines = unmapped.computeIfAbsent(key, k -> new long[] {0, line, line});
        lines[0]++;
        lines[2] = line;
    }

    /** One problem per sensor name no sensor maps, in the order the names came, at the name's first line. */
    private void reportUnmapped(Map<String, long[]> unmapped, Consumer<Problem> problems) {
        unmapped.forEach((name, lines) -> {
            String where =
                    lines[0] == 1 ? "its 1 line" : "its " + lines[0] + " lines (this one to line " + lines[2] + ")";
            if (name == null) {
                problems.accept(new Problem(
                        lines[1],
                        longFormat.sensorColumn(),
                        lines[0] + " lines (this one to line " + lines[2] + ") of further sensor names that no"
                                + " --sensor maps (past the first " + MAX_UNMAPPED_NAMES + " such names, not listed"
                                + " one by one) were not read"));
                return;
            }
            String sameButCase = bySensorName.keySet().stream()
                    .filter(mapped -> mapped.equalsIgnoreCase(name))
                    .findFirst()
                    .map(mapped -> " (names are compared exactly: '" + mapped + "' is mapped)")
                    .orElse("");
            problems.accept(new Problem(
                    lines[1],
                    longFormat.sensorColumn(),
                    "sensor name " + CsvFiles.quote(name) + " is mapped by no --sensor" + sameButCase + ": " + where
                            + " not read; map it with --sensor '" + name + "=TYPE:UNIT' to import it"));
        });
    }

    /**
     * Reads only the header line and checks it as {@link #parseWithLines} does, so that a command
     * can refuse a file whose header lacks a configured column before it connects or sends anything.
     *
     * @param in the CSV; read as far as its header line and the first data line; closed by the caller
     * @return whether a data line follows the header (comment and blank lines are not data lines); true
     *         also when the line after the header cannot be read, which {@link #parseWithLines} reports
     * @throws IllegalArgumentException if the file is empty, or its header lacks a configured column or
     *                                  names one twice, saying which columns it has
     * @throws UncheckedIOException if reading the header fails
     */
    public boolean checkHeader(Reader in) {
        return CsvFiles.checkHeader(CsvFiles.open(in, delimiter, commentMarker), columns());
    }

    private List<String> columns() {
        List<String> all = new ArrayList<>(List.of(timeColumn));
        if (hive.column() != null) {
            all.add(hive.column());
        }
        if (longFormat == null) {
            sensors.forEach(s -> all.add(s.column()));
        } else {
            all.addAll(longFormat.columns());
        }
        return all;
    }

    /**
     * Names the values a logger writes for "no reading" (for example {@code -100}, {@code -99.9},
     * {@code -999}, {@code 9999}, {@code NA}): a cell that holds one is read as missing, like an empty
     * cell, and counted per marker ({@link #missingValueMatches}). A marker that is a decimal number
     * matches every cell of the same number ({@code -100} matches {@code -100.0}); any other marker
     * matches its text, ignoring letter case. Call before parsing.
     *
     * @param markers the markers, not null; none empty
     * @return this parser
     * @throws IllegalArgumentException if a marker is empty, or a decimal number that a double cannot
     *                                  hold (it would match another number: {@code 1e-400} every 0)
     */
    public CsvReadingParser missingValues(java.util.Collection<String> markers) {
        Map<String, String> texts = new LinkedHashMap<>();
        Map<Double, String> numbers = new LinkedHashMap<>();
        missingMatches.clear();
        for (String marker : markers) {
            String m = marker.trim();
            if (m.isEmpty()) {
                throw new IllegalArgumentException(
                        "a missing-value marker cannot be empty (an empty cell is missing" + " anyway)");
            }
            Double number = parseValue(m);
            Outcome lost = number == null ? lostInParsing(m) : null;
            if (lost != null) {
                throw new IllegalArgumentException(
                        "the missing-value marker " + lostMessage(m, lost).replace("; not read", ""));
            }
            String first = number != null
                    ? numbers.putIfAbsent(number, m)
                    : texts.putIfAbsent(m.toLowerCase(java.util.Locale.ROOT), m);
            if (first == null) {
                missingMatches.put(m, 0L);
            }
        }
        this.missingTexts = java.util.Collections.unmodifiableMap(texts);
        this.missingNumbers = java.util.Collections.unmodifiableMap(numbers); // in the order given
        return this;
    }

    /**
     * @return the cells (values in the long format) each missing-value marker matched so far, by the
     *         marker as given, in the order given (a marker that repeats an earlier one, {@code -100.0}
     *         after {@code -100}, is counted under the first); empty without markers; unmodifiable
     */
    public Map<String, Long> missingValueMatches() {
        return java.util.Collections.unmodifiableMap(missingMatches);
    }

    /**
     * Names each missing-value marker that is a number a sensor of this file could really read:
     * one inside the accepted range of a sensor's type (after the sensor's unit conversion), so that
     * its real readings of that value are read as missing and not sent.
     *
     * @param ranges the accepted ranges the topology checks, not null
     * @return one line per such marker, for a person, naming the sensor types, their ranges and the
     *         columns (sensor names in the long format); empty when no marker lies in a range
     */
    public List<String> missingValuesInRange(io.apiary.ingest.validation.SensorRanges ranges) {
        List<String> lines = new ArrayList<>();
        missingNumbers.forEach((number, marker) -> {
            List<String> inside = new ArrayList<>();
            for (SensorColumn sensor : sensors) {
                double value = sensor.conversion().apply(number);
                io.apiary.ingest.validation.SensorRanges.Range range =
                        ranges.range(sensor.sensorType().name(), sensor.unit());
                if (range != null && (value < range.min() || value > range.max())) {
                    continue;
                }
                inside.add(sensor.sensorType()
                        + (range == null
                                ? " (no range: any finite value)"
                                : " [" + number(range.min()) + ", " + number(range.max()) + "] " + sensor.unit())
                        + " (" + (longFormat == null ? "column '" : "sensor name '") + sensor.column() + "'"
                        + (sensor.conversion().isIdentity()
                                ? ""
                                : ", where " + marker + " "
                                        + sensor.conversion().from() + " is " + number(value) + " " + sensor.unit())
                        + ")");
            }
            if (!inside.isEmpty()) {
                lines.add("--missing-values marker '" + marker + "' lies inside the accepted range of "
                        + String.join(", ", inside) + ": real readings of " + marker + " there are read as missing"
                        + " and not sent (the summary line counts the cells each marker matched)");
            }
        });
        return lines;
    }

    /** A number as a person writes it: no trailing ".0". */
    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value)
                : Double.toString(value);
    }

    private boolean isMissing(String cell) {
        if (missingTexts.isEmpty() && missingNumbers.isEmpty()) {
            return false;
        }
        Double number = missingNumbers.isEmpty() ? null : parseValue(cell);
        String marker = number != null
                ? missingNumbers.get(number)
                : missingTexts.get(cell.trim().toLowerCase(java.util.Locale.ROOT));
        if (marker == null) {
            return false;
        }
        missingMatches.merge(marker, 1L, Long::sum);
        return true;
    }

    /** Plain decimal numbers, optionally with an exponent; not Java's hexadecimal or 'd'/'f' forms. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    /** A digit other than 0 before the exponent: the text is not zero. */
    private static final Pattern NON_ZERO_MANTISSA = Pattern.compile("[^eE]*[1-9].*");

    /**
     * @return the value of a plain decimal text that a double holds, or null for any other text, and for
     *         one a double cannot hold ({@link #lostInParsing}): beyond the largest, or not zero but read as 0
     */
    private static Double parseValue(String cell) {
        if (cell.isEmpty() || !DECIMAL.matcher(cell).matches()) {
            return null;
        }
        double v = Double.parseDouble(cell);
        if (!Double.isFinite(v) || (v == 0 && NON_ZERO_MANTISSA.matcher(cell).matches())) {
            return null;
        }
        return v == 0 ? 0.0 : v; // -0 is 0: one value, not a conflicting duplicate
    }

    /**
     * @return TOO_LARGE or TOO_SMALL for a plain decimal text whose double is infinite or 0 although the
     *         text is not zero, else null
     */
    private static Outcome lostInParsing(String cell) {
        if (cell.isEmpty() || !DECIMAL.matcher(cell).matches()) {
            return null;
        }
        double v = Double.parseDouble(cell);
        if (!Double.isFinite(v)) {
            return Outcome.TOO_LARGE;
        }
        return v == 0 && NON_ZERO_MANTISSA.matcher(cell).matches() ? Outcome.TOO_SMALL : null;
    }

    /** @return why a decimal text that a double cannot hold is not read */
    private static String lostMessage(String cell, Outcome lost) {
        return lost == Outcome.TOO_LARGE
                ? CsvFiles.quote(cell) + " is too large for a double (largest " + Double.MAX_VALUE
                        + "): it would be read as " + (cell.startsWith("-") ? "-" : "") + "Infinity; not read"
                : CsvFiles.quote(cell) + " is not zero but too small for a double (smallest " + Double.MIN_VALUE
                        + "): it would be read as 0; not read";
    }
}
