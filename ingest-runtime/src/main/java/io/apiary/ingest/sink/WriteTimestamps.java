package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import java.nio.ByteBuffer;
import org.apache.avro.SchemaNormalization;

/**
 * The write timestamps ({@code USING TIMESTAMP}, microseconds since the epoch) the sink gives its
 * rows: deterministic functions of the row, so that a replay or retry writes the same cells, and
 * different for two different rows of one primary key, so that Cassandra keeps one of them whole.
 *
 * <p>Why: Cassandra reconciles two versions of a cell by timestamp, and at equal timestamps by
 * the local deletion time, then by the greater value, cell by cell. When every version of a row
 * had the event time as its timestamp, two different records for one key (two gateways reporting
 * one sensor at one instant, a corrected re-send, two alerts of one agent in one millisecond)
 * tied, and the row ended with the greater value of each cell separately: a row that matched
 * neither input. Adding a fingerprint of the row's values to the timestamp breaks the tie by the
 * whole row: the version with the greater timestamp wins in every cell, in whichever order the
 * versions arrive. Only two versions whose fingerprints agree in the bits used (about one pair
 * in a million for {@link #event}, one in a thousand for {@link #hourly}) still tie.
 *
 * <p>Stateless and thread-safe.
 */
public final class WriteTimestamps {

    /** Microseconds in a second: the room {@link #event} gives the fingerprint. */
    static final long EVENT_SLOTS = 1_000_000L;
    /** Microseconds per update of an hour, the room {@link #hourly} gives the fingerprint. */
    static final long HOURLY_SLOTS = 1_000L;

    private WriteTimestamps() {}

    /**
     * The timestamp of an event's row (a reading, an alert): the start of the second after the
     * event's second, in microseconds, plus the fingerprint modulo 1,000,000. Rows of one primary key
     * share the event's millisecond (it is in every time-series key), so only the fingerprint
     * orders them.
     *
     * <p>Why the second after: the sink's first versions wrote every event row at the event time in
     * microseconds (event ms &times; 1,000, at most the second's start plus 999,000). Such rows stay
     * in {@code weather_readings} after the upgrade, are written there by old sinks during a rolling
     * upgrade, and come into the new tables by {@code table copy}, which keeps their write times.
     * Starting above all of them, a version written by this sink always beats such a row in every
     * cell, and its row delete at one microsecond less shadows the old row whole: no row mixes the
     * cells of an old and a new version.
     *
     * @param eventMillis the event time, ms since the epoch
     * @param fingerprint {@link #fingerprint} of the row's values
     * @return microseconds, within the second after the event's second
     * @throws ArithmeticException past year 294,247
     */
    public static long event(long eventMillis, long fingerprint) {
        return Math.addExact(
                Math.multiplyExact(Math.addExact(Math.floorDiv(eventMillis, 1000L), 1L), EVENT_SLOTS),
                Math.floorMod(fingerprint, EVENT_SLOTS));
    }

    /**
     * Whether a write timestamp is one {@link #event} gives for an event time: within the second
     * after the event's second. Rows written by the first sink (event ms &times; 1,000), copied with
     * their write times, or changed by hand (the server's clock) are not.
     *
     * @param eventMillis the event time, ms since the epoch
     * @param micros      a write timestamp, microseconds since the epoch
     * @return whether {@code micros} is {@code event(eventMillis, f)} for some fingerprint {@code f}
     */
    public static boolean isEventWrite(long eventMillis, long micros) {
        long start = event(eventMillis, 0L);
        return micros >= start && micros - start < EVENT_SLOTS;
    }

    /**
     * The timestamp of an hour's sums (hive_activity): the hour's start in microseconds, plus
     * 1,000 per update of the hour (samples summed plus the hour's {@code revision}, the conflicting
     * samples that replaced one), so that an hour's later update always wins, plus the fingerprint
     * modulo 1,000, so that two different sums after as many updates leave one whole.
     *
     * @param hourStartMillis start of the hour, ms since the epoch
     * @param samples         updates of the hour: samples summed plus revisions, not negative
     * @param fingerprint     {@link #fingerprint} of the row's values
     * @return microseconds
     * @throws ArithmeticException past year 294,247
     */
    public static long hourly(long hourStartMillis, int samples, long fingerprint) {
        return Math.addExact(
                Math.addExact(
                        Math.multiplyExact(hourStartMillis, 1000L), Math.multiplyExact((long) samples, HOURLY_SLOTS)),
                Math.floorMod(fingerprint, HOURLY_SLOTS));
    }

    /**
     * The CRC-64-AVRO fingerprint ({@link SchemaNormalization#fingerprint64}) of some bound values
     * as Cassandra will store them: for each marker its length (4 bytes, big-endian; -1 when unset
     * or null) and serialized bytes. Computed over the values in place ({@link #fingerprint(long,
     * ByteBuffer)}), without copying them into one array.
     *
     * @param statement a statement builder with its values set, not null
     * @param from      first marker, inclusive
     * @param to        last marker, exclusive
     * @return the fingerprint
     */
    static long fingerprint(BoundStatementBuilder statement, int from, int to) {
        long fingerprint = CRC64_EMPTY;
        for (int i = from; i < to; i++) {
            fingerprint = fingerprint(fingerprint, statement.isSet(i) ? statement.getBytesUnsafe(i) : null);
        }
        return fingerprint;
    }

    /**
     * Continues a CRC-64-AVRO fingerprint over one value: its length as 4 big-endian bytes (-1 for
     * null), then its bytes. Starting from {@link #CRC64_EMPTY}, the result over a sequence of
     * values equals {@link SchemaNormalization#fingerprint64} of their concatenation (the Avro
     * specification, "Schema Fingerprints", gives the algorithm).
     *
     * @param fingerprint the fingerprint of what came before
     * @param value       the value, or null; its position is not moved
     * @return the fingerprint including the value
     */
    static long fingerprint(long fingerprint, ByteBuffer value) {
        int length = value == null ? -1 : value.remaining();
        long result = fingerprint;
        for (int shift = 24; shift >= 0; shift -= 8) {
            result = (result >>> 8) ^ CRC64_TABLE[(int) (result ^ (length >>> shift)) & 0xff];
        }
        if (value != null) {
            for (int i = value.position(); i < value.limit(); i++) {
                result = (result >>> 8) ^ CRC64_TABLE[(int) (result ^ value.get(i)) & 0xff];
            }
        }
        return result;
    }

    /** The CRC-64-AVRO fingerprint of no bytes, and its polynomial (Avro specification). */
    static final long CRC64_EMPTY = 0xc15d213aa4d7a795L;

    private static final long[] CRC64_TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long entry = i;
            for (int bit = 0; bit < 8; bit++) {
                entry = (entry >>> 1) ^ (CRC64_EMPTY & -(entry & 1L));
            }
            CRC64_TABLE[i] = entry;
        }
    }
}
