package io.apiary.ingest.tablecopy;

import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.tables.TableDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;

/**
 * A row as text for the operator, by its table's column names: its primary key
 * ({@code hive_id=3627, day=2021-07-15, ...}) or its other values. Stateless, thread-safe.
 */
final class RowText {

    private RowText() {}

    /**
     * @param table the row's table binding
     * @param row   the row
     * @return its partition-key and clustering columns as {@code name=value, ...}
     */
    static String key(SinkTable<?> table, SpecificRecord row) {
        TableDescriptor descriptor = table.descriptor();
        return columns(row, descriptor.columns().subList(0, descriptor.primaryKeySize()));
    }

    /**
     * @param table the row's table binding
     * @param row   the row
     * @return its regular columns as {@code name=value, ...} (null for an absent value)
     */
    static String values(SinkTable<?> table, SpecificRecord row) {
        return columns(row, table.descriptor().regularColumns());
    }

    /**
     * @param table the row's table binding
     * @param row   a row as compared, with its null columns
     * @return its regular columns as {@code name=value, ...}, {@code null} for a null column
     */
    static String values(SinkTable<?> table, VerifiedRow row) {
        return columns(row.row(), table.descriptor().regularColumns(), row.nullColumns());
    }

    private static String columns(SpecificRecord row, List<String> columns) {
        return columns(row, columns, List.of());
    }

    private static String columns(SpecificRecord row, List<String> columns, List<String> nulls) {
        List<String> parts = new ArrayList<>(columns.size());
        for (String column : columns) {
            Schema.Field field = row.getSchema().getField(column);
            parts.add(column + "="
                    + (nulls.contains(column) ? "null" : field == null ? "?" : String.valueOf(row.get(field.pos()))));
        }
        return String.join(", ", parts);
    }
}
