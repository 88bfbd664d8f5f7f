package io.apiary.ingest.sink;

import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.tables.TableCatalog;
import io.apiary.ingest.tables.TableDescriptor;
import io.apiary.ingest.tables.TableNames;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The life of a Cassandra partition: the time span whose rows it receives (its bucket), from the
 * day and shard in its partition key. A partition that keeps a write rate to the end of its
 * bucket holds rate x life. Immutable and thread-safe.
 *
 * <ul>
 *   <li>hive_telemetry, weather_readings ({@code (id, day, shard)}): with the {@code time} shard
 *       strategy, the shard's slice of the UTC day ({@code [day + shard x 24 h / shards, day +
 *       (shard + 1) x 24 h / shards)}, as {@link ShardStrategy#TIME} assigns rows); with
 *       {@code hash}, the whole UTC day (every shard receives rows all day);</li>
 *   <li>agent_alerts ({@code (agent_id, day)}): the UTC day;</li>
 *   <li>hive_activity ({@code (hive_id)}): none. Its rows are upserted in place many times, so a
 *       write rate says nothing about its size.</li>
 * </ul>
 *
 * @param cellsPerRow cells a row adds to its partition: its regular columns, Nc - Npk - Ns of the
 *                    DataStax partition-size formula, where Npk counts every primary-key column
 *                    (as {@code ingest-app partitions plan} and the math in {@code cql/} count them)
 * @param dayColumn   index of the day in the partition key, or -1 when the table has no bucket
 * @param shardColumn index of the shard in the partition key, or -1 when the bucket is the whole day
 * @param shards      shards per day (1 when there are none)
 */
record PartitionLife(int cellsPerRow, int dayColumn, int shardColumn, int shards) {

    /** A partition's bucket: rows written from {@code start} (inclusive) to {@code end} (exclusive). */
    record Bucket(Instant start, Instant end) {
        /** @return the bucket's length */
        Duration life() {
            return Duration.between(start, end);
        }
    }

    /**
     * @param table    a table of the sink, e.g. hive_telemetry_v2; one not in the bundled
     *                 {@code cql/} has no projection
     * @param settings the shard strategy and counts, not null
     * @return the life rule of its partitions
     */
    static PartitionLife of(String table, HotPartitionSettings settings) {
        return TableCatalog.bundled()
                .find(table)
                .map(descriptor -> of(descriptor, settings))
                .orElse(NONE);
    }

    /** No projection: a table whose partitions have no bucket known here. */
    private static final PartitionLife NONE = new PartitionLife(0, -1, -1, 1);

    /**
     * The life rule of a table's partitions from its descriptor: the day and shard columns of its
     * partition key ({@link TableDescriptor#dayColumn()}, {@link TableDescriptor#shardColumn()}),
     * its regular columns as the cells per row. hive_activity (rows upserted in place), a table
     * without a day column, and a table with a shard column whose shard count the settings do not
     * give (a table registered beside {@code cql/}) have no projection.
     *
     * @param table    the table, not null
     * @param settings the shard strategy and counts, not null
     * @return the life rule of its partitions
     */
    static PartitionLife of(TableDescriptor table, HotPartitionSettings settings) {
        int cells = table.regularColumns().size();
        if (table.name().equals(TableNames.HIVE_ACTIVITY) || table.dayColumn() < 0) {
            return new PartitionLife(cells, -1, -1, 1);
        }
        if (table.shardColumn() < 0) {
            return new PartitionLife(cells, table.dayColumn(), -1, 1);
        }
        int shards = settings.shards(table.name());
        if (shards <= 0) {
            return new PartitionLife(cells, -1, -1, 1);
        }
        boolean slices = settings.shardStrategy() == ShardStrategy.TIME;
        return new PartitionLife(cells, table.dayColumn(), slices ? table.shardColumn() : -1, slices ? shards : 1);
    }

    /**
     * @param key the partition-key values ({@link PartitionKeyFormat#decode})
     * @return the partition's bucket, or null if its table has none or the key does not hold one
     */
    Bucket bucket(List<Object> key) {
        // a table whose deployed key differs from cql/ (fewer columns, other types): no bucket known
        if (dayColumn < 0 || dayColumn >= key.size() || !(key.get(dayColumn) instanceof LocalDate day)) {
            return null;
        }
        if (shardColumn >= key.size()) {
            return null;
        }
        long dayStart = day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        if (shardColumn < 0) {
            return new Bucket(
                    Instant.ofEpochMilli(dayStart), Instant.ofEpochMilli(dayStart + DayBucket.MILLIS_PER_DAY));
        }
        if (!(key.get(shardColumn) instanceof Integer shard) || shard < 0 || shard >= shards) {
            return null; // written with another shard count than configured: its slice is unknown
        }
        // the first millisecond of the day whose shard is `shard` (the inverse of ShardStrategy.TIME)
        return new Bucket(
                Instant.ofEpochMilli(dayStart + sliceStart(shard)),
                Instant.ofEpochMilli(dayStart + sliceStart(shard + 1)));
    }

    private long sliceStart(int shard) {
        return ((long) shard * DayBucket.MILLIS_PER_DAY + shards - 1) / shards;
    }
}
