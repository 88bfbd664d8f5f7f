package io.apiary.ingest.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the sink's hot-partition detection ({@link HotPartitions}) found in its last window.
 * Immutable and thread-safe.
 *
 * @param windowEnd     wall-clock end of the window, not null
 * @param window        its length (measured, so slightly above {@code sink.hot.window.ms}), not null
 * @param tables        table name to its load in the window; tables without writes are absent
 * @param nodeShares    Cassandra node ({@code host:port}) to the share of the window's rows of which
 *                      it is a replica, 0 to 1 (they add up to the replication factor); empty without
 *                      token metadata
 * @param meanNodeShare the mean of those shares over the nodes that own tokens of the keyspace
 */
public record HotPartitionReport(
        Instant windowEnd,
        Duration window,
        Map<String, TableLoad> tables,
        Map<String, Double> nodeShares,
        double meanNodeShare) {

    /** Cassandra's guidance for one partition: at most 100 MB (decimal). */
    public static final double LIMIT_BYTES = 100_000_000d;
    /** Cassandra's guidance for one partition: at most 100,000 cells. */
    public static final double LIMIT_CELLS = 100_000d;

    /** An empty report, before the first window ends. */
    static final HotPartitionReport EMPTY = new HotPartitionReport(Instant.EPOCH, Duration.ZERO, Map.of(), Map.of(), 0);

    /** Copies the maps. */
    public HotPartitionReport {
        tables = Map.copyOf(tables);
        nodeShares = Map.copyOf(nodeShares);
    }

    /**
     * One table's writes in the window.
     *
     * @param table      table name
     * @param rows       rows acknowledged
     * @param bytes      their bytes as the sink counts them ({@link SinkTable#serverBytes}: an upper
     *                   bound of what Cassandra counts for {@code batch_size_warn_threshold})
     * @param partitions distinct partitions written, a HyperLogLog estimate (about 1.6% error)
     * @param top        the heaviest partitions by rows (then those heavy by bytes only), at most
     *                   10, heaviest first
     */
    public record TableLoad(String table, long rows, long bytes, long partitions, List<PartitionLoad> top) {
        /** Copies the list. */
        public TableLoad {
            top = List.copyOf(top);
        }
    }

    /**
     * One heavy partition. Rows and bytes are the heavy-hitter sketch's estimates, at most
     * {@link HotPartitions#EPSILON} of the table's rows (bytes) above the truth; whether it is hot
     * was decided on the sketch's lower bounds, so the sketch's error cannot make a partition hot.
     *
     * @param key            the partition key, e.g. {@code (hive_id='hive-0042', day=2026-11-30, shard=37)}
     * @param rows           estimated rows written in the window
     * @param bytes          estimated bytes written in the window
     * @param rowsShare      rows / the table's rows in the window, 0 to 1
     * @param bytesShare     bytes / the table's bytes in the window, 0 to 1
     * @param rowsPerSecond  rows / window length
     * @param bytesPerSecond bytes / window length
     * @param hot            whether it passed the share thresholds
     * @param projection     its size at the end of its bucket at this rate (from the sketch's lower
     *                       bounds of its rows and bytes); null when its table has
     *                       no buckets (hive_activity) or its bucket has ended (a replay of history)
     */
    public record PartitionLoad(
            String key,
            long rows,
            long bytes,
            double rowsShare,
            double bytesShare,
            double rowsPerSecond,
            double bytesPerSecond,
            boolean hot,
            Projection projection) {

        /** @return whether its projection passes 100 MB or 100,000 cells */
        public boolean overLimit() {
            return projection != null && (projection.bytes() > LIMIT_BYTES || projection.cells() > LIMIT_CELLS);
        }
    }

    /**
     * A partition's size at the end of its bucket if it kept the window's rate for its whole life
     * (rate x life; {@link PartitionLife}).
     *
     * @param bucketEnd end of the partition's bucket, not null
     * @param bytes     bytes per second x life
     * @param rows      rows per second x life
     * @param cells     rows x cells per row (its regular columns, as in the partition-size math in {@code cql/})
     */
    public record Projection(Instant bucketEnd, double bytes, double rows, double cells) {}
}
