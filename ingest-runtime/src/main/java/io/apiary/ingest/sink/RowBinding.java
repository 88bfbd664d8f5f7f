package io.apiary.ingest.sink;

/**
 * What the sink's loop needs of a table: its names, and how a row topic value becomes a
 * {@link SinkTable.Write}. {@link SinkTable} is the binding to a real table; unit tests of the
 * loop give a scripted one. Implementations are thread-safe (bound on the sink's poll thread,
 * read by driver callbacks only through the writes they made).
 */
public interface RowBinding {

    /** @return the table name, without keyspace, not null */
    String table();

    /** @return the keyspace of the table, not null */
    String keyspace();

    /**
     * Decodes a row topic value and binds it.
     *
     * @param value the record value, not null
     * @return the row's write, not null
     * @throws org.apache.kafka.common.errors.SerializationException if the value cannot be decoded
     * @throws RuntimeException if it cannot be bound
     */
    SinkTable.Write bind(byte[] value);

    /**
     * @return whether two rows of one primary key are successive updates of one thing (an hour's
     *         growing sums) rather than conflicting versions
     */
    boolean rowsAreUpdates();

    /**
     * @param write a write made by {@link #bind}
     * @return its primary key (partition key and clustering values), comparable by value
     */
    Object primaryKey(SinkTable.Write write);
}
