package io.apiary.ingest.identity;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apache.avro.SchemaNormalization;

/**
 * The {@code alert_id} of an alert whose agent sent none: {@code c-} and 16 lower-case
 * hexadecimal digits of the CRC-64-AVRO fingerprint ({@link SchemaNormalization#fingerprint64},
 * Avro's own 64-bit CRC) of the alert's content, that is {@code hive_id}, {@code severity},
 * {@code alert_type} and {@code message}, each written as its UTF-8 length (4 bytes, big-endian;
 * -1 for a null hive) and bytes. So the same alert sent twice gets the same id (a replay is the
 * same row) and two different alerts of one agent and millisecond get different ids (both are
 * kept), unless their fingerprints collide (about one pair in 2^64). The {@code c-} prefix cannot
 * be mistaken for an agent's own ids only if agents avoid it; the README says so. Stateless and
 * thread-safe.
 */
public final class AlertIds {

    /** Prefix of derived ids. */
    public static final String DERIVED_PREFIX = "c-";

    private AlertIds() {}

    /**
     * @param hiveId    the hive the alert is about, or null for the gateway itself
     * @param severity  the severity symbol, not null (a null, as a hand-made row of the legacy table
     *                  may hold, is written as length -1 like a null hive)
     * @param alertType the alert's type code, not null (null: as {@code severity})
     * @param message   the message, not null (null: as {@code severity})
     * @return {@code c-} and 16 hex digits, 18 characters, a valid {@link Identifiers identifier}
     */
    public static String derive(String hiveId, String severity, String alertType, String message) {
        ByteArrayOutputStream content = new ByteArrayOutputStream(64 + (message == null ? 0 : message.length()));
        write(content, hiveId);
        write(content, severity);
        write(content, alertType);
        write(content, message);
        return DERIVED_PREFIX
                + String.format(Locale.ROOT, "%016x", SchemaNormalization.fingerprint64(content.toByteArray()));
    }

    /**
     * @param agentSent the agent's {@code alert_id}, or null
     * @param hiveId    the hive, or null
     * @param severity  the severity symbol, not null
     * @param alertType the type code, not null
     * @param message   the message, not null
     * @return the agent's id when it sent one, else {@link #derive}
     */
    public static String of(String agentSent, String hiveId, String severity, String alertType, String message) {
        return agentSent != null ? agentSent : derive(hiveId, severity, alertType, message);
    }

    private static void write(ByteArrayOutputStream out, String text) {
        if (text == null) {
            out.write(0xff);
            out.write(0xff);
            out.write(0xff);
            out.write(0xff);
            return;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write(bytes.length >>> 24);
        out.write(bytes.length >>> 16);
        out.write(bytes.length >>> 8);
        out.write(bytes.length);
        out.write(bytes, 0, bytes.length);
    }
}
