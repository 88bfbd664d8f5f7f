package io.apiary.ingest.identity;

import java.util.Locale;

/**
 * The rule for the short identifiers that name a thing within a hive or an agent and are part of
 * a table's primary key: {@code sensor_id} ({@code TelemetryReading}, clustering column of
 * {@code hive_telemetry_v2}) and {@code alert_id} ({@code AgentAlert}, clustering column of
 * {@code agent_alerts_v2}). 1 to {@value #MAX_CHARS} characters, each an ASCII letter, digit,
 * {@code _}, {@code -} or {@code .}; case matters. The character set leaves out spaces, control
 * characters and look-alike Unicode, so two identifiers that print alike are equal, and keeps
 * identifiers safe in CSV, logs, URLs and page tokens. Stateless and thread-safe.
 */
public final class Identifiers {

    /** Longest identifier accepted, in characters (each is one byte of UTF-8). */
    public static final int MAX_CHARS = 64;

    /**
     * The sensor id of a hive's only sensor of a type, and what readings written without one
     * (schema versions 1 and 2 of {@code TelemetryReading}, rows of the legacy
     * {@code hive_telemetry} table) are read as.
     */
    public static final String DEFAULT_SENSOR_ID = "default";

    /** What {@link #problem} says the characters may be, for messages. */
    public static final String ALLOWED = "ASCII letters, digits, '_', '-' and '.'";

    private Identifiers() {}

    /**
     * @param c a character
     * @return whether it may appear in an identifier
     */
    public static boolean allowed(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '_'
                || c == '-'
                || c == '.';
    }

    /**
     * @param id an identifier, may be null
     * @return what is wrong with it, for a person ("is empty", "is 70 characters long; at most
     *         64 ...", "has the character ' ' at position 3; ..."), or null when it is valid
     */
    public static String problem(String id) {
        if (id == null) {
            return "is missing";
        }
        if (id.isEmpty()) {
            return "is empty";
        }
        if (id.length() > MAX_CHARS) {
            return "is " + id.codePointCount(0, id.length()) + " characters long; at most " + MAX_CHARS
                    + " are accepted";
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!allowed(c)) {
                return "has the character " + describe(id.codePointAt(i)) + " at position " + (i + 1) + "; only "
                        + ALLOWED + " are accepted";
            }
        }
        return null;
    }

    /**
     * @param id an identifier, may be null
     * @return whether {@link #problem} finds nothing wrong
     */
    public static boolean valid(String id) {
        return problem(id) == null;
    }

    /**
     * A valid identifier made from free text, such as a CSV column name: each run of characters
     * that may not appear becomes one {@code _}, leading and trailing {@code _} are dropped and the
     * result is cut to {@value #MAX_CHARS} characters; case is kept. {@code "Temp (inside)"}
     * becomes {@code Temp_inside}, {@code "t_0"} stays {@code t_0}.
     *
     * @param text any text, not null
     * @return the identifier, or null when nothing of the text is left (e.g. {@code "°"} or {@code "温度"})
     */
    public static String fromText(String text) {
        StringBuilder out = new StringBuilder();
        boolean gap = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (allowed(c) && c != '_') {
                if (gap && out.length() > 0) {
                    out.append('_');
                }
                gap = false;
                out.append(c);
            } else {
                gap = true;
            }
        }
        String id = out.length() > MAX_CHARS ? out.substring(0, MAX_CHARS) : out.toString();
        while (id.endsWith("_")) {
            id = id.substring(0, id.length() - 1);
        }
        return id.isEmpty() ? null : id;
    }

    private static String describe(int codePoint) {
        if (codePoint < 0x20 || codePoint == 0x7f || Character.isWhitespace(codePoint)) {
            return String.format(Locale.ROOT, "U+%04X", codePoint);
        }
        return "'" + new String(Character.toChars(codePoint)) + "'";
    }
}
