package io.apiary.ingest.tablecopy;

/**
 * The column values of one row read from Cassandra, by column name: what the row mappings read,
 * so that they are tested without a driver. The driver's {@code Row} is one
 * ({@code row::get}).
 */
@FunctionalInterface
public interface ColumnValues {

    /**
     * @param column the column's name
     * @param type   the Java type of its CQL type ({@code String} for text, {@code LocalDate} for
     *               date, {@code Integer} for int, {@code Instant} for timestamp, {@code Double}
     *               for double)
     * @param <V>    that type
     * @return the value, or null when the cell is null
     * @throws IllegalArgumentException if the row has no such column
     */
    <V> V get(String column, Class<V> type);
}
