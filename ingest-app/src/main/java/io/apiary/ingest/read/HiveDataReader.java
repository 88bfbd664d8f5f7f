package io.apiary.ingest.read;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.topology.RowMapper;
import io.apiary.schema.SensorType;

/**
 * The read path for analysts: an entity's rows of one table over a time range, found in exactly
 * the partitions that can hold them (the bucket math of {@link PartitionSelector} and
 * {@link SeriesTable}), queried in parallel with at most {@code read.max.in.flight.requests}
 * requests in flight, and merged in time order (oldest or newest first), with a limit and
 * stateless page tokens. Every query is a single-partition slice: never {@code ALLOW FILTERING},
 * never a scan.
 *
 * <p>Requests: a read of one series (one sensor type, or a table without series) sends one query
 * per partition that can hold it, streamed page by page. A read of several sensor types sends one
 * query per partition for all of them ({@code sensor_type IN ?}; see {@link MultiSeriesCursor}),
 * not one per partition and type: a week of 9 sensor types at 96 {@code time} shards is 672
 * requests instead of 6,048.
 *
 * <p>Thread-safe: one reader serves concurrent reads; each read's {@link MergedRows} belongs to
 * its caller. Prepared statements are cached per table and query variant.
 */
public final class HiveDataReader {

    private final CqlSession session;
    private final ReadSettings settings;
    private final Map<String, PreparedStatement> prepared = new ConcurrentHashMap<>();

    /**
     * @param session  an open session, not null; the caller closes it
     * @param settings keyspace, shard schemes and limits, not null
     */
    public HiveDataReader(CqlSession session, ReadSettings settings) {
        this.session = Objects.requireNonNull(session, "session");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Reads every row of a request, lazily: partitions are queried as the caller iterates.
     *
     * @param request what to read, not null
     * @return the rows in the request's order; close it to stop early
     * @throws IllegalArgumentException if the request's page token is not one of this table and order,
     *                                  or the read would plan more than {@code read.max.partition.queries}
     * @throws ReadException            while iterating, if Cassandra cannot answer a partition's query
     * @throws IllegalArgumentException if the keyspace or table is missing (schema not applied)
     */
    public <R extends TimedRow> MergedRows<R> stream(ReadRequest<R> request) {
        return open(request, settings.pageSize(), MultiSeriesCursor.MAX_BUFFERED_ROWS);
    }

    /**
     * Reads one page: at most {@code limit} rows, and a token for the rest.
     *
     * @param request what to read, not null
     * @param limit   most rows returned, at least 1
     * @return the page
     * @throws IllegalArgumentException if {@code limit} is below 1 or the page token is not one of
     *                                  this table and order
     * @throws ReadException            if Cassandra cannot answer a partition's query
     */
    public <R extends TimedRow> ReadPage<R> page(ReadRequest<R> request, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the limit must be at least 1, was " + limit);
        }
        // A limited read holds one page (read.page.size rows) of a partition's slice at most: a
        // slice that needs more pages is read again sensor by sensor, with pages of limit + 1
        // rows, which costs less than reading the whole slice for a few of its rows.
        int maxBufferedRows = Math.min(MultiSeriesCursor.MAX_BUFFERED_ROWS, settings.pageSize());
        try (MergedRows<R> rows = open(request, (int) Math.min(settings.pageSize(), limit + 1L), maxBufferedRows)) {
            List<R> page = new ArrayList<>();
            while (page.size() < limit && rows.hasNext()) {
                page.add(rows.next());
            }
            String next = null;
            if (rows.hasNext()) {
                R lastRow = page.get(page.size() - 1);
                next = new PageToken(request.table().name(), request.order(), lastRow.time(), lastRow.series()).encode();
            }
            ReadStats stats = rows.stats();
            return new ReadPage<>(page, next, new ReadStats(stats.partitionsInRange(), stats.partitionsRead(),
                    stats.requests(), page.size(), stats.elapsed()));
        }
    }

    private <R extends TimedRow> MergedRows<R> open(ReadRequest<R> request, int pageSize, int maxBufferedRows) {
        SeriesTable<R> table = request.table();
        PageToken after = request.pageToken() == null ? null
                : PageToken.decode(request.pageToken(), table.name(), request.order());
        TimeRange range = narrowed(request, after);
        List<SliceCursor<R>> cursors = new ArrayList<>();
        Set<List<Object>> partitions = new HashSet<>();
        if (range != null) {
            checkPlanSize(request, range);
            PreparedStatement statement = prepared(table, request.order().name(),
                    () -> table.cql(settings.keyspace(), request.order()));
            List<String> series = series(request);
            List<ShardScheme> schemes = table == SeriesTable.WEATHER ? settings.weatherSchemes()
                    : settings.telemetrySchemes();
            if (readsSeriesTogether(request)) {
                PreparedStatement together = prepared(table, "multi-series",
                        () -> table.multiSeriesCql(settings.keyspace()));
                Comparator<TimedRow> rowOrder = MergedRows.rowOrder(request.order());
                for (SeriesTable.SeriesSlice slice : table.multiSeriesSlices(request.entity(), series, range, schemes)) {
                    partitions.add(slice.slice().keys());
                    Object[] values = table.multiSeriesValues(request.entity(), slice);
                    // The whole slice is read before its first row is used: full pages whatever the limit.
                    cursors.add(new MultiSeriesCursor<>(table, slice.slice(), slice.series(),
                            description(request, slice.slice(), String.join(", ", slice.series())),
                            () -> execute(together.bind(values), settings.pageSize()),
                            one -> cursor(request, statement, slice.slice(), one, pageSize), rowOrder,
                            maxBufferedRows));
                }
            } else {
                for (String one : series) {
                    String shardSeries = table.hasSeries() ? one : RowMapper.WEATHER_SHARD_SENSOR;
                    for (SeriesTable.Slice slice : table.slices(request.entity(), shardSeries, range, schemes)) {
                        partitions.add(slice.keys());
                        cursors.add(cursor(request, statement, slice, one, pageSize));
                    }
                }
            }
        }
        return new MergedRows<>(cursors, request.order(), settings.maxInFlight(), after, partitions.size());
    }

