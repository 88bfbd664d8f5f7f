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
    /** The Cassandra node refused the row as invalid for its table; retrying cannot help. */
    CASSANDRA_REJECTED,
    /** Any other failure while processing the record. */
    PROCESSING_ERROR
}
