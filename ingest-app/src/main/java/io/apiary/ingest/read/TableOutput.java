package io.apiary.ingest.read;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The {@link OutputFormat#TABLE} format: a header line, a line of dashes, then one line per row,
 * columns separated by two spaces, numbers right-aligned, null as {@code -}; lines end with
 * {@code \n}, trailing blanks dropped.
 *
 * <p>Column widths are those of the header and of the first {@value #SIZING_ROWS} rows, which are
 * buffered to measure them; later rows are streamed with those widths, and a longer value overflows
 * its column (it is never cut). Widths count code points, so wide (East Asian) characters may
 * misalign.
 *
 * <p>One row stays one line: in a value, line feed, carriage return and tab print as {@code \n},
 * {@code \r}, {@code \t}, other ISO control characters and Unicode format characters (e.g. U+202E)
 * as {@code \\uXXXX}. A backslash is left as it is, so the table is for reading, not parsing (CSV
 * and JSON are loss-less). Stateless and thread-safe.
 */
final class TableOutput {

    /** How many rows are buffered to size the columns. */
    static final int SIZING_ROWS = 1_000;

    private static final String GAP = "  ";

    private TableOutput() {}

    /**
     * @param columns    the columns, not empty
     * @param rows       the rows, consumed to the end
     * @param out        where to print, flushed, not closed
     * @param sizingRows how many rows to buffer to size the columns, at least 0
     * @return the number of rows printed
     * @throws IOException if the writer fails
     */
    static <R> long write(List<OutputColumn<R>> columns, Iterator<? extends R> rows, Writer out, int sizingRows)
            throws IOException {
        int[] widths = new int[columns.size()];
        String[] header = new String[columns.size()];
        for (int i = 0; i < header.length; i++) {
            header[i] = columns.get(i).name();
            widths[i] = width(header[i]);
        }
        List<String[]> buffered = new ArrayList<>();
        while (buffered.size() < sizingRows && rows.hasNext()) {
            String[] cells = cells(columns, rows.next());
            for (int i = 0; i < cells.length; i++) {
                widths[i] = Math.max(widths[i], width(cells[i]));
            }
            buffered.add(cells);
        }
        StringBuilder line = new StringBuilder(256);
        out.write(line(columns, header, widths, line));
        String[] dashes = new String[widths.length];
        for (int i = 0; i < widths.length; i++) {
            dashes[i] = "-".repeat(widths[i]);
        }
        out.write(line(columns, dashes, widths, line));
        long count = 0;
        for (String[] cells : buffered) {
            out.write(line(columns, cells, widths, line));
            count++;
        }
        buffered.clear();
        while (rows.hasNext()) {
            out.write(line(columns, cells(columns, rows.next()), widths, line));
            count++;
        }
        out.flush();
        return count;
    }

    private static <R> String[] cells(List<OutputColumn<R>> columns, R row) {
        String[] cells = new String[columns.size()];
        for (int i = 0; i < cells.length; i++) {
            String text = OutputColumn.text(columns.get(i).value().apply(row));
            cells[i] = text == null ? "-" : escape(text);
        }
        return cells;
    }

    private static <R> String line(List<OutputColumn<R>> columns, String[] cells, int[] widths, StringBuilder line) {
        line.setLength(0);
        for (int i = 0; i < cells.length; i++) {
            String pad = " ".repeat(Math.max(0, widths[i] - width(cells[i])));
            line.append(i == 0 ? "" : GAP);
            if (columns.get(i).align() == OutputColumn.Align.RIGHT) {
                line.append(pad).append(cells[i]);
            } else {
                line.append(cells[i]).append(pad);
            }
        }
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--;
        }
        line.setLength(end);
        return line.append('\n').toString();
    }

    private static int width(String text) {
        return text.codePointCount(0, text.length());
    }

    /**
     * @param text a value's text, not null
     * @return the text on one line: {@code \n}, {@code \r}, {@code \t} for those characters, {@code \\uXXXX}
     *         for other ISO control and Unicode format characters
     */
    static String escape(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean escape = Character.isISOControl(c)
                    || Character.getType(c) == Character.FORMAT
                    || c == '\u2028'
                    || c == '\u2029';
            if (escape && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out == null) {
                continue;
            }
            if (!escape) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else {
                out.append(String.format("\\u%04X", (int) c));
            }
        }
        return out == null ? text : out.toString();
    }
}
