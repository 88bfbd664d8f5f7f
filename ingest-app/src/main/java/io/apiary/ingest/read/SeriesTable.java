package io.apiary.ingest.read;

import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.tables.TableNames;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A table the reader reads, as analysts see it: its row type, its entity, how its partition key
 * buckets an entity's rows (the bucket math), and its physical layouts: the current one of
 * {@code cql/} and, for tables whose primary key changed, the legacy one of {@code cql/legacy/}
 * that is read beside it during a migration. Immutable, thread-safe.
 *
 * @param <R> the row type
 */
public final class SeriesTable<R extends TimedRow> {

    /** How a table's partition key buckets an entity's rows. */
    enum Bucketing {
        /** {@code (entity, day, shard)}: hive_telemetry_v2, weather_readings. */
        DAY_SHARD,
        /** {@code (entity, day)}: agent_alerts_v2. */
        DAY,
        /** {@code (entity)} with clustering {@code (day, hour)}: hive_activity. */
        ENTITY
    }

    /** When a legacy row is the same reading as a row of the current table, and so not returned. */
    enum LegacyRule {
        /** A legacy row is hidden by a current row equal in time, series and series id. */
        SAME_ROW,
        /**
         * A legacy row is hidden by any current row of the same time and series (sensor type),
         * whatever its sensor id: the legacy table kept one reading per (hive, type, time), so the
         * current table's readings of that instant replace it, whether copied from it (sensor
         * {@code default}) or written with real sensor ids.
         */
        SAME_TIME_AND_SERIES
    }

    /** {@code hive_telemetry_v2}: one series per sensor (type and id); legacy {@code hive_telemetry}. */
    public static final SeriesTable<TelemetryRow> TELEMETRY = new SeriesTable<>(
            TelemetryRow.class,
            "hive_id",
            Bucketing.DAY_SHARD,
            TableLayout.TELEMETRY,
            TableLayout.LEGACY_TELEMETRY,
            LegacyRule.SAME_TIME_AND_SERIES);

    /** {@code weather_readings}: one series per station; the shard strategy was given {@code WEATHER}. */
    public static final SeriesTable<WeatherRow> WEATHER = new SeriesTable<>(
            WeatherRow.class, "station_id", Bucketing.DAY_SHARD, TableLayout.WEATHER, null, LegacyRule.SAME_ROW);

    /** {@code agent_alerts_v2}: a partition per agent and UTC day; legacy {@code agent_alerts}. */
    public static final SeriesTable<AlertRow> ALERTS = new SeriesTable<>(
            AlertRow.class,
            "agent_id",
            Bucketing.DAY,
            TableLayout.ALERTS,
            TableLayout.LEGACY_ALERTS,
            LegacyRule.SAME_ROW);

    /** {@code hive_activity}: one partition per hive, rows per UTC hour. */
    public static final SeriesTable<ActivityRow> ACTIVITY = new SeriesTable<>(
            ActivityRow.class, "hive_id", Bucketing.ENTITY, TableLayout.ACTIVITY, null, LegacyRule.SAME_ROW);

    /**
     * One partition of one table to query, with the part of the range it can hold.
     *
     * @param table      the table's name, not null
     * @param legacy     whether the table is a legacy layout, whose rows yield to the current table's
     * @param keys       the partition-key values after the entity ({@code day, shard}; {@code day}; none)
     * @param label      the partition key as text, for messages, e.g. {@code day=2021-07-15, shard=68}
     * @param fromMillis first instant of the range the partition can hold
     * @param toMillis   first instant after it
     */
    record Slice(String table, boolean legacy, List<Object> keys, String label, long fromMillis, long toMillis) {

        /** @return the partition's identity within the read: the table and its keys */
        List<Object> partition() {
            return List.of(table, keys);
        }

        /**
         * @param millis an instant, ms since 1970-01-01T00:00:00Z
         * @return whether the slice holds it
         */
        boolean contains(long millis) {
            return millis >= fromMillis && millis < toMillis;
        }

        /**
         * @param legacyTable the legacy table's name, not null
         * @return the same partition of the legacy table
         */
        Slice inLegacyTable(String legacyTable) {
            return new Slice(legacyTable, true, keys, label, fromMillis, toMillis);
        }
    }

    /**
     * One partition to query for several sensor types at once, with the part of the range any of
     * them can hold there.
     *
     * @param slice  the partition and the union of its types' parts of the range
     * @param series the sensor types that can have rows in the partition within the range, in the
     *               request's order, not empty
     */
    record SeriesSlice(Slice slice, List<String> series) {}

    private final Class<R> rowType;
    private final String entityColumn;
    private final Bucketing bucketing;
    private final TableLayout<R> layout;
    private final TableLayout<R> legacyLayout;
    private final LegacyRule legacyRule;

    private SeriesTable(
            Class<R> rowType,
            String entityColumn,
            Bucketing bucketing,
            TableLayout<R> layout,
            TableLayout<R> legacyLayout,
            LegacyRule legacyRule) {
        this.rowType = rowType;
        this.entityColumn = entityColumn;
        this.bucketing = bucketing;
        this.layout = layout;
        this.legacyLayout = legacyLayout;
        this.legacyRule = legacyRule;
    }

