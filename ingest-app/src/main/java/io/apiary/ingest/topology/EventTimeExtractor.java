package io.apiary.ingest.topology;

import io.apiary.schema.EntranceCount;
import io.apiary.schema.TelemetryReading;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Event time of gateway records: the reading time of a {@link TelemetryReading} and the event
 * time of an {@link EntranceCount}, taken from the value rather than the producer's timestamp.
 *
 * <p>A value without a usable event time (null, another type, or a time outside
 * {@link #isUsable}) gets the partition's current stream time, so it cannot move stream time, and
 * the topology's check step sends it to the dead letter topic. (The record's own timestamp is no
 * fallback: on the pipeline's topics it is the broker's append time, which would count the sample
 * in the current wall-clock hour and push stream time past every other hive's open hours.)
 * Stateless and thread-safe.
 */
public final class EventTimeExtractor implements TimestampExtractor {

    /** The first instant not accepted as an event time: year 10000, 253,402,300,800,000 ms. */
    public static final long END_OF_YEAR_9999_MILLIS = 253_402_300_800_000L;

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long eventTime = eventTime(record.value());
        return isUsable(eventTime) ? eventTime : Math.max(partitionTime, 0L);
    }

    /**
     * @param eventTime milliseconds since the epoch
     * @return whether it is after 1970-01-01T00:00:00Z and before year 10000 (also the range that
     *         CQL timestamps and microsecond write times can carry)
     */
    public static boolean isUsable(long eventTime) {
        return eventTime > 0 && eventTime < END_OF_YEAR_9999_MILLIS;
    }

    /**
     * The event time carried by a gateway value (public for the topology's check step).
     *
     * @param value a deserialized record value, may be null
     * @return milliseconds since the epoch, or -1 when the value has none
     */
    public static long eventTime(Object value) {
        if (value instanceof TelemetryReading reading && reading.getReadingTime() != null) {
            return reading.getReadingTime().toEpochMilli();
        }
        if (value instanceof EntranceCount count && count.getEventTime() != null) {
            return count.getEventTime().toEpochMilli();
        }
        return -1L;
    }
}
