package io.apiary.ingest.sink;

import java.util.ArrayList;
import java.util.List;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import org.apache.kafka.common.TopicPartition;

/**
 * Rows of one Cassandra partition (and one Kafka partition) written by one request: a plain
 * statement for one row, an UNLOGGED batch for several. Mutable retry bookkeeping; confined to
 * the sink's poll thread.
 */
final class WriteGroup {

    final TopicPartition partition;
    final String table;
    final List<SinkRow> rows;
    final int boundBytes;
    final long recordBytes;
    int attempts;
    long dueAtNanos;
    boolean abandoned;
    long startedNanos;

    WriteGroup(List<SinkRow> rows) {
        this.rows = List.copyOf(rows);
        this.partition = rows.get(0).partition();
        this.table = rows.get(0).table();
        int bytes = 0;
        long raw = 0;
        for (SinkRow row : rows) {
            bytes += row.boundBytes();
            raw += row.recordBytes();
        }
        this.boundBytes = bytes;
        this.recordBytes = raw;
    }

    /** @return the statement to execute: the single bound statement, or an UNLOGGED batch */
    Statement<?> statement() {
        if (rows.size() == 1) {
            return rows.get(0).statement();
        }
        List<BatchableStatement<?>> statements = new ArrayList<>(rows.size());
        for (SinkRow row : rows) {
            statements.add(row.statement());
        }
        BoundStatement first = rows.get(0).statement();
        return BatchStatement.builder(BatchType.UNLOGGED)
                .addStatements(statements)
                .setIdempotence(true)
                .setConsistencyLevel(first.getConsistencyLevel())
                .build();
    }

    /** @return one group per row, for finding the row a batch failed on */
    List<WriteGroup> split() {
        List<WriteGroup> singles = new ArrayList<>(rows.size());
        for (SinkRow row : rows) {
            singles.add(new WriteGroup(List.of(row)));
        }
        return singles;
    }
}
