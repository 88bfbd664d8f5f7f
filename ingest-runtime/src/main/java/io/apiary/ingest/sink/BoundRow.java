package io.apiary.ingest.sink;

import java.nio.ByteBuffer;

/**
 * A row bound to its idempotent statements, about to be written. Immutable.
 *
 * @param key   the batch key it waited under (table, Kafka partition, record key), not null
 * @param row   the waiting row it was bound from, not null
 * @param write its statements, routing key, server-side size and fingerprint, not null
 */
record BoundRow(SinkRow.GroupKey key, SinkRow row, SinkTable.Write write) {

    /**
     * Binds a waiting row.
     *
     * @param key the batch key it waited under, not null
     * @param row a waiting row, not null
     * @return the bound row
     * @throws org.apache.kafka.common.errors.SerializationException if its value cannot be decoded
     * @throws RuntimeException if it cannot be bound
     */
    static BoundRow bind(SinkRow.GroupKey key, SinkRow row) {
        return new BoundRow(key, row, key.table().bind(row.value()));
    }

    /** @return the table binding of its topic */
    RowBinding table() {
        return key.table();
    }

    /** @return the serialized partition key, computed once at bind time */
    ByteBuffer routingKey() {
        return write.routingKey();
    }

    /** @return its size as Cassandra counts it in a batch */
    int serverBytes() {
        return write.serverBytes();
    }

    /** @return key and value bytes of its record, as counted against the sink's memory bound */
    int recordBytes() {
        return row.recordBytes(key);
    }
}
