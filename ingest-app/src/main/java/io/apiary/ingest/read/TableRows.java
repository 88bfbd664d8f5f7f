package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.cassandra.CqlTypes;
import io.apiary.ingest.tables.TableDescriptor;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads any table of the day-and-shard layout from its descriptor alone: the rows of one entity
 * (the partition-key columns other than day and shard, e.g. a hive id) whose time column lies in a
 * range. One single-partition query per (day, shard) of the range, every partition-key column
 * restricted by equality; the time range is a clustering slice when the time column is the first
 * clustering column, else the rows are filtered here. For the tables of {@code cql/} with their own
 * row types, {@link HiveDataReader} is the reader; this one serves a table registered beside them
 * (the sink's {@code sink.extra.tables}) and tests.
 *
 * <p>Values are the driver's Java types of the columns (String, LocalDate, Integer, Instant,
 * Double ...). Thread-safe when the session is; the statement of a table is prepared per call.
 */
public final class TableRows {

    /** The most partitions one call reads, so that a wide range fails fast instead of sending millions of queries. */
    public static final int MAX_PARTITIONS = 100_000;

    private TableRows() {}

    /**
     * @param session  an open session, not null
     * @param keyspace the table's keyspace, a valid CQL identifier
     * @param table    the table, with a day column and a time column, not null
     * @param entity   the values of {@link TableDescriptor#entityColumns()}, in order, not null
     * @param shards   shards per day of the table's shard column (ignored without one), at least 1
     * @param from     start of the range, inclusive, not null
     * @param to       end of the range, exclusive, not null
     * @return the rows, each a map of column name to value in {@link TableDescriptor#columns()} order,
     *         by day, then shard, then the table's clustering order
     * @throws IllegalArgumentException if the table has no day or time column, the entity does not
     *                                  match its columns, or the range needs more than {@link #MAX_PARTITIONS} queries
     * @throws com.datastax.oss.driver.api.core.DriverException if a query fails
     */
    public static List<Map<String, Object>> read(
            CqlSession session,
            String keyspace,
            TableDescriptor table,
            List<?> entity,
            int shards,
            Instant from,
            Instant to) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        String time = table.timeColumn()
                .orElseThrow(() -> new IllegalArgumentException("table " + table.name() + " has no time column"));
        if (table.dayColumn() < 0) {
            throw new IllegalArgumentException("table " + table.name() + " has no day column in its partition key");
        }
        List<String> entityColumns = table.entityColumns();
        if (entity.size() != entityColumns.size()) {
            throw new IllegalArgumentException(
                    "table " + table.name() + ": give one value for each of " + entityColumns + ", not " + entity);
        }
        boolean sharded = table.shardColumn() >= 0;
        int shardCount = sharded ? shards : 1;
        if (shardCount < 1) {
            throw new IllegalArgumentException("shards must be at least 1: " + shards);
        }
        if (!from.isBefore(to)) {
            return List.of();
        }
        LocalDate first = LocalDate.ofInstant(from, ZoneOffset.UTC);
        LocalDate last = LocalDate.ofInstant(to.minusMillis(1), ZoneOffset.UTC);
        long partitions = Math.multiplyExact(first.until(last, java.time.temporal.ChronoUnit.DAYS) + 1, shardCount);
        if (partitions > MAX_PARTITIONS) {
            throw new IllegalArgumentException("the range needs " + partitions + " partition queries, more than "
                    + MAX_PARTITIONS + ": read a shorter range");
        }
        boolean slice = table.seriesColumns().isEmpty();
        List<String> where = new ArrayList<>();
        for (String column : table.partitionKey()) {
            where.add(CqlTypes.name(column) + " = ?");
        }
        if (slice) {
            where.add(CqlTypes.name(time) + " >= ?");
            where.add(CqlTypes.name(time) + " < ?");
        }
        PreparedStatement select = session.prepare("SELECT "
                + String.join(", ", table.columns().stream().map(CqlTypes::name).toList()) + " FROM " + keyspace
                + "." + CqlTypes.name(table.name()) + " WHERE " + String.join(" AND ", where));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
            for (int shard = 0; shard < shardCount; shard++) {
                BoundStatementBuilder bound = select.boundStatementBuilder();
                int entityIndex = 0;
                for (int i = 0; i < table.partitionKey().size(); i++) {
                    if (i == table.dayColumn()) {
                        bound = bound.setLocalDate(i, day);
                    } else if (sharded && i == table.shardColumn()) {
                        bound = bound.setInt(i, shard);
                    } else {
                        bound = setValue(bound, i, entityColumns.get(entityIndex), entity.get(entityIndex));
                        entityIndex++;
                    }
                }
                if (slice) {
                    bound = bound.setInstant(table.partitionKey().size(), from)
                            .setInstant(table.partitionKey().size() + 1, to);
                }
                for (Row row : session.execute(bound.build())) {
                    Instant at = row.getInstant(table.index(time));
                    if (at == null || at.isBefore(from) || !at.isBefore(to)) {
                        continue;
                    }
                    Map<String, Object> values = new LinkedHashMap<>();
                    for (int i = 0; i < table.columns().size(); i++) {
                        values.put(table.columns().get(i), row.getObject(i)); // selected in column order
                    }
                    rows.add(Collections.unmodifiableMap(values));
                }
            }
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private static BoundStatementBuilder setValue(BoundStatementBuilder bound, int index, String column, Object value) {
        if (value == null) {
            throw new IllegalArgumentException("no value for partition-key column " + column);
        }
        return bound.set(index, value, (Class<Object>) value.getClass());
    }
}
