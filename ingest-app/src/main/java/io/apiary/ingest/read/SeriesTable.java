package io.apiary.ingest.read;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.HourBucket;

/**
 * How the reader queries one table of {@code cql/}: its partition key, its series and time
 * clustering columns, the CQL of a single-partition slice in each order, and how a row is read.
 * Every query restricts the whole partition key by equality and the clustering columns by a slice,
 * so Cassandra answers it from one partition: never {@code ALLOW FILTERING}, never a scan.
 * Immutable, thread-safe.
 *
 * @param <R> the row type
 */
public final class SeriesTable<R extends TimedRow> {

    /** How a table's partition key buckets an entity's rows. */
    enum Bucketing {
        /** {@code (entity, day, shard)}: hive_telemetry, weather_readings. */
        DAY_SHARD,
        /** {@code (entity, day)}: agent_alerts. */
        DAY,
        /** {@code (entity)} with clustering {@code (day, hour)}: hive_activity. */
        ENTITY
    }

    /** {@code hive_telemetry}: one series per sensor type. */
    public static final SeriesTable<TelemetryRow> TELEMETRY = new SeriesTable<>(TelemetryRow.class, "hive_telemetry", "hive_id",
            Bucketing.DAY_SHARD, "sensor_type", "reading_time",
            "hive_id, sensor_type, reading_time, value, unit, gateway_id",
            " ORDER BY sensor_type DESC, reading_time ASC", " ORDER BY sensor_type ASC, reading_time DESC",
            row -> new TelemetryRow(row.getString(0), row.getString(1), row.getInstant(2), row.getDouble(3),
                    row.getString(4), row.getString(5)));

    /** {@code weather_readings}: one series per station; the shard strategy was given {@code WEATHER}. */
    public static final SeriesTable<WeatherRow> WEATHER = new SeriesTable<>(WeatherRow.class, "weather_readings", "station_id",
            Bucketing.DAY_SHARD, null, "reading_time",
            "station_id, reading_time, temperature_c, relative_humidity, pressure_hpa, wind_speed_ms, "
                    + "wind_direction_deg, rainfall_mm, solar_radiation_wm2",
            " ORDER BY reading_time ASC", " ORDER BY reading_time DESC",
            row -> new WeatherRow(row.getString(0), row.getInstant(1), boxed(row, 2), boxed(row, 3), boxed(row, 4),
                    boxed(row, 5), boxed(row, 6), boxed(row, 7), boxed(row, 8)));

    /** {@code agent_alerts}: one series per agent, a partition per agent and UTC day. */
    public static final SeriesTable<AlertRow> ALERTS = new SeriesTable<>(AlertRow.class, "agent_alerts", "agent_id",
            Bucketing.DAY, null, "alert_time",
            "agent_id, alert_time, hive_id, severity, alert_type, message",
            " ORDER BY alert_time ASC", " ORDER BY alert_time DESC",
            row -> new AlertRow(row.getString(0), row.getInstant(1), row.getString(2), row.getString(3),
                    row.getString(4), row.getString(5)));

    /** {@code hive_activity}: one partition per hive, rows per UTC hour. */
    public static final SeriesTable<ActivityRow> ACTIVITY = new SeriesTable<>(ActivityRow.class, "hive_activity", "hive_id",
            Bucketing.ENTITY, null, null,
            "hive_id, day, hour, bees_in, bees_out, samples",
            " ORDER BY day ASC, hour ASC", " ORDER BY day DESC, hour DESC",
            row -> new ActivityRow(row.getString(0), row.getLocalDate(1), row.getInt(2), row.getLong(3),
                    row.getLong(4), row.getInt(5)));

    /**
     * One partition to query for one series, with the part of the range it can hold.
     *
     * @param keys       the partition-key values after the entity ({@code day, shard}; {@code day}; none)
     * @param label      the partition key as text, for messages, e.g. {@code day=2021-07-15, shard=68}
     * @param fromMillis first instant of the range the partition can hold
     * @param toMillis   first instant after it
     */
    record Slice(List<Object> keys, String label, long fromMillis, long toMillis) {
    }

    /**
     * One partition to query for several series at once, with the part of the range any of them
     * can hold there.
     *
     * @param slice  the partition and the union of its series' parts of the range
     * @param series the series that can have rows in the partition within the range, in the
     *               request's order, not empty
     */
    record SeriesSlice(Slice slice, List<String> series) {
    }

    private final Class<R> rowType;
    private final String name;
    private final String entityColumn;
    private final Bucketing bucketing;
    private final String seriesColumn;
    private final String timeColumn;
    private final String columns;
    private final String ascending;
    private final String descending;
    private final Function<Row, R> mapper;

