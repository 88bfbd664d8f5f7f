package io.apiary.ingest.cli;

import io.apiary.ingest.importer.CsvReadingParser;
import io.apiary.ingest.importer.ReadingTimeParser;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * The options of the importers ({@code import-csv}, {@code import-counts}) that say how to read a
 * file: where it is, its time column and format, zone and daylight-saving resolution, where hive
 * ids come from, comment lines, delimiter, character set, gateway id and how many problems are
 * printed. A picocli mixin; not thread-safe.
 */
public final class CsvFileOptions {

    @Option(
            names = "--file",
            required = true,
            paramLabel = "CSV",
            description = "The CSV file, with a header line (import-counts takes several: repeat --file).")
    List<Path> files;

    @Option(names = "--time-column", required = true, paramLabel = "NAME", description = "Header of the time column.")
    String timeColumn;

    @Option(
            names = "--time-format",
            defaultValue = "yyyy-MM-dd HH:mm:ss[XXX]",
            paramLabel = "FORMAT",
            description = {
                "iso, epoch-ms, epoch-s (decimal fractions allowed, cut to milliseconds), elapsed-ms,"
                        + " elapsed-s, elapsed-min, elapsed-h (since --time-start), or a java.time pattern, read"
                        + " strictly: a date that does not exist is an error (default: ${DEFAULT-VALUE})."
            })
    String timeFormat;

    @Option(
            names = "--time-start",
            paramLabel = "TIME",
            description = "The start that elapsed-* times count from: ISO-8601, with an offset or read in --zone,"
                    + " e.g. 2021-06-01T08:00:00+02:00.")
    String timeStart;

    @Option(
            names = "--dst",
            defaultValue = "reject",
            paramLabel = "RESOLUTION",
            description = {
                "Local times that a daylight-saving change in --zone makes missing (spring) or"
                        + " ambiguous (autumn): reject (report the row, default), earlier (the offset before the change:"
                        + " the first of two instants), later (the offset after it: the second), or infer (an ambiguous"
                        + " time from the file's order: the second instant once the hive's times went back; a missing"
                        + " time is rejected). Each one resolved is reported with its line too."
            })
    String dst;

    @Option(
            names = "--zone",
            defaultValue = "UTC",
            paramLabel = "ZONE",
            description = "Zone of times written without an offset, e.g. UTC, -05:00, America/Montreal "
                    + "(default: ${DEFAULT-VALUE}).")
    ZoneId zone;

    /** Exactly one source of hive ids. */
    static final class HiveOptions {
        @Option(
                names = "--hive-column",
                required = true,
                paramLabel = "NAME",
                description = "Header of the hive id column.")
        String column;

        @Option(
                names = "--hive-id",
                required = true,
                paramLabel = "ID",
                description = "The hive id of every row, for a file of one hive without a hive column.")
        String id;

        @Option(
                names = "--hive-id-from-file-name",
                required = true,
                description = "The hive id of every row is the file's name up to its first '.' (hive-7.csv: hive-7),"
                        + " for a data set of one file per hive.")
        boolean fromFileName;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    HiveOptions hive;

    @Option(
            names = "--comment-prefix",
            paramLabel = "CHAR",
            description = "Skip lines that start with this character, before the header too, e.g. '#'.")
    String commentPrefix;

    @Option(
            names = "--gateway-id",
            defaultValue = "csv-import",
            paramLabel = "ID",
            description = "Gateway id given to what is sent (default: ${DEFAULT-VALUE}).")
    String gatewayId;

    @Option(
            names = "--delimiter",
            defaultValue = ",",
            paramLabel = "CHAR",
            description = "Field delimiter: one character, or \\t or tab for a tab (default: ${DEFAULT-VALUE}).")
    String delimiter;

    @Option(
            names = "--charset",
            defaultValue = "UTF-8",
            paramLabel = "NAME",
            description =
                    "Character set of the file, e.g. UTF-8, ISO-8859-1, windows-1252 (default: ${DEFAULT-VALUE}).")
    Charset charset;

