package io.apiary.ingest.partitionsize;

import io.apiary.ingest.partitionsize.PartitionLimits.Verdict;
import io.apiary.ingest.tables.CqlTableDefinition;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Sizes the partitions of tables under a planned load: rows, cells and bytes of one partition
 * at the end of its life, and a verdict against {@link PartitionLimits}.
 *
 * <p>The model: an entity (a hive, a station, an agent: the partition key without its bucket and
 * shard columns) writes {@code rate} rows; a partition receives them for its life, the bucket's
 * length ({@link Bucket}), or the table's {@code default_time_to_live} when the key has no time
 * bucket (rows older than that expire); its shard column spreads them evenly over {@code shards}
 * partitions (both shard strategies do, see {@link io.apiary.ingest.bucket.ShardStrategy}). So
 * <pre>
 *   Nr = ceil(rate x life / shards)
 * </pre>
 * and cells Nv and bytes St follow from the table's columns ({@link RowShape}).
 *
 * <p>The bucket is read from the partition key: a column of type {@code date} is a day bucket;
 * {@code partitions.plan.buckets} overrides it. A partition-key column whose name contains
 * "shard" is the shard column. The other partition-key columns name the entity; a key without
 * any gathers the rows of all entities. A table without clustering columns holds one row per
 * partition. Cells are counted as in the DataStax formula, where Npk is the number of
 * primary-key columns (partition key and clustering). Thread-safe (stateless).
 */
public final class PartitionPlanner {

    /** The largest shard count searched for a suggestion. */
    public static final int MAX_SHARDS = 100_000;

    private PartitionPlanner() {}