    private SeriesTable(Class<R> rowType, String name, String entityColumn, Bucketing bucketing, String seriesColumn,
            String timeColumn, String columns, String ascending, String descending, Function<Row, R> mapper) {
        this.rowType = rowType;
        this.name = name;
        this.entityColumn = entityColumn;
        this.bucketing = bucketing;
        this.seriesColumn = seriesColumn;
        this.timeColumn = timeColumn;
        this.columns = columns;
        this.ascending = ascending;
        this.descending = descending;
        this.mapper = mapper;
    }

    /** @return the record type of the table's rows */
    public Class<R> rowType() {
        return rowType;
    }

    /** @return the table's name in {@code cql/}, e.g. {@code hive_telemetry} */
    public String name() {
        return name;
    }

    /** @return the partition-key column naming the entity, e.g. {@code hive_id} */
    public String entityColumn() {
        return entityColumn;
    }

    /** @return whether rows carry a series clustering column (the sensor type) that queries must restrict */
    public boolean hasSeries() {
        return seriesColumn != null;
    }

    /** @return whether the partition key has a shard column */
    boolean sharded() {
        return bucketing == Bucketing.DAY_SHARD;
    }

    /**
     * The CQL of one partition's slice.
     *
     * @param keyspace the keyspace, a valid CQL identifier, not null
     * @param order    the order rows come back in, not null
     * @return a statement with bind markers: entity, the bucket keys, the series (if any), then the
     *         range's lower and upper bound (hour-aligned {@code (day, hour)} pairs for hive_activity)
     */
    String cql(String keyspace, ReadOrder order) {
        StringBuilder cql = new StringBuilder("SELECT ").append(columns).append(" FROM ").append(keyspace).append('.')
                .append(name).append(" WHERE ").append(entityColumn).append(" = ?");
        switch (bucketing) {
            case DAY_SHARD -> cql.append(" AND day = ? AND shard = ?");
            case DAY -> cql.append(" AND day = ?");
            case ENTITY -> { }
        }
        if (seriesColumn != null) {
            cql.append(" AND ").append(seriesColumn).append(" = ?");
        }
        if (timeColumn != null) {
            cql.append(" AND ").append(timeColumn).append(" >= ? AND ").append(timeColumn).append(" < ?");
        } else {
            cql.append(" AND (day, hour) >= (?, ?) AND (day, hour) < (?, ?)");
        }
        return cql.append(order == ReadOrder.ASC ? ascending : descending).toString();
    }

    /**
     * The CQL of one partition's slice for several series at once: {@code series IN ?}, in the
     * table's clustering order (series by series, so the caller sorts). A single-partition query:
     * {@code IN} restricts a clustering column, not the partition key.
     *
     * @param keyspace the keyspace, a valid CQL identifier, not null
     * @return a statement with bind markers: entity, day, shard, the list of series, then the
     *         range's lower and upper bound
     * @throws IllegalStateException if the table has no series column or is not day-and-shard bucketed
     */
    String multiSeriesCql(String keyspace) {
        if (seriesColumn == null || bucketing != Bucketing.DAY_SHARD) {
            throw new IllegalStateException(name + " has no series to read together");
        }
        return "SELECT " + columns + " FROM " + keyspace + '.' + name + " WHERE " + entityColumn
                + " = ? AND day = ? AND shard = ? AND " + seriesColumn + " IN ? AND " + timeColumn + " >= ? AND "
                + timeColumn + " < ?";
    }

    /**
     * The values to bind to {@link #multiSeriesCql}'s markers.
     *
     * @param entity the entity, not null
     * @param slice  the partition, its series and the part of the range to read, not null
     * @return the values, in marker order
     */
    Object[] multiSeriesValues(String entity, SeriesSlice slice) {
        List<Object> values = new ArrayList<>();
        values.add(entity);
        values.addAll(slice.slice().keys());
        values.add(slice.series());
        values.add(Instant.ofEpochMilli(slice.slice().fromMillis()));
        values.add(Instant.ofEpochMilli(slice.slice().toMillis()));
        return values.toArray();
    }

