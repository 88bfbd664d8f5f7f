package io.apiary.ingest.topology;

import io.apiary.schema.EntranceCount;
import io.apiary.schema.TelemetryReading;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Event time of gateway records: the reading time of a {@link TelemetryReading} and the event
 * time of an {@link EntranceCount}, taken from the value rather than the producer's timestamp.
 *
 * <p>A value without a usable event time (null, another type, or a time at or before the epoch)
 * gets the record's own timestamp, or failing that the partition's current stream time, so it
 * cannot move stream time; the topology then sends it to the dead letter topic. Stateless and
 * thread-safe.
 */
public final class EventTimeExtractor implements TimestampExtractor {

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long eventTime = eventTime(record.value());
        if (eventTime > 0) {
            return eventTime;
        }
        if (record.timestamp() > 0) {
            return record.timestamp();
        }
        return Math.max(partitionTime, 0L);
    }

    /**
     * The event time carried by a gateway value.
     *
     * @param value a deserialized record value, may be null
     * @return milliseconds since the epoch, or -1 when the value has none
     */
    static long eventTime(Object value) {
        if (value instanceof TelemetryReading reading && reading.getReadingTime() != null) {
            return reading.getReadingTime().toEpochMilli();
        }
        if (value instanceof EntranceCount count && count.getEventTime() != null) {
            return count.getEventTime().toEpochMilli();
        }
        return -1L;
    }
}
