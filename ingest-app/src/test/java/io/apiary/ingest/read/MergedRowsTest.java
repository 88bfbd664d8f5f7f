package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.testing.RandomCases;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The merge of partition cursors, without Cassandra: pages are served by stand-ins of the
 * driver's result set (our own merge logic is under test, not the driver). Over seeded random
 * layouts (see {@link RandomCases}): partitions overlapping in time like hash shards, or disjoint
 * like time shards, rows tied in time across sensors, the same row in two partitions (two shard
 * schemes), pages of random sizes, and answers that arrive later; partitions read for every sensor
 * at once ({@link MultiSeriesCursor}), sorted in memory or, past the bound on rows held, read
 * again sensor by sensor.
 */
class MergedRowsTest {

    private static final List<String> SENSORS = List.of("HUMIDITY", "TEMPERATURE", "WEIGHT");

    static Stream<Arguments> layouts() {
        return RandomCases.cases(200, r -> new Object[] {r.nextInt(1, 12), r.nextBoolean(), r.nextInt(1, 9),
                r.nextInt(1, 6), r.nextBoolean() ? ReadOrder.ASC : ReadOrder.DESC, r.split()});
    }

    @ParameterizedTest(name = "{0}: {1} partitions, overlapping={2}, {3} in flight, pages of {4}, {5}")
    @MethodSource("layouts")
    void should_return_the_union_of_the_partitions_in_order_once_each_within_the_in_flight_bound(String seed,
            int partitions, boolean overlapping, int maxInFlight, int pageSize, ReadOrder order,
            SplittableRandom random) {
        List<List<TelemetryRow>> layout = layout(partitions, overlapping, random);
        TreeSet<TelemetryRow> expected = new TreeSet<>(ascending());
        layout.forEach(expected::addAll);
        Pages pages = new Pages(pageSize, order, random.split());
        List<PartitionCursor<TelemetryRow>> cursors = cursors(layout, pages);

        List<TelemetryRow> read = new ArrayList<>();
        try (MergedRows<TelemetryRow> rows = new MergedRows<>(cursors, order, maxInFlight, null, partitions)) {
            while (rows.hasNext()) {
                read.add(rows.next());
            }
            assertThat(rows.stats().rows()).isEqualTo(read.size());
        }

        List<TelemetryRow> want = new ArrayList<>(order == ReadOrder.ASC ? expected : expected.descendingSet());
        assertThat(read).containsExactlyElementsOf(want);
        assertThat(pages.maxOutstanding.get()).isLessThanOrEqualTo(maxInFlight);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void should_return_only_rows_after_the_resume_position(String seed, int partitions, boolean overlapping,
            int maxInFlight, int pageSize, ReadOrder order, SplittableRandom random) {
        List<List<TelemetryRow>> layout = layout(partitions, overlapping, random);
        TreeSet<TelemetryRow> all = new TreeSet<>(ascending());
        layout.forEach(all::addAll);
        List<TelemetryRow> ordered = new ArrayList<>(order == ReadOrder.ASC ? all : all.descendingSet());
        Assumptions.assumeFalse(ordered.isEmpty(), "no rows to resume after");
        TelemetryRow position = ordered.get(random.nextInt(ordered.size()));

        List<TelemetryRow> read = new ArrayList<>();
        Pages pages = new Pages(pageSize, order, random.split());
        try (MergedRows<TelemetryRow> rows = new MergedRows<>(cursors(layout, pages), order, maxInFlight,
                position, partitions)) {
            while (rows.hasNext()) {
                read.add(rows.next());
            }
        }

        assertThat(read).containsExactlyElementsOf(ordered.subList(ordered.indexOf(position) + 1, ordered.size()));
    }

    static Stream<Arguments> multiSeriesLayouts() {
        return RandomCases.cases(200, r -> new Object[] {r.nextInt(1, 12), r.nextBoolean(), r.nextInt(1, 9),
                r.nextInt(1, 6), r.nextBoolean() ? ReadOrder.ASC : ReadOrder.DESC, r.split(), r.nextInt(1, 40)});
    }

    @ParameterizedTest(name = "{0}: {1} partitions, overlapping={2}, {3} in flight, pages of {4}, {5}, "
            + "at most {7} rows held")
    @MethodSource("multiSeriesLayouts")
    void should_merge_partitions_read_for_every_sensor_at_once_and_fall_back_per_sensor_when_too_large(String seed,
            int partitions, boolean overlapping, int maxInFlight, int pageSize, ReadOrder order,
            SplittableRandom random, int maxBuffered) {
        List<List<TelemetryRow>> layout = layout(partitions, overlapping, random);
        TreeSet<TelemetryRow> expected = new TreeSet<>(ascending());
        layout.forEach(expected::addAll);
        Pages pages = new Pages(pageSize, order, random.split());
        List<MultiSeriesCursor<TelemetryRow>> cursors = new ArrayList<>();
        for (int p = 0; p < layout.size(); p++) {
            List<TelemetryRow> rows = layout.get(p);
            SeriesTable.Slice slice = slice(p, rows);
            // Cassandra's clustering order of hive_telemetry: sensor_type ASC, reading_time DESC.
            List<TelemetryRow> stored = rows.stream().sorted(Comparator.comparing(TelemetryRow::sensorType)
                    .thenComparing(TelemetryRow::readingTime, Comparator.reverseOrder())).toList();
            cursors.add(new MultiSeriesCursor<>(SeriesTable.TELEMETRY, slice, SENSORS, "partition " + p,
                    () -> pages.asStored(stored),
                    sensor -> new PartitionCursor<>(SeriesTable.TELEMETRY, slice, "partition " + slice.label() + sensor,
                            () -> pages.first(rows.stream().filter(r -> r.sensorType().equals(sensor)).toList())),
                    MergedRows.rowOrder(order), maxBuffered));
        }

        List<TelemetryRow> read = new ArrayList<>();
        try (MergedRows<TelemetryRow> rows = new MergedRows<>(cursors, order, maxInFlight, null, partitions)) {
            rows.forEachRemaining(read::add);
        }

        assertThat(read).containsExactlyElementsOf(order == ReadOrder.ASC ? expected : expected.descendingSet());
        assertThat(pages.maxOutstanding.get()).isLessThanOrEqualTo(maxInFlight);
        // A cursor falls back once it holds maxBuffered rows and more pages remain: after the
        // first whole number of pages at or past the bound, if rows are left.
        int rowsBeforeFallBack = (maxBuffered + pageSize - 1) / pageSize * pageSize;
        for (int p = 0; p < layout.size(); p++) {
            assertThat(cursors.get(p).fellBack()).as("partition %d of %d rows", p, layout.get(p).size())
                    .isEqualTo(layout.get(p).size() > rowsBeforeFallBack);
        }
        if (layout.stream().allMatch(rows -> rows.size() <= rowsBeforeFallBack)) {
            // One request per partition and page, whatever the number of sensors.
            assertThat(pages.requests.get()).isEqualTo(layout.stream()
                    .mapToInt(rows -> Math.max(1, (rows.size() + pageSize - 1) / pageSize)).sum());
        }
    }

    /**
     * Rows of each partition, every one sorted in ascending order: overlapping partitions draw
     * times from one span (as hash shards of a day do); disjoint ones from consecutive spans (time
     * shards). One row in five of a partition is copied into the next one, as a partition of a
     * second shard scheme would hold it.
     */
    private static List<List<TelemetryRow>> layout(int partitions, boolean overlapping, SplittableRandom random) {
        List<List<TelemetryRow>> layout = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            long spanStart = overlapping ? 0 : p * 1_000L;
            TreeSet<TelemetryRow> rows = new TreeSet<>(ascending());
            int count = random.nextInt(0, 30);
            for (int i = 0; i < count; i++) {
                rows.add(row(spanStart + random.nextInt(1_000), SENSORS.get(random.nextInt(SENSORS.size()))));
            }
            if (p > 0) {
                layout.get(p - 1).stream().filter(x -> random.nextInt(5) == 0).forEach(rows::add);
            }
            layout.add(new ArrayList<>(rows));
        }
        return layout;
    }

