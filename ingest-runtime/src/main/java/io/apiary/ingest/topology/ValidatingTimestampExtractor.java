package io.apiary.ingest.topology;

import io.apiary.ingest.validation.RecordValidator;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Event time of a gateway record, taken from its value (not the producer's timestamp), but only
 * for a record its validator accepts. Any other record (wrong type, invalid, from the future,
 * too old, key not matching) gets the partition's current stream time, so it cannot move stream
 * time; the topology's check step then sends it to the dead letter topic. The record's own
 * timestamp is no fallback: on the pipeline's topics it is the broker's append time, which would
 * count a sample in the current wall-clock hour and push stream time past every other hive's open
 * hours. Thread-safe if the clock is.
 *
 * @param <V> the Avro value type
 */
public final class ValidatingTimestampExtractor<V> implements TimestampExtractor {

    private final RecordValidator<V> validator;
    private final LongSupplier clock;

    /**
     * @param validator the checks, not null
     * @param clock     the wall clock, ms since the epoch (e.g. {@code System::currentTimeMillis}), not null
     */
    public ValidatingTimestampExtractor(RecordValidator<V> validator, LongSupplier clock) {
        this.validator = Objects.requireNonNull(validator, "validator");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        Object value = record.value();
        Object key = record.key();
        if (validator.valueType().isInstance(value) && (key == null || key instanceof String)) {
            V typed = validator.valueType().cast(value);
            if (validator.check((String) key, typed, clock.getAsLong()) == null) {
                return validator.eventTime(typed);
            }
        }
        return Math.max(partitionTime, 0L);
    }
}
