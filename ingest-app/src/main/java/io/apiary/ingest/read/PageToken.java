package io.apiary.ingest.read;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;

/**
 * The position after the last row of a page, as an opaque text the caller passes back to get the
 * next page: the table, the order, and the last row's time, series and series id (sensor type and
 * sensor id, or the alert id). Stateless (nothing is kept on the server or in the reader), so a
 * page token stays valid across restarts; a row written after the token was made appears in a
 * later page if it sorts after the token's position. Immutable, thread-safe.
 *
 * <p>Format {@value #VERSION}: URL-safe base64 (no padding) of the UTF-8 lines version, table,
 * order, time (ms since 1970-01-01T00:00:00Z), series, series id. Tokens of format 1 (before
 * sensor ids: no series id, the table {@code hive_telemetry}) are refused with a message.
 *
 * @param table    the table's name, not null
 * @param order    the order of the read, not null
 * @param time     the last row's time, not null
 * @param series   the last row's series, not null
 * @param seriesId the last row's series id, not null
 */
record PageToken(String table, ReadOrder order, Instant time, String series, String seriesId) implements TimedRow {

    private static final String VERSION = "2";
    private static final int FIELDS = 6;

    /** @return the token's text: URL-safe base64, no padding */
    String encode() {
        String text =
                String.join("\n", VERSION, table, order.name(), Long.toString(time.toEpochMilli()), series, seriesId);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param token the text of {@link #encode}, not null
     * @param table the table being read, which must be the token's
     * @param order the order of the read, which must be the token's
     * @return the position
     * @throws IllegalArgumentException if the text is not a token, is one of an earlier format, or
     *                                  is one of another table or order
     */
    static PageToken decode(String token, String table, ReadOrder order) {
        String[] parts;
        try {
            // The series id is last: a limit keeps any line break in it (ids never have one).
            parts = new String(Base64.getUrlDecoder().decode(token.trim()), StandardCharsets.UTF_8).split("\n", FIELDS);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + token + "' is not a page token of this reader", e);
        }
        if (parts.length == 5 && "1".equals(parts[0])) {
            throw new IllegalArgumentException("'" + token + "' is a page token of an earlier version of ingest-app "
                    + "(format 1, before sensor ids), which cannot say where to continue in " + table
                    + ": run the query again without --page-token (use --from to skip what you have)");
        }
        if (parts.length != FIELDS || !VERSION.equals(parts[0])) {
            throw new IllegalArgumentException("'" + token + "' is not a page token of this reader");
        }
        if (!parts[1].equals(table) || !parts[2].equals(order.name())) {
            throw new IllegalArgumentException("the page token continues a read of " + parts[1] + " in "
                    + parts[2].toLowerCase(Locale.ROOT) + " order, not of " + table + " in "
                    + order.name().toLowerCase(Locale.ROOT) + " order");
        }
        try {
            return new PageToken(table, order, Instant.ofEpochMilli(Long.parseLong(parts[3])), parts[4], parts[5]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + token + "' is not a page token of this reader", e);
        }
    }
}
