package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.identity.AlertIds;
import io.apiary.ingest.identity.Identifiers;
import io.apiary.ingest.tables.TableCatalog;
import io.apiary.ingest.tables.TableDescriptor;
import io.apiary.ingest.tables.TableNames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The physical layout of one table of {@code cql/} (or {@code cql/legacy/}) as the reader queries
 * it: its partition key, its clustering columns and their stored order, the columns read and how a
 * row becomes a record, and the CQL of each query the reader sends. Every statement restricts the
 * whole partition key by equality, so Cassandra answers it from one partition: never
 * {@code ALLOW FILTERING}, never an {@code IN} on the partition key, never a token range. (The
 * one exception is outside this class: the probe of a sparse read, {@code ReadPlanner#existing},
 * asks which of up to {@code read.probe.partitions} partitions exist with {@code IN} on day and shard.)
 * Immutable, thread-safe.
 *
 * @param <R> the row type
 */
final class TableLayout<R extends TimedRow> {

    /**
     * {@code hive_telemetry_v2}: clustering {@code (sensor_type ASC, sensor_id ASC, reading_time
     * DESC)}. A time slice needs both sensor columns fixed; see {@link HiveDataReader}.
     */
    static final TableLayout<TelemetryRow> TELEMETRY = TableLayout.of(TableNames.HIVE_TELEMETRY, TelemetryRow.class);

    /**
     * The legacy {@code hive_telemetry} ({@code cql/legacy/}): clustering {@code (sensor_type ASC,
     * reading_time DESC)}, no sensor id; its rows read as sensor {@link Identifiers#DEFAULT_SENSOR_ID}.
     */
    static final TableLayout<TelemetryRow> LEGACY_TELEMETRY = TableLayout.of(
            TableNames.LEGACY_HIVE_TELEMETRY,
            "hive_id, sensor_type, reading_time, value, unit, gateway_id",
            row -> new TelemetryRow(
                    row.getString(0),
                    row.getString(1),
                    Identifiers.DEFAULT_SENSOR_ID,
                    row.getInstant(2),
                    row.get(3, Double.class),
                    row.getString(4),
                    row.getString(5)));

    /** {@code weather_readings}: clustering {@code (reading_time DESC)}. */
    static final TableLayout<WeatherRow> WEATHER = TableLayout.of(TableNames.WEATHER_READINGS, WeatherRow.class);

    /**
     * {@code agent_alerts_v2}: clustering {@code (alert_time DESC, alert_id ASC)}, so rows of one
     * millisecond come back by alert id ascending in either time order; the merge sorts them.
     */
    static final TableLayout<AlertRow> ALERTS = TableLayout.of(TableNames.AGENT_ALERTS, AlertRow.class);

    /**
     * The legacy {@code agent_alerts} ({@code cql/legacy/}): clustering {@code (alert_time DESC)};
     * its rows read with the alert id derived from their content ({@link AlertIds#derive}).
     */
    static final TableLayout<AlertRow> LEGACY_ALERTS = TableLayout.of(
            TableNames.LEGACY_AGENT_ALERTS,
            "agent_id, alert_time, hive_id, severity, alert_type, message",
            row -> new AlertRow(
                    row.getString(0),
                    row.getInstant(1),
                    AlertIds.derive(row.getString(2), row.getString(3), row.getString(4), row.getString(5)),
                    row.getString(2),
                    row.getString(3),
                    row.getString(4),
                    row.getString(5)));

    /** {@code hive_activity}: one partition per hive, clustering {@code (day DESC, hour DESC)}. */
    static final TableLayout<ActivityRow> ACTIVITY = TableLayout.of(TableNames.HIVE_ACTIVITY, ActivityRow.class);

    private final String name;
    private final List<String> partitionKey;
    private final List<String> seriesColumns;
    private final String timeColumn;
    private final List<String> clustering;
    private final String columns;
    private final Function<Row, R> mapper;

    /**
     * The layout of a table of the bundled {@code cql/} or {@code cql/legacy/}: its partition key,
     * series columns, time column and clustering order from its descriptor
     * ({@link TableCatalog#bundled()}); the columns read and the row mapping given here.
     *
     * @param table   the table's name in {@code cql/}
     * @param columns the columns read, in the order {@code mapper} takes them
     * @param mapper  a row of those columns as a record
     * @param <R>     the row type
     * @return the layout
     */
    /**
     * The layout of a table of the bundled {@code cql/} whose rows read as {@code rowType}: the
     * columns read and the mapping are the record's components ({@link RecordColumns}).
     *
     * @param table   the table's name in {@code cql/}
     * @param rowType the row record, one component per column read, named as the columns
     * @param <R>     the row type
     * @return the layout
     */
    private static <R extends Record & TimedRow> TableLayout<R> of(String table, Class<R> rowType) {
        RecordColumns<R> record = RecordColumns.of(rowType);
        return of(table, String.join(", ", record.names()), record.mapper());
    }

    private static <R extends TimedRow> TableLayout<R> of(String table, String columns, Function<Row, R> mapper) {
        TableDescriptor descriptor = TableCatalog.bundled().table(table);
        return new TableLayout<>(
                table,
                descriptor.partitionKey(),
                descriptor.seriesColumns(),
                descriptor.timeColumn().orElse(null),
                descriptor.clusteringOrder(),
                columns,
                mapper);
    }

    /**
     * @param name          the table's name in {@code cql/}
     * @param partitionKey  the partition-key columns, entity first
     * @param seriesColumns the clustering columns before the time, fixed by equality in a time slice
     * @param timeColumn    the clustering time column; null for hive_activity ({@code (day, hour)})
     * @param clustering    every clustering column with its stored order, e.g. {@code reading_time DESC}
     * @param columns       the columns read, in the order {@code mapper} takes them
     * @param mapper        a row of those columns as a record
     */
    private TableLayout(
            String name,
            List<String> partitionKey,
            List<String> seriesColumns,
            String timeColumn,
            List<String> clustering,
            String columns,
            Function<Row, R> mapper) {
        this.name = name;
        this.partitionKey = partitionKey;
        this.seriesColumns = seriesColumns;
        this.timeColumn = timeColumn;
        this.clustering = clustering;
        this.columns = columns;
        this.mapper = mapper;
    }

    /** @return the table's name in {@code cql/}, e.g. {@code hive_telemetry_v2} */
    String name() {
        return name;
    }

    /** @return whether rows have sensor types (the first clustering column is {@code sensor_type}) */
    boolean hasSensorTypes() {
        return !seriesColumns.isEmpty();
    }

    /** @return whether rows have sensor ids besides their types ({@code hive_telemetry_v2}) */
    boolean hasSensorIds() {
        return seriesColumns.size() == 2;
    }

    /**
     * The CQL of a time slice of one partition, with the series columns fixed, in a read order.
     *
     * @param keyspace the keyspace, a valid CQL identifier, not null
     * @param table    the table's name (this layout's, or a configured legacy name), not null
     * @param order    the order rows come back in, not null
     * @return a statement with bind markers: the partition key, the series columns, then the
     *         range's lower and upper bound (hour-aligned {@code (day, hour)} pairs for hive_activity)
     */
    String sliceCql(String keyspace, String table, ReadOrder order) {
        StringBuilder cql = select(columns, keyspace, table);
        seriesColumns.forEach(column -> cql.append(" AND ").append(column).append(" = ?"));
        if (timeColumn != null) {
            cql.append(" AND ")
                    .append(timeColumn)
                    .append(" >= ? AND ")
                    .append(timeColumn)
                    .append(" < ?");
        } else {
            cql.append(" AND (day, hour) >= (?, ?) AND (day, hour) < (?, ?)");
        }
        return cql.append(" ORDER BY ")
                .append(String.join(
                        ", ",
                        order == ReadOrder.DESC
                                ? clustering
                                : clustering.stream().map(TableLayout::reversed).toList()))
                .toString();
    }

    /**
     * The values to bind to {@link #sliceCql}'s markers.
     *
     * @param entity the entity, not null
     * @param slice  the partition and the part of the range to read, not null
     * @param series one value per series column (the sensor type, then the sensor id), not null
     * @return the values, in marker order
     */
    Object[] sliceValues(String entity, SeriesTable.Slice slice, List<String> series) {
        if (series.size() != seriesColumns.size()) {
            throw new IllegalArgumentException(name + " needs " + seriesColumns + ", got " + series);
        }
        List<Object> values = keyValues(entity, slice);
        values.addAll(series);
        if (timeColumn != null) {
            values.add(Instant.ofEpochMilli(slice.fromMillis()));
            values.add(Instant.ofEpochMilli(slice.toMillis()));
        } else {
            values.add(DayBucket.of(slice.fromMillis()));
            values.add(HourBucket.hourOfDay(slice.fromMillis()));
            values.add(DayBucket.of(slice.toMillis()));
            values.add(HourBucket.hourOfDay(slice.toMillis()));
        }
        return values.toArray();
    }

    /**
     * The CQL of several sensor types of one partition at once: {@code sensor_type IN ?}, a
     * clustering column, so still one partition. Rows come back in clustering order (type by type;
     * in {@code hive_telemetry_v2} sensor by sensor within a type), so the caller sorts them.
     *
     * @param keyspace   the keyspace, a valid CQL identifier, not null
     * @param table      the table's name, not null
     * @param timeBounds whether to slice the time: only where the sensor type is the only
     *                   clustering column before it (legacy {@code hive_telemetry}); in
     *                   {@code hive_telemetry_v2} the open sensor id forbids it, so the whole
     *                   partition is read for those types
     * @return a statement with bind markers: the partition key, the list of types, then (with
     *         {@code timeBounds}) the range's lower and upper bound
     * @throws IllegalStateException if the table has no sensor types, or cannot slice the time so
     */
    String typesCql(String keyspace, String table, boolean timeBounds) {
        if (seriesColumns.isEmpty() || (timeBounds && seriesColumns.size() > 1)) {
            throw new IllegalStateException(
                    name + " cannot read sensor types together" + (timeBounds ? " within a time slice" : ""));
        }
        StringBuilder cql = select(columns, keyspace, table)
                .append(" AND ")
                .append(seriesColumns.get(0))
                .append(" IN ?");
        if (timeBounds) {
            cql.append(" AND ")
                    .append(timeColumn)
                    .append(" >= ? AND ")
                    .append(timeColumn)
                    .append(" < ?");
        }
        return cql.toString();
    }

    /**
     * The values to bind to {@link #typesCql}'s markers.
     *
     * @param entity     the entity, not null
     * @param slice      the partition and the part of the range to read, not null
     * @param types      the sensor types, not empty
     * @param timeBounds as given to {@link #typesCql}
     * @return the values, in marker order
     */
    Object[] typesValues(String entity, SeriesTable.Slice slice, List<String> types, boolean timeBounds) {
        List<Object> values = keyValues(entity, slice);
        values.add(List.copyOf(types));
        if (timeBounds) {
            values.add(Instant.ofEpochMilli(slice.fromMillis()));
            values.add(Instant.ofEpochMilli(slice.toMillis()));
        }
        return values.toArray();
    }

    /**
     * The CQL that lists the sensors of some types in one partition: {@code GROUP BY sensor_type,
     * sensor_id}, a clustering prefix of a single partition. Cassandra reads the partition's rows of
     * those types to group them but returns one row per sensor.
     *
     * @param keyspace the keyspace, a valid CQL identifier, not null
     * @param table    the table's name, not null
     * @return a statement with bind markers: the partition key, then the list of types; its rows
     *         are {@code (sensor_type, sensor_id)}
     * @throws IllegalStateException if the table has no sensor ids
     */
    String sensorsCql(String keyspace, String table) {
        if (seriesColumns.size() != 2) {
            throw new IllegalStateException(name + " has no sensor ids to list");
        }
        String series = String.join(", ", seriesColumns);
        return select(series, keyspace, table)
                .append(" AND ")
                .append(seriesColumns.get(0))
                .append(" IN ? GROUP BY ")
                .append(series)
                .toString();
    }

    /**
     * @param row a row of {@link #sliceCql} or {@link #typesCql}, not null
     * @return the row as a record
     */
    R map(Row row) {
        return mapper.apply(row);
    }

    /**
     * @param entity the entity, not null
     * @param slice  the partition, not null
     * @return the partition key's values: the entity, then the slice's bucket keys (a new list)
     */
    List<Object> keyValues(String entity, SeriesTable.Slice slice) {
        List<Object> values = new ArrayList<>(partitionKey.size() + 4);
        values.add(Objects.requireNonNull(entity, "entity"));
        values.addAll(slice.keys());
        if (values.size() != partitionKey.size()) {
            throw new IllegalArgumentException(name + " has the partition key " + partitionKey + ", got " + values);
        }
        return values;
    }

    private StringBuilder select(String selected, String keyspace, String table) {
        StringBuilder cql = new StringBuilder("SELECT ")
                .append(selected)
                .append(" FROM ")
                .append(keyspace)
                .append('.')
                .append(table)
                .append(" WHERE ");
        for (int i = 0; i < partitionKey.size(); i++) {
            cql.append(i == 0 ? "" : " AND ").append(partitionKey.get(i)).append(" = ?");
        }
        return cql;
    }

    private static String reversed(String clusteringOrder) {
        return clusteringOrder.endsWith(" DESC")
                ? clusteringOrder.replace(" DESC", " ASC")
                : clusteringOrder.replace(" ASC", " DESC");
    }

    @Override
    public String toString() {
        return name;
    }
}
