package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.bucket.DayBucket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The read path for analysts: an entity's rows of one table over a time range, found in exactly
 * the partitions that can hold them (the bucket math of {@link PartitionSelector} and
 * {@link SeriesTable}), queried in parallel with at most {@code read.max.in.flight.requests}
 * requests in flight, and merged in time order (oldest or newest first), with a limit and
 * stateless page tokens. Every query is one partition (its whole key restricted by equality):
 * never {@code ALLOW FILTERING}, never a token range, and an {@code IN} on the partition key only
 * in the probe of a sparse read (below).
 *
 * <p>Requests: one query per partition that can hold the read's rows, whatever the number of
 * sensor types and sensors asked for, plus a query per further page; a week of every sensor type
 * at 96 {@code time} shards is 672 requests. A read of {@code hive_telemetry_v2} over more than
 * {@code read.probe.partitions} partitions first asks which of them hold rows, that many per
 * request, and queries only those ({@code ReadPlanner#existing}); the probes are sent when the
 * read is opened, before its first row, also for a limited read and again for each page. Which query a partition of {@code hive_telemetry_v2}
 * gets, and what the layout costs (edge partitions read whole for their types; with {@code hash}
 * shards every partition spans a day, so a short range over-reads), is in {@link TelemetryPlanner}.
 *
 * <p>Migration window: a legacy layout ({@code read.telemetry.legacy.table},
 * {@code read.alerts.legacy.table}) is read beside the current table when it exists in the
 * keyspace (the driver's schema metadata: no request when it does not), through the same bucket
 * math, one more query per partition; each reading is returned once ({@link SeriesTable.LegacyRule}).
 *
 * <p>Thread-safe: one reader serves concurrent reads; each read's {@link MergedRows} belongs to
 * its caller. Prepared statements are cached per statement text.
 */
public final class HiveDataReader {

    private final ReadBackend backend;
    private final ReadSettings settings;

    /**
     * @param session  an open session, not null; the caller closes it
     * @param settings keyspace, shard schemes, legacy tables and limits, not null
     */
    public HiveDataReader(CqlSession session, ReadSettings settings) {
        this(new SessionBackend(session, settings), settings);
    }

    /**
     * @param backend  where requests go, not null
     * @param settings keyspace, shard schemes, legacy tables and limits, not null
     */
    HiveDataReader(ReadBackend backend, ReadSettings settings) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Reads every row of a request, lazily: partitions are queried as the caller iterates.
     *
     * @param request what to read, not null
     * @return the rows in the request's order; close it to stop early
     * @throws IllegalArgumentException if the request's page token is not one of this table and order,
     *                                  the read would plan more than {@code read.max.partition.queries},
     *                                  or the keyspace or table is missing (schema not applied)
     * @throws ReadException            when opened, if a probe of a sparse read fails; while iterating, if
     *                                  Cassandra cannot answer a partition's query
     */
    public <R extends TimedRow> MergedRows<R> stream(ReadRequest<R> request) {
        return open(request, settings.pageSize(), BufferedPartitionCursor.MAX_BUFFERED_ROWS);
    }

    /**
     * Reads one page: at most {@code limit} rows, and a token for the rest.
     *
     * @param request what to read, not null
     * @param limit   most rows returned, at least 1
     * @return the page
     * @throws IllegalArgumentException if {@code limit} is below 1, or as {@link #stream}
     * @throws ReadException            if Cassandra cannot answer a partition's query
     */
    public <R extends TimedRow> ReadPage<R> page(ReadRequest<R> request, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the limit must be at least 1, was " + limit);
        }
        // A limited read fetches one page (read.page.size rows) of a partition read whole at most:
        // a partition that needs more pages is read again series by series, with pages of
        // limit + 1 rows, which costs less than reading the whole partition for a few of its rows.
        int maxBufferedRows = Math.min(BufferedPartitionCursor.MAX_BUFFERED_ROWS, settings.pageSize());
        try (MergedRows<R> rows = open(request, (int) Math.min(settings.pageSize(), limit + 1L), maxBufferedRows)) {
            List<R> page = new ArrayList<>();
            while (page.size() < limit && rows.hasNext()) {
                page.add(rows.next());
            }
            String next = null;
            if (rows.hasNext()) {
                R lastRow = page.get(page.size() - 1);
                next = new PageToken(
                                request.table().name(),
                                request.order(),
                                lastRow.time(),
                                lastRow.series(),
                                lastRow.seriesId())
                        .encode();
            }
            ReadStats stats = rows.stats();
            return new ReadPage<>(
                    page,
                    next,
                    new ReadStats(
                            stats.partitionsInRange(),
                            stats.partitionsRead(),
                            stats.requests(),
                            page.size(),
                            stats.elapsed(),
                            stats.tables()));
        }
    }

    @SuppressWarnings("unchecked")
    private <R extends TimedRow> MergedRows<R> open(ReadRequest<R> request, int pageSize, int maxBufferedRows) {
        long startNanos = System.nanoTime();
        SeriesTable<R> table = request.table();
        PageToken after = request.pageToken() == null
                ? null
                : PageToken.decode(request.pageToken(), table.name(), request.order());
        TimeRange range = narrowed(request, after);
        if (range == null) {
            return new MergedRows<>(
                    List.of(),
                    request.order(),
                    settings.maxInFlight(),
                    after,
                    0,
                    List.of(table.name()),
                    table.legacyRule(),
                    row -> true);
        }
        // refused before anything is asked, the legacy table's existence included, when it cannot be probed
        boolean probable = table.hasSeries()
                && settings.probePartitions() > 0
                && plannedQueries(request, range, 1) > settings.probePartitions();
        if (!probable) {
            checkPlanSize(request, range, List.of(table.name()));
        }
        String legacy = legacyTable(request);
        if (probable && legacy.isEmpty()) {
            checkProbeSize(request, range);
        } else if (probable) {
            checkPlanSize(request, range, List.of(table.name()));
        }
        if (!legacy.isEmpty()) {
            checkPlanSize(request, range, List.of(table.name(), legacy));
        }
        ReadPlanner<R> planner = new ReadPlanner<>(backend, settings, request, range, pageSize, maxBufferedRows);
        // Only hive_telemetry_v2 has series, so the planner's rows are TelemetryRows.
        ReadPlanner.Plan<R> plan = table.hasSeries()
                ? (ReadPlanner.Plan<R>) (ReadPlanner.Plan<?>)
                        TelemetryPlanner.plan((ReadPlanner<TelemetryRow>) (ReadPlanner<?>) planner, legacy)
                : planner.plan(legacy);
        if (plan.partitions() > settings.maxPartitionQueries()) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "reading %s of %s from %s to %s would "
                            + "query %,d partitions (of %,d in the range), more than read.max.partition.queries"
                            + " (%,d): narrow the range, or raise that setting",
                    table.name(),
                    request.entity(),
                    range.from(),
                    range.to(),
                    plan.partitions(),
                    plan.partitionsInRange(),
                    settings.maxPartitionQueries()));
        }
        MergedRows<R> rows = new MergedRows<>(
                plan.cursors(),
                request.order(),
                settings.maxInFlight(),
                after,
                plan.partitionsInRange(),
                plan.tables(),
                table.legacyRule(),
                plan.wanted());
        rows.countEarlierWork(plan.probeRequests(), startNanos);
        return rows;
    }

    /** Days x shards of every scheme in a range, for each of {@code tables} tables (1 for hive_activity). */
    private long plannedQueries(ReadRequest<?> request, TimeRange range, int tables) {
        SeriesTable<?> table = request.table();
        if (table == SeriesTable.ACTIVITY) {
            return 1;
        }
        long days = DayBucket.epochDay(range.toMillis() - 1) - DayBucket.epochDay(range.fromMillis()) + 1;
        long shards = !table.sharded()
                ? 1
                : settings.schemes(table).stream()
                        .mapToLong(ShardScheme::shards)
                        .sum();
        return days * shards * tables;
    }

    /** Refuses a probed read that would ask about more partitions than {@code read.max.probed.partitions}. */
    private void checkProbeSize(ReadRequest<?> request, TimeRange range) {
        long partitions = plannedQueries(request, range, 1);
        if (partitions > Math.max(settings.maxProbedPartitions(), settings.maxPartitionQueries())) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "reading %s of %s from %s to %s would "
                            + "ask about %,d partitions, more than read.max.probed.partitions (%,d) and "
                            + "read.max.partition.queries (%,d): narrow the range, or raise read.max.probed.partitions",
                    request.table().name(),
                    request.entity(),
                    range.from(),
                    range.to(),
                    partitions,
                    settings.maxProbedPartitions(),
                    settings.maxPartitionQueries()));
        }
    }

    /**
     * The legacy table to read beside the request's: the configured one, if the table has a legacy
     * layout, the read can have rows there (for hive_telemetry_v2: the sensor {@code default} of
     * some type is asked for) and it exists; else empty.
     */
    private String legacyTable(ReadRequest<?> request) {
        String legacy = settings.legacyTable(request.table());
        if (legacy.isEmpty()) {
            return "";
        }
        if (request.table().hasSeries()
                && SensorSelection.of(request.sensors())
                        .typesWithDefaultSensor()
                        .isEmpty()) {
            return "";
        }
        return backend.tableExists(legacy) ? legacy : "";
    }

    /**
     * Refuses a read that would plan more partition queries than {@code read.max.partition.queries},
     * before planning them: days x shards of every scheme, for each table read (exact for whole days).
     */
    private void checkPlanSize(ReadRequest<?> request, TimeRange range, List<String> tables) {
        SeriesTable<?> table = request.table();
        long days = DayBucket.epochDay(range.toMillis() - 1) - DayBucket.epochDay(range.fromMillis()) + 1;
        long shards = !table.sharded()
                ? 1
                : settings.schemes(table).stream()
                        .mapToLong(ShardScheme::shards)
                        .sum();
        long perDay = table == SeriesTable.ACTIVITY ? 0 : shards * tables.size();
        long queries = table == SeriesTable.ACTIVITY ? 1 : days * perDay;
        if (queries > settings.maxPartitionQueries()) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "reading %s of %s from %s to %s "
                            + "could take up to %,d partition queries (%,d days x %,d per day%s), more than "
                            + "read.max.partition.queries (%,d): narrow the range, or raise that setting",
                    table.name(),
                    request.entity(),
                    range.from(),
                    range.to(),
                    queries,
                    days,
                    perDay,
                    tables.size() > 1 ? ", in " + String.join(" and the legacy ", tables) : "",
                    settings.maxPartitionQueries()));
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
        long to = request.order() == ReadOrder.DESC
                ? Math.min(range.toMillis(), at == Long.MAX_VALUE ? at : at + 1)
                : range.toMillis();
        return from < to ? new TimeRange(Instant.ofEpochMilli(from), Instant.ofEpochMilli(to)) : null;
    }
}
