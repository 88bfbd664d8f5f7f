package io.apiary.ingest.sink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Groups rows by Cassandra partition key into batches that respect a row cap and a byte cap, in
 * one pass over a list: the sink's exact split of a {@link PartitionBatcher} batch once its rows
 * are bound (by routing key, and by the size Cassandra will count, which the batcher could only
 * estimate before binding). Testable without a database.
 *
 * <p>Guarantees: every row lands in exactly one batch; every batch holds rows of one partition
 * key only; rows keep their input order within a partition; a batch never exceeds
 * {@code maxRows} rows, nor {@code maxBytes} bytes unless it holds a single row larger than the
 * cap (such a row travels alone). Batches come out in the order their partition first appears.
 * Thread-safe (stateless).
 */
public final class BatchGrouper {

    private BatchGrouper() {}

    /**
     * Splits rows into single-partition batches.
     *
     * @param rows         rows in arrival order, not null
     * @param partitionKey the row's partition key; keys must implement equals/hashCode by value
     * @param bytes        the row's size in bytes, as counted against {@code maxBytes}
     * @param maxRows      row cap per batch, at least 1
     * @param maxBytes     byte cap per batch, at least 1
     * @param <R>          row type
     * @param <K>          partition key type
     * @return batches, each a non-empty list of rows
     * @throws IllegalArgumentException if a cap is below 1
     */
    public static <R, K> List<List<R>> group(
            List<R> rows, Function<R, K> partitionKey, ToIntFunction<R> bytes, int maxRows, long maxBytes) {
        if (maxRows < 1 || maxBytes < 1) {
            throw new IllegalArgumentException(
                    "caps must be at least 1: maxRows=" + maxRows + ", maxBytes=" + maxBytes);
        }
        List<List<R>> batches = new ArrayList<>();
        if (onePartition(rows, partitionKey)) {
            split(rows, bytes, maxRows, maxBytes, batches);
            return batches;
        }
        Map<K, List<R>> byPartition = new LinkedHashMap<>();
        for (R row : rows) {
            byPartition
                    .computeIfAbsent(partitionKey.apply(row), k -> new ArrayList<>())
                    .add(row);
        }
        for (List<R> partitionRows : byPartition.values()) {
            split(partitionRows, bytes, maxRows, maxBytes, batches);
        }
        return batches;
    }

    /**
     * Whether all rows share the first row's partition key: the usual case, since the sink's
     * batches are keyed by the record key, which the topology sets to the partition key. Then no
     * map is needed (equality of two keys costs less than hashing each).
     */
    private static <R, K> boolean onePartition(List<R> rows, Function<R, K> partitionKey) {
        if (rows.isEmpty()) {
            return false;
        }
        K first = partitionKey.apply(rows.get(0));
        for (int i = 1; i < rows.size(); i++) {
            if (!first.equals(partitionKey.apply(rows.get(i)))) {
                return false;
            }
        }
        return true;
    }

    /** Cuts one partition's rows, in order, into batches within the caps, added to {@code batches}. */
    private static <R> void split(
            List<R> partitionRows, ToIntFunction<R> bytes, int maxRows, long maxBytes, List<List<R>> batches) {
        List<R> current = new ArrayList<>(Math.min(maxRows, partitionRows.size()));
        long currentBytes = 0;
        for (R row : partitionRows) {
            int size = bytes.applyAsInt(row);
            boolean full = current.size() >= maxRows || (!current.isEmpty() && currentBytes + size > maxBytes);
            if (full) {
                batches.add(current);
                current = new ArrayList<>();
                currentBytes = 0;
            }
            current.add(row);
            currentBytes += size;
        }
        batches.add(current);
    }
}
