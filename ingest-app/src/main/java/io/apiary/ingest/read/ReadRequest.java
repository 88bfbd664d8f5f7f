package io.apiary.ingest.read;

import java.util.List;
import java.util.Objects;

/**
 * What to read: one entity's rows of one table in a time range, in an order, optionally from a
 * page token on. Immutable, thread-safe.
 *
 * @param table     the table, not null
 * @param entity    the hive, station or agent id, not blank
 * @param sensors   the sensors to read for hive_telemetry_v2: every sensor of a type, or single
 *                  sensors (empty: every sensor of every type the schema knows); must be empty
 *                  for the other tables
 * @param range     the time range, not null
 * @param order     oldest or newest first, not null
 * @param pageToken the {@link ReadPage#nextPageToken()} of the previous page, or null to start at
 *                  the range's first row in {@code order}
 * @param <R>       the row type
 */
public record ReadRequest<R extends TimedRow>(
        SeriesTable<R> table,
        String entity,
        List<SensorSelector> sensors,
        TimeRange range,
        ReadOrder order,
        String pageToken) {

    /**
     * @throws NullPointerException     if a non-null field is null
     * @throws IllegalArgumentException if the entity is blank, sensors are given for a table without them,
     *                                  or the page token is not one of this table and order (or of an
     *                                  earlier format)
     */
    public ReadRequest {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(entity, "entity");
        sensors = List.copyOf(sensors);
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(order, "order");
        if (entity.isBlank()) {
            throw new IllegalArgumentException("the " + table.entityColumn() + " to read must not be blank");
        }
        if (!sensors.isEmpty() && !table.hasSeries()) {
            throw new IllegalArgumentException(table.name() + " has no sensors to choose from");
        }
        if (pageToken != null) {
            PageToken.decode(pageToken, table.name(), order);
        }
    }

    /**
     * @param table  the table, not null
     * @param entity the hive, station or agent id
     * @param range  the time range
     * @return a request for every row (every sensor), oldest first, from the start
     */
    public static <R extends TimedRow> ReadRequest<R> of(SeriesTable<R> table, String entity, TimeRange range) {
        return new ReadRequest<>(table, entity, List.of(), range, ReadOrder.ASC, null);
    }

    /**
     * @param newOrder the order
     * @return this request in that order
     */
    public ReadRequest<R> withOrder(ReadOrder newOrder) {
        return new ReadRequest<>(table, entity, sensors, range, newOrder, pageToken);
    }

    /**
     * @param newSensors the sensors, e.g. {@code List.of(SensorSelector.parse("TEMPERATURE:inside"))}
     * @return this request for those sensors
     */
    public ReadRequest<R> withSensors(List<SensorSelector> newSensors) {
        return new ReadRequest<>(table, entity, newSensors, range, order, pageToken);
    }

    /**
     * @param token a page token, or null
     * @return this request continuing after that token
     */
    public ReadRequest<R> withPageToken(String token) {
        return new ReadRequest<>(table, entity, sensors, range, order, token);
    }
}
