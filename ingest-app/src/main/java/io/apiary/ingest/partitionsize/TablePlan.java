package io.apiary.ingest.partitionsize;

import io.apiary.ingest.partitionsize.PartitionLimits.Verdict;
import io.apiary.ingest.tables.CqlTableDefinition;
import java.util.List;
import java.util.OptionalInt;

/**
 * One table's partitions at the end of their life under a planned load, with a verdict and
 * suggestions. Immutable and thread-safe.
 *
 * @param table          the table, not null
 * @param rate           planned rows per entity, not null
 * @param entities       planned entities, at least 1
 * @param partitionRate  rows per partition key value without bucket and shard: {@code rate}, or
 *                       {@code rate x entities} when the key names no entity
 * @param bucket         the partition key's time bucket, not null
 * @param bucketSource   where the bucket came from (the column it was read from, or the setting)
 * @param shards         shards per bucket (1 without a shard column)
 * @param shardColumn    the partition key's shard column, or null if it has none
 * @param shape          bytes and cells per partition and per row, not null
 * @param notes          remarks on how the table was read, possibly empty
 * @param assumed        columns whose size was assumed ({@link PlanSettings#textBytes}), as
 *                       {@code column type}, possibly empty
 * @param lifeSeconds    how long a partition receives rows: the bucket, or the table's TTL
 *                       without a bucket; 0 when unbounded
 * @param rows           rows per partition, Nr; {@link Long#MAX_VALUE} when unbounded or too large
 * @param cells          cells per partition, Nv; {@link Long#MAX_VALUE} when unbounded
 * @param bytes          bytes per partition, St; {@link Long#MAX_VALUE} when unbounded
 * @param verdict        the verdict against the limits, not null
 * @param smallestShards the smallest shard count that keeps the partitions within comfort (no
 *                       warning, no limit passed) at this bucket; empty if none up to
 *                       {@link PartitionPlanner#MAX_SHARDS}
 * @param finerBucket    the coarsest finer bucket that keeps them within comfort at this shard
 *                       count, when the verdict is a warning or over the limit; else null
 */
public record TablePlan(
        CqlTableDefinition table,
        WriteRate rate,
        long entities,
        WriteRate partitionRate,
        Bucket bucket,
        String bucketSource,
        int shards,
        String shardColumn,
        RowShape shape,
        List<String> assumed,
        List<String> notes,
        long lifeSeconds,
        long rows,
        long cells,
        long bytes,
        Verdict verdict,
        OptionalInt smallestShards,
        Bucket finerBucket) {

    /** Copies the list. */
    public TablePlan {
        assumed = List.copyOf(assumed);
        notes = List.copyOf(notes);
    }

    /** @return whether the partitions grow without bound (no bucket, no TTL, some writes) */
    public boolean unbounded() {
        return rows == Long.MAX_VALUE && lifeSeconds == 0;
    }

    /** @return whether a count or size passed {@link Long#MAX_VALUE} (an absurd load) */
    public boolean overflow() {
        return !unbounded() && (rows == Long.MAX_VALUE || cells == Long.MAX_VALUE || bytes == Long.MAX_VALUE);
    }

    /** @return the table's planned rows per second over all entities */
    public double clusterRowsPerSecond() {
        return rate.perSecond() * entities;
    }
}
