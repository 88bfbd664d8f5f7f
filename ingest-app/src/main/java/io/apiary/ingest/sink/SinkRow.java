package io.apiary.ingest.sink;

import java.nio.ByteBuffer;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One polled Kafka record bound to its Cassandra statement, waiting to be written.
 * Immutable; safe to hand between threads.
 *
 * @param partition    the Kafka partition it came from
 * @param record       the original record (raw key and value bytes, for the dead letter topic)
 * @param table        the Cassandra table it goes to
 * @param statement    the bound, idempotent INSERT
 * @param routingKey   the serialized Cassandra partition key (the driver's routing key)
 * @param boundBytes   bytes of bound values, counted against the batch byte cap
 */
record SinkRow(TopicPartition partition, ConsumerRecord<byte[], byte[]> record, String table,
        BoundStatement statement, ByteBuffer routingKey, int boundBytes) {

    /** @return bytes of the record's key and value, counted against the sink's memory bound */
    int recordBytes() {
        return CassandraSink.recordBytes(record);
    }

    /** @return the record's offset */
    long offset() {
        return record.offset();
    }

    /**
     * The grouping key: rows group only within one Kafka partition and one Cassandra partition
     * of one table.
     *
     * @return a value-comparable key
     */
    Object groupKey() {
        return new GroupKey(partition, table, routingKey);
    }

    private record GroupKey(TopicPartition partition, String table, ByteBuffer routingKey) {
    }
}
