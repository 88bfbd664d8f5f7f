package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.apiary.ingest.cassandra.CqlTypes;
import io.apiary.ingest.tables.TableCatalog;
import io.apiary.ingest.tables.TableDescriptor;
import io.apiary.ingest.tables.TableNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The table layouts {@code table copy} knows, recognised by their columns and primary key as the
 * driver's schema metadata describes them (never by the table's name): the two layouts of the
 * readings and of the alerts (the legacy ones of {@code cql/legacy/} and the current ones of
 * {@code cql/}) and the weather readings'. A table with one column more or less, another type or
 * another key is none of them. Thread-safe (immutable).
 */
public enum TableShape {

    /** {@code cql/legacy/010-hive_telemetry.cql}: no sensor_id. */
    LEGACY_TELEMETRY(TableNames.LEGACY_HIVE_TELEMETRY),
    /** {@code cql/010-hive_telemetry_v2.cql}. */
    TELEMETRY(TableNames.HIVE_TELEMETRY),
    /** {@code cql/legacy/040-agent_alerts.cql}: no alert_id. */
    LEGACY_ALERTS(TableNames.LEGACY_AGENT_ALERTS),
    /** {@code cql/040-agent_alerts_v2.cql}. */
    ALERTS(TableNames.AGENT_ALERTS),
    /** {@code cql/030-weather_readings.cql}. */
    WEATHER(TableNames.WEATHER_READINGS);

    private final List<String> partitionKey;
    private final List<String> clustering;
    private final List<String> regular;
    private final String eventTime;
    private final Map<String, DataType> types;

    /** The layout of a table of the bundled {@code cql/} or {@code cql/legacy/} ({@link TableCatalog#bundled()}). */
    TableShape(String table) {
        TableDescriptor descriptor = TableCatalog.bundled().table(table);
        this.partitionKey = descriptor.partitionKey();
        this.clustering = descriptor.clusteringColumns();
        this.regular = descriptor.regularColumns();
        this.eventTime = descriptor
                .timeColumn()
                .orElseThrow(() -> new IllegalStateException(table + " has no timestamp clustering column"));
        Map<String, DataType> columnTypes = new LinkedHashMap<>();
        for (String column : descriptor.columns()) {
            columnTypes.put(column, CqlTypes.of(descriptor.cqlType(column)));
        }
        this.types = Map.copyOf(columnTypes);
    }

    /** @return the partition-key columns, in key order */
    public List<String> partitionKey() {
        return partitionKey;
    }

    /** @return the clustering columns, in key order */
    public List<String> clustering() {
        return clustering;
    }

    /** @return the regular columns: those whose cells carry a write time and a TTL */
    public List<String> regular() {
        return regular;
    }

    /** @return every column: partition key, clustering, regular */
    public List<String> columns() {
        List<String> all = new ArrayList<>(partitionKey);
        all.addAll(clustering);
        all.addAll(regular);
        return all;
    }

    /** @return the timestamp column the day bucket (and shard) are computed from */
    public String eventTime() {
        return eventTime;
    }

    /**
     * @param column a column of this layout
     * @return its CQL type
     */
    DataType type(String column) {
        return types.get(column);
    }

    /**
     * The primary key of a row of this layout as text, to name a row in a message, e.g.
     * {@code agent_id=a1, day=2026-11-20, alert_time=2026-11-20T10:00:00Z}.
     *
     * @param values the row's values, not null
     * @return {@code column=value} for each partition-key and clustering column, comma-separated
     */
    String keyText(ColumnValues values) {
        StringBuilder text = new StringBuilder();
        List<String> key = new ArrayList<>(partitionKey);
        key.addAll(clustering);
        for (String column : key) {
            DataType type = types.get(column);
            Class<?> javaType = type.equals(DataTypes.TEXT)
                    ? String.class
                    : type.equals(DataTypes.DATE)
                            ? java.time.LocalDate.class
                            : type.equals(DataTypes.INT)
                                    ? Integer.class
                                    : type.equals(DataTypes.TIMESTAMP) ? java.time.Instant.class : Double.class;
            text.append(text.length() == 0 ? "" : ", ")
                    .append(column)
                    .append('=')
                    .append(values.get(column, javaType));
        }
        return text.toString();
    }

    /**
     * @param table a table's metadata, not null
     * @return the layout whose columns, types and primary key it has exactly; empty for any other
     *         (the clustering order is not compared: it does not change what a row holds)
     */
    public static Optional<TableShape> recognise(TableMetadata table) {
        List<String> key = names(table.getPartitionKey());
        List<String> clusteringColumns =
                names(new ArrayList<>(table.getClusteringColumns().keySet()));
        Map<String, DataType> columns = new LinkedHashMap<>();
        table.getColumns().forEach((name, column) -> columns.put(name.asInternal(), column.getType()));
        for (TableShape shape : values()) {
            if (shape.partitionKey.equals(key)
                    && shape.clustering.equals(clusteringColumns)
                    && columns.size() == shape.columns().size()
                    && shape.columns().stream().allMatch(c -> shape.types.get(c).equals(columns.get(c)))) {
                return Optional.of(shape);
            }
        }
        return Optional.empty();
    }

    /**
     * @param table a table's metadata, not null
     * @return its columns and primary key as one line, for a message naming a layout not known
     */
    public static String describe(TableMetadata table) {
        List<String> columns = new ArrayList<>();
        table.getColumns()
                .forEach((name, column) ->
                        columns.add(name.asCql(true) + " " + column.getType().asCql(false, true)));
        return String.join(", ", columns) + ", PRIMARY KEY ((" + String.join(", ", names(table.getPartitionKey()))
                + ")"
                + names(new ArrayList<>(table.getClusteringColumns().keySet())).stream()
                        .map(c -> ", " + c)
                        .reduce("", String::concat)
                + ")";
    }

    private static List<String> names(List<ColumnMetadata> columns) {
        return columns.stream().map(c -> c.getName().asInternal()).toList();
    }
}