    private static List<PartitionCursor<TelemetryRow>> cursors(List<List<TelemetryRow>> layout, Pages pages) {
        List<PartitionCursor<TelemetryRow>> cursors = new ArrayList<>();
        for (int p = 0; p < layout.size(); p++) {
            List<TelemetryRow> rows = layout.get(p);
            cursors.add(new PartitionCursor<>(SeriesTable.TELEMETRY, slice(p, rows), "partition " + p,
                    () -> pages.first(rows)));
        }
        return cursors;
    }

    /** Partition {@code p}, holding exactly the span of its rows. */
    private static SeriesTable.Slice slice(int p, List<TelemetryRow> rows) {
        long from = rows.stream().mapToLong(r -> r.time().toEpochMilli()).min().orElse(0);
        long to = rows.stream().mapToLong(r -> r.time().toEpochMilli()).max().orElse(0) + 1;
        return new SeriesTable.Slice(List.of(p), "p" + p, from, to);
    }

    private static Comparator<TelemetryRow> ascending() {
        return Comparator.comparing(TelemetryRow::time).thenComparing(TelemetryRow::series);
    }

    private static TelemetryRow row(long millis, String sensor) {
        return new TelemetryRow("hive", sensor, Instant.ofEpochMilli(millis), millis, "u", "gw");
    }

