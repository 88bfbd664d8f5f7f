package io.apiary.ingest.gateway;

import io.apiary.ingest.identity.Identifiers;
import io.apiary.schema.TelemetryReading;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Turns a CSV of readings (one row per time and hive, one column per sensor) into gateway
 * telemetry readings. A row whose time or hive cannot be read is rejected whole; a sensor cell
 * that is empty or not a finite number is rejected alone; every rejection is reported with its
 * line number and nothing is skipped silently. Each column's readings carry its sensor type,
 * unit and sensor id ({@link SensorColumn}); readings that repeat a series and time are not this
 * class's concern ({@link DuplicateReadings} finds them). Not thread-safe; one parser per file.
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
     */
    public record Totals(
            long rows, long readings, long rejectedRows, long rejectedCells, long resolvedTimes, long commentLines) {
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

    private final String timeColumn;
    private final ReadingTimeParser timeParser;
    private final HiveSource hive;
    private final List<SensorColumn> sensors;
    private final String gatewayId;
    private final char delimiter;
    private final Character commentMarker;
    /** the last time read of each hive, for {@link ReadingTimeParser.DstResolution#INFER} */
    private final Map<String, Instant> previousTimes = new java.util.HashMap<>();

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
        this(timeColumn, timeParser, HiveSource.column(hiveColumn), sensors, gatewayId, delimiter, null);
    }

    /**
     * @param timeColumn    header of the time column, not null
     * @param timeParser    how to read it, not null
     * @param hive          where the hive id comes from, not null
     * @param sensors       sensor columns, at least one, no two with one name or one sensor type and id
     *                      (see {@link SensorMapping})
     * @param gatewayId     gateway id given to every reading, not null
     * @param delimiter     field delimiter
     * @param commentMarker null, or the character that starts a comment line, skipped wherever it
     *                      is (before the header too) and counted; not the delimiter, the quote, a
     *                      letter, a digit, a sign, a point or white space
     * @throws IllegalArgumentException if there is no sensor column, two share a name or a series,
     *                                  or the comment marker is one it cannot be
     */
    public CsvReadingParser(
            String timeColumn,
            ReadingTimeParser timeParser,
            HiveSource hive,
            List<SensorColumn> sensors,
            String gatewayId,
            char delimiter,
            Character commentMarker) {
        if (sensors.isEmpty()) {
            throw new IllegalArgumentException("at least one sensor column is needed");
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
     * @param problems receives each rejected row or cell
     * @return the totals
     * @throws IllegalArgumentException if the file is empty, or its header lacks a configured column or
     *                                  names one twice, saying which columns it has
     * @throws UncheckedIOException if reading fails, naming the line (for example, text that is not in
     *                              the expected character set)
     */
    public Totals parseWithLines(Reader in, LineReadings readings, Consumer<Problem> problems) {
        long[] totals = new long[6]; // rows, readings, rejected rows, rejected cells, resolved times, comments
        CSVParser parser = CsvFiles.open(in, delimiter, commentMarker);
        totals[5] = CsvFiles.forEachRecord(parser, columns(), record -> {
            totals[0]++;
            parseRow(record, parser, readings, problems, totals);
        });
        return new Totals(totals[0], totals[1], totals[2], totals[3], totals[4], totals[5]);
    }

    private void parseRow(
            CSVRecord record, CSVParser parser, LineReadings readings, Consumer<Problem> problems, long[] totals) {
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
        Instant time;
        try {
            ReadingTimeParser.Parsed parsed =
                    timeParser.parseWithNote(record.get(timeColumn), previousTimes.get(hiveId));
            time = parsed.instant();
            previousTimes.put(hiveId, time);
            if (parsed.note() != null) {
                problems.accept(new Problem(line, timeColumn, "resolved: " + parsed.note()));
                totals[4]++;
            }
        } catch (RuntimeException e) {
            problems.accept(new Problem(
                    line,
                    timeColumn,
                    "cannot read time " + CsvFiles.quote(record.get(timeColumn))
                            + " with the time format '" + timeParser.format() + "' (--time-format: "
                            + String.join(", ", ReadingTimeParser.NAMED_FORMATS) + " or a java.time pattern): "
                            + e.getMessage()));
            totals[2]++;
            return;
        }
        for (SensorColumn sensor : sensors) {
            String cell = record.get(sensor.column());
            Double value = parseValue(cell);
            if (value == null) {
                problems.accept(new Problem(
                        line,
                        sensor.column(),
                        cell.isEmpty()
                                ? "empty cell, no reading"
                                : "not a finite decimal number: " + CsvFiles.quote(cell)));
                totals[3]++;
                continue;
            }
            double converted = sensor.conversion().apply(value);
            if (!Double.isFinite(converted)
                    || (converted == 0 && value != 0 && sensor.conversion().apply(0) == 0)) {
                problems.accept(new Problem(
                        line,
                        sensor.column(),
                        CsvFiles.quote(cell) + " " + sensor.conversion().from() + " is " + converted + " "
                                + sensor.unit() + ", out of the range of a double"));
                totals[3]++;
                continue;
            }
            value = converted;
            try {
                readings.accept(
                        new TelemetryReading(
                                hiveId,
                                gatewayId,
                                sensor.sensorType(),
                                sensor.sensorId(),
                                time,
                                value,
                                sensor.unit(),
                                null),
                        line);
                totals[1]++;
            } catch (RejectedReading e) {
                problems.accept(new Problem(line, sensor.column(), e.getMessage()));
                totals[3]++;
            }
        }
    }

    /**
     * Reads only the header line and checks it as {@link #parseWithLines} does, so that a command
     * can refuse a file whose header lacks a configured column before it connects or sends anything.
     *
     * @param in the CSV; read as far as its header line; closed by the caller
     * @throws IllegalArgumentException if the file is empty, or its header lacks a configured column or
     *                                  names one twice, saying which columns it has
     * @throws UncheckedIOException if reading fails
     */
    public void checkHeader(Reader in) {
        CsvFiles.requireColumns(CsvFiles.open(in, delimiter, commentMarker).getHeaderMap(), columns());
    }

    private List<String> columns() {
        java.util.ArrayList<String> all = new java.util.ArrayList<>(List.of(timeColumn));
        if (hive.column() != null) {
            all.add(hive.column());
        }
        sensors.forEach(s -> all.add(s.column()));
        return all;
    }

    /** Plain decimal numbers, optionally with an exponent; not Java's hexadecimal or 'd'/'f' forms. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private static Double parseValue(String cell) {
        if (cell.isEmpty() || !DECIMAL.matcher(cell).matches()) {
            return null;
        }
        double v = Double.parseDouble(cell);
        return Double.isFinite(v) ? v : null;
    }
}