    /**
     * Whether a request's series are read with one query per partition: a table with series, and
     * more than one of them asked for.
     */
    private static boolean readsSeriesTogether(ReadRequest<?> request) {
        return request.table().hasSeries() && series(request).size() > 1;
    }

    private <R extends TimedRow> PartitionCursor<R> cursor(ReadRequest<R> request, PreparedStatement statement,
            SeriesTable.Slice slice, String series, int pageSize) {
        Object[] values = request.table().values(request.entity(), slice, series);
        return new PartitionCursor<>(request.table(), slice, description(request, slice, series),
                () -> execute(statement.bind(values), pageSize));
    }

    private CompletionStage<AsyncResultSet> execute(BoundStatement statement, int pageSize) {
        return session.executeAsync(statement.setPageSize(pageSize).setConsistencyLevel(settings.consistency())
                .setIdempotent(true));
    }

    private static String description(ReadRequest<?> request, SeriesTable.Slice slice, String series) {
        SeriesTable<?> table = request.table();
        return table.name() + " partition (" + table.entityColumn() + "=" + request.entity()
                + (slice.keys().isEmpty() ? "" : ", " + slice.label()) + ")" + (series == null ? "" : " for " + series);
    }

    /**
     * Refuses a read that would plan more partition queries than {@code read.max.partition.queries},
     * before planning them: days x shards of every scheme, times the series when they are read one
     * by one (exact for whole days).
     */
    private void checkPlanSize(ReadRequest<?> request, TimeRange range) {
        SeriesTable<?> table = request.table();
        long days = DayBucket.epochDay(range.toMillis() - 1) - DayBucket.epochDay(range.fromMillis()) + 1;
        long shards = !table.sharded() ? 1 : (table == SeriesTable.WEATHER ? settings.weatherSchemes()
                : settings.telemetrySchemes()).stream().mapToLong(ShardScheme::shards).sum();
        long perDay = table == SeriesTable.ACTIVITY ? 0
                : (readsSeriesTogether(request) ? 1 : (long) series(request).size()) * shards;
        long queries = table == SeriesTable.ACTIVITY ? 1 : days * perDay;
        if (queries > settings.maxPartitionQueries()) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "reading %s of %s from %s to %s "
                    + "could take up to %,d partition queries (%,d days x %,d per day), more than "
                    + "read.max.partition.queries (%,d): narrow the range, or raise that setting",
                    table.name(), request.entity(), range.from(), range.to(), queries, days, perDay,
                    settings.maxPartitionQueries()));
        }
    }

    /** The statement of a table's query variant, prepared once per reader. */
    private PreparedStatement prepared(SeriesTable<?> table, String variant, Supplier<String> cql) {
        return prepared.computeIfAbsent(table.name() + "/" + variant, key -> prepare(table.name(), cql.get()));
    }

    private PreparedStatement prepare(String table, String cql) {
        try {
            return session.prepare(cql);
        } catch (com.datastax.oss.driver.api.core.servererrors.InvalidQueryException e) {
            throw new IllegalArgumentException(settings.keyspace() + "." + table + " cannot be read: "
                    + e.getMessage() + " (is cassandra.keyspace right? 'schema apply' creates the tables)", e);
        }
    }

    /** The request's range, cut at the page token's position; null when nothing is left. */
    private static TimeRange narrowed(ReadRequest<?> request, PageToken after) {
        TimeRange range = request.range();
        if (after == null) {
            return range;
        }
        long at = after.time().toEpochMilli();
        long from = request.order() == ReadOrder.ASC ? Math.max(range.fromMillis(), at) : range.fromMillis();
        long to = request.order() == ReadOrder.DESC ? Math.min(range.toMillis(), at == Long.MAX_VALUE ? at : at + 1)
                : range.toMillis();
        return from < to ? new TimeRange(Instant.ofEpochMilli(from), Instant.ofEpochMilli(to)) : null;
    }

    /** The series to read: the request's, every sensor type, or one null for tables without series. */
    private static List<String> series(ReadRequest<?> request) {
        if (!request.table().hasSeries()) {
            return java.util.Collections.singletonList(null);
        }
        if (!request.series().isEmpty()) {
            return request.series().stream().distinct().toList();
        }
        return SensorType.getClassSchema().getEnumSymbols();
    }
}
