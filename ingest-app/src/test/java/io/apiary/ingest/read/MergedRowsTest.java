package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.identity.AlertIds;
import io.apiary.ingest.testing.RandomCases;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The merge of partition cursors, without Cassandra: pages are served by stand-ins of the
 * driver's result set (our own merge logic is under test, not the driver). Over seeded random
 * layouts (see {@link RandomCases}): partitions overlapping in time like hash shards, or disjoint
 * like time shards, rows tied in time across sensor types and across sensors of one type, the same
 * row in two partitions (two shard schemes), pages of random sizes, and answers that arrive later;
 * partitions read for every sensor at once ({@link BufferedPartitionCursor}), sorted in memory or,
 * past the bound on rows held, read again sensor by sensor; and a legacy table read beside the
 * current one, whose rows yield to the current table's.
 */
class MergedRowsTest {

    private static final List<String> TYPES = List.of("HUMIDITY", "TEMPERATURE", "WEIGHT");
    private static final List<String> IDS = List.of("a", "b", "default");

    static Stream<Arguments> layouts() {
        return RandomCases.cases(r -> new Object[] {
            r.nextInt(1, 12),
            r.nextBoolean(),
            r.nextInt(1, 9),
            r.nextInt(1, 6),
            r.nextBoolean() ? ReadOrder.ASC : ReadOrder.DESC,
            r.split()
        });
    }

