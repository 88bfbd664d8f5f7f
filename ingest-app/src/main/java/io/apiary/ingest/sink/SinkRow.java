package io.apiary.ingest.sink;

import java.nio.ByteBuffer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One polled row record, waiting in a batch to be bound and written. It keeps only the record
 * (raw key and value bytes, also what the dead letter topic gets): the statement is bound when the
 * batch is sent, so the memory held per waiting row is the record's. Immutable.
 *
 * @param partition the Kafka partition it came from, not null
 * @param record    the original record, with a non-null value
 * @param table     the table binding of its topic, not null
 */
record SinkRow(TopicPartition partition, ConsumerRecord<byte[], byte[]> record, SinkTable<?> table) {

    /** @return bytes of the record's key and value, counted against the sink's memory bound */
    int recordBytes() {
        return CassandraSink.recordBytes(record);
    }

    /** @return the record's offset */
    long offset() {
        return record.offset();
    }

    /**
     * The key rows wait under before they are bound: table, Kafka partition and the record key,
     * which the topology sets to the row's Cassandra partition key. (Rows are regrouped by the
     * bound statement's routing key when sent, so a producer that keys differently still gets
     * correct, single-partition writes.)
     *
     * @return a value-comparable key
     */
    GroupKey groupKey() {
        byte[] key = record.key();
        return new GroupKey(table.table(), partition, key == null ? null : ByteBuffer.wrap(key));
    }

    /**
     * @param table     table name
     * @param partition Kafka partition
     * @param recordKey the record key bytes, or null
     */
    record GroupKey(String table, TopicPartition partition, ByteBuffer recordKey) {
    }
}
