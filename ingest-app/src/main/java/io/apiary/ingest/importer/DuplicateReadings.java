package io.apiary.ingest.importer;

import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;

/**
 * Finds the readings of one import that share a series and a time, (hive, sensor type, sensor id,
 * reading time in ms): the identity of a {@code hive_telemetry_v2} row. The first reading of each
 * such key is remembered; a later one with the same value (bit for bit, as a double) is an
 * <em>exact duplicate</em>, one with another value a <em>conflict</em>, reported with both line
 * numbers. The unit needs no comparison: within one import a sensor type and id come from one
 * column, which has one unit, or in the long format from one sensor name, whose every line is
 * converted to that sensor's one unit. Not thread-safe; one instance per import.
 *
 * <p><b>Memory</b>: one slot of {@value #BYTES_PER_SLOT} bytes per distinct key (a 64-bit hash of
 * the key, the first value's 64 bits, its line as an unsigned 32-bit number) in an open-addressing
 * table kept at most 3/4 full and doubled when it is: 27 to 54 bytes per distinct key, and up to
 * 80 for the moment the table doubles (the old and the new arrays). The limit caps the keys held
 * ({@link #DEFAULT_LIMIT}: a table of 2<sup>24</sup> slots, 320 MiB, 480 MiB while doubling); past
 * it, or if the heap cannot hold the doubled table, or past line 4,294,967,295, the keys already
 * held are still checked but readings of new keys are not, and {@link #partial()} says from which
 * line.
 *
 * <p><b>Hash collisions</b>: two keys with the same 64-bit hash (for n keys, a chance of about
 * n<sup>2</sup>/2<sup>65</sup>: 3 in a million for 10 million keys) are taken as one. That can only
 * add reports: a reading of the second key is compared with the first key's value, so it is
 * reported as a conflict (naming the first key's line) unless the values agree; a key whose
 * readings differ among themselves is always reported at least once, since at most one of its
 * values can equal the other key's.
 */
public final class DuplicateReadings {

    /** Bytes one slot of the table takes. */
    public static final int BYTES_PER_SLOT = 8 + 8 + 4;
    /** Distinct keys held by default. */
    public static final long DEFAULT_LIMIT = 10_000_000L;
    /** The largest limit: 3/4 of the largest table, 2<sup>30</sup> slots (20 GiB). */
    public static final long MAX_LIMIT = (1L << 30) / 4 * 3;

    private static final int INITIAL_SLOTS = 1 << 10;
    private static final long MAX_LINE = 0xFFFF_FFFFL;
    private static final long FNV_OFFSET = 0xCBF2_9CE4_8422_2325L;
    private static final long FNV_PRIME = 0x0000_0100_0000_01B3L;

    /**
     * A reading whose key an earlier reading of the file had, with another value.
     *
     * @param firstLine  line of the first reading of the key
     * @param firstValue its value
     * @param line       line of this reading
     * @param reading    this reading
     */
    public record Conflict(long firstLine, double firstValue, long line, TelemetryReading reading) {
        /** @return e.g. {@code lines 17 and 230: hive 3627 TEMPERATURE sensor default at 2021-07-15T11:03:43Z: 35.04 degC and 35.1 degC} */
        @Override
        public String toString() {
            return "lines " + firstLine + " and " + line + ": hive " + reading.getHiveId() + " "
                    + reading.getSensorType() + " sensor " + reading.getSensorId() + " at " + reading.getReadingTime()
                    + ": " + firstValue + " " + reading.getUnit() + " and " + reading.getValue() + " "
                    + reading.getUnit();
        }
    }

    private final long limit;
    private long[] hashes;
    private long[] values;
    private int[] lines; // unsigned; 0 = empty slot (line 1 is the header)
    private int mask;
    private long held;
    private long duplicates;
    private long conflicts;
    private String partial;

