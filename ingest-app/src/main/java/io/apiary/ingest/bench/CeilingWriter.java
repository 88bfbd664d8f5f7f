package io.apiary.ingest.bench;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmark's raw ceiling: the workload's rows grouped by Cassandra partition in memory
 * beforehand ({@link #group}, not timed), then written as single-partition UNLOGGED batches of
 * up to {@code batchRows} rows straight through the driver, {@code inFlight} batches at a time;
 * no Kafka, no waiting for rows to arrive. Rows are bound as the sink binds them
 * ({@link SinkTable#bind}); retries as {@link AsyncWrites} does. {@link #group} and {@link #run}
 * are called one after the other, each on one thread.
 */
final class CeilingWriter implements Runnable {

    private final SinkTable<?> table;
    private final int batchRows;
    private final AsyncWrites writes;
    private List<List<byte[]>> batches = List.of();

    /**
     * @param table     binds a row topic value to its INSERT
     * @param batchRows most rows per batch
     * @param writes    sends the batches, with the in-flight limit
     */
    CeilingWriter(SinkTable<?> table, int batchRows, AsyncWrites writes) {
        this.table = table;
        this.batchRows = batchRows;
        this.writes = writes;
    }

    /**
     * Builds the batches: rows {@code 0 .. rows - 1} of the workload, encoded as on the row topic,
     * grouped by partition key (partitions in order of their first row, rows in workload order).
     *
     * @param workload the workload
     * @param topic    the row topic whose value serde encodes the rows
     * @param rows     rows to write
     */
    void group(BenchWorkload workload, Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic, long rows) {
        Map<HiveTelemetryPartitionKey, List<byte[]>> byPartition = new LinkedHashMap<>();
        for (long i = 0; i < rows; i++) {
            HiveTelemetryRow row = workload.row(i);
            byPartition
                    .computeIfAbsent(BenchWorkload.partitionKey(row), k -> new ArrayList<>())
                    .add(topic.valueSerde().serializer().serialize(topic.name(), row));
        }
        List<List<byte[]>> all = new ArrayList<>();
        for (List<byte[]> partition : byPartition.values()) {
            for (int from = 0; from < partition.size(); from += batchRows) {
                all.add(partition.subList(from, Math.min(partition.size(), from + batchRows)));
            }
        }
        batches = all;
    }

    /** Sends every batch and waits for the acknowledgements; failures go to {@code writes}. */
    @Override
    public void run() {
        try {
            for (List<byte[]> values : batches) {
                if (!writes.running()) {
                    return;
                }
                writes.send(statement(values), values.size());
            }
            writes.awaitAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            writes.fail(e);
        }
    }

    private Statement<?> statement(List<byte[]> values) {
        BoundStatement first = table.bind(values.get(0)).insert();
        if (values.size() == 1) {
            return first;
        }
        List<BatchableStatement<?>> statements = new ArrayList<>(values.size());
        statements.add(first);
        for (int i = 1; i < values.size(); i++) {
            statements.addAll(table.bind(values.get(i)).statements());
        }
        return BatchStatement.newInstance(BatchType.UNLOGGED, statements)
                .setRoutingKey(first.getRoutingKey())
                .setConsistencyLevel(first.getConsistencyLevel())
                .setIdempotent(true);
    }
}
