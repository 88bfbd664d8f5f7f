package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import io.apiary.ingest.bucket.ShardStrategy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The cursors of one read: which query each partition of the range gets, in the current table
 * and in a legacy table read beside it. For every table but {@code hive_telemetry_v2} (see
 * {@link TelemetryPlanner}) that is one streamed time slice per partition, in the legacy table
 * too. Not thread-safe: one per read.
 *
 * @param <R> the row type
 */
class ReadPlanner<R extends TimedRow> {

    /**
     * The planned cursors.
     *
     * @param cursors    the cursors, one or more per partition
     * @param partitions distinct partitions among them, over both tables
     * @param tables     the tables read, current first
     * @param wanted     which of the merged rows the read returns (rows of sensors read only to
     *                   hide legacy rows are not)
     * @param <R>        the row type
     */
    record Plan<R extends TimedRow>(
            List<SliceCursor<R>> cursors,
            int partitions,
            List<String> tables,
            Predicate<? super R> wanted,
            int probed,
            long probeRequests) {

        /** @return partitions in the read's range: those asked about by probes, or else those queried */
        int partitionsInRange() {
            return Math.max(partitions, probed);
        }
    }

    final ReadBackend backend;
    final ReadSettings settings;
    final ReadRequest<R> request;
    final TimeRange range;
    final int pageSize;
    final int maxBufferedRows;
    final Comparator<TimedRow> rowOrder;
    private final List<SliceCursor<R>> cursors = new ArrayList<>();
    private final Set<List<Object>> partitions = new HashSet<>();
    private int probed;
    private long probeRequests;

    /**
     * @param backend         where requests go, not null
     * @param settings        keyspace and shard schemes, not null
     * @param request         the read, not null
     * @param range           the part of its range left to read (after a page token), not null
     * @param pageSize        rows per page of streamed queries, at least 1
     * @param maxBufferedRows rows a partition read whole may fetch before it is read series by series
     */
    ReadPlanner(
            ReadBackend backend,
            ReadSettings settings,
            ReadRequest<R> request,
            TimeRange range,
            int pageSize,
            int maxBufferedRows) {
        this.backend = backend;
        this.settings = settings;
        this.request = request;
        this.range = range;
        this.pageSize = pageSize;
        this.maxBufferedRows = maxBufferedRows;
        this.rowOrder = MergedRows.rowOrder(request.order());
    }

    /**
     * One streamed time slice per partition of the current table and, if given, of the legacy one.
     *
     * @param legacyTable the legacy table to read beside the current one (it exists), or empty
     * @return the cursors
     * @throws IllegalArgumentException if a table cannot be read (missing)
     */
    Plan<R> plan(String legacyTable) {
        SeriesTable<R> table = request.table();
        for (SeriesTable.Slice slice :
                table.slices(request.entity(), ShardStrategy.WEATHER_SHARD_SENSOR, range, settings.schemes(table))) {
            add(streamed(table.layout(), slice, List.of(), pageSize));
            if (!legacyTable.isEmpty()) {
                add(streamed(table.legacyLayout(), slice.inLegacyTable(legacyTable), List.of(), pageSize));
            }
        }
        return done(legacyTable, row -> true);
    }

    /**
     * @param legacyTable the legacy table read, or empty
     * @param wanted      which merged rows the read returns
     * @return the plan of the cursors added
     */
    Plan<R> done(String legacyTable, Predicate<? super R> wanted) {
        SeriesTable<R> table = request.table();
        return new Plan<>(
                List.copyOf(cursors),
                partitions.size(),
                legacyTable.isEmpty() ? List.of(table.name()) : List.of(table.name(), legacyTable),
                wanted,
                probed,
                probeRequests);
    }

