package io.apiary.ingest.sink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Combines small single-partition groups whose partitions have the same replicas into one
 * multi-partition UNLOGGED batch: one request instead of several, still coordinated by a
 * replica of every partition in it, so the coordinator sends no extra messages. Pure logic.
 *
 * <p>Guarantees: every group comes out in exactly one combination; a combination holds groups of
 * one replica set only, at most {@code maxPartitions} groups (Cassandra warns above its
 * {@code unlogged_batch_across_partitions_warn_threshold}, 10 by default, CASSANDRA-9282), and
 * at most {@code maxRows} rows and {@code maxBytes} bytes unless it is a single group; groups
 * with more than {@code smallRows} rows, or whose replica set is unknown (null), stay alone.
 * Order is kept within a replica set. Stateless and thread-safe.
 */
public final class ReplicaCombiner {

    private ReplicaCombiner() {}

    /**
     * @param groups        single-partition groups, each of one distinct partition
     * @param replicas      a group's replica set (value equality), or null if unknown
     * @param rows          a group's row count
     * @param bytes         a group's size, as counted against {@code maxBytes}
     * @param smallRows     groups with more rows than this are never combined
     * @param maxPartitions most groups per combination, at least 1
     * @param maxRows       most rows per combination
     * @param maxBytes      most bytes per combination
     * @param <T>           group type
     * @return combinations, each a non-empty list of groups
     */
    public static <T> List<List<T>> combine(
            List<T> groups,
            Function<T, Object> replicas,
            ToIntFunction<T> rows,
            ToLongFunction<T> bytes,
            int smallRows,
            int maxPartitions,
            int maxRows,
            long maxBytes) {
        List<List<T>> out = new ArrayList<>();
        Map<Object, List<T>> open = new LinkedHashMap<>();
        Map<Object, long[]> openSize = new LinkedHashMap<>();
        for (T group : groups) {
            Object replicaSet = rows.applyAsInt(group) > smallRows ? null : replicas.apply(group);
            if (replicaSet == null || maxPartitions < 2) {
                out.add(List.of(group));
                continue;
            }
            List<T> current = open.get(replicaSet);
            long[] size = openSize.get(replicaSet);
            if (current != null
                    && (current.size() >= maxPartitions
                            || size[0] + rows.applyAsInt(group) > maxRows
                            || size[1] + bytes.applyAsLong(group) > maxBytes)) {
                out.add(current);
                current = null;
            }
            if (current == null) {
                current = new ArrayList<>();
                size = new long[2];
                open.put(replicaSet, current);
                openSize.put(replicaSet, size);
            }
            current.add(group);
            size[0] += rows.applyAsInt(group);
            size[1] += bytes.applyAsLong(group);
        }
        out.addAll(open.values());
        return out;
    }
}