    @ParameterizedTest(name = "{0}: {1} partitions, overlapping={2}, {3} in flight, pages of {4}, {5}")
    @MethodSource("layouts")
    void should_return_the_union_of_the_partitions_in_order_once_each_within_the_in_flight_bound(
            String seed,
            int partitions,
            boolean overlapping,
            int maxInFlight,
            int pageSize,
            ReadOrder order,
            SplittableRandom random) {
        List<List<TelemetryRow>> layout = layout(partitions, overlapping, random);
        TreeSet<TelemetryRow> expected = new TreeSet<>(ascending());
        layout.forEach(expected::addAll);
        Pages pages = new Pages(pageSize, order, random.split());
        List<PartitionCursor<TelemetryRow>> cursors = cursors(layout, pages, false);

        List<TelemetryRow> read = new ArrayList<>();
        try (MergedRows<TelemetryRow> rows = merged(cursors, order, maxInFlight, null)) {
            while (rows.hasNext()) {
                read.add(rows.next());
            }
            assertThat(rows.stats().rows()).isEqualTo(read.size());
        }

        assertThat(read).containsExactlyElementsOf(inOrder(expected, order));
        assertThat(pages.maxOutstanding.get()).isLessThanOrEqualTo(maxInFlight);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void should_return_only_rows_after_the_resume_position(
            String seed,
            int partitions,
            boolean overlapping,
            int maxInFlight,
            int pageSize,
            ReadOrder order,
            SplittableRandom random) {
        List<List<TelemetryRow>> layout = layout(partitions, overlapping, random);
        TreeSet<TelemetryRow> all = new TreeSet<>(ascending());
        layout.forEach(all::addAll);
        List<TelemetryRow> ordered = inOrder(all, order);
        // A row read before, or any key (the row may have expired since, or the layout be empty).
        TelemetryRow position = !ordered.isEmpty() && random.nextBoolean()
                ? ordered.get(random.nextInt(ordered.size()))
                : row(
                        Instant.ofEpochMilli(random.nextLong(-10, partitions * 1_000L + 10)),
                        TYPES.get(random.nextInt(TYPES.size())),
                        IDS.get(random.nextInt(IDS.size())),
                        0);
        NavigableSet<TelemetryRow> after =
                order == ReadOrder.ASC ? all.tailSet(position, false) : all.headSet(position, false);

        List<TelemetryRow> read = new ArrayList<>();
        Pages pages = new Pages(pageSize, order, random.split());
        try (MergedRows<TelemetryRow> rows = merged(cursors(layout, pages, false), order, maxInFlight, position)) {
            rows.forEachRemaining(read::add);
        }

        assertThat(read).containsExactlyElementsOf(inOrder(new TreeSet<>(after), order));
    }

    static Stream<Arguments> bufferedLayouts() {
        return RandomCases.cases(r -> new Object[] {
            r.nextInt(1, 12),
            r.nextBoolean(),
            r.nextInt(1, 9),
            r.nextInt(1, 6),
            r.nextBoolean() ? ReadOrder.ASC : ReadOrder.DESC,
            r.split(),
            r.nextInt(1, 40)
        });
    }

    @ParameterizedTest(
            name = "{0}: {1} partitions, overlapping={2}, {3} in flight, pages of {4}, {5}, "
                    + "at most {7} rows fetched")
    @MethodSource("bufferedLayouts")
    void should_keep_the_asked_rows_of_partitions_read_whole_and_fall_back_sensor_by_sensor_when_too_large(
            String seed,
            int partitions,
            boolean overlapping,
            int maxInFlight,
            int pageSize,
            ReadOrder order,
            SplittableRandom random,
            int maxBuffered) {
        List<List<TelemetryRow>> layout = layout(partitions, overlapping, random);
        // Sensor b of WEIGHT is not asked for; the slice of each partition ends before its last
        // millisecond, so its rows there lie outside the read's range.
        Predicate<TelemetryRow> asked =
                r -> !(r.sensorType().equals("WEIGHT") && r.sensorId().equals("b"));
        TreeSet<TelemetryRow> expected = new TreeSet<>(ascending());
        Pages pages = new Pages(pageSize, order, random.split());
        List<BufferedPartitionCursor<TelemetryRow>> cursors = new ArrayList<>();
        List<Integer> stored = new ArrayList<>();
        for (int p = 0; p < layout.size(); p++) {
            List<TelemetryRow> rows = layout.get(p);
            SeriesTable.Slice whole = slice(p, rows, false);
            SeriesTable.Slice slice = new SeriesTable.Slice(
                    whole.table(),
                    false,
                    whole.keys(),
                    whole.label(),
                    whole.fromMillis(),
                    Math.max(whole.fromMillis() + 1, whole.toMillis() - 1));
            rows.stream()
                    .filter(asked)
                    .filter(r -> slice.contains(r.readingTime().toEpochMilli()))
                    .forEach(expected::add);
            // Cassandra's clustering order of hive_telemetry_v2: sensor_type, sensor_id ASC, reading_time DESC.
            List<TelemetryRow> clustered = rows.stream()
                    .sorted(Comparator.comparing(TelemetryRow::sensorType)
                            .thenComparing(TelemetryRow::sensorId)
                            .thenComparing(TelemetryRow::readingTime, Comparator.reverseOrder()))
                    .toList();
            stored.add(clustered.size());
            cursors.add(new BufferedPartitionCursor<>(
                    slice,
                    "partition " + p,
                    () -> pages.asStored(clustered, FakeResults::telemetryRow),
                    TableLayout.TELEMETRY::map,
                    r -> asked.test(r) && slice.contains(r.readingTime().toEpochMilli()),
                    requests -> sensorsOf(rows).stream()
                            .filter(asked)
                            .map(sensor -> new PartitionCursor<>(
                                    TableLayout.TELEMETRY::map,
                                    slice,
                                    "sensor",
                                    () -> pages.first(
                                            rows.stream()
                                                    .filter(r -> sameSensor(r, sensor))
                                                    .filter(r -> slice.contains(
                                                            r.readingTime().toEpochMilli()))
                                                    .toList(),
                                            FakeResults::telemetryRow)))
                            .toList(),
                    MergedRows.rowOrder(order),
                    maxBuffered));
        }

        List<TelemetryRow> read = new ArrayList<>();
        try (MergedRows<TelemetryRow> rows = merged(cursors, order, maxInFlight, null)) {
            rows.forEachRemaining(read::add);
        }

        assertThat(read).containsExactlyElementsOf(inOrder(expected, order));
        assertThat(pages.maxOutstanding.get()).isLessThanOrEqualTo(maxInFlight);
        // A cursor falls back once it has fetched maxBuffered rows and more pages remain: after the
        // first whole number of pages at or past the bound, if rows are left.
        int rowsBeforeFallBack = (maxBuffered + pageSize - 1) / pageSize * pageSize;
        for (int p = 0; p < layout.size(); p++) {
            assertThat(cursors.get(p).fellBack())
                    .as("partition %d of %d rows", p, stored.get(p))
                    .isEqualTo(stored.get(p) > rowsBeforeFallBack);
        }
        if (stored.stream().allMatch(n -> n <= rowsBeforeFallBack)) {
            // One request per partition and page, whatever the number of sensors.
            assertThat(pages.requests.get())
                    .isEqualTo(stored.stream()
                            .mapToInt(n -> Math.max(1, (n + pageSize - 1) / pageSize))
                            .sum());
        }
    }

    @ParameterizedTest(name = "{0}: {1} partitions, overlapping={2}, {3} in flight, pages of {4}, {5}")
    @MethodSource("layouts")
    void should_return_a_legacy_reading_only_when_no_current_reading_has_its_type_and_instant(
            String seed,
            int partitions,
            boolean overlapping,
            int maxInFlight,
            int pageSize,
            ReadOrder order,
            SplittableRandom random) {
        List<List<TelemetryRow>> current = layout(partitions, overlapping, random);
        // The legacy table: rows of sensor 'default' only, half of them at an instant and type that
        // the current table holds too (a migrated copy, or a reading the new pipeline wrote with
        // its real sensor ids), some held twice (two shard schemes).
        List<TelemetryRow> currentRows = current.stream().flatMap(List::stream).toList();
        List<List<TelemetryRow>> legacy = new ArrayList<>();
        for (List<TelemetryRow> partition : layout(partitions, overlapping, random)) {
            TreeSet<TelemetryRow> rows = new TreeSet<>(ascending());
            partition.forEach(r -> rows.add(asDefault(r)));
            currentRows.stream()
                    .filter(r -> random.nextBoolean())
                    .map(r -> asDefault(r))
                    .forEach(rows::add);
            legacy.add(new ArrayList<>(rows));
        }
        Set<String> currentInstants =
                currentRows.stream().map(r -> r.readingTime() + r.sensorType()).collect(Collectors.toSet());
        TreeSet<TelemetryRow> expected = new TreeSet<>(ascending());
        expected.addAll(currentRows);
        legacy.stream()
                .flatMap(List::stream)
                .filter(r -> !currentInstants.contains(r.readingTime() + r.sensorType()))
                .forEach(expected::add);
        List<TelemetryRow> want = inOrder(expected, order);
        TelemetryRow position = want.isEmpty() || random.nextBoolean() ? null : want.get(random.nextInt(want.size()));
        Pages pages = new Pages(pageSize, order, random.split());
        List<PartitionCursor<TelemetryRow>> cursors = new ArrayList<>(cursors(current, pages, false));
        cursors.addAll(cursors(legacy, pages, true));

        List<TelemetryRow> read = new ArrayList<>();
        try (MergedRows<TelemetryRow> rows = merged(cursors, order, maxInFlight, position)) {
            rows.forEachRemaining(read::add);
        }

        assertThat(read)
                .containsExactlyElementsOf(
                        position == null ? want : want.subList(want.indexOf(position) + 1, want.size()));
    }

    @ParameterizedTest
    @EnumSource(ReadOrder.class)
    void should_return_every_sensor_of_a_type_at_one_instant_ordered_by_sensor_id(ReadOrder order) {
        Instant t = Instant.parse("2021-07-15T10:00:00Z");
        // Each partition's rows by time, then type (as a cursor returns them); sensors of a type spread over both.
        List<TelemetryRow> first = List.of(row(t, "HUMIDITY", "inside", 2), row(t, "TEMPERATURE", "outside", 1));
        List<TelemetryRow> second = List.of(row(t, "HUMIDITY", "default", 4), row(t, "TEMPERATURE", "inside", 3));
        Pages pages = new Pages(1, order, new SplittableRandom(1));

        List<TelemetryRow> read = new ArrayList<>();
        try (MergedRows<TelemetryRow> rows = merged(cursors(List.of(first, second), pages, false), order, 2, null)) {
            rows.forEachRemaining(read::add);
        }

        List<String> ascending =
                List.of("HUMIDITY default", "HUMIDITY inside", "TEMPERATURE inside", "TEMPERATURE outside");
        assertThat(read)
                .extracting(r -> r.sensorType() + " " + r.sensorId())
                .containsExactlyElementsOf(order == ReadOrder.ASC ? ascending : reversed(ascending));
    }

    @Test
    void should_hide_a_legacy_reading_behind_any_current_reading_of_its_type_and_instant() {
        Instant t1 = Instant.parse("2021-07-15T10:00:00Z");
        Instant t2 = t1.plusSeconds(60);
        Instant t3 = t1.plusSeconds(120);
        // t1: the new pipeline wrote two real sensors; t2: a migrated copy; t3: only in the legacy table.
        List<TelemetryRow> current = List.of(
                row(t1, "TEMPERATURE", "inside", 35.1),
                row(t1, "TEMPERATURE", "outside", 21.0),
                row(t2, "TEMPERATURE", "default", 34.0));
        List<TelemetryRow> legacy = List.of(
                row(t1, "HUMIDITY", "default", 60.0),
                row(t1, "TEMPERATURE", "default", 35.1),
                row(t2, "TEMPERATURE", "default", 34.0),
                row(t3, "TEMPERATURE", "default", 33.0));
        Pages pages = new Pages(2, ReadOrder.ASC, new SplittableRandom(2));
        List<PartitionCursor<TelemetryRow>> cursors = new ArrayList<>(cursors(List.of(current), pages, false));
        cursors.addAll(cursors(List.of(legacy), pages, true));

        List<TelemetryRow> read = new ArrayList<>();
        try (MergedRows<TelemetryRow> rows = merged(cursors, ReadOrder.ASC, 4, null)) {
            rows.forEachRemaining(read::add);
        }

        assertThat(read)
                .containsExactly(
                        row(t1, "HUMIDITY", "default", 60.0),
                        row(t1, "TEMPERATURE", "inside", 35.1),
                        row(t1, "TEMPERATURE", "outside", 21.0),
                        row(t2, "TEMPERATURE", "default", 34.0),
                        row(t3, "TEMPERATURE", "default", 33.0));
    }

    @Test
    void should_let_rows_not_asked_for_hide_legacy_rows_without_returning_them() {
        Instant t = Instant.parse("2021-07-15T10:00:00Z");
        List<TelemetryRow> current = List.of(row(t, "TEMPERATURE", "inside", 35.1));
        List<TelemetryRow> legacy =
                List.of(row(t, "TEMPERATURE", "default", 35.1), row(t.plusSeconds(1), "TEMPERATURE", "default", 35.2));
        Pages pages = new Pages(5, ReadOrder.DESC, new SplittableRandom(3));
        List<PartitionCursor<TelemetryRow>> cursors = new ArrayList<>(cursors(List.of(current), pages, false));
        cursors.addAll(cursors(List.of(legacy), pages, true));

        List<TelemetryRow> read = new ArrayList<>();
        // Asked for TEMPERATURE:default only: the sensor inside is read to hide the legacy row of its instant.
        try (MergedRows<TelemetryRow> rows = new MergedRows<>(
                cursors,
                ReadOrder.DESC,
                4,
                null,
                2,
                List.of("current", "legacy"),
                SeriesTable.LegacyRule.SAME_TIME_AND_SERIES,
                r -> r.sensorId().equals("default"))) {
            rows.forEachRemaining(read::add);
        }

        assertThat(read).containsExactly(row(t.plusSeconds(1), "TEMPERATURE", "default", 35.2));
    }

    @ParameterizedTest
    @EnumSource(ReadOrder.class)
    void should_sort_the_alerts_of_one_millisecond_by_id_and_hide_a_legacy_alert_only_behind_its_own_id(
            ReadOrder order) {
        Instant t = Instant.parse("2021-07-15T10:00:00.123Z");
        String copiedId = AlertIds.derive("h", "WARNING", "T", "copied");
        String legacyOnlyId = AlertIds.derive("h", "WARNING", "T", "only in the legacy table");
        // A migrated copy (its id derived from its content), an alert with the agent's own id, and a later one.
        List<AlertRow> current = List.of(
                alert(t, copiedId, "copied"),
                alert(t, "agent-7", "own id"),
                alert(t.plusMillis(1), "agent-8", "later"));
        // Legacy rows have no id: the reader derives it from their content ("x" is not read).
        List<AlertRow> legacy = List.of(alert(t, "x", "copied"), alert(t, "x", "only in the legacy table"));
        Pages pages = new Pages(1, order, new SplittableRandom(4));
        // agent_alerts_v2 returns one millisecond's alerts by alert id ascending in both time orders.
        Function<List<AlertRow>, List<AlertRow>> asServed = rows -> rows.stream()
                .sorted(Comparator.comparing(
                                AlertRow::alertTime,
                                order == ReadOrder.ASC ? Comparator.naturalOrder() : Comparator.<Instant>reverseOrder())
                        .thenComparing(AlertRow::alertId))
                .toList();
        long from = t.toEpochMilli();
        List<PartitionCursor<AlertRow>> cursors = List.of(
                new PartitionCursor<>(
                        TableLayout.ALERTS::map,
                        new SeriesTable.Slice("agent_alerts_v2", false, List.of(0), "p0", from, from + 2),
                        "current",
                        () -> pages.asStored(asServed.apply(current), FakeResults::alertRow)),
                new PartitionCursor<>(
                        TableLayout.LEGACY_ALERTS::map,
                        new SeriesTable.Slice("agent_alerts", true, List.of(0), "p0", from, from + 2),
                        "legacy",
                        () -> pages.asStored(asServed.apply(legacy), FakeResults::legacyAlertRow)));

        List<AlertRow> read = new ArrayList<>();
        try (MergedRows<AlertRow> rows = new MergedRows<>(
                cursors,
                order,
                2,
                null,
                2,
                List.of("agent_alerts_v2", "agent_alerts"),
                SeriesTable.LegacyRule.SAME_ROW,
                r -> true)) {
            rows.forEachRemaining(read::add);
        }

        List<String> ascending = Stream.of(
                        alert(t, copiedId, "copied"),
                        alert(t, "agent-7", "own id"),
                        alert(t, legacyOnlyId, "only in the legacy table"),
                        alert(t.plusMillis(1), "agent-8", "later"))
                .sorted(MergedRows.rowOrder(ReadOrder.ASC))
                .map(MergedRowsTest::describe)
                .toList();
        assertThat(read)
                .extracting(MergedRowsTest::describe)
                .containsExactlyElementsOf(order == ReadOrder.ASC ? ascending : reversed(ascending));
    }

    /**
     * Rows of each partition, every one sorted in ascending order: overlapping partitions draw
     * times from one span (as hash shards of a day do); disjoint ones from consecutive spans (time
     * shards). Times are drawn from few values, so sensors of one type often share an instant. One
     * row in five of a partition is copied into the next one, as a partition of a second shard
     * scheme would hold it.
     */
    private static List<List<TelemetryRow>> layout(int partitions, boolean overlapping, SplittableRandom random) {
        List<List<TelemetryRow>> layout = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            long spanStart = overlapping ? 0 : p * 1_000L;
            TreeSet<TelemetryRow> rows = new TreeSet<>(ascending());
            int count = random.nextInt(0, 30);
            for (int i = 0; i < count; i++) {
                // The value follows from the key, so a row held in two partitions is the same row.
                int type = random.nextInt(TYPES.size());
                int id = random.nextInt(IDS.size());
                long millis = spanStart + random.nextInt(100) * 10L;
                rows.add(row(
                        Instant.ofEpochMilli(millis), TYPES.get(type), IDS.get(id), millis + 0.1 * type + 0.01 * id));
            }
            if (p > 0) {
                layout.get(p - 1).stream().filter(x -> random.nextInt(5) == 0).forEach(rows::add);
            }
            layout.add(new ArrayList<>(rows));
        }
        return layout;
    }

