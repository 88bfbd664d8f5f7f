package io.apiary.ingest.importer;

import java.io.IOException;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.commons.csv.DuplicateHeaderMode;

/**
 * What the importers share about reading a CSV file with Commons CSV: a header line (a leading
 * byte-order mark skipped), trimmed fields, empty lines ignored, optional comment lines anywhere
 * (before the header too), a header that must hold every configured column, and read failures
 * that name the line. Stateless and thread-safe; the parsers it opens are not.
 */
final class CsvFiles {

    private CsvFiles() {}

    /**
     * Checks a comment marker for a file of this delimiter.
     *
     * @param commentMarker null (no comment lines) or the marker
     * @param delimiter     the field delimiter
     * @throws IllegalArgumentException if the marker is the delimiter, the quote, a letter, a digit,
     *                                  a sign, a point or white space (data lines start with those)
     */
    static void requireCommentMarker(Character commentMarker, char delimiter) {
        if (commentMarker != null
                && (commentMarker == delimiter
                        || commentMarker == '"'
                        || Character.isLetterOrDigit(commentMarker)
                        || Character.isWhitespace(commentMarker)
                        || "+-.".indexOf(commentMarker) >= 0)) {
            throw new IllegalArgumentException("The comment marker must not be the delimiter, the quote, a letter, a"
                    + " digit, a sign, a point or white space (data lines start with those), was '" + commentMarker
                    + "'");
        }
    }

    /**
     * Opens a CSV with a header line.
     *
     * @param in            the text, not null; closed with the returned parser
     * @param delimiter     the field delimiter
     * @param commentMarker null, or the character that starts a comment line
     * @return the parser, positioned after the header line
     * @throws IllegalArgumentException if the header names a column twice
     * @throws UncheckedIOException if the header cannot be read
     */
    static CSVParser open(Reader in, char delimiter, Character commentMarker) {
        CSVFormat format = CSVFormat.DEFAULT
                .builder()
                .setDelimiter(delimiter)
                .setCommentMarker(commentMarker)
                .setHeader()
                .setSkipHeaderRecord(true)
                .setTrim(true)
                .setIgnoreEmptyLines(true)
                .setDuplicateHeaderMode(DuplicateHeaderMode.DISALLOW)
                .get();
        try {
            return CSVParser.builder()
                    .setReader(skipByteOrderMark(in))
                    .setFormat(format)
                    .get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "The CSV header is not usable: " + e.getMessage().split("\\. If")[0], e);
        } catch (IOException | UncheckedIOException e) {
            throw new UncheckedIOException(
                    "Cannot read the CSV header: " + readFailure(e),
                    e instanceof UncheckedIOException u ? u.getCause() : (IOException) e);
        }
    }

    /**
     * Checks that a header holds every column.
     *
     * @param header  the header map of a parser, may be null (an empty file)
     * @param columns the configured columns, not null
     * @throws IllegalArgumentException if the file is empty or a column is missing, naming the columns it has
     */
    static void requireColumns(Map<String, Integer> header, List<String> columns) {
        if (header == null || header.isEmpty()) {
            throw new IllegalArgumentException("The CSV is empty: it has no header line");
        }
        StringBuilder missing = new StringBuilder();
        for (String column : columns) {
            if (!header.containsKey(column)) {
                missing.append(missing.length() == 0 ? "" : ", ")
                        .append('\'')
                        .append(column)
                        .append('\'');
            }
        }
        if (missing.length() > 0) {
            throw new IllegalArgumentException(
                    "The CSV header lacks column(s) " + missing + "; its columns are " + header.keySet());
        }
    }

    /**
     * Checks a header ({@link #requireColumns}) and whether a data record follows it.
     *
     * @param parser  an open parser, not null; read as far as its first record; not closed
     * @param columns the configured columns, not null
     * @return whether a record follows the header; true also when the next line cannot be read (reading
     *         the whole file reports that, with its line)
     * @throws IllegalArgumentException as {@link #requireColumns}
     */
    static boolean checkHeader(CSVParser parser, List<String> columns) {
        requireColumns(parser.getHeaderMap(), columns);
        try {
            return parser.iterator().hasNext();
        } catch (UncheckedIOException e) {
            return true;
        }
    }

    /**
     * Reads every record after the header, counting comment lines.
     *
     * @param parser  an open parser, not null; closed at the end
     * @param columns the configured columns, checked first ({@link #requireColumns})
     * @param each    receives each record, not null
     * @return lines skipped as comments
     * @throws IllegalArgumentException as {@link #requireColumns}
     * @throws UncheckedIOException if reading fails, naming the line
     */
    static long forEachRecord(CSVParser parser, List<String> columns, Consumer<CSVRecord> each) {
        long comments = 0;
        try (parser) {
            requireColumns(parser.getHeaderMap(), columns);
            Iterator<CSVRecord> records = parser.iterator();
            while (true) {
                CSVRecord record;
                try {
                    if (!records.hasNext()) {
                        break;
                    }
                    record = records.next();
                } catch (UncheckedIOException e) {
                    throw new UncheckedIOException(
                            "Cannot read the CSV after line " + parser.getCurrentLineNumber() + ": " + readFailure(e),
                            e.getCause());
                }
                comments += lines(record.getComment());
                each.accept(record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the CSV: " + e.getMessage(), e);
        }
        return comments + lines(parser.getHeaderComment()) + lines(parser.getTrailerComment());
    }

    /** @param cell a cell @return it quoted, cut to 60 characters */
    static String quote(String cell) {
        return cell.length() <= 60
                ? "'" + cell + "'"
                : "'" + cell.substring(0, 60) + "...' (" + cell.length() + " characters)";
    }

    private static long lines(String comment) {
        return comment == null ? 0 : comment.chars().filter(c -> c == '\n').count() + 1;
    }

    private static Reader skipByteOrderMark(Reader in) throws IOException {
        PushbackReader reader = new PushbackReader(in, 1);
        int first = reader.read();
        if (first != -1 && first != '\uFEFF') {
            reader.unread(first);
        }
        return reader;
    }

    private static String readFailure(Exception e) {
        Throwable cause = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
        return cause instanceof CharacterCodingException
                ? "the text is not in the expected character set (see --charset)"
                : String.valueOf(cause.getMessage());
    }
}