    /**
     * @param limit distinct keys to hold, 0 (check nothing) to {@link #MAX_LIMIT}
     * @throws IllegalArgumentException if the limit is out of range
     */
    public DuplicateReadings(long limit) {
        if (limit < 0 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "The duplicate check's limit must be 0 to " + MAX_LIMIT + " distinct readings, was " + limit);
        }
        this.limit = limit;
        int slots = (int) Math.min(INITIAL_SLOTS, slotsFor(limit));
        allocate(slots);
        if (limit == 0) {
            partial = "the duplicate check is off (limit 0)";
        }
    }

    /**
     * Checks one reading and remembers its key if it is new.
     *
     * @param reading the reading, not null
     * @param line    its line in the file, 1-based
     * @return the conflict, or null when the reading is the first of its key, an exact duplicate, or
     *         of a key not held after the limit was reached
     * @throws IllegalArgumentException if the line is below 1
     */
    public Conflict offer(TelemetryReading reading, long line) {
        if (line < 1) {
            throw new IllegalArgumentException("line numbers start at 1, was " + line);
        }
        long hash = hash(
                reading.getHiveId(),
                reading.getSensorType(),
                reading.getSensorId(),
                reading.getReadingTime().toEpochMilli());
        long bits = Double.doubleToLongBits(reading.getValue());
        int slot = (int) hash & mask;
        while (lines[slot] != 0) {
            if (hashes[slot] == hash) {
                if (values[slot] == bits) {
                    duplicates++;
                    return null;
                }
                conflicts++;
                return new Conflict(
                        Integer.toUnsignedLong(lines[slot]), Double.longBitsToDouble(values[slot]), line, reading);
            }
            slot = (slot + 1) & mask;
        }
        if (partial == null && (held == limit || line > MAX_LINE || (held + 1 > (mask + 1L) / 4 * 3 && !grow()))) {
            partial = held == limit
                    ? "the duplicate check holds its limit of " + limit + " distinct readings"
                    : line > MAX_LINE
                            ? "the duplicate check takes lines up to " + MAX_LINE
                            : "the heap cannot hold the duplicate check's table of " + held
                                    + " distinct readings doubled";
            partial += "; from line " + line + " on, readings of other hives, sensors or times were not checked";
        }
        if (partial != null) {
            return null;
        }
        slot = (int) hash & mask;
        while (lines[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        hashes[slot] = hash;
        values[slot] = bits;
        lines[slot] = (int) line;
        held++;
        return null;
    }

    /** @return readings with the key and value of an earlier one */
    public long duplicates() {
        return duplicates;
    }

    /** @return readings with the key of an earlier one and another value */
    public long conflicts() {
        return conflicts;
    }

    /** @return distinct keys held */
    public long held() {
        return held;
    }

    /** @return null when every reading was checked, else why and from which line on not all were */
    public String partial() {
        return partial;
    }

    /**
     * The 64-bit hash of a key: FNV-1a over the hive id, the type, the sensor id (each text
     * followed by its length, so that no two keys share the bytes hashed), and the time, then
     * MurmurHash3's finalizer so that every output bit depends on every input bit.
     */
    static long hash(String hiveId, SensorType type, String sensorId, long epochMillis) {
        long h = text(FNV_OFFSET, hiveId);
        h = (h ^ type.ordinal()) * FNV_PRIME;
        h = text(h, sensorId);
        h = (h ^ epochMillis) * FNV_PRIME;
        h = (h ^ (epochMillis >>> 32)) * FNV_PRIME;
        return mix(h);
    }

    private static long text(long h, String s) {
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * FNV_PRIME;
        }
        return (h ^ s.length()) * FNV_PRIME;
    }

    private static long mix(long h) {
        h = (h ^ (h >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
        h = (h ^ (h >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
        return h ^ (h >>> 33);
    }

    private static long slotsFor(long keys) {
        long needed = Math.max(INITIAL_SLOTS, (keys * 4 + 2) / 3);
        return Long.highestOneBit(needed - 1) << 1;
    }

    private void allocate(int slots) {
        hashes = new long[slots];
        values = new long[slots];
        lines = new int[slots];
        mask = slots - 1;
    }

    /** Doubles the table; false when it may not grow (the limit) or the heap cannot hold it. */
    private boolean grow() {
        long slots = (mask + 1L) * 2;
        if (slots > slotsFor(limit)) {
            return false;
        }
        long[] oldHashes = hashes;
        long[] oldValues = values;
        int[] oldLines = lines;
        try {
            allocate((int) slots);
        } catch (OutOfMemoryError e) {
            hashes = oldHashes;
            values = oldValues;
            lines = oldLines;
            mask = oldLines.length - 1;
            return false;
        }
        for (int i = 0; i < oldLines.length; i++) {
            if (oldLines[i] != 0) {
                int slot = (int) oldHashes[i] & mask;
                while (lines[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                hashes[slot] = oldHashes[i];
                values[slot] = oldValues[i];
                lines[slot] = oldLines[i];
            }
        }
        return true;
    }
}