    private static List<PartitionCursor<TelemetryRow>> cursors(
            List<List<TelemetryRow>> layout, Pages pages, boolean legacy) {
        List<PartitionCursor<TelemetryRow>> cursors = new ArrayList<>();
        for (int p = 0; p < layout.size(); p++) {
            List<TelemetryRow> rows = layout.get(p);
            cursors.add(
                    legacy
                            ? new PartitionCursor<>(
                                    TableLayout.LEGACY_TELEMETRY::map,
                                    slice(p, rows, true),
                                    "legacy " + p,
                                    () -> pages.first(rows, FakeResults::legacyTelemetryRow))
                            : new PartitionCursor<>(
                                    TableLayout.TELEMETRY::map,
                                    slice(p, rows, false),
                                    "partition " + p,
                                    () -> pages.first(rows, FakeResults::telemetryRow)));
        }
        return cursors;
    }

    private static <R extends TimedRow> MergedRows<R> merged(
            List<? extends SliceCursor<R>> cursors, ReadOrder order, int maxInFlight, TimedRow after) {
        return new MergedRows<>(
                cursors,
                order,
                maxInFlight,
                after,
                cursors.size(),
                List.of("t"),
                SeriesTable.LegacyRule.SAME_TIME_AND_SERIES,
                r -> true);
    }