    /**
     * Keeps the partitions that hold rows, when there are more than {@code read.probe.partitions}
     * of them: asks Cassandra which exist, that many per request ({@code hive_id = ? AND day IN ?
     * AND shard IN ? PER PARTITION LIMIT 1}: one row per partition that has any; whole days per
     * request, a day of more shards in pieces), up to a quarter of {@code read.max.in.flight.requests}
     * requests at once. If Cassandra refuses a probe as invalid (a guardrail on partition keys in a
     * SELECT), every partition is read, as without probes, and a warning says so. Probing stops
     * once more partitions than {@code read.max.partition.queries} hold rows (the read is then refused). A sparse range then costs a request per
     * {@code read.probe.partitions} partitions plus the queries of those with rows, instead of one
     * query per partition; a range of at most that many partitions (a dense day at 96 shards) is
     * not probed and costs what it did. Cassandra answers an absent partition from its bloom
     * filters, mostly without reading disk. A partition written after its probe and before the
     * read reaches it is missed, as a row written after a query's page would be.
     *
     * @param parts  the partitions of hive_telemetry_v2 that can hold the read's rows, in time order
     * @param table  the table's name
     * @return those that hold rows, in the same order; all of them when not probed
     * @throws ReadException if a probe fails
     */
    List<SeriesTable.SeriesSlice> existing(List<SeriesTable.SeriesSlice> parts, String table) {
        int per = settings.probePartitions();
        if (per == 0 || parts.size() <= per) {
            return parts;
        }
        probed += parts.size();
        java.util.TreeMap<java.time.LocalDate, java.util.TreeSet<Integer>> byDay = new java.util.TreeMap<>();
        for (SeriesTable.SeriesSlice part : parts) {
            List<Object> keys = part.slice().keys();
            byDay.computeIfAbsent((java.time.LocalDate) keys.get(0), d -> new java.util.TreeSet<>())
                    .add((Integer) keys.get(1));
        }
        String cql = "SELECT day, shard FROM " + settings.keyspace() + "." + table
                + " WHERE hive_id = ? AND day IN ? AND shard IN ? PER PARTITION LIMIT 1";
        Set<List<Object>> found = new HashSet<>();
        java.util.ArrayDeque<java.util.concurrent.CompletableFuture<AsyncResultSet>> inFlight =
                new java.util.ArrayDeque<>();
        try {
            List<java.time.LocalDate> days = new ArrayList<>();
            java.util.TreeSet<Integer> shards = new java.util.TreeSet<>();
            for (var day : byDay.entrySet()) {
                if (day.getValue().size() > per) { // a day of more shards than a request may ask about: in pieces
                    List<Integer> all = List.copyOf(day.getValue());
                    for (int from = 0; from < all.size(); from += per) {
                        probe(
                                cql,
                                List.of(day.getKey()),
                                all.subList(from, Math.min(all.size(), from + per)),
                                inFlight,
                                found,
                                table);
                    }
                    continue;
                }
                java.util.TreeSet<Integer> union = new java.util.TreeSet<>(shards);
                union.addAll(day.getValue());
                if (!days.isEmpty() && (long) (days.size() + 1) * union.size() > per) {
                    probe(cql, days, shards, inFlight, found, table);
                    days = new ArrayList<>();
                    union = new java.util.TreeSet<>(day.getValue());
                }
                days.add(day.getKey());
                shards = union;
            }
            if (!days.isEmpty()) {
                probe(cql, days, shards, inFlight, found, table);
            }
            while (!inFlight.isEmpty()) {
                collect(inFlight.poll(), found, table);
            }
        } catch (ReadException e) {
            inFlight.forEach(f -> f.cancel(false));
            if (!(e.getCause() instanceof com.datastax.oss.driver.api.core.servererrors.InvalidQueryException)) {
                throw e;
            }
            // e.g. a guardrail on partition keys in a SELECT: read every partition, as without probes
            org.slf4j.LoggerFactory.getLogger(ReadPlanner.class)
                    .warn(
                            "Cassandra refused the probe of {} ({}): "
                                    + "reading every partition of the range; lower read.probe.partitions to the cluster's limit on "
                                    + "partition keys in a SELECT, or set it to 0",
                            table,
                            e.getCause().getMessage());
            probed = 0;
            return parts;
        }
        return parts.stream()
                .filter(part -> found.contains(part.slice().keys()))
                .toList();
    }

