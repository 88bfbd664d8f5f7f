package io.apiary.ingest.topology;

import java.nio.ByteBuffer;

/**
 * One hive's progress in event time, its close time and the last hours it has closed and forgotten,
 * as {@link HourlyActivityProcessor} holds them in memory and in its store of hives (value: event
 * time, close time, last closed hour, last forgotten hour, 8 bytes each, big-endian ms since the
 * epoch; a value of the first 16 bytes only, as an earlier version stored it, leaves the last two
 * to be computed from the close time). The closed and forgotten hours are stored, not computed
 * from the settings, so that a restart with another grace period or correction horizon never
 * publishes an hour twice as first result, never leaves one without, and never sums into an hour
 * whose state is gone. Not thread-safe: one task's processor owns it.
 */
final class HiveClock {

    /** Bytes of a stored value. */
    static final int BYTES = 32;
    /** Bytes of a value stored by an earlier version: event time and close time. */
    static final int LEGACY_BYTES = 16;

    /** The hive id, not null. */
    final String hive;
    /** Largest event time of the hive's samples that were summed, ms; {@link Long#MIN_VALUE} before the first. */
    long eventTime = Long.MIN_VALUE;
    /**
     * The hive's close time, ms; only grows: an hour [s, s + 1 h) is closed once s + 1 h + grace is at
     * or before it; {@link Long#MIN_VALUE} before the first close.
     */
    long closeTime = Long.MIN_VALUE;
    /** Start of the last hour whose first result was published, ms; {@link Long#MIN_VALUE} for none. */
    long closedHour = Long.MIN_VALUE;
    /** Start of the last hour whose state was deleted (beyond the correction horizon), ms; or {@link Long#MIN_VALUE}. */
    long forgottenHour = Long.MIN_VALUE;
    /** Whether the stored value held no closed and forgotten hours (a legacy value), until the processor fills them in. */
    boolean legacy;
    /** Wall clock of the hive's last sample (or of the task's start), ms; not stored. */
    long lastSampleWallClock;
    /**
     * What the stored value decides, as last written: the hour of its event time, its closed hour and
     * its forgotten hour (hour starts, ms; {@link Long#MIN_VALUE} for none); not stored. The processor
     * writes the value again only when one of these changes.
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
        return ByteBuffer.allocate(BYTES)
                .putLong(eventTime)
                .putLong(closeTime)
                .putLong(closedHour)
                .putLong(forgottenHour)
                .array();
    }

    /**
     * @param hive      the hive id, not null
     * @param value     a stored value, {@value #BYTES} bytes, or {@value #LEGACY_BYTES} (then {@link #legacy})
     * @param wallClock the wall clock now, ms
     * @return the clock it holds
     */
    static HiveClock decode(String hive, byte[] value, long wallClock) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        HiveClock clock = new HiveClock(hive, wallClock);
        clock.eventTime = buffer.getLong();
        clock.closeTime = buffer.getLong();
        if (value.length >= BYTES) {
            clock.closedHour = buffer.getLong();
            clock.forgottenHour = buffer.getLong();
        } else {
            clock.legacy = true;
        }
        return clock;
    }
}
