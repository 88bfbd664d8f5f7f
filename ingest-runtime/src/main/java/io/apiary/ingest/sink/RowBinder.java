package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.apiary.ingest.tables.TableDescriptor;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * Binds the fields of a row record to a table's columns, by position: column {@code i} of
 * {@link TableDescriptor#columns()} to bind marker {@code i}. Checked once, when built, against the
 * row schema: every column has a field (of its name, or the one the binding names) whose Avro type
 * fits the column's CQL type, or is computed; key columns never null. A logical type must match
 * the column's meaning too: {@code date} or none for a {@code date}, {@code timestamp-millis} or
 * none for a {@code timestamp}, {@code uuid} or none for {@code text}, none for the numbers.
 *
 * <p>Values are converted as the row model gives them: Avro strings ({@link CharSequence}) to
 * {@code text} (or {@code varchar}, its alias); {@code date} from {@link LocalDate} (specific records, logical type {@code date}) or
 * days since the epoch (generic records); {@code timestamp} from {@link Instant} or milliseconds
 * since the epoch. A null regular value leaves its marker unset: no cell, no tombstone.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the row record type
 */
final class RowBinder<T extends IndexedRecord> {

    /** Avro types each CQL type accepts (after removing a union's null). */
    private static final Map<String, Set<Schema.Type>> FITS = Map.of(
            "text", Set.of(Schema.Type.STRING, Schema.Type.ENUM),
            "varchar", Set.of(Schema.Type.STRING, Schema.Type.ENUM),
            "int", Set.of(Schema.Type.INT),
            "bigint", Set.of(Schema.Type.LONG, Schema.Type.INT),
            "double", Set.of(Schema.Type.DOUBLE, Schema.Type.FLOAT),
            "float", Set.of(Schema.Type.FLOAT),
            "boolean", Set.of(Schema.Type.BOOLEAN),
            "date", Set.of(Schema.Type.INT),
            "timestamp", Set.of(Schema.Type.LONG));

    /**
     * Avro logical types each CQL type accepts besides none: a value of another logical type (a
     * {@code timestamp-micros} long, a {@code time-millis} int) has another unit or meaning, and
     * binding it as the plain number would store a wrong value without a word.
     */
    private static final Map<String, Set<String>> LOGICAL = Map.of(
            "text", Set.of("uuid"),
            "varchar", Set.of("uuid"),
            "date", Set.of("date"),
            "timestamp", Set.of("timestamp-millis"));

    /**
     * One bind marker: where its value comes from, its codec, and the codec's Java class, looked
     * up once here (the driver's {@code GenericType.getRawType()} walks the type with Guava's
     * {@code TypeToken} and allocates a set each call, a hot spot of the sink thread's JFR profile
     * when it was called per value).
     */
    private record Column<T>(
            String name,
            int marker,
            int field,
            Function<T, Object> computed,
            TypeCodec<Object> codec,
            Class<?> javaType,
            boolean key) {}

    private final List<Column<T>> columns;
    private final boolean optionalRegular;

    @SuppressWarnings("unchecked")
    RowBinder(SinkTable.Binding<T> binding) {
        TableDescriptor table = binding.table();
        Schema schema = binding.rowSchema();
        List<Column<T>> list = new ArrayList<>();
        boolean optional = false;
        for (String column : binding.fields().keySet()) {
            table.index(column); // a renamed column must exist
        }
        for (String column : binding.computed().keySet()) {
            table.index(column);
        }
        for (int i = 0; i < table.columns().size(); i++) {
            String column = table.columns().get(i);
            String cqlType = table.cqlType(column);
            if (!FITS.containsKey(cqlType)) {
                throw new IllegalArgumentException("table " + table.name() + ", column " + column + ": CQL type "
                        + cqlType + " is not one the sink writes ("
                        + String.join(", ", new java.util.TreeSet<>(FITS.keySet()))
                        + ")");
            }
            TypeCodec<Object> codec = (TypeCodec<Object>) codec(cqlType);
            boolean key = i < table.primaryKeySize();
            Function<T, Object> computed = binding.computed().get(column);
            if (computed != null) {
                list.add(new Column<>(
                        column, i, -1, computed, codec, codec.getJavaType().getRawType(), key));
                continue;
            }
            String fieldName = binding.fields().getOrDefault(column, column);
            Schema.Field field = schema.getField(fieldName);
            if (field == null) {
                throw new IllegalArgumentException("table " + table.name() + ", column " + column + ": the row schema "
                        + schema.getFullName() + " has no field " + fieldName);
            }
            Schema fieldSchema = field.schema();
            boolean nullable = false;
            if (fieldSchema.getType() == Schema.Type.UNION) {
                List<Schema> branches = fieldSchema.getTypes().stream()
                        .filter(b -> b.getType() != Schema.Type.NULL)
                        .toList();
                nullable = branches.size() < fieldSchema.getTypes().size();
                if (branches.size() != 1) {
                    throw new IllegalArgumentException(
                            "table " + table.name() + ", column " + column + ": field " + fieldName + " is a union of "
                                    + fieldSchema.getTypes() + "; only [null, T] fits a column");
                }
                fieldSchema = branches.get(0);
            }
            if (!FITS.get(cqlType).contains(fieldSchema.getType())) {
                throw new IllegalArgumentException("table " + table.name() + ", column " + column + " (" + cqlType
                        + "): field " + fieldName + " is Avro "
                        + fieldSchema.getType().getName()
                        + ", which does not fit (fits: " + FITS.get(cqlType) + ")");
            }
            String logical = fieldSchema.getProp(org.apache.avro.LogicalType.LOGICAL_TYPE_PROP);
            if (logical != null && !LOGICAL.getOrDefault(cqlType, Set.of()).contains(logical)) {
                throw new IllegalArgumentException("table " + table.name() + ", column " + column + " (" + cqlType
                        + "): field " + fieldName + " has logical type " + logical + ", which does not fit (fits: "
                        + (LOGICAL.containsKey(cqlType) ? "none or " + LOGICAL.get(cqlType) : "none") + ")");
            }
            if (nullable && key) {
                throw new IllegalArgumentException("table " + table.name() + ", column " + column
                        + " is part of the primary key, but field " + fieldName + " may be null");
            }
            optional |= nullable && !key;
            list.add(new Column<>(
                    column, i, field.pos(), null, codec, codec.getJavaType().getRawType(), key));
        }
        this.columns = List.copyOf(list);
        this.optionalRegular = optional;
    }

    /**
     * @return whether a regular column may be left unset (its field is nullable): such a table
     *         deletes a row before writing it, so that a cell only an earlier version had does not survive
     */
    boolean hasOptionalRegularColumn() {
        return optionalRegular;
    }

    /**
     * @param row       a row, not null
     * @param statement the INSERT's builder, markers 0 and up in column order
     * @return the builder with every column set (a null regular value left unset)
     * @throws IllegalArgumentException if a key column's value is null (a computed one)
     */
    BoundStatementBuilder bind(T row, BoundStatementBuilder statement) {
        BoundStatementBuilder bound = statement;
        for (Column<T> column : columns) {
            Object value = column.computed() != null ? column.computed().apply(row) : row.get(column.field());
            if (value == null) {
                if (column.key()) {
                    throw new IllegalArgumentException("column " + column.name() + " of the primary key is null");
                }
                continue;
            }
            bound = bound.set(column.marker(), convert(value, column.javaType()), column.codec());
        }
        return bound;
    }

    /**
     * @param value  the value of a timestamp column's field: an {@link Instant} or milliseconds
     * @param column the column's name, for the message
     * @return milliseconds since the epoch
     * @throws IllegalArgumentException if the value is null or of another type
     */
    static long millis(Object value, String column) {
        if (value instanceof Instant instant) {
            return instant.toEpochMilli();
        }
        if (value instanceof Long millis) {
            return millis;
        }
        throw new IllegalArgumentException("time column " + column + " has no value in the row");
    }

    private static Object convert(Object value, Class<?> javaType) {
        if (javaType == String.class) {
            return value.toString(); // Utf8, String, or an enum symbol
        }
        if (javaType == LocalDate.class && value instanceof Integer days) {
            return LocalDate.ofEpochDay(days);
        }
        if (javaType == Instant.class && value instanceof Long millis) {
            return Instant.ofEpochMilli(millis);
        }
        if (javaType == Long.class && value instanceof Integer small) {
            return small.longValue();
        }
        if (javaType == Double.class && value instanceof Float single) {
            return single.doubleValue();
        }
        return value;
    }

    private static TypeCodec<?> codec(String cqlType) {
        return switch (cqlType) {
            case "text", "varchar" -> SinkTable.TEXT;
            case "int" -> TypeCodecs.INT;
            case "bigint" -> TypeCodecs.BIGINT;
            case "double" -> TypeCodecs.DOUBLE;
            case "float" -> TypeCodecs.FLOAT;
            case "boolean" -> TypeCodecs.BOOLEAN;
            case "date" -> TypeCodecs.DATE;
            case "timestamp" -> TypeCodecs.TIMESTAMP;
            default -> throw new IllegalArgumentException("CQL type " + cqlType);
        };
    }
}
