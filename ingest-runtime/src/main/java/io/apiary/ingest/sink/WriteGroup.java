package io.apiary.ingest.sink;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * Bound rows of one Kafka partition written by one request, which {@link DriverWriter#request}
 * makes of their writes: a plain statement for one row, an UNLOGGED batch for several (rows of
 * one Cassandra partition, or of several partitions with the same replicas when combining is on).
 * Mutable retry bookkeeping; confined to the sink's poll thread.
 */
final class WriteGroup {

    final TopicPartition partition;
    final List<SinkRow> rows;
    final long serverBytes;
    final long recordBytes;
    final long openedNanos;
    final int partitionKeys;
    int attempts;
    long dueAtNanos;
    boolean abandoned;
    /** The turn of the loop that sent it (the concurrency limit's start of the round trip). */
    long startedNanos;
    /** When it was handed to the driver (the write-latency metric's start). */
    long sentNanos;
    /** Requests in flight when it was sent, this one included (for the concurrency limit's samples). */
    int inFlightAtSend;

    /**
     * @param rows          bound rows of one Kafka partition, not empty
     * @param openedNanos   when the first of them started waiting (for the linger metric)
     * @param partitionKeys how many Cassandra partitions they span
     */
    WriteGroup(List<SinkRow> rows, long openedNanos, int partitionKeys) {
        this.rows = List.copyOf(rows);
        this.partition = rows.get(0).key().partition();
        this.openedNanos = openedNanos;
        this.partitionKeys = partitionKeys;
        long bytes = 0;
        long raw = 0;
        for (SinkRow row : rows) {
            bytes += row.serverBytes();
            raw += row.recordBytes();
        }
        this.serverBytes = bytes;
        this.recordBytes = raw;
    }

    /**
     * @param groups single-partition groups of one Kafka partition, not empty
     * @return one group of all their rows
     */
    static WriteGroup combined(List<WriteGroup> groups) {
        if (groups.size() == 1) {
            return groups.get(0);
        }
        List<SinkRow> rows = new ArrayList<>();
        long opened = Long.MAX_VALUE;
        for (WriteGroup group : groups) {
            rows.addAll(group.rows);
            opened = Math.min(opened, group.openedNanos);
        }
        return new WriteGroup(rows, opened, groups.size());
    }

    /** @return every row's write, in order, for {@link CassandraWriter#execute} */
    List<SinkTable.Write> writes() {
        List<SinkTable.Write> writes = new ArrayList<>(rows.size());
        for (SinkRow row : rows) {
            writes.add(row.write());
        }
        return writes;
    }

    /** @return the table name of its rows */
    String table() {
        return rows.get(0).table().table();
    }

    /** @return one group per row, for finding the row a batch failed on */
    List<WriteGroup> split() {
        List<WriteGroup> singles = new ArrayList<>(rows.size());
        for (SinkRow row : rows) {
            singles.add(new WriteGroup(List.of(row), openedNanos, 1));
        }
        return singles;
    }
}