    /**
     * Serves the rows of a partition in pages, in the order the merge asked for (the rows are given
     * ascending; a descending merge gets them reversed, as Cassandra's ORDER BY would). Half the
     * answers come at once, the others a little later from another thread.
     */
    private static final class Pages {
        private final int pageSize;
        private final SplittableRandom random;
        private final AtomicInteger outstanding = new AtomicInteger();
        private final AtomicInteger maxOutstanding = new AtomicInteger();
        private final AtomicInteger requests = new AtomicInteger();
        private final boolean descending;

        Pages(int pageSize, ReadOrder order, SplittableRandom random) {
            this.pageSize = pageSize;
            this.descending = order == ReadOrder.DESC;
            this.random = random;
        }

        CompletableFuture<AsyncResultSet> first(List<TelemetryRow> rows) {
            return page(descending ? reversed(rows) : rows, 0);
        }

        /** Serves the rows as given, as Cassandra serves a query without ORDER BY in clustering order. */
        CompletableFuture<AsyncResultSet> asStored(List<TelemetryRow> rows) {
            return page(rows, 0);
        }

        private CompletableFuture<AsyncResultSet> page(List<TelemetryRow> rows, int from) {
            requests.incrementAndGet();
            int now = outstanding.incrementAndGet();
            maxOutstanding.accumulateAndGet(now, Math::max);
            AsyncResultSet page = resultSet(rows, from);
            CompletableFuture<AsyncResultSet> answer = new CompletableFuture<>();
            Runnable answerIt = () -> {
                // Counted as answered before anyone waiting on the answer runs.
                outstanding.decrementAndGet();
                answer.complete(page);
            };
            if (random.nextBoolean()) {
                answerIt.run();
            } else {
                // Answered later, on another thread, as the driver does.
                CompletableFuture.delayedExecutor(random.nextInt(0, 300), TimeUnit.MICROSECONDS).execute(answerIt);
            }
            return answer;
        }

        private static List<TelemetryRow> reversed(List<TelemetryRow> rows) {
            List<TelemetryRow> copy = new ArrayList<>(rows);
            java.util.Collections.reverse(copy);
            return copy;
        }

        private AsyncResultSet resultSet(List<TelemetryRow> rows, int from) {
            List<Row> page = new ArrayList<>();
            int end = Math.min(rows.size(), from + pageSize);
            for (int i = from; i < end; i++) {
                page.add(cqlRow(rows.get(i)));
            }
            return (AsyncResultSet) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {AsyncResultSet.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "currentPage" -> page;
                        case "hasMorePages" -> end < rows.size();
                        case "fetchNextPage" -> page(rows, end);
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        private static Row cqlRow(TelemetryRow row) {
            return (Row) Proxy.newProxyInstance(MergedRowsTest.class.getClassLoader(), new Class<?>[] {Row.class},
                    (proxy, method, args) -> switch (method.getName() + (args == null ? "" : args[0])) {
                        case "getString0" -> row.hiveId();
                        case "getString1" -> row.sensorType();
                        case "getInstant2" -> row.readingTime();
                        case "getDouble3" -> row.value();
                        case "getString4" -> row.unit();
                        case "getString5" -> row.gatewayId();
                        default -> throw new UnsupportedOperationException(method.getName() + args[0]);
                    });
        }
    }
}