    /**
     * Rows one partition receives over its life.
     *
     * @param rate        rows per entity, not null
     * @param lifeSeconds the partition's life in seconds; 0 for unbounded
     * @param shards      partitions the entity's rows are spread over during that life, at least 1
     * @return Nr, rounded up; {@link Long#MAX_VALUE} when unbounded with a rate above 0
     */
    public static long rowsPerPartition(WriteRate rate, long lifeSeconds, int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1: " + shards);
        }
        if (lifeSeconds == 0) {
            return rate.count().signum() == 0 ? 0 : Long.MAX_VALUE;
        }
        BigDecimal rows = rate.rowsIn(lifeSeconds)
                .divide(BigDecimal.valueOf(shards), 6, RoundingMode.HALF_EVEN)
                .setScale(0, RoundingMode.CEILING);
        return rows.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : rows.longValueExact();
    }

    /**
     * Plans every table that has a planned rate.
     *
     * @param tables   the tables, e.g. from the CQL files, not null
     * @param settings the planned load, not null
     * @return one plan per table with a rate in {@code settings}, in the order of {@code tables}
     */
    public static List<TablePlan> plan(List<CqlTableDefinition> tables, PlanSettings settings) {
        List<TablePlan> plans = new ArrayList<>();
        for (CqlTableDefinition table : tables) {
            WriteRate rate = settings.rates().get(table.name());
            if (rate != null) {
                plans.add(plan(table, rate, settings));
            }
        }
        return plans;
    }

    /**
     * Plans one table.
     *
     * @param table    the table, not null
     * @param rate     its planned rows per entity, not null
     * @param settings the other assumptions, not null
     * @return the plan
     */
    public static TablePlan plan(CqlTableDefinition table, WriteRate rate, PlanSettings settings) {
        List<String> notes = new ArrayList<>();
        String shardColumn = table.partitionKey().stream()
                .filter(c -> c.toLowerCase(java.util.Locale.ROOT).contains("shard"))
                .findFirst()
                .orElse(null);
        int shards = shardColumn == null ? 1 : settings.shards().getOrDefault(table.name(), 1);
        if (shardColumn != null && !settings.shards().containsKey(table.name())) {
            notes.add("No shard count is set for it (partitions.plan.shards): 1 shard assumed.");
        }
        if (shardColumn == null
                && settings.shards().containsKey(table.name())
                && settings.shards().get(table.name()) != 1) {
            notes.add("Its partition key has no shard column, so partitions.plan.shards does not apply.");
        }
        Bucket bucket = settings.buckets().get(table.name());
        String bucketSource = "partitions.plan.buckets";
        if (bucket == null) {
            String dateColumn = table.partitionKey().stream()
                    .filter(c -> "date".equals(table.columns().get(c)))
                    .findFirst()
                    .orElse(null);
            bucket = dateColumn == null ? Bucket.NONE : Bucket.DAY;
            bucketSource = dateColumn == null ? "no date column in the partition key" : "column " + dateColumn;
            table.partitionKey().stream()
                    .filter(c -> "timestamp".equals(table.columns().get(c)))
                    .findFirst()
                    .ifPresent(c -> notes.add("If partition-key column " + c + " is a time bucket, name it in "
                            + "partitions.plan.buckets (e.g. " + table.name() + "=hour)."));
        }
        long entities = settings.entities().getOrDefault(table.name(), 1L);
        List<String> entityColumns = entityColumns(table, shardColumn);
        WriteRate partitionRate = rate;
        if (entityColumns.isEmpty() && entities > 1) {
            partitionRate = rate.times(entities);
            notes.add("Its partition key has no entity column, so all " + entities + " entities write to the same "
                    + "partitions: " + partitionRate + " each.");
        }
        if (table.clusteringColumns().isEmpty()) {
            notes.add("It has no clustering column: a partition holds one row, which each write replaces.");
        }
        List<String> assumed = new ArrayList<>();
        RowShape shape = shape(table, settings, assumed);
        boolean singleRow = table.clusteringColumns().isEmpty();
        long life = life(table, bucket);
        Size size = size(partitionRate, life, shards, shape, settings.limits(), singleRow);
        OptionalInt smallest =
                singleRow ? OptionalInt.of(1) : smallestShards(partitionRate, life, shape, settings.limits());
        Bucket finer = null;
        if (!size.verdict.withinComfort() && !singleRow) {
            for (Bucket b = bucket.finer(); b != null && finer == null; b = b.finer()) {
                if (size(partitionRate, life(table, b), shards, shape, settings.limits(), false)
                        .verdict
                        .withinComfort()) {
                    finer = b;
                }
            }
        }
        return new TablePlan(
                table,
                rate,
                entities,
                partitionRate,
                bucket,
                bucketSource,
                shards,
                shardColumn,
                shape,
                assumed,
                notes,
                life,
                size.rows,
                size.cells,
                size.bytes,
                size.verdict,
                smallest,
                finer);
    }

    /**
     * @param table       a table
     * @param shardColumn its shard column, or null
     * @return the partition-key columns that name an entity: neither a date (bucket), nor the shard
     */
    public static List<String> entityColumns(CqlTableDefinition table, String shardColumn) {
        return table.partitionKey().stream()
                .filter(c ->
                        !c.equals(shardColumn) && !"date".equals(table.columns().get(c)))
                .toList();
    }

    /**
     * The row shape of a table from its column types and the settings' size assumptions.
     *
     * @param table    the table, not null
     * @param settings size assumptions, not null
     * @param assumed  receives {@code column type} of each column whose size was assumed
     * @return the shape; explicit when {@link PlanSettings#rowBytes} names the table
     */
    static RowShape shape(CqlTableDefinition table, PlanSettings settings, List<String> assumed) {
        long key = 0;
        long statics = 0;
        long row = 0;
        for (Map.Entry<String, String> column : table.columns().entrySet()) {
            long bytes = columnBytes(table, column.getKey(), column.getValue(), settings, assumed);
            if (table.partitionKey().contains(column.getKey())) {
                key += bytes;
            } else if (table.staticColumns().contains(column.getKey())) {
                statics += bytes;
            } else {
                row += bytes;
            }
        }
        int staticCells = table.staticColumns().size();
        // Npk counts every primary-key column: partition key and clustering columns hold no cells
        int cellsPerRow = table.columns().size()
                - table.partitionKey().size()
                - table.clusteringColumns().size()
                - staticCells;
        Long explicit = settings.rowBytes().get(table.name());
        if (explicit != null) {
            return new RowShape(key, statics, explicit, cellsPerRow, staticCells, true);
        }
        return new RowShape(key, statics, row, cellsPerRow, staticCells, false);
    }

    private static long columnBytes(
            CqlTableDefinition table, String column, String type, PlanSettings settings, List<String> assumed) {
        Long configured = settings.columnBytes().get(table.name() + "." + column);
        if (configured != null) {
            return configured;
        }
        OptionalLong fixed = ColumnSizes.fixed(type);
        if (fixed.isPresent()) {
            return fixed.getAsLong();
        }
        assumed.add(column + " " + type);
        return settings.textBytes();
    }

    private static long life(CqlTableDefinition table, Bucket bucket) {
        return bucket == Bucket.NONE ? table.defaultTtlSeconds() : bucket.seconds();
    }

    private static OptionalInt smallestShards(WriteRate rate, long life, RowShape shape, PartitionLimits limits) {
        if (!size(rate, life, MAX_SHARDS, shape, limits, false).verdict.withinComfort()) {
            return OptionalInt.empty();
        }
        int low = 1;
        int high = MAX_SHARDS;
        while (low < high) { // the size shrinks as shards grow: find the first count within comfort
            int mid = (low + high) >>> 1;
            if (size(rate, life, mid, shape, limits, false).verdict.withinComfort()) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return OptionalInt.of(low);
    }

    private static Size size(
            WriteRate rate, long life, int shards, RowShape shape, PartitionLimits limits, boolean singleRow) {
        long rows =
                singleRow ? Math.min(1, rowsPerPartition(rate, life, shards)) : rowsPerPartition(rate, life, shards);
        long cells;
        long bytes;
        try {
            cells = rows == Long.MAX_VALUE ? Long.MAX_VALUE : shape.cells(rows);
            bytes = rows == Long.MAX_VALUE ? Long.MAX_VALUE : shape.bytes(rows);
        } catch (ArithmeticException overflow) {
            cells = Long.MAX_VALUE;
            bytes = Long.MAX_VALUE;
        }
        return new Size(rows, cells, bytes, limits.verdict(bytes, cells));
    }

    private record Size(long rows, long cells, long bytes, Verdict verdict) {}
}
