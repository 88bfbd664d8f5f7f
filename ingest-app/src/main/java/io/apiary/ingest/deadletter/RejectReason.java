package io.apiary.ingest.deadletter;

/**
 * Why a record went to the dead letter topic; the code is the value of the
 * {@value DeadLetterHeaders#REASON} header and the {@code reason} tag of the dead-letter counter.
 */
public enum RejectReason {
    /** The bytes are not a known Avro schema version in single-object encoding. */
    UNDECODABLE,
    /** The record has no key (gateway topics are keyed by the hive id). */
    NULL_KEY,
    /** The record has no value (a tombstone on a gateway topic). */
    NULL_VALUE,
    /** The event time is missing, not after 1970-01-01T00:00:00Z, or past year 9999. */
    INVALID_TIMESTAMP,
    /** A key or text field is longer than the topology accepts (ids: 200 characters, units: 32). */
    FIELD_TOO_LONG,
    /** What the topology made of the record is too large for Kafka (over the producer's max.request.size). */
    OUTPUT_TOO_LARGE,
    /** The row decoded but cannot be bound to its CQL statement (e.g. a time out of range). */
    INVALID_ROW,
    /** The Cassandra node refused the row as invalid for its table; retrying cannot help. */
    CASSANDRA_REJECTED,
    /** Any other failure while processing the record. */
    PROCESSING_ERROR
}