    /** Partition {@code p} of the current or the legacy table, holding exactly the span of its rows. */
    private static SeriesTable.Slice slice(int p, List<TelemetryRow> rows, boolean legacy) {
        long from = rows.stream().mapToLong(r -> r.time().toEpochMilli()).min().orElse(0);
        long to = rows.stream().mapToLong(r -> r.time().toEpochMilli()).max().orElse(0) + 1;
        return new SeriesTable.Slice(legacy ? "legacy" : "current", legacy, List.of(p), "p" + p, from, to);
    }

    private static List<TelemetryRow> sensorsOf(List<TelemetryRow> rows) {
        return rows.stream()
                .map(r -> row(Instant.EPOCH, r.sensorType(), r.sensorId(), 0))
                .distinct()
                .toList();
    }

    private static boolean sameSensor(TelemetryRow a, TelemetryRow b) {
        return a.sensorType().equals(b.sensorType()) && a.sensorId().equals(b.sensorId());
    }

    private static Comparator<TimedRow> ascending() {
        return MergedRows.rowOrder(ReadOrder.ASC);
    }

    private static <T extends TimedRow> List<T> inOrder(TreeSet<T> rows, ReadOrder order) {
        return new ArrayList<>(order == ReadOrder.ASC ? rows : rows.descendingSet());
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        Collections.reverse(copy);
        return copy;
    }

