package io.apiary.ingest.read;

import java.util.List;

/**
 * The output columns of each row type, shared by all {@link OutputFormat}s: one per component of
 * the row record, in its order (key columns first: the entity, then the clustering columns that
 * tell rows apart), named as the CQL columns and read from the record ({@link RecordColumns}).
 * Immutable lists, thread-safe.
 */
public final class RowColumns {

    private static final ClassValue<List<?>> COLUMNS = new ClassValue<>() {
        @Override
        protected List<?> computeValue(Class<?> type) {
            return RecordColumns.of(type.asSubclass(Record.class)).outputColumns();
        }
    };

    /** Columns of {@code hive_telemetry_v2}. */
    public static final List<OutputColumn<TelemetryRow>> TELEMETRY = of(TelemetryRow.class);

    /** Columns of {@code hive_activity}. */
    public static final List<OutputColumn<ActivityRow>> ACTIVITY = of(ActivityRow.class);

    /** Columns of {@code weather_readings}. */
    public static final List<OutputColumn<WeatherRow>> WEATHER = of(WeatherRow.class);

    /** Columns of {@code agent_alerts_v2}. */
    public static final List<OutputColumn<AlertRow>> ALERT = of(AlertRow.class);

    private RowColumns() {}

    /**
     * @param rowType a row record (the four of this package, or another record row type)
     * @param <R>     the row type
     * @return its columns, computed once per type
     * @throws IllegalArgumentException if the type is not a record
     */
    @SuppressWarnings("unchecked")
    public static <R extends TimedRow> List<OutputColumn<R>> of(Class<R> rowType) {
        if (!rowType.isRecord()) {
            throw new IllegalArgumentException("no output columns for " + rowType.getName() + ": not a record");
        }
        return (List<OutputColumn<R>>) COLUMNS.get(rowType);
    }
}
