package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.bucket.DayBucket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A stand-in for Cassandra's answers to the reader's statements on {@code hive_telemetry_v2} and
 * the legacy {@code hive_telemetry}, for unit tests of the read plan: rows are kept per table and
 * partition (bucketed with the topology's own functions), and each statement the reader sends is
 * answered as Cassandra would (the partition named by its whole key, the clustering restrictions,
 * clustering order or its reverse, pages), from the statement's text and values. Every statement
 * is checked to name one partition by its whole key. Thread-safe.
 */
final class FakeTelemetryTables implements ReadBackend {

    /** One statement sent: the table, its text and values. */
    record Sent(String table, String cql, List<Object> values) {}

    private final ShardScheme scheme;
    private final Map<String, List<TelemetryRow>> tables = new TreeMap<>();
    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final List<String> existenceAsked = new CopyOnWriteArrayList<>();

    /** @param scheme how rows are bucketed into partitions, as the topology writes them */
    FakeTelemetryTables(ShardScheme scheme) {
        this.scheme = scheme;
    }

    /**
     * @param table a table name, e.g. hive_telemetry_v2 or hive_telemetry
     * @param rows  rows to hold (a legacy table ignores their sensor ids)
     * @return this
     */
    FakeTelemetryTables with(String table, List<TelemetryRow> rows) {
        tables.computeIfAbsent(table, t -> new ArrayList<>()).addAll(rows);
        return this;
    }

    /** @return the statements sent so far (first pages; further pages are not listed) */
    List<Sent> sent() {
        return sent;
    }

    /** @return the tables whose existence was asked */
    List<String> existenceAsked() {
        return existenceAsked;
    }

    @Override
    public boolean tableExists(String table) {
        existenceAsked.add(table);
        return tables.containsKey(table);
    }

    private final List<Integer> probeSizes = new CopyOnWriteArrayList<>();
    private volatile boolean refuseProbes;

    /** @return the partitions each probe asked about, in order */
    List<Integer> probeSizes() {
        return probeSizes;
    }

    /** Refuses probes as a guardrail on partition keys in a SELECT does. */
    FakeTelemetryTables refusingProbes() {
        refuseProbes = true;
        return this;
    }

    @Override
    public Supplier<CompletionStage<AsyncResultSet>> request(String table, String cql, Object[] values, int pageSize) {
        if (cql.endsWith(" WHERE hive_id = ? AND day IN ? AND shard IN ? PER PARTITION LIMIT 1")) {
            return () -> probe(table, values);
        }
        assertThat(cql)
                .contains(" WHERE hive_id = ? AND day = ? AND shard = ? AND ")
                .doesNotContainIgnoringCase("ALLOW FILTERING");
        assertThat(tables).as("prepared on a table that exists").containsKey(table);
        return () -> {
            sent.add(new Sent(table, cql, List.of(values)));
            return CompletableFuture.completedFuture(page(answer(table, cql, values), 0, pageSize));
        };
    }

    /** One row (day, shard) per asked partition that holds a row. */
    private CompletionStage<AsyncResultSet> probe(String table, Object[] v) {
        List<?> days = (List<?>) v[1];
        List<?> shards = (List<?>) v[2];
        probeSizes.add(days.size() * shards.size());
        if (refuseProbes) {
            return CompletableFuture.failedFuture(
                    new com.datastax.oss.driver.api.core.servererrors.InvalidQueryException(
                            null, "Guardrail partition_keys_in_select violated: 1000 > 20"));
        }
        Set<List<Object>> held = new java.util.LinkedHashSet<>();
        for (TelemetryRow r : tables.getOrDefault(table, List.of())) {
            long millis = r.readingTime().toEpochMilli();
            Object day = DayBucket.of(millis);
            Object shard = scheme.strategy().shard(r.hiveId(), r.sensorType(), millis, scheme.shards());
            if (r.hiveId().equals(v[0]) && days.contains(day) && shards.contains(shard)) {
                held.add(List.of(day, shard));
            }
        }
        return CompletableFuture.completedFuture(page(
                held.stream().map(k -> FakeResults.row(k.get(0), k.get(1))).toList(),
                0,
                Math.max(1, days.size() * shards.size())));
    }

    private List<Row> answer(String table, String cql, Object[] v) {
        boolean legacy = !cql.contains("sensor_id");
        Predicate<TelemetryRow> where = r -> r.hiveId().equals(v[0])
                && DayBucket.of(r.readingTime().toEpochMilli()).equals(v[1])
                && scheme.strategy()
                                .shard(
                                        r.hiveId(),
                                        r.sensorType(),
                                        r.readingTime().toEpochMilli(),
                                        scheme.shards())
                        == (Integer) v[2];
        int next = 3;
        if (cql.contains("sensor_type IN ?")) {
            Set<?> types = Set.copyOf((List<?>) v[next++]);
            where = where.and(r -> types.contains(r.sensorType()));
        } else {
            String type = (String) v[next++];
            where = where.and(r -> r.sensorType().equals(type));
        }
        if (cql.contains("sensor_id = ?")) {
            String id = (String) v[next++];
            where = where.and(r -> r.sensorId().equals(id));
        }
        if (cql.contains("reading_time >= ?")) {
            Instant from = (Instant) v[next++];
            Instant to = (Instant) v[next];
            where = where.and(
                    r -> !r.readingTime().isBefore(from) && r.readingTime().isBefore(to));
        }
        // A legacy row has no sensor id: one row per (type, time), the last written wins.
        Function<TelemetryRow, String> key = legacy
                ? r -> r.sensorType() + r.readingTime()
                : r -> r.sensorType() + "/" + r.sensorId() + "/" + r.readingTime();
        Map<String, TelemetryRow> stored = new TreeMap<>();
        tables.get(table).stream().filter(where).forEach(r -> stored.put(key.apply(r), r));
        Comparator<TelemetryRow> clustering = Comparator.comparing(TelemetryRow::sensorType);
        if (!legacy) {
            clustering = clustering.thenComparing(TelemetryRow::sensorId);
        }
        clustering = clustering.thenComparing(TelemetryRow::readingTime, Comparator.reverseOrder());
        List<TelemetryRow> rows = stored.values().stream()
                .sorted(cql.endsWith("reading_time ASC") ? clustering.reversed() : clustering)
                .toList();
        if (cql.contains("GROUP BY")) {
            return rows.stream()
                    .map(r -> r.sensorType() + "\n" + r.sensorId())
                    .distinct()
                    .map(s -> FakeResults.row((Object[]) s.split("\n")))
                    .toList();
        }
        return rows.stream()
                .map(legacy ? FakeResults::legacyTelemetryRow : FakeResults::telemetryRow)
                .toList();
    }

    private static AsyncResultSet page(List<Row> rows, int from, int pageSize) {
        int end = Math.min(rows.size(), from + pageSize);
        return FakeResults.page(
                rows.subList(from, end),
                end < rows.size(),
                () -> CompletableFuture.completedFuture(page(rows, end, pageSize)));
    }
}