    /**
     * The partitions that can hold an entity's rows of any of several series in a range, each once
     * with the series it can hold: the union of {@link #slices} over the series. With the
     * {@code time} shard strategy every series maps to the same partitions; with {@code hash},
     * each to its own.
     *
     * @param entity  the entity, not null
     * @param series  the series, not empty, no duplicates
     * @param range   the range, not null
     * @param schemes the shard schemes the table was written with, not empty
     * @return the slices in time order of their start; a slice's span is the union of its series'
     *         spans (within the range; rows of a series outside its own span cannot be in that partition)
     */
    List<SeriesSlice> multiSeriesSlices(String entity, List<String> series, TimeRange range,
            List<ShardScheme> schemes) {
        java.util.LinkedHashMap<List<Object>, SeriesSlice> byPartition = new java.util.LinkedHashMap<>();
        for (String one : series) {
            for (Slice s : slices(entity, one, range, schemes)) {
                byPartition.merge(s.keys(), new SeriesSlice(s, List.of(one)), (a, b) -> new SeriesSlice(
                        new Slice(a.slice().keys(), a.slice().label(), Math.min(a.slice().fromMillis(), s.fromMillis()),
                                Math.max(a.slice().toMillis(), s.toMillis())),
                        concat(a.series(), one)));
            }
        }
        List<SeriesSlice> slices = new ArrayList<>(byPartition.values());
        slices.sort(java.util.Comparator.comparingLong(s -> s.slice().fromMillis()));
        return slices;
    }

    private static List<String> concat(List<String> list, String one) {
        List<String> joined = new ArrayList<>(list);
        joined.add(one);
        return List.copyOf(joined);
    }

    /**
     * The values to bind to {@link #cql}'s markers.
     *
     * @param entity the entity, not null
     * @param slice  the partition and the part of the range to read, not null
     * @param series the series, or null for tables without one
     * @return the values, in marker order
     */
    Object[] values(String entity, Slice slice, String series) {
        List<Object> values = new ArrayList<>();
        values.add(entity);
        values.addAll(slice.keys());
        if (seriesColumn != null) {
            values.add(Objects.requireNonNull(series, "series"));
        }
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
     * The partitions that can hold an entity's rows of one series in a range.
     *
     * @param entity  the entity, not null
     * @param series  the series (what the shard strategy was given: the sensor type, or
     *                {@code WEATHER}), not null
     * @param range   the range, not null
     * @param schemes the shard schemes the table was written with, not empty for sharded tables
     * @return the slices in time order of their start; a partition found under several schemes once,
     *         with the union of its parts; empty when no row can be in the range (an hourly table
     *         queried for less than an hour that starts no hour)
     */
    List<Slice> slices(String entity, String series, TimeRange range, List<ShardScheme> schemes) {
        List<Slice> slices = new ArrayList<>();
        switch (bucketing) {
            case DAY_SHARD -> {
                java.util.TreeMap<DayShard, long[]> merged = new java.util.TreeMap<>();
                for (ShardScheme scheme : schemes) {
                    for (ShardSlice s : PartitionSelector.slices(entity, series, range, scheme)) {
                        merged.merge(s.bucket(), new long[] {s.fromMillis(), s.toMillis()},
                                (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
                    }
                }
                merged.forEach((bucket, span) -> slices.add(new Slice(List.of(bucket.day(), bucket.shard()),
                        "day=" + bucket.day() + ", shard=" + bucket.shard(), span[0], span[1])));
            }
            case DAY -> {
                long last = range.toMillis() - 1;
                for (long epochDay = DayBucket.epochDay(range.fromMillis()); epochDay <= DayBucket.epochDay(last);
                        epochDay++) {
                    long dayStart = epochDay * DayBucket.MILLIS_PER_DAY;
                    LocalDate day = LocalDate.ofEpochDay(epochDay);
                    slices.add(new Slice(List.of(day), "day=" + day, Math.max(range.fromMillis(), dayStart),
                            Math.min(range.toMillis(), dayStart + DayBucket.MILLIS_PER_DAY)));
                }
            }
            case ENTITY -> {
                // Rows are keyed by their hour's start: those in [from, to) start at the first hour
                // boundary at or after from, and before to.
                long from = Math.floorDiv(range.fromMillis() + HourBucket.MILLIS_PER_HOUR - 1,
                        HourBucket.MILLIS_PER_HOUR) * HourBucket.MILLIS_PER_HOUR;
                long to = HourBucket.hourStart(range.toMillis() - 1) + HourBucket.MILLIS_PER_HOUR;
                if (from < to) {
                    slices.add(new Slice(List.of(), "the hive's partition", from, to));
                }
            }
        }
        slices.sort(java.util.Comparator.comparingLong(Slice::fromMillis));
        return slices;
    }

    /**
     * @param row a row of {@link #cql}'s result, not null
     * @return the row as a record
     */
    R map(Row row) {
        return mapper.apply(row);
    }

    private static Double boxed(Row row, int column) {
        return row.isNull(column) ? null : row.getDouble(column);
    }

    @Override
    public String toString() {
        return name;
    }
}
