package io.apiary.ingest.sink;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * One polled row record in the sink, the one object that stands for it from the poll to
 * Cassandra's acknowledgement. It waits unbound and compact in a {@link PartitionBatcher} batch:
 * its offset, value bytes, and headers only when it has any; its topic, partition, key and table
 * are those of the batch ({@link GroupKey}), held once per batch. When a request slot takes the
 * batch, the row is bound in place ({@link #bind}), once: it then also holds its batch key and the
 * table's {@link SinkTable.Write} (statements, routing key, server-side size, fingerprint), which
 * is all that grouping, flow control, the conflict check, offsets and dead letters need. So bound
 * statements, several times a waiting row's heap, exist only for rows about to be sent (heap per
 * buffered row: docs/performance.md).
 *
 * <p>Not thread-safe: created and bound on the sink's poll thread; the driver reads the bound
 * statements only after the poll thread handed them to it.
 */
final class SinkRow {

    private final long offset;
    private final byte[] value;
    private final Headers headers;
    /**
     * The batch key it was bound under and its statements, null until bound: one field, so that a
     * waiting row is no larger than before binding existed (12-byte header, the offset and three
     * references fill 32 bytes with compressed references).
     */
    private Bound bound;

    /** What binding adds to a row. */
    private record Bound(GroupKey key, SinkTable.Write write) {}

    /**
     * @param offset  the record's offset
     * @param value   the record value (in the row topic's wire format), not null; not copied, must not change
     * @param headers the record's headers, or null when it had none
     */
    SinkRow(long offset, byte[] value, Headers headers) {
        this.offset = offset;
        this.value = Objects.requireNonNull(value, "value");
        this.headers = headers;
    }

    /**
     * @param record a polled record with a non-null value
     * @return the unbound row of it
     */
    static SinkRow of(ConsumerRecord<byte[], byte[]> record) {
        Headers headers = record.headers();
        return new SinkRow(
                record.offset(),
                record.value(),
                headers == null || !headers.iterator().hasNext() ? null : headers);
    }

    /**
     * Decodes and binds the row with its batch's table ({@link RowBinding#bind}); the only call
     * into the table's binding the row takes. On an exception the row stays unbound.
     *
     * @param key the key of the batch the row waited in, not null
     * @return this row, bound
     * @throws IllegalStateException if it is bound already
     * @throws org.apache.kafka.common.errors.SerializationException if its value cannot be decoded
     * @throws RuntimeException if it cannot be bound
     */
    SinkRow bind(GroupKey key) {
        if (bound != null) {
            throw new IllegalStateException("the row at offset " + offset + " is bound already");
        }
        bound = new Bound(key, key.table().bind(value));
        return this;
    }

    /** @return the record's offset */
    long offset() {
        return offset;
    }

    /** @return the batch key it was bound under (table, Kafka partition, record key) */
    GroupKey key() {
        return bound().key;
    }

    /** @return its statements, routing key, server-side size and fingerprint */
    SinkTable.Write write() {
        return bound().write;
    }

    /** @return the table binding of its topic */
    RowBinding table() {
        return key().table();
    }

    /** @return the serialized partition key, computed once at bind time */
    ByteBuffer routingKey() {
        return write().routingKey();
    }

    /** @return its size as Cassandra counts it in a batch */
    int serverBytes() {
        return write().serverBytes();
    }

    /** @return bytes of its record's key and value, as counted against the sink's memory bound */
    int recordBytes() {
        return recordBytes(key());
    }

    /**
     * @param key the key of the batch the row waits in
     * @return bytes of the record's key and value, counted against the sink's memory bound
     */
    int recordBytes(GroupKey key) {
        return key.keyLength() + value.length;
    }

    /** @return its record again, for the dead letter topic ({@link #record(GroupKey)}) */
    ConsumerRecord<byte[], byte[]> record() {
        return record(key());
    }

    /**
     * The record again, for the dead letter topic.
     *
     * @param key the key of the batch the row waits in
     * @return a record with the row's topic, partition, offset, key, value and headers
     */
    ConsumerRecord<byte[], byte[]> record(GroupKey key) {
        byte[] recordKey = key.keyBytes();
        return new ConsumerRecord<>(
                key.partition().topic(),
                key.partition().partition(),
                offset,
                ConsumerRecord.NO_TIMESTAMP,
                TimestampType.NO_TIMESTAMP_TYPE,
                recordKey == null ? ConsumerRecord.NULL_SIZE : recordKey.length,
                value.length,
                recordKey,
                value,
                headers == null ? new RecordHeaders() : headers,
                java.util.Optional.empty());
    }

    private Bound bound() {
        if (bound == null) {
            throw new IllegalStateException("the row at offset " + offset + " is not bound");
        }
        return bound;
    }

    /**
     * The key rows wait under before they are bound: table, Kafka partition and the record key,
     * which the topology sets to the row's Cassandra partition key. (Rows are regrouped by the
     * bound statement's routing key when sent, so a producer that keys differently still gets
     * correct, single-partition writes.) Equal by value; the table by identity.
     *
     * @param table     the binding of the record's topic, not null
     * @param partition the Kafka partition, not null
     * @param recordKey the record key bytes, or null
     */
    record GroupKey(RowBinding table, TopicPartition partition, ByteBuffer recordKey) {

        /**
         * @param table     the binding of the record's topic
         * @param partition the record's partition
         * @param key       the record key, or null
         * @return the key of the batch the record waits in
         */
        static GroupKey of(RowBinding table, TopicPartition partition, byte[] key) {
            return new GroupKey(table, partition, key == null ? null : ByteBuffer.wrap(key));
        }

        /** @return the record key's length in bytes, 0 without a key */
        int keyLength() {
            return recordKey == null ? 0 : recordKey.remaining();
        }

        /** @return the record key bytes, or null */
        byte[] keyBytes() {
            if (recordKey == null) {
                return null;
            }
            byte[] bytes = new byte[recordKey.remaining()];
            recordKey.duplicate().get(bytes);
            return bytes;
        }
    }
}