    /** Probes in flight at once: a quarter of the read's bound, each asking about up to read.probe.partitions partitions. */
    private int probesInFlight() {
        return Math.max(1, settings.maxInFlight() / 4);
    }

    private void probe(
            String cql,
            List<java.time.LocalDate> days,
            java.util.Collection<Integer> shards,
            java.util.ArrayDeque<java.util.concurrent.CompletableFuture<AsyncResultSet>> inFlight,
            Set<List<Object>> found,
            String table) {
        if (found.size() > settings.maxPartitionQueries()) {
            return; // refused after planning anyway (read.max.partition.queries): ask no more
        }
        if (inFlight.size() >= probesInFlight()) {
            collect(inFlight.poll(), found, table);
        }
        probeRequests++;
        inFlight.add(backend.request(
                        table,
                        cql,
                        new Object[] {request.entity(), List.copyOf(days), List.copyOf(shards)},
                        days.size() * shards.size())
                .get()
                .toCompletableFuture());
    }

    private void collect(
            java.util.concurrent.CompletableFuture<AsyncResultSet> answer, Set<List<Object>> found, String table) {
        String description = "which partitions of " + table + " hold rows of "
                + request.table().entityColumn() + "=" + request.entity();
        AsyncResultSet page = PartitionCursor.await(answer, description);
        while (true) {
            for (com.datastax.oss.driver.api.core.cql.Row row : page.currentPage()) {
                found.add(List.of(row.getLocalDate(0), row.getInt(1)));
            }
            if (!page.hasMorePages()) {
                return;
            }
            probeRequests++;
            page = PartitionCursor.await(page.fetchNextPage().toCompletableFuture(), description);
        }
    }

    /**
     * @param layout the table's layout, not null
     * @param slice  the partition and its part of the range, not null
     * @param series the values of the layout's series columns (none, the sensor type, or type and id)
     * @param rows   rows per page, at least 1
     * @return a streamed cursor of the partition's time slice in the read's order
     */
    PartitionCursor<R> streamed(TableLayout<R> layout, SeriesTable.Slice slice, List<String> series, int rows) {
        return new PartitionCursor<>(
                layout::map,
                slice,
                description(slice, String.join(":", series)),
                backend.request(
                        slice.table(),
                        layout.sliceCql(settings.keyspace(), slice.table(), request.order()),
                        layout.sliceValues(request.entity(), slice, series),
                        rows));
    }

    /**
     * Rows per page for each of {@code series} streamed cursors that replace a partition too large
     * to hold: together they hold at most {@code maxBufferedRows} rows (one each, if there are more).
     *
     * @param series how many cursors, at least 0
     * @return rows per page, at least 1, at most the read's page size
     */
    int perSeriesPage(int series) {
        return (int) Math.max(1, Math.min(pageSize, maxBufferedRows / (long) Math.max(1, series)));
    }

    /** @param cursor a cursor of the read, counted with its partition */
    void add(SliceCursor<R> cursor) {
        cursors.add(cursor);
        partitions.add(cursor.slice().partition());
    }

    /**
     * @param slice  the partition, not null
     * @param series what of it is read, e.g. {@code TEMPERATURE:inside} or {@code TEMPERATURE, HUMIDITY};
     *               empty for a whole time slice
     * @return e.g. {@code hive_telemetry_v2 partition (hive_id=3627, day=2021-07-15, shard=40) for
     *         TEMPERATURE:inside}, for messages
     */
    String description(SeriesTable.Slice slice, String series) {
        return slice.table() + " partition (" + request.table().entityColumn() + "=" + request.entity()
                + (slice.keys().isEmpty() ? "" : ", " + slice.label()) + ")"
                + (series.isEmpty() ? "" : " for " + series);
    }
}
