package io.apiary.ingest.validation;

import io.apiary.ingest.deadletter.RejectReason;

/**
 * The checks every gateway stream shares, as small pure functions returning null when the input
 * passes. Stateless and thread-safe.
 */
public final class Checks {

    /**
     * Longest key or id accepted, in characters. Under exactly-once an output record too large
     * for Kafka cannot be skipped (the failed send aborts the whole transaction), so the topology
     * bounds its inputs' text instead: with these limits every output record stays under a few
     * kilobytes.
     */
    public static final int MAX_ID_CHARS = 200;
    /** Longest unit or other short text accepted, in characters. */
    public static final int MAX_UNIT_CHARS = 32;
    /** Longest free text (an alert's message) accepted, in characters. */
    public static final int MAX_TEXT_CHARS = 4_000;

    private Checks() {}

    /**
     * The key is present and not empty, and the value is present.
     *
     * @param key   the record key, may be null
     * @param value the record value, may be null
     * @param idName what the key identifies (e.g. "hive id"), for the message
     * @return null, or a NULL_KEY / NULL_VALUE rejection
     */
    public static Rejection present(String key, Object value, String idName) {
        if (key == null || key.isEmpty()) {
            return new Rejection(
                    RejectReason.NULL_KEY,
                    "Record has " + (key == null ? "no" : "an empty") + " key; the topic is keyed by the " + idName
                            + " (UTF-8)");
        }
        if (value == null) {
            return new Rejection(
                    RejectReason.NULL_VALUE,
                    "Record for key '" + shorten(key)
                            + "' has no value (tombstone); gateway topics carry Avro records");
        }
        return null;
    }

    /**
     * @param field the field's name
     * @param text  the text, may be null (not checked here)
     * @param max   the longest accepted, in characters (Unicode code points, so an emoji counts once)
     * @return null, or a FIELD_TOO_LONG rejection
     */
    public static Rejection length(String field, String text, int max) {
        if (text != null && text.length() > max) {
            int characters = text.codePointCount(0, text.length());
            if (characters > max) {
                return new Rejection(
                        RejectReason.FIELD_TOO_LONG,
                        field + " is " + characters + " characters long; at most " + max + " are accepted");
            }
        }
        return null;
    }

    /**
     * @param field the field's name
     * @param id    the identifier, not null (a null optional identifier is not checked)
     * @return null, or an INVALID_IDENTIFIER rejection naming what is wrong
     *         ({@link io.apiary.ingest.identity.Identifiers#problem})
     */
    public static Rejection identifier(String field, String id) {
        String problem = io.apiary.ingest.identity.Identifiers.problem(id);
        if (problem == null) {
            return null;
        }
        return new Rejection(RejectReason.INVALID_IDENTIFIER, field + " '" + shorten(printable(id)) + "' " + problem);
    }

    /** The text with control characters escaped as a backslash, u and four hex digits, for messages. */
    static String printable(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format(java.util.Locale.ROOT, "\\u%04X", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /**
     * The key equals the id the value carries (the key decides the Kafka partition, the value's
     * id the Cassandra row: they must not disagree).
     *
     * @param key     the record key, not null
     * @param field   the value's id field name
     * @param idValue the value's id, may be null
     * @return null, or a KEY_MISMATCH rejection
     */
    public static Rejection keyMatches(String key, String field, String idValue) {
        if (!key.equals(idValue)) {
            return new Rejection(
                    RejectReason.KEY_MISMATCH,
                    "Record key '" + shorten(key) + "' differs from " + field + " '"
                            + (idValue == null ? "null" : shorten(idValue)) + "' in the value");
        }
        return null;
    }

    /**
     * @param field the field's name
     * @param value the number
     * @return null, or a NON_FINITE_VALUE rejection for NaN and the infinities
     */
    public static Rejection finite(String field, double value) {
        if (!Double.isFinite(value)) {
            return new Rejection(
                    RejectReason.NON_FINITE_VALUE, field + " is " + value + "; a finite number is required");
        }
        return null;
    }

    /**
     * @param field the field's name
     * @param count the count
     * @return null, or a NEGATIVE_COUNT rejection
     */
    public static Rejection notNegative(String field, long count) {
        if (count < 0) {
            return new Rejection(RejectReason.NEGATIVE_COUNT, field + " is " + count + "; counts cannot be negative");
        }
        return null;
    }

    /**
     * @param field the field's name
     * @param value the value, finite
     * @param min   the smallest possible value, inclusive
     * @param max   the largest possible value, inclusive
     * @param unit  the unit of value and bounds, for the message
     * @return null, or an OUT_OF_RANGE rejection
     */
    public static Rejection within(String field, double value, double min, double max, String unit) {
        if (value < min || value > max) {
            return new Rejection(
                    RejectReason.OUT_OF_RANGE,
                    field + " " + value + " " + unit + " is outside the physically possible range [" + min + ", " + max
                            + "] " + unit);
        }
        return null;
    }

    /**
     * The first non-null of some rejections, evaluated in order.
     *
     * @param checks checks in the order they should be reported
     * @return the first rejection, or null when all pass
     */
    public static Rejection first(Rejection... checks) {
        for (Rejection rejection : checks) {
            if (rejection != null) {
                return rejection;
            }
        }
        return null;
    }

    static String shorten(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "...";
    }
}
