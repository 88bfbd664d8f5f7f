package io.apiary.ingest.topology;

import java.nio.ByteBuffer;

/**
 * One hive's progress in event time and its close time, as {@link HourlyActivityProcessor} holds
 * them in memory and in its store of hives (value: event time, then close time, 8 bytes each,
 * big-endian ms since the epoch). Not thread-safe: one task's processor owns it.
 */
final class HiveClock {

    /** Bytes of a stored value. */
    static final int BYTES = 16;

    /** The hive id, not null. */
    final String hive;
    /** Largest event time of the hive's samples that were summed, ms; {@link Long#MIN_VALUE} before the first. */
    long eventTime = Long.MIN_VALUE;
    /**
     * The hive's close time, ms; only grows: an hour [s, s + 1 h) is closed once s + 1 h + grace is at
     * or before it; {@link Long#MIN_VALUE} before the first close.
     */
    long closeTime = Long.MIN_VALUE;
    /** Wall clock of the hive's last sample (or of the task's start), ms; not stored. */
    long lastSampleWallClock;
    /**
     * What the stored value decides, as last written: the hour of its event time, the last hour its
     * close time closes and the last it forgets (hour starts, ms; {@link Long#MIN_VALUE} for none);
     * not stored. The processor writes the value again only when one of these changes.
     */
    long storedHour = Long.MIN_VALUE;

    long storedClosed = Long.MIN_VALUE;
    long storedForgotten = Long.MIN_VALUE;

    HiveClock(String hive, long wallClock) {
        this.hive = hive;
        this.lastSampleWallClock = wallClock;
    }

    /** @return the stored value */
    byte[] encode() {
        return ByteBuffer.allocate(BYTES).putLong(eventTime).putLong(closeTime).array();
    }

    /**
     * @param hive      the hive id, not null
     * @param value     a stored value, {@value #BYTES} bytes
     * @param wallClock the wall clock now, ms
     * @return the clock it holds
     */
    static HiveClock decode(String hive, byte[] value, long wallClock) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        HiveClock clock = new HiveClock(hive, wallClock);
        clock.eventTime = buffer.getLong();
        clock.closeTime = buffer.getLong();
        return clock;
    }
}
