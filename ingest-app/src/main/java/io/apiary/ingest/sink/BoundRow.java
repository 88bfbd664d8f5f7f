package io.apiary.ingest.sink;

import java.nio.ByteBuffer;

import com.datastax.oss.driver.api.core.cql.BoundStatement;

/**
 * A row bound to its idempotent statements, about to be written. Immutable.
 *
 * @param row   the waiting row it was bound from, not null
 * @param write its statements, routing key, server-side size and fingerprint, not null
 */
record BoundRow(SinkRow row, SinkTable.Write write) {

    /**
     * Binds a waiting row.
     *
     * @param row a waiting row, not null
     * @return the bound row
     * @throws org.apache.kafka.common.errors.SerializationException if its value cannot be decoded
     * @throws RuntimeException if it cannot be bound
     */
    static BoundRow bind(SinkRow row) {
        return new BoundRow(row, row.table().bind(row.record().value()));
    }

    /** @return the INSERT, which carries the routing keyspace and key */
    BoundStatement statement() {
        return write.insert();
    }

    /** @return the serialized partition key, computed once at bind time */
    ByteBuffer routingKey() {
        return write.routingKey();
    }

    /** @return its size as Cassandra counts it in a batch */
    int serverBytes() {
        return write.serverBytes();
    }
}
