package io.apiary.ingest.deadletter;

/**
 * Why a record went to the dead letter topic; the code is the value of the
 * {@value DeadLetterHeaders#REASON} header and the {@code reason} tag of the dead-letter counter.
 */
public enum RejectReason {
    /**
     * The bytes cannot be read as the topic's Avro record: neither registry framing with a schema
     * id the registry knows and that resolves to the reader's schema, nor single-object encoding of
     * a kept schema version; a framing the settings refuse (single-object encoding once {@code
     * wire.format.read.single.object=false}, the message naming the setting); bytes after the
     * record, a corrupt body, or text that is not valid UTF-8.
     */
    UNDECODABLE,
    /** The record has no key or an empty one (gateway topics are keyed by the hive, station or agent id). */
    NULL_KEY,
    /** The record has no value (a tombstone on a gateway topic). */
    NULL_VALUE,
    /** A key or text field is longer than the topology accepts (ids: 200 characters, units: 32). */
    FIELD_TOO_LONG,
    /**
     * A {@code sensor_id} or {@code alert_id} that is empty, longer than 64 characters, or has a
     * character other than ASCII letters, digits, '_', '-' and '.' ({@code identity.Identifiers}).
     */
    INVALID_IDENTIFIER,
    /** The record key differs from the id in the value (hive id, station id or agent id). */
    KEY_MISMATCH,
    /** The event time is missing, not after 1970-01-01T00:00:00Z, or past year 9999. */
    INVALID_TIMESTAMP,
    /** A number is NaN or infinite. */
    NON_FINITE_VALUE,
    /**
     * A reading whose sensor type this version does not know: the schema's default symbol
     * {@code UNKNOWN}, which is what a reader sees for a newer writer's type. Dead-lettered with the
     * original bytes (which keep the writer's symbol) so it can be replayed after an upgrade,
     * instead of stored under UNKNOWN, where readings of different new types would share a row.
     */
    UNKNOWN_SENSOR_TYPE,
    /** A value outside what is physically possible for its sensor type and unit, or an interval outside 1..3600 s. */
    OUT_OF_RANGE,
    /** A known sensor type with a unit the topology has no range for, so the value cannot be checked. */
    UNKNOWN_UNIT,
    /** A count of bees below zero. */
    NEGATIVE_COUNT,
    /** The event time is further ahead of the receiver's clock than the allowed skew (default 5 minutes). */
    FUTURE_TIMESTAMP,
    /** The event time is older than the maximum age (default: the table's retention). */
    EXPIRED_TIMESTAMP,
    /** What the topology made of the record is too large for Kafka (over the producer's max.request.size). */
    OUTPUT_TOO_LARGE,
    /** The row decoded but cannot be bound to its CQL statement (e.g. a time out of range). */
    INVALID_ROW,
    /** The Cassandra node refused the row as invalid for its table; retrying cannot help. */
    CASSANDRA_REJECTED,
    /** Any other failure while processing the record. */
    PROCESSING_ERROR
}