    private static TelemetryRow row(Instant time, String type, String sensor, double value) {
        return new TelemetryRow("hive", type, sensor, time, value, "u", "gw");
    }

    /** The legacy row of a reading: sensor 'default', one row per type and time (its value follows from those). */
    private static TelemetryRow asDefault(TelemetryRow r) {
        return new TelemetryRow(
                r.hiveId(),
                r.sensorType(),
                "default",
                r.readingTime(),
                r.readingTime().toEpochMilli() + 0.1 * TYPES.indexOf(r.sensorType()) + 0.05,
                r.unit(),
                r.gatewayId());
    }

    private static AlertRow alert(Instant time, String id, String message) {
        return new AlertRow("agent", time, id, "h", "WARNING", "T", message);
    }

    private static String describe(AlertRow r) {
        return r.alertTime().toEpochMilli() % 1000 + " " + r.alertId() + " " + r.message();
    }

    /**
     * Serves the rows of a partition in pages: {@link #first} in the order the merge asked for (the
     * rows are given ascending; a descending merge gets them reversed, as Cassandra's ORDER BY
     * would), {@link #asStored} as given. Half the answers come at once, the others a little later
     * from another thread.
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

        <T> CompletableFuture<AsyncResultSet> first(List<T> rows, Function<T, Row> columns) {
            return page(descending ? reversed(rows) : rows, 0, columns);
        }

        <T> CompletableFuture<AsyncResultSet> asStored(List<T> rows, Function<T, Row> columns) {
            return page(rows, 0, columns);
        }

        private synchronized <T> CompletableFuture<AsyncResultSet> page(
                List<T> rows, int from, Function<T, Row> columns) {
            requests.incrementAndGet();
            int now = outstanding.incrementAndGet();
            maxOutstanding.accumulateAndGet(now, Math::max);
            int end = Math.min(rows.size(), from + pageSize);
            AsyncResultSet page = FakeResults.page(
                    rows.subList(from, end).stream().map(columns).toList(),
                    end < rows.size(),
                    () -> page(rows, end, columns));
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
                CompletableFuture.delayedExecutor(random.nextInt(0, 300), TimeUnit.MICROSECONDS)
                        .execute(answerIt);
            }
            return answer;
        }
    }
}
