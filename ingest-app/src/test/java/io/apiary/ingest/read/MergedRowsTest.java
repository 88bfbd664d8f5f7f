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
 * schemes), pages of random sizes, and answers that arrive later.
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
            long from = rows.stream().mapToLong(r -> r.time().toEpochMilli()).min().orElse(0);
            long to = rows.stream().mapToLong(r -> r.time().toEpochMilli()).max().orElse(0) + 1;
            SeriesTable.Slice slice = new SeriesTable.Slice(List.of(p), "p" + p, from, to);
            cursors.add(new PartitionCursor<>(SeriesTable.TELEMETRY, slice, "partition " + p,
                    () -> pages.first(rows)));
        }
        return cursors;
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
        private final boolean descending;

        Pages(int pageSize, ReadOrder order, SplittableRandom random) {
            this.pageSize = pageSize;
            this.descending = order == ReadOrder.DESC;
            this.random = random;
        }

        CompletableFuture<AsyncResultSet> first(List<TelemetryRow> rows) {
            return page(rows, 0);
        }

        private CompletableFuture<AsyncResultSet> page(List<TelemetryRow> rows, int from) {
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

        private AsyncResultSet resultSet(List<TelemetryRow> ascendingRows, int from) {
            List<TelemetryRow> rows = new ArrayList<>(ascendingRows);
            List<Row> page = new ArrayList<>();
            int end = Math.min(rows.size(), from + pageSize);
            for (int i = from; i < end; i++) {
                page.add(cqlRow(rows.get(descending ? rows.size() - 1 - i : i)));
            }
            return (AsyncResultSet) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {AsyncResultSet.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "currentPage" -> page;
                        case "hasMorePages" -> end < rows.size();
                        case "fetchNextPage" -> page(ascendingRows, end);
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
