package io.apiary.ingest.sink;

import java.nio.ByteBuffer;

import com.datastax.oss.driver.api.core.cql.BoundStatement;

/**
 * A row bound to its idempotent INSERT, about to be written. Immutable.
 *
 * @param row         the waiting row it was bound from, not null
 * @param statement   the bound statement, not null
 * @param routingKey  the statement's serialized Cassandra partition key (the driver's routing
 *                    key), computed once; not null
 * @param serverBytes its size as Cassandra counts it in a batch ({@link SinkTable#serverBytes})
 */
record BoundRow(SinkRow row, BoundStatement statement, ByteBuffer routingKey, int serverBytes) {

    /**
     * Binds a waiting row.
     *
     * @param row a waiting row, not null
     * @return the bound row
     * @throws org.apache.kafka.common.errors.SerializationException if its value cannot be decoded
     * @throws RuntimeException if it cannot be bound
     */
    static BoundRow bind(SinkRow row) {
        BoundStatement statement = row.table().bind(row.record().value());
        return new BoundRow(row, statement, statement.getRoutingKey(), row.table().serverBytes(statement));
    }
}