    /** @return the record type of the table's rows */
    public Class<R> rowType() {
        return rowType;
    }

    /** @return the current table's name ({@link TableNames}), e.g. {@code hive_telemetry_v2} */
    public String name() {
        return layout.name();
    }

    /** @return the partition-key column naming the entity, e.g. {@code hive_id} */
    public String entityColumn() {
        return entityColumn;
    }

    /** @return whether rows carry sensor types and ids that a read may choose from ({@code hive_telemetry_v2}) */
    public boolean hasSeries() {
        return layout.hasSensorTypes();
    }

    /** @return whether the partition key has a shard column */
    boolean sharded() {
        return bucketing == Bucketing.DAY_SHARD;
    }

    /** @return the current layout */
    TableLayout<R> layout() {
        return layout;
    }

    /** @return the legacy layout read beside the current one during a migration, or null if none */
    TableLayout<R> legacyLayout() {
        return legacyLayout;
    }

    /** @return when a legacy row is hidden by the current table's rows */
    LegacyRule legacyRule() {
        return legacyRule;
    }

    /**
     * The partitions that can hold an entity's rows of any of several sensor types in a range, each
     * once with the types it can hold: the union of {@link #slices} over the types. With the
     * {@code time} shard strategy every type maps to the same partitions; with {@code hash}, each
     * to its own.
     *
     * @param entity  the entity, not null
     * @param series  the sensor types, not empty, no duplicates
     * @param range   the range, not null
     * @param schemes the shard schemes the table was written with, not empty
     * @return the slices in time order of their start; a slice's span is the union of its types'
     *         spans (within the range; rows of a type outside its own span cannot be in that partition)
     */
    List<SeriesSlice> multiSeriesSlices(
            String entity, List<String> series, TimeRange range, List<ShardScheme> schemes) {
        Map<List<Object>, SeriesSlice> byPartition = new LinkedHashMap<>();
        for (String one : series) {
            for (Slice s : slices(entity, one, range, schemes)) {
                byPartition.merge(
                        s.keys(),
                        new SeriesSlice(s, List.of(one)),
                        (a, b) -> new SeriesSlice(
                                new Slice(
                                        a.slice().table(),
                                        false,
                                        a.slice().keys(),
                                        a.slice().label(),
                                        Math.min(a.slice().fromMillis(), s.fromMillis()),
                                        Math.max(a.slice().toMillis(), s.toMillis())),
                                concat(a.series(), one)));
            }
        }
        List<SeriesSlice> slices = new ArrayList<>(byPartition.values());
        slices.sort(Comparator.comparingLong(s -> s.slice().fromMillis()));
        return slices;
    }

    private static List<String> concat(List<String> list, String one) {
        List<String> joined = new ArrayList<>(list);
        joined.add(one);
        return List.copyOf(joined);
    }

    /**
     * The partitions of the current table that can hold an entity's rows of one series in a range.
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
                TreeMap<DayShard, long[]> merged = new TreeMap<>();
                for (ShardScheme scheme : schemes) {
                    for (ShardSlice s : PartitionSelector.slices(entity, series, range, scheme)) {
                        merged.merge(s.bucket(), new long[] {s.fromMillis(), s.toMillis()}, (a, b) ->
                                new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
                    }
                }
                merged.forEach((bucket, span) -> slices.add(new Slice(
                        name(),
                        false,
                        List.of(bucket.day(), bucket.shard()),
                        "day=" + bucket.day() + ", shard=" + bucket.shard(),
                        span[0],
                        span[1])));
            }
            case DAY -> {
                long last = range.toMillis() - 1;
                for (long epochDay = DayBucket.epochDay(range.fromMillis());
                        epochDay <= DayBucket.epochDay(last);
                        epochDay++) {
                    long dayStart = epochDay * DayBucket.MILLIS_PER_DAY;
                    LocalDate day = LocalDate.ofEpochDay(epochDay);
                    slices.add(new Slice(
                            name(),
                            false,
                            List.of(day),
                            "day=" + day,
                            Math.max(range.fromMillis(), dayStart),
                            Math.min(range.toMillis(), dayStart + DayBucket.MILLIS_PER_DAY)));
                }
            }
            case ENTITY -> {
                // Rows are keyed by their hour's start: those in [from, to) start at the first hour
                // boundary at or after from, and before to.
                long from =
                        Math.floorDiv(range.fromMillis() + HourBucket.MILLIS_PER_HOUR - 1, HourBucket.MILLIS_PER_HOUR)
                                * HourBucket.MILLIS_PER_HOUR;
                long to = HourBucket.hourStart(range.toMillis() - 1) + HourBucket.MILLIS_PER_HOUR;
                if (from < to) {
                    slices.add(new Slice(name(), false, List.of(), "the hive's partition", from, to));
                }
            }
        }
        slices.sort(Comparator.comparingLong(Slice::fromMillis));
        return slices;
    }

    @Override
    public String toString() {
        return name();
    }
}
