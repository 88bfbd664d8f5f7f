package io.apiary.ingest.tables;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One Cassandra table as every part of the application uses it, derived once from its
 * {@code CREATE TABLE} statement in {@code cql/} ({@link CqlTableDefinition}): the columns in the
 * order the sink binds them (partition key, clustering columns, regular columns), their CQL types,
 * the bucket its partition key holds, the time column rows are ordered by, and its retention.
 *
 * <p>The bucket is read from the key by the project's naming rule (every table of {@code cql/}
 * keeps it): a partition-key column {@code day} of type {@code date} is the UTC day of the row's
 * time; a partition-key column {@code shard} of type {@code int} is the shard within the day
 * ({@code 0 .. shards - 1}). The time column is the first clustering column of type
 * {@code timestamp} (hive_telemetry_v2's {@code reading_time}); a table without one (hive_activity,
 * by day and hour) has none.
 *
 * <p>Immutable and thread-safe.
 */
public final class TableDescriptor {

    /** Name of the partition-key column that holds the UTC day of a row's time. */
    public static final String DAY_COLUMN = "day";
    /** Name of the partition-key column that holds the shard of a row within its day. */
    public static final String SHARD_COLUMN = "shard";

    private final CqlTableDefinition definition;
    private final String name;
    private final List<String> columns;

    private TableDescriptor(CqlTableDefinition definition, String name) {
        this.definition = definition;
        this.name = name;
        List<String> ordered = new ArrayList<>(definition.partitionKey());
        ordered.addAll(definition.clusteringColumns());
        ordered.addAll(definition.regularColumns());
        this.columns = List.copyOf(ordered);
    }

    /**
     * @param definition a parsed {@code CREATE TABLE}, not null
     * @return its descriptor
     * @throws IllegalArgumentException if the table has static columns (no table here has them, and
     *                                  the sink does not write them)
     */
    public static TableDescriptor of(CqlTableDefinition definition) {
        Objects.requireNonNull(definition, "definition");
        if (!definition.staticColumns().isEmpty()) {
            throw new IllegalArgumentException("table " + definition.name() + " has static columns "
                    + definition.staticColumns() + ": not supported by the sink");
        }
        return new TableDescriptor(definition, definition.name());
    }

    /**
     * A table of this one's layout under another name: the target of {@code ingest-app table copy},
     * created from the same columns and key.
     *
     * @param otherName the other table's name, without keyspace, not null
     * @return the descriptor of the other table
     */
    public TableDescriptor named(String otherName) {
        return new TableDescriptor(definition, Objects.requireNonNull(otherName, "otherName"));
    }

    /** @return the table name, without keyspace */
    public String name() {
        return name;
    }

    /** @return the parsed statement this descriptor comes from */
    public CqlTableDefinition definition() {
        return definition;
    }

    /** @return every column: the partition key, then the clustering columns, then the regular columns */
    public List<String> columns() {
        return columns;
    }

    /** @return the partition-key columns, in key order */
    public List<String> partitionKey() {
        return definition.partitionKey();
    }

    /** @return the clustering columns, in order; possibly empty */
    public List<String> clusteringColumns() {
        return definition.clusteringColumns();
    }

    /**
     * @return every clustering column with its stored order, as CQL writes it in {@code CLUSTERING
     *         ORDER BY}, e.g. {@code [sensor_type ASC, sensor_id ASC, reading_time DESC]}
     */
    public List<String> clusteringOrder() {
        return clusteringColumns().stream()
                .map(c -> c + (definition.descending().contains(c) ? " DESC" : " ASC"))
                .toList();
    }

    /**
     * @return the clustering columns before the time column ({@link #timeColumn()}): those a time
     *         slice fixes by equality (hive_telemetry_v2's sensor_type and sensor_id); empty when
     *         the table has no time column or it comes first
     */
    public List<String> seriesColumns() {
        return timeColumn()
                .map(time -> clusteringColumns().subList(0, clusteringColumns().indexOf(time)))
                .orElse(List.of());
    }

    /** @return the regular columns, in declaration order */
    public List<String> regularColumns() {
        return columns.subList(partitionKey().size() + clusteringColumns().size(), columns.size());
    }

    /** @return how many columns form the primary key (partition key and clustering columns) */
    public int primaryKeySize() {
        return partitionKey().size() + clusteringColumns().size();
    }

    /**
     * @param column a column of this table
     * @return its position in {@link #columns()}
     * @throws IllegalArgumentException if the table has no such column
     */
    public int index(String column) {
        int index = columns.indexOf(column);
        if (index < 0) {
            throw new IllegalArgumentException(
                    "table " + name + " has no column " + column + " (columns: " + String.join(", ", columns) + ")");
        }
        return index;
    }

    /**
     * @param column a column of this table
     * @return its CQL type as written in the statement, lower-case for built-in types (e.g.
     *         {@code text}, {@code timestamp})
     * @throws IllegalArgumentException if the table has no such column
     */
    public String cqlType(String column) {
        index(column);
        return definition.columns().get(column);
    }

    /**
     * @return the position in the partition key of the UTC day column ({@value #DAY_COLUMN},
     *         {@code date}), or -1 when the key has none
     */
    public int dayColumn() {
        int index = partitionKey().indexOf(DAY_COLUMN);
        return index >= 0 && "date".equals(cqlType(DAY_COLUMN)) ? index : -1;
    }

    /**
     * @return the position in the partition key of the shard column ({@value #SHARD_COLUMN},
     *         {@code int}), or -1 when the key has none
     */
    public int shardColumn() {
        int index = partitionKey().indexOf(SHARD_COLUMN);
        return index >= 0 && "int".equals(cqlType(SHARD_COLUMN)) ? index : -1;
    }

    /**
     * @return the partition-key columns that are neither the day nor the shard: the entity a
     *         partition belongs to (hive_id, station_id, agent_id), in key order
     */
    public List<String> entityColumns() {
        List<String> entity = new ArrayList<>(partitionKey());
        if (dayColumn() >= 0) {
            entity.remove(DAY_COLUMN);
        }
        if (shardColumn() >= 0) {
            entity.remove(SHARD_COLUMN);
        }
        return List.copyOf(entity);
    }

    /**
     * @return the first clustering column of type {@code timestamp}: the time a row is ordered and
     *         bucketed by; empty when the table has none
     */
    public Optional<String> timeColumn() {
        return clusteringColumns().stream()
                .filter(c -> "timestamp".equals(cqlType(c)))
                .findFirst();
    }

    /**
     * @return how long Cassandra keeps a row by default: the table's {@code default_time_to_live},
     *         counted from the write; {@link Duration#ZERO} when the table has none (rows never expire)
     */
    public Duration retention() {
        return Duration.ofSeconds(definition.defaultTtlSeconds());
    }

    @Override
    public String toString() {
        return name + columns;
    }
}
