package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.Row;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The columns of a row record, read from the record itself: one column per record component, in
 * declaration order, named as the CQL column ({@code readingTime} is {@code reading_time},
 * {@code solarRadiationWm2} is {@code solar_radiation_wm2}). So a row record's components are the
 * one list of its table's columns that the read path keeps: the columns a query selects, how a
 * driver row becomes the record, and the output columns of every {@link OutputFormat} all come from
 * it. {@code RecordColumnsTest} holds every row record's names to its table's columns in
 * {@code cql/}.
 *
 * <p>Values are read with the driver's codec for the component's type. A reference component
 * ({@code String}, {@code Instant}, {@code LocalDate}, {@code Double}, {@code Long},
 * {@code Integer}) reads a null cell as null, so every column that may be null (every regular
 * column) is one. A primitive component ({@code int}, {@code long}, {@code double}) is for a key
 * column, which is never null: a null cell there fails the mapping with an
 * {@link IllegalStateException} rather than read as 0, as the driver's {@code getInt} would.
 * Immutable, thread-safe.
 *
 * @param <R> the row record
 */
final class RecordColumns<R extends Record> {

    private final Class<R> type;
    private final List<String> names;
    private final List<Class<?>> types;
    private final List<Method> accessors;
    private final Constructor<R> constructor;

    private RecordColumns(Class<R> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record");
        }
        this.type = type;
        RecordComponent[] components = type.getRecordComponents();
        List<String> names = new ArrayList<>(components.length);
        List<Class<?>> types = new ArrayList<>(components.length);
        List<Method> accessors = new ArrayList<>(components.length);
        for (RecordComponent component : components) {
            names.add(snakeCase(component.getName()));
            types.add(component.getType());
            accessors.add(component.getAccessor());
        }
        this.names = List.copyOf(names);
        this.types = List.copyOf(types);
        this.accessors = List.copyOf(accessors);
        try {
            this.constructor = type.getDeclaredConstructor(types.toArray(Class<?>[]::new));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("a record has its canonical constructor: " + type.getName(), e);
        }
    }

    /**
     * @param type a public record whose components are named as its table's columns (camelCase of
     *             the snake_case CQL names), not null
     * @param <R>  the record type
     * @return its columns
     * @throws IllegalArgumentException if {@code type} is not a record
     */
    static <R extends Record> RecordColumns<R> of(Class<R> type) {
        return new RecordColumns<>(type);
    }

    /** @return the CQL column names, in component order, e.g. {@code [hive_id, sensor_type, ...]} */
    List<String> names() {
        return names;
    }

    /**
     * @return one output column per component: numbers right-aligned, everything else left-aligned
     */
    List<OutputColumn<R>> outputColumns() {
        List<OutputColumn<R>> columns = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            Method accessor = accessors.get(i);
            Function<R, Object> value = row -> get(accessor, row);
            columns.add(
                    numeric(types.get(i))
                            ? OutputColumn.right(names.get(i), value)
                            : OutputColumn.left(names.get(i), value));
        }
        return List.copyOf(columns);
    }

    /**
     * @return a driver row whose columns are {@link #names()}, selected in that order, as the record;
     *         the mapping throws what the record's constructor throws (e.g. a
     *         {@link NullPointerException} for a null key column), and an {@link IllegalStateException}
     *         for a null cell of a primitive component
     */
    Function<Row, R> mapper() {
        return row -> {
            Object[] values = new Object[types.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = read(row, i, types.get(i));
            }
            return construct(values);
        };
    }

    private Object read(Row row, int index, Class<?> type) {
        if (type.isPrimitive() && row.isNull(index)) {
            throw new IllegalStateException("column " + names.get(index) + " is null, but " + this.type.getSimpleName()
                    + " reads it into a primitive component, which is only for key columns (never null)");
        }
        if (type == double.class) {
            return row.getDouble(index);
        }
        if (type == int.class) {
            return row.getInt(index);
        }
        if (type == long.class) {
            return row.getLong(index);
        }
        return row.get(index, type);
    }

    private R construct(Object[] values) {
        try {
            return constructor.newInstance(values);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot construct " + type.getName() + Arrays.toString(values), e);
        }
    }

    private static Object get(Method accessor, Object row) {
        try {
            return accessor.invoke(row);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + accessor, e);
        }
    }

    private static boolean numeric(Class<?> type) {
        return (type.isPrimitive() && type != boolean.class && type != char.class)
                || Number.class.isAssignableFrom(type);
    }

    /** {@code solarRadiationWm2} as {@code solar_radiation_wm2}. */
    static String snakeCase(String camelCase) {
        StringBuilder snake = new StringBuilder(camelCase.length() + 4);
        for (char c : camelCase.toCharArray()) {
            if (Character.isUpperCase(c)) {
                snake.append('_').append(Character.toLowerCase(c));
            } else {
                snake.append(c);
            }
        }
        return snake.toString().toLowerCase(Locale.ROOT);
    }
}
