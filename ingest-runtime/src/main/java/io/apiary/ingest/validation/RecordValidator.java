package io.apiary.ingest.validation;

/**
 * Checks one kind of gateway record (key and value) before its event time is used.
 *
 * <p>Implementations are pure functions of the record and the wall-clock instant they are given,
 * stateless and thread-safe. A validator is used twice per record: by the timestamp extractor,
 * which gives a refused record the partition's current stream time so that it cannot move stream
 * time, and by the topology's check step, which sends it to the dead letter topic. Because the
 * wall-clock checks only ever get looser as time passes (the future bound grows with the clock),
 * a record the extractor accepted as not-from-the-future is not later refused for it.
 *
 * @param <V> the Avro value type
 */
public interface RecordValidator<V> {

    /**
     * @return the value class this validator checks
     */
    Class<V> valueType();

    /**
     * The event time a valid value carries.
     *
     * @param value the value, not null
     * @return milliseconds since 1970-01-01T00:00:00Z (UTC)
     */
    long eventTime(V value);

    /**
     * Checks a record.
     *
     * @param key        the record key as decoded (UTF-8 text), may be null
     * @param value      the decoded value, may be null (a tombstone)
     * @param nowMillis  the wall clock, milliseconds since the epoch
     * @return null when the record is valid, else why not
     */
    Rejection check(String key, V value, long nowMillis);
}
