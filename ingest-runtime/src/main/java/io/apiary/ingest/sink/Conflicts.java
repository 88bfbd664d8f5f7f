package io.apiary.ingest.sink;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Finds conflicting rows among the rows of one write: rows of the same partition and clustering
 * key (one primary key) whose regular values differ. Cassandra keeps one of them whole (the
 * greater write timestamp, {@link WriteTimestamps}); the sink only counts them. Identical rows (a
 * replay, a re-sent reading) are no conflict. Stateless and thread-safe.
 */
final class Conflicts {

    private Conflicts() {}

    /**
     * @param rows rows bound from one table, in any order; usually one partition's
     * @return how many rows carry a version of their primary key other than the first one seen
     *         ({@link #count(List, Function, ToLongFunction)}); 0 for a table whose rows of one key
     *         are successive updates ({@link RowBinding#rowsAreUpdates}: an hour's interim sums)
     */
    static int count(List<SinkRow> rows) {
        if (rows.size() < 2 || rows.get(0).table().rowsAreUpdates()) {
            return 0;
        }
        return count(
                rows,
                row -> row.table().primaryKey(row.write()),
                row -> row.write().fingerprint());
    }

    /**
     * @param rows        rows in any order, not null
     * @param primaryKey  a row's primary key, comparable by value
     * @param fingerprint a fingerprint of a row's other values
     * @param <R>         row type
     * @return how many rows carry a version of their primary key other than the first one seen:
     *         0 when every key has one version, 1 for two different versions of one key, 2 for
     *         three, ...; identical versions count once
     */
    static <R> int count(List<R> rows, Function<R, ?> primaryKey, ToLongFunction<R> fingerprint) {
        // a key's first fingerprint as a Long; a set only for the rare key seen in two versions
        Map<Object, Object> versions = new HashMap<>(rows.size() * 4 / 3 + 1);
        int conflicts = 0;
        for (R row : rows) {
            Object key = primaryKey.apply(row);
            long print = fingerprint.applyAsLong(row);
            Object seen = versions.putIfAbsent(key, print);
            if (seen == null) {
                continue;
            }
            if (seen instanceof Long first) {
                if (first != print) {
                    Set<Long> both = new HashSet<>(4);
                    both.add(first);
                    both.add(print);
                    versions.put(key, both);
                    conflicts++;
                }
            } else {
                @SuppressWarnings("unchecked")
                Set<Long> several = (Set<Long>) seen;
                if (several.add(print)) {
                    conflicts++;
                }
            }
        }
        return conflicts;
    }
}
