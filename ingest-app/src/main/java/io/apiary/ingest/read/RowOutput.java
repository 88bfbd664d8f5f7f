package io.apiary.ingest.read;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Prints rows of the read path in an {@link OutputFormat}, for {@code ingest-app query}.
 * <ul>
 *   <li>{@code CSV}: RFC 4180 (commons-csv's default format: comma, {@code "} quoting where needed,
 *       CRLF record ends), a header row of the column names; null as an empty field (so null and an
 *       empty string read back alike); numbers and times as {@link OutputColumn#text}.</li>
 *   <li>{@code JSON}: JSON lines (Jackson): one object per row and {@code \n}, fields named as the
 *       CQL columns in column order, null as JSON {@code null}, numbers as JSON numbers (a double
 *       reads back as the same double; NaN and infinities, which JSON has no numbers for, as the
 *       strings {@code "NaN"}, {@code "Infinity"}), times and dates as ISO-8601 UTC strings.</li>
 *   <li>{@code TABLE}: see {@link TableOutput}.</li>
 * </ul>
 * CSV and JSON stream: each row is formatted as it is read from the iterator, none is kept. The
 * writer is flushed at the end but not closed. Stateless and thread-safe; one call per writer at a time.
 */
public final class RowOutput {

    /** No separator between root values: each row ends with its own line feed. */
    private static final JsonFactory JSON = new JsonFactory().setRootValueSeparator(null);

    private RowOutput() {}

    /**
     * @param format  the format, not null
     * @param rowType one of the four row records; its columns are {@link RowColumns#of}
     * @param rows    the rows, consumed to the end, not null
     * @param out     where to print, not null, not closed
     * @param <R>     the row type
     * @return the number of rows printed
     * @throws IOException              if the writer fails
     * @throws IllegalArgumentException if the row type has no columns
     */
    public static <R extends TimedRow> long write(
            OutputFormat format, Class<R> rowType, Iterator<? extends R> rows, Writer out) throws IOException {
        return write(format, RowColumns.of(rowType), rows, out);
    }

    /**
     * @param format  the format, not null
     * @param columns the columns to print, not null, not empty
     * @param rows    the rows, consumed to the end, not null
     * @param out     where to print, not null, not closed
     * @param <R>     the row type
     * @return the number of rows printed
     * @throws IOException if the writer fails
     */
    public static <R> long write(
            OutputFormat format, List<OutputColumn<R>> columns, Iterator<? extends R> rows, Writer out)
            throws IOException {
        return switch (format) {
            case TABLE -> TableOutput.write(columns, rows, out, TableOutput.SIZING_ROWS);
            case CSV -> csv(columns, rows, out);
            case JSON -> json(columns, rows, out);
        };
    }

    private static <R> long csv(List<OutputColumn<R>> columns, Iterator<? extends R> rows, Writer out)
            throws IOException {
        CSVFormat format = CSVFormat.DEFAULT
                .builder()
                .setHeader(columns.stream().map(OutputColumn::name).toArray(String[]::new))
                .get();
        // Not closed: that would close the caller's writer.
        CSVPrinter printer = new CSVPrinter(out, format);
        Object[] fields = new Object[columns.size()];
        long count = 0;
        while (rows.hasNext()) {
            R row = rows.next();
            for (int i = 0; i < fields.length; i++) {
                fields[i] = OutputColumn.text(columns.get(i).value().apply(row));
            }
            printer.printRecord(fields);
            count++;
        }
        printer.flush();
        return count;
    }

    private static <R> long json(List<OutputColumn<R>> columns, Iterator<? extends R> rows, Writer out)
            throws IOException {
        long count = 0;
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            while (rows.hasNext()) {
                R row = rows.next();
                json.writeStartObject();
                for (OutputColumn<R> column : columns) {
                    json.writeFieldName(column.name());
                    writeValue(json, column.value().apply(row));
                }
                json.writeEndObject();
                json.writeRaw('\n');
                count++;
            }
        }
        out.flush();
        return count;
    }

    private static void writeValue(JsonGenerator json, Object value) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof Double d) {
            json.writeNumber(d);
        } else if (value instanceof Long l) {
            json.writeNumber(l);
        } else if (value instanceof Integer i) {
            json.writeNumber(i);
        } else if (value instanceof Instant || value instanceof LocalDate || value instanceof String) {
            json.writeString(value.toString());
        } else {
            throw new IllegalArgumentException("no JSON form for a column value of type "
                    + value.getClass().getName());
        }
    }
}
