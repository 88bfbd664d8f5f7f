package io.apiary.ingest.read;

import java.util.Locale;

/** The time order of a read: oldest first or newest first. */
public enum ReadOrder {

    /** Oldest first: by time, then series, ascending. */
    ASC,

    /** Newest first: by time, then series, descending. */
    DESC;

    /**
     * @param text {@code asc} or {@code desc} (also {@code ascending}, {@code descending}), any case
     * @return the order
     * @throws IllegalArgumentException naming the accepted values
     */
    public static ReadOrder parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "asc", "ascending" -> ASC;
            case "desc", "descending" -> DESC;
            default -> throw new IllegalArgumentException("Unknown order '" + text + "': use 'asc' or 'desc'");
        };
    }
}
