package io.apiary.ingest.sink;

import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * One polled row record, held compactly while it waits in a batch: its offset and value bytes,
 * and its headers only when it has any. Its topic, partition, key and table are those of the
 * batch it waits in ({@link GroupKey}), which every row of the batch shares, so they are held once
 * per batch. The statement is bound only when the batch is about to be sent. {@code ingest-jmh}'s
 * {@code BufferFootprint} measures its heap per row against holding the polled
 * {@link ConsumerRecord}. Immutable (the arrays are not copied and must not be changed).
 *
 * @param offset  the record's offset
 * @param value   the record value (Avro single-object encoding), not null
 * @param headers the record's headers, or null when it had none
 */
record SinkRow(long offset, byte[] value, Headers headers) {

    /** Checks the value. */
    SinkRow {
        Objects.requireNonNull(value, "value");
    }

    /**
     * @param record a polled record with a non-null value
     * @return the compact row of it
     */
    static SinkRow of(ConsumerRecord<byte[], byte[]> record) {
        Headers headers = record.headers();
        return new SinkRow(
                record.offset(),
                record.value(),
                headers == null || !headers.iterator().hasNext() ? null : headers);
    }

    /**
     * @param key the key of the batch the row waits in
     * @return bytes of the record's key and value, counted against the sink's memory bound
     */
    int recordBytes(GroupKey key) {
        return key.keyLength() + value.length;
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