    @Option(
            names = "--max-reported",
            defaultValue = "1000",
            paramLabel = "N",
            description = "Problems and conflicting duplicates printed one by one before only counting them"
                    + " (default: ${DEFAULT-VALUE}).")
    int maxReported;

    /**
     * @return the delimiter character
     * @throws IllegalArgumentException if {@code --delimiter} is not one character, \t or tab
     */
    char delimiterChar() {
        if ("\\t".equals(delimiter) || "tab".equalsIgnoreCase(delimiter)) {
            return '\t';
        }
        if (delimiter.length() != 1) {
            throw new IllegalArgumentException(
                    "--delimiter must be one character, \\t or tab, was '" + delimiter + "'");
        }
        return delimiter.charAt(0);
    }

    /**
     * @return the daylight-saving resolution
     * @throws IllegalArgumentException if {@code --dst} names none
     */
    ReadingTimeParser.DstResolution dstResolution() {
        for (ReadingTimeParser.DstResolution r : ReadingTimeParser.DstResolution.values()) {
            if (r.name().equalsIgnoreCase(dst.trim())) {
                return r;
            }
        }
        throw new IllegalArgumentException("--dst must be reject, earlier, later or infer, was '" + dst + "'");
    }

    /**
     * @return the comment marker, or null for none
     * @throws IllegalArgumentException if {@code --comment-prefix} is not one character
     */
    Character commentMarker() {
        if (commentPrefix == null) {
            return null;
        }
        if (commentPrefix.length() != 1) {
            throw new IllegalArgumentException("--comment-prefix must be one character, was '" + commentPrefix + "'");
        }
        return commentPrefix.charAt(0);
    }

    /**
     * @return the parser of the time column
     * @throws IllegalArgumentException if the format, the resolution or {@code --time-start} is not usable,
     *                                  the message naming the option
     */
    ReadingTimeParser timeParser() {
        ReadingTimeParser.DstResolution resolution = dstResolution();
        try {
            return new ReadingTimeParser(
                    timeFormat,
                    zone,
                    resolution,
                    timeStart == null
                            ? null
                            : new ReadingTimeParser(
                                            "iso",
                                            zone,
                                            resolution == ReadingTimeParser.DstResolution.INFER
                                                    ? ReadingTimeParser.DstResolution.REJECT
                                                    : resolution,
                                            null)
                                    .parse(timeStart));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("--time-start: " + e.getMessage(), e);
        }
    }

    /**
     * @param file the file read, not null
     * @return where its hive ids come from
     * @throws IllegalArgumentException if the fixed id (or the one from the file name) is not valid
     */
    CsvReadingParser.HiveSource hiveSource(Path file) {
        if (hive.fromFileName) {
            String base = file.getFileName().toString();
            String id = base.indexOf('.') > 0 ? base.substring(0, base.indexOf('.')) : base;
            try {
                return CsvReadingParser.HiveSource.fixed(id);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--hive-id-from-file-name: " + e.getMessage(), e);
            }
        }
        return hive.id != null
                ? CsvReadingParser.HiveSource.fixed(hive.id)
                : CsvReadingParser.HiveSource.column(hive.column);
    }

    /**
     * @param command the command's name, for the message
     * @return the only file
     * @throws IllegalArgumentException if several were given
     */
    Path singleFile(String command) {
        if (files.size() != 1) {
            throw new IllegalArgumentException(command + " reads one --file, was given " + files.size());
        }
        return files.get(0);
    }

    /** @throws IllegalArgumentException if {@code --max-reported} is negative */
    void requireMaxReported() {
        if (maxReported < 0) {
            throw new IllegalArgumentException("--max-reported must not be negative, was " + maxReported);
        }
    }

    /**
     * @param file the file, not null
     * @throws IllegalArgumentException if it cannot be read, saying why
     */
    static void requireReadable(Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException("Cannot read " + file.toAbsolutePath() + ": "
                    + (Files.exists(file)
                            ? (Files.isDirectory(file) ? "it is a folder" : "permission denied")
                            : "no such file"));
        }
    }

    /** @param file the file, not null @return its name, the prefix of every message about it */
    static String name(Path file) {
        return file.getFileName().toString();
    }
}
