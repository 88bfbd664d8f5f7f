package io.apiary.ingest.read;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How {@code ingest-app query} prints rows; see {@link RowOutput}.
 */
public enum OutputFormat {

    /** Aligned columns under a header line, for people; not meant to be parsed. */
    TABLE,
    /** RFC 4180 CSV with a header row. */
    CSV,
    /** JSON lines: one JSON object per row. */
    JSON;

    /**
     * @param text a format's name in any case, e.g. {@code csv}; surrounding blanks ignored
     * @return the format
     * @throws IllegalArgumentException if the text names no format (the message lists the accepted names)
     */
    public static OutputFormat parse(String text) {
        String name = text == null ? "" : text.strip();
        for (OutputFormat format : values()) {
            if (format.name().equalsIgnoreCase(name)) {
                return format;
            }
        }
        throw new IllegalArgumentException("unknown output format '" + text + "': expected one of "
                + Arrays.stream(values())
                        .map(f -> f.name().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(", ")));
    }
}
