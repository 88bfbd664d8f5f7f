package io.apiary.ingest.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Whether any Cassandra node is compacting or flushing, read from each node's
 * {@code system_views.thread_pools} virtual table (Cassandra 4.0 and later): a node is busy while
 * a thread pool for compactions or memtable flushes ({@code CompactionExecutor},
 * {@code MemtableFlushWriter}, {@code PerDiskMemtableFlushWriter_N}, {@code MemtablePostFlush})
 * has an active or pending task. Virtual tables are local to the node that answers, so each node
 * is asked in turn. Used by {@link RunMeter#settle} between benchmark runs; called from one
 * thread.
 */
final class NodeActivity implements BooleanSupplier {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final CqlSession session;

    /** @param session a session to the cluster whose nodes to ask, not null */
    NodeActivity(CqlSession session) {
        this.session = session;
    }

    /**
     * @return true if some node has a compaction or flush running or queued
     * @throws RuntimeException the driver's error when a node cannot answer (for example, a
     *                          role without access to {@code system_views})
     */
    @Override
    public boolean getAsBoolean() {
        for (Node node : session.getMetadata().getNodes().values()) {
            SimpleStatement query = SimpleStatement.newInstance(
                            "SELECT name, active_tasks, pending_tasks FROM system_views.thread_pools")
                    .setNode(node)
                    .setTimeout(TIMEOUT);
            for (Row row : session.execute(query)) {
                if (compactsOrFlushes(row.getString("name"))
                        && count(row, "active_tasks") + count(row, "pending_tasks") > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A count column, int or bigint as the node's version types it; null counts as 0. */
    private static long count(Row row, String column) {
        Object value = row.getObject(column);
        return value instanceof Number n ? n.longValue() : 0;
    }

    /**
     * @param pool a thread pool's name as {@code system_views.thread_pools} gives it
     * @return whether the pool runs compactions or memtable flushes
     */
    static boolean compactsOrFlushes(String pool) {
        return pool.equals("CompactionExecutor")
                || pool.equals("MemtableFlushWriter")
                || pool.startsWith("PerDiskMemtableFlushWriter")
                || pool.equals("MemtablePostFlush");
    }
}
