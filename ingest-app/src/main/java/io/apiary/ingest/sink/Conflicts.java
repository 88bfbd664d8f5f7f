package io.apiary.ingest.sink;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds conflicting rows among the rows of one write: rows of the same partition and clustering
 * key (one primary key) whose regular values differ. Cassandra keeps one of them whole (the
 * greater write timestamp, {@link WriteTimestamps}); the sink only counts them. Identical rows (a
 * replay, a re-sent reading) are no conflict. Stateless and thread-safe.
 */
final class Conflicts {

    private Conflicts() {
    }

    /**
     * @param rows rows bound from one table, in any order; usually one partition's
     * @return how many rows carry a version of their primary key other than the first one seen:
     *         0 when every key has one version, 1 for two different versions of one key, 2 for
     *         three, ...
     */
    static int count(List<BoundRow> rows) {
        if (rows.size() < 2) {
            return 0;
        }
        Map<List<ByteBuffer>, Set<Long>> versions = new HashMap<>();
        int conflicts = 0;
        for (BoundRow row : rows) {
            SinkTable<?> table = row.row().table();
            List<ByteBuffer> key = List.of(row.routingKey(), table.clusteringKey(row.statement()));
            Set<Long> seen = versions.computeIfAbsent(key, k -> new HashSet<>(2));
            if (seen.add(row.write().fingerprint()) && seen.size() > 1) {
                conflicts++;
            }
        }
        return conflicts;
    }
}
