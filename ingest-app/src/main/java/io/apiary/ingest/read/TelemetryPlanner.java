package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * The cursors of a read of {@code hive_telemetry_v2} and, during a migration, of the legacy
 * {@code hive_telemetry} beside it. Not thread-safe: one per read.
 *
 * <p>{@code hive_telemetry_v2} (clustering {@code sensor_type, sensor_id, reading_time DESC}):
 * <ul>
 *   <li>one sensor (type and id) asked for: each partition streams that sensor's time slice
 *       ({@code sensor_type = ? AND sensor_id = ? AND reading_time >= ? AND reading_time < ?}),
 *       page by page in the read's order;</li>
 *   <li>anything else (every sensor of some types, or several sensors): one query per partition for
 *       all the types it can hold, {@code sensor_type IN ?} without time bounds, since CQL cannot
 *       slice {@code reading_time} while {@code sensor_id} is open; rows outside the partition's
 *       part of the range and of sensors not asked for are dropped, the rest sorted in memory
 *       ({@link BufferedPartitionCursor}). The cost of the time-shard layout: a partition at an
 *       edge of the range is read whole for its types, and with {@code hash} shards, where every
 *       partition spans its whole UTC day, a range shorter than a day reads the whole day's rows of
 *       those types in every shard;</li>
 *   <li>a partition too large to hold: its sensors are listed with one
 *       {@code GROUP BY sensor_type, sensor_id} query of that partition, then each sensor asked for
 *       is streamed as a time slice, merged.</li>
 * </ul>
 *
 * <p>Legacy {@code hive_telemetry} (clustering {@code sensor_type, reading_time DESC}), only for
 * the types whose sensor {@code default} is asked for (its rows read as that sensor): several types
 * of a partition are one time-sliced query ({@code sensor_type IN ? AND reading_time >= ? AND
 * reading_time < ?}), sorted in memory (past the bound: one streamed slice per type); one type is a
 * streamed slice. While it is read, {@code hive_telemetry_v2} is read for every sensor of those
 * types (never one sensor's slice), so that its readings of an instant hide the legacy row of that
 * instant even when they are of sensors not asked for ({@link SeriesTable.LegacyRule}).
 */
final class TelemetryPlanner {

    private final ReadPlanner<TelemetryRow> base;
    private final SensorSelection selection;
    private final String legacyTable;
    private final List<String> legacyTypes;
    /** Which sensors are read from hive_telemetry_v2: those asked for, and all of a legacy type. */
    private final BiPredicate<String, String> needed;

    private TelemetryPlanner(ReadPlanner<TelemetryRow> base, String legacyTable) {
        this.base = base;
        this.selection = SensorSelection.of(base.request.sensors());
        this.legacyTable = legacyTable;
        this.legacyTypes = legacyTable.isEmpty() ? List.of() : selection.typesWithDefaultSensor();
        this.needed = (type, id) -> selection.includes(type, id) || legacyTypes.contains(type);
    }

    /**
     * @param base        the read's planner, not null
     * @param legacyTable the legacy table to read beside hive_telemetry_v2 (it exists), or empty
     * @return the cursors
     * @throws IllegalArgumentException if a table cannot be read (missing)
     */
    static ReadPlanner.Plan<TelemetryRow> plan(ReadPlanner<TelemetryRow> base, String legacyTable) {
        return new TelemetryPlanner(base, legacyTable).plan();
    }

    private ReadPlanner.Plan<TelemetryRow> plan() {
        SeriesTable<TelemetryRow> table = SeriesTable.TELEMETRY;
        List<SeriesTable.SeriesSlice> parts = table.multiSeriesSlices(
                base.request.entity(), selection.types(), base.range, base.settings.telemetrySchemes());
        if (legacyTable.isEmpty()) { // during a migration every partition is read, in both tables
            parts = base.existing(parts, table.name());
        }
        for (SeriesTable.SeriesSlice part : parts) {
            SensorSelection.Sensor one = selection.single(part.series());
            if (one != null && !legacyTypes.contains(one.sensorType())) {
                base.add(base.streamed(
                        table.layout(), part.slice(), List.of(one.sensorType(), one.sensorId()), base.pageSize));
            } else {
                base.add(sensorsOfTypes(part.slice(), part.series()));
            }
        }
        if (!legacyTypes.isEmpty()) {
            for (SeriesTable.SeriesSlice part : table.multiSeriesSlices(
                    base.request.entity(), legacyTypes, base.range, base.settings.telemetrySchemes())) {
                base.add(legacyCursor(part.slice().inLegacyTable(legacyTable), part.series()));
            }
        }
        return base.done(legacyTable, row -> selection.includes(row.sensorType(), row.sensorId()));
    }

    /**
     * Every needed sensor of some types of one hive_telemetry_v2 partition: one query without time
     * bounds, or, past the bound on rows, the partition's sensors listed and each streamed.
     */
    private SliceCursor<TelemetryRow> sensorsOfTypes(SeriesTable.Slice slice, List<String> types) {
        TableLayout<TelemetryRow> layout = SeriesTable.TELEMETRY.layout();
        String description = base.description(slice, String.join(", ", types));
        String keyspace = base.settings.keyspace();
        return new BufferedPartitionCursor<>(
                slice,
                description,
                base.backend.request(
                        slice.table(),
                        layout.typesCql(keyspace, slice.table(), false),
                        layout.typesValues(base.request.entity(), slice, types, false),
                        base.settings.pageSize()),
                layout::map,
                row -> slice.contains(row.readingTime().toEpochMilli())
                        && needed.test(row.sensorType(), row.sensorId()),
                requests -> {
                    List<SensorSelection.Sensor> sensors = sensorsIn(slice, types, description, requests);
                    int rows = base.perSeriesPage(sensors.size());
                    return sensors.stream()
                            .map(s -> base.streamed(layout, slice, List.of(s.sensorType(), s.sensorId()), rows))
                            .toList();
                },
                base.rowOrder,
                base.maxBufferedRows);
    }

    /** The needed sensors of some types that a hive_telemetry_v2 partition holds ({@code GROUP BY}). */
    private List<SensorSelection.Sensor> sensorsIn(
            SeriesTable.Slice slice, List<String> types, String description, PartitionCursor.Requests requests) {
        TableLayout<TelemetryRow> layout = SeriesTable.TELEMETRY.layout();
        List<Object> values = layout.keyValues(base.request.entity(), slice);
        values.add(List.copyOf(types));
        AsyncResultSet page = PartitionCursor.await(
                requests.send(base.backend.request(
                        slice.table(),
                        layout.sensorsCql(base.settings.keyspace(), slice.table()),
                        values.toArray(),
                        base.settings.pageSize())),
                "the sensors of " + description);
        List<SensorSelection.Sensor> sensors = new ArrayList<>();
        while (true) {
            for (Row row : page.currentPage()) {
                if (needed.test(row.getString(0), row.getString(1))) {
                    sensors.add(new SensorSelection.Sensor(row.getString(0), row.getString(1)));
                }
            }
            if (!page.hasMorePages()) {
                return sensors;
            }
            AsyncResultSet current = page;
            page = PartitionCursor.await(requests.send(current::fetchNextPage), "the sensors of " + description);
        }
    }

    /** Some types of one legacy partition: a streamed slice for one type, else one query sorted in memory. */
    private SliceCursor<TelemetryRow> legacyCursor(SeriesTable.Slice slice, List<String> types) {
        TableLayout<TelemetryRow> legacy = SeriesTable.TELEMETRY.legacyLayout();
        if (types.size() == 1) {
            return base.streamed(legacy, slice, types, base.pageSize);
        }
        int rows = base.perSeriesPage(types.size());
        return new BufferedPartitionCursor<>(
                slice,
                base.description(slice, String.join(", ", types)),
                base.backend.request(
                        slice.table(),
                        legacy.typesCql(base.settings.keyspace(), slice.table(), true),
                        legacy.typesValues(base.request.entity(), slice, types, true),
                        base.settings.pageSize()),
                legacy::map,
                row -> true,
                requests -> types.stream()
                        .map(type -> base.streamed(legacy, slice, List.of(type), rows))
                        .toList(),
                base.rowOrder,
                base.maxBufferedRows);
    }
}
