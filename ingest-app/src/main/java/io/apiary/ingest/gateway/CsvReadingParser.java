package io.apiary.ingest.gateway;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import io.apiary.schema.TelemetryReading;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Turns a CSV of readings (one row per time and hive, one column per sensor) into gateway
 * telemetry readings. A row whose time or hive cannot be read is rejected whole; a sensor cell
 * that is empty or not a finite number is rejected alone; every rejection is reported with its
 * line number and nothing is skipped silently. Not thread-safe; one parser per file.
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
     */
    public record Totals(long rows, long readings, long rejectedRows, long rejectedCells) {
    }

    private final String timeColumn;
    private final ReadingTimeParser timeParser;
    private final String hiveColumn;
    private final List<SensorColumn> sensors;
    private final String gatewayId;
    private final char delimiter;

    /**
     * @param timeColumn header of the time column
     * @param timeParser how to read it
     * @param hiveColumn header of the hive id column
     * @param sensors    sensor columns, at least one
     * @param gatewayId  gateway id given to every reading
     * @param delimiter  field delimiter
     */
    public CsvReadingParser(String timeColumn, ReadingTimeParser timeParser, String hiveColumn,
            List<SensorColumn> sensors, String gatewayId, char delimiter) {
        if (sensors.isEmpty()) {
            throw new IllegalArgumentException("at least one sensor column is needed");
        }
        this.timeColumn = Objects.requireNonNull(timeColumn);
        this.timeParser = Objects.requireNonNull(timeParser);
        this.hiveColumn = Objects.requireNonNull(hiveColumn);
        this.sensors = List.copyOf(sensors);
        this.gatewayId = Objects.requireNonNull(gatewayId);
        this.delimiter = delimiter;
    }

    /**
     * Reads a whole file.
     *
     * @param in       the CSV, with a header line; closed by the caller
     * @param readings receives each reading, in file order
     * @param problems receives each rejected row or cell
     * @return the totals
     * @throws IllegalArgumentException if the header lacks a configured column, naming the columns found
     * @throws UncheckedIOException if reading fails
     */
    public Totals parse(Reader in, Consumer<TelemetryReading> readings, Consumer<Problem> problems) {
        CSVFormat format = CSVFormat.DEFAULT.builder().setDelimiter(delimiter).setHeader()
                .setSkipHeaderRecord(true).setTrim(true).setIgnoreEmptyLines(true).get();
        long rows = 0;
        long produced = 0;
        long rejectedRows = 0;
        long rejectedCells = 0;
        try (CSVParser parser = CSVParser.builder().setReader(in).setFormat(format).get()) {
            checkHeader(parser.getHeaderMap());
            for (CSVRecord record : parser) {
                rows++;
                long line = parser.getCurrentLineNumber();
                if (!record.isConsistent()) {
                    problems.accept(new Problem(line, null, "expected " + parser.getHeaderMap().size()
                            + " fields, found " + record.size()));
                    rejectedRows++;
                    continue;
                }
                String hiveId = record.get(hiveColumn);
                if (hiveId.isEmpty()) {
                    problems.accept(new Problem(line, hiveColumn, "no hive id"));
                    rejectedRows++;
                    continue;
                }
                java.time.Instant time;
                try {
                    time = timeParser.parse(record.get(timeColumn));
                } catch (RuntimeException e) {
                    problems.accept(new Problem(line, timeColumn, "cannot read time '" + record.get(timeColumn)
                            + "': " + e.getMessage()));
                    rejectedRows++;
                    continue;
                }
                for (SensorColumn sensor : sensors) {
                    String cell = record.get(sensor.column());
                    Double value = parseValue(cell);
                    if (value == null) {
                        problems.accept(new Problem(line, sensor.column(), cell.isEmpty()
                                ? "empty cell, no reading" : "not a finite number: '" + cell + "'"));
                        rejectedCells++;
                        continue;
                    }
                    readings.accept(new TelemetryReading(hiveId, gatewayId, sensor.sensorType(), time, value,
                            sensor.unit()));
                    produced++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the CSV: " + e.getMessage(), e);
        }
        return new Totals(rows, produced, rejectedRows, rejectedCells);
    }

    private void checkHeader(Map<String, Integer> header) {
        if (header == null) {
            throw new IllegalArgumentException("The CSV has no header line");
        }
        StringBuilder missing = new StringBuilder();
        for (String column : columns()) {
            if (!header.containsKey(column)) {
                missing.append(missing.length() == 0 ? "" : ", ").append('\'').append(column).append('\'');
            }
        }
        if (missing.length() > 0) {
            throw new IllegalArgumentException("The CSV header lacks column(s) " + missing
                    + "; its columns are " + header.keySet());
        }
    }

    private List<String> columns() {
        java.util.ArrayList<String> all = new java.util.ArrayList<>(List.of(timeColumn, hiveColumn));
        sensors.forEach(s -> all.add(s.column()));
        return all;
    }

    private static Double parseValue(String cell) {
        if (cell.isEmpty()) {
            return null;
        }
        try {
            double v = Double.parseDouble(cell);
            return Double.isFinite(v) ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
