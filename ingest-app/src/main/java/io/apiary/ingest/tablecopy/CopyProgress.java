package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.tables.TableNames;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * A copy's progress in Cassandra, table {@value TableNames#TABLE_COPY_PROGRESS} of the configured
 * keyspace: one partition per copy (its id names source, target, the target's shard scheme and
 * the split count) and one row per token range, with the token up to which every row is written
 * ({@code last_token}), the rows copied and whether the range is done. So a copy killed at any
 * moment (a pod deleted, SIGKILL) and started again with the same arguments resumes each range
 * where it stopped; the rows after the last saved token are written again, which changes nothing
 * (same values, same write time). Worker 0 creates the table when it is missing; the others wait
 * for it (concurrent creation of one table is unsafe in Cassandra 5.0). Thread-safe (the driver's
 * session is).
 */
public final class CopyProgress {

    /** How a range stood when last saved. */
    public record Saved(long lastToken, long rows, boolean done) {}

    private final CqlSession session;
    private final String table;
    private final ConsistencyLevel consistency;
    private PreparedStatement save;

    /**
     * @param session     an open session
     * @param keyspace    the keyspace of the progress table
     * @param consistency the consistency of its reads and writes (quorum-like, so a restart on
     *                    another node reads what was saved)
     */
    public CopyProgress(CqlSession session, String keyspace, ConsistencyLevel consistency) {
        this.session = session;
        this.table = keyspace + "." + TableNames.TABLE_COPY_PROGRESS;
        this.consistency = consistency;
    }

    /** @return the CQL that creates the table */
    String createCql() {
        return "CREATE TABLE IF NOT EXISTS " + table + " (copy_id text, range_start bigint, range_end bigint, "
                + "last_token bigint, rows_copied bigint, done boolean, updated_at timestamp, "
                + "PRIMARY KEY ((copy_id), range_start, range_end)) WITH comment = 'Progress of ingest-app table "
                + "copy: one partition per copy, one row per token range (docs/platform.md, \"Changing a table''s key\")'";
    }

    /**
     * Creates the table when missing (worker 0), or waits until it exists (other workers).
     *
     * @param create whether to create it
     * @param wait   how long the others wait
     * @throws IllegalStateException if it does not appear in time
     */
    public void ensureTable(boolean create, Duration wait) {
        ensure(session, table, createCql(), create, wait);
        save = session.prepare("INSERT INTO " + table + " (copy_id, range_start, range_end, last_token, rows_copied, "
                + "done, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    }

    /**
     * Creates a table of the command's own when missing ({@code create}), or waits until it exists:
     * concurrent creation of one table is unsafe in Cassandra 5.0, so only worker 0 creates it.
     *
     * @param session   an open session
     * @param table     {@code keyspace.table}
     * @param createCql its {@code CREATE TABLE IF NOT EXISTS} statement
     * @param create    whether to create it
     * @param wait      how long to wait for it otherwise
     * @throws IllegalStateException if it does not appear in time, or when interrupted
     */
    static void ensure(CqlSession session, String table, String createCql, boolean create, Duration wait) {
        String keyspace = table.substring(0, table.indexOf('.'));
        String name = table.substring(table.indexOf('.') + 1);
        long deadline = System.nanoTime() + wait.toNanos();
        while (session.getMetadata()
                .getKeyspace(keyspace)
                .flatMap(k -> k.getTable(name))
                .isEmpty()) {
            if (create) {
                session.execute(SimpleStatement.newInstance(createCql).setTimeout(Duration.ofSeconds(60)));
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the table " + table + " does not exist after " + wait.toSeconds()
                        + " s: worker 0 creates it; start worker 0 (--worker-index 0) or create it with: "
                        + createCql);
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + table, e);
            }
        }
    }

    /**
     * @param copyId the copy
     * @return every saved range of it
     */
    public Map<TokenRange, Saved> load(String copyId) {
        Map<TokenRange, Saved> saved = new HashMap<>();
        for (Row row : session.execute(SimpleStatement.newInstance(
                        "SELECT range_start, range_end, last_token, " + "rows_copied, done FROM " + table
                                + " WHERE copy_id = ?",
                        copyId)
                .setConsistencyLevel(consistency))) {
            saved.put(
                    new TokenRange(row.getLong(0), row.getLong(1)),
                    new Saved(row.getLong(2), row.getLong(3), row.getBoolean(4)));
        }
        return saved;
    }

    /**
     * Saves a range's progress.
     *
     * @param copyId    the copy
     * @param range     the range
     * @param lastToken every row at or before it is written
     * @param rows      rows copied so far
     * @param done      whether the range is complete
     * @return the write's completion
     */
    public CompletionStage<?> save(String copyId, TokenRange range, long lastToken, long rows, boolean done) {
        return session.executeAsync(save.bind(copyId, range.start(), range.end(), lastToken, rows, done, Instant.now())
                .setConsistencyLevel(consistency)
                .setIdempotent(true));
    }

    /**
     * Forgets the progress of some ranges of a copy ({@code --restart}: a worker forgets its own
     * ranges only, so workers restarting at different moments do not erase each other's progress).
     *
     * @param copyId the copy
     * @param ranges the ranges
     */
    public void delete(String copyId, java.util.Collection<TokenRange> ranges) {
        PreparedStatement delete =
                session.prepare("DELETE FROM " + table + " WHERE copy_id = ? AND range_start = ? AND range_end = ?");
        java.util.List<java.util.concurrent.CompletableFuture<?>> deletions = new java.util.ArrayList<>();
        for (TokenRange range : ranges) {
            deletions.add(session.executeAsync(delete.bind(copyId, range.start(), range.end())
                            .setConsistencyLevel(consistency)
                            .setIdempotent(true))
                    .toCompletableFuture());
        }
        java.util.concurrent.CompletableFuture.allOf(
                        deletions.toArray(new java.util.concurrent.CompletableFuture<?>[0]))
                .join();
    }

    /** @return the table, {@code keyspace.table} */
    public String table() {
        return table;
    }
}
