package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.tables.TableNames;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The rows the last {@code table verify} of a copy named as missing in the target or different,
 * kept in the table {@value TableNames#TABLE_VERIFY_FINDINGS} of the configured keyspace so that
 * {@code table copy} can check, after copying them again, that they are restored
 * ({@link RestoreCheck}). One partition per copy id ({@link CopyPlan#copyId}), one row per
 * finding, clustered by the target token and key of the row. A verification worker replaces the
 * findings of its share of the target's ranges (one range delete per range, then the inserts), so
 * the table holds what the last verification of each range found, whatever the worker count. At
 * most {@link #MAX_KEPT} findings per worker are kept (the first found); extra rows in the target
 * are not kept (a copy cannot remove them). Worker 0 creates the table when it is missing; the
 * others wait for it. Thread-safe (the driver's session is).
 */
public final class VerifyFindings {

    /** Most findings a verification worker keeps: {@link RestoreCheck} reads two partitions per finding. */
    public static final int MAX_KEPT = 10_000;

    /**
     * One row a verification named.
     *
     * @param targetToken the Murmur3 token of its target partition
     * @param targetKey   its target primary key's bytes ({@link VerifiedRow#key}), not null
     * @param sourceToken the token of the source partition it is copied from
     * @param kind        what the verification found: {@code MISSING} or {@code DIFFERENT}
     * @param rowText     its key as text for the operator ({@code hive_id=..., ...}), not null
     */
    public record Finding(long targetToken, ByteBuffer targetKey, long sourceToken, String kind, String rowText) {}

    private final CqlSession session;
    private final String table;
    private final ConsistencyLevel consistency;

    /**
     * @param session     an open session
     * @param keyspace    the keyspace of the table ({@code cassandra.keyspace})
     * @param consistency the consistency of its reads and writes
     */
    public VerifyFindings(CqlSession session, String keyspace, ConsistencyLevel consistency) {
        this.session = session;
        this.table = keyspace + "." + TableNames.TABLE_VERIFY_FINDINGS;
        this.consistency = consistency;
    }

    /** @return the CQL that creates the table */
    String createCql() {
        return "CREATE TABLE IF NOT EXISTS " + table + " (copy_id text, target_token bigint, target_key blob, "
                + "source_token bigint, kind text, row_text text, found_at timestamp, "
                + "PRIMARY KEY ((copy_id), target_token, target_key)) WITH comment = 'Rows the last ingest-app table "
                + "verify named as missing or different, checked by table copy after it copies them again "
                + "(docs/platform.md, \"Changing a table''s key\")'";
    }

    /**
     * Creates the table when missing (worker 0), or waits until it exists (other workers).
     *
     * @param create whether to create it
     * @param wait   how long the others wait
     * @throws IllegalStateException if it does not appear in time
     */
    public void ensureTable(boolean create, Duration wait) {
        CopyProgress.ensure(session, table, createCql(), create, wait);
    }

    /** @return whether the table exists (no verification has run in this keyspace otherwise) */
    public boolean exists() {
        return session.getMetadata()
                .getKeyspace(table.substring(0, table.indexOf('.')))
                .flatMap(k -> k.getTable(TableNames.TABLE_VERIFY_FINDINGS))
                .isPresent();
    }

    /**
     * Replaces a worker's findings: forgets every finding of its ranges, then saves the new ones.
     * The table must exist ({@link #ensureTable}).
     *
     * @param copyId   the copy
     * @param ranges   the worker's share of the target's ranges
     * @param findings what it found in them, at most {@link #MAX_KEPT}
     * @throws RuntimeException the driver's error when a write fails
     */
    public void replace(String copyId, Collection<TokenRange> ranges, List<Finding> findings) {
        PreparedStatement delete = session.prepare(
                "DELETE FROM " + table + " WHERE copy_id = ? AND target_token > ? AND target_token <= ?");
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (TokenRange range : ranges) {
            writes.add(session.executeAsync(delete.bind(copyId, range.start(), range.end())
                            .setConsistencyLevel(consistency)
                            .setIdempotent(true))
                    .toCompletableFuture());
        }
        CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).join();
        writes.clear();
        PreparedStatement insert = session.prepare("INSERT INTO " + table
                + " (copy_id, target_token, target_key, source_token, kind, row_text, found_at) VALUES (?, ?, ?, ?, ?, "
                + "?, ?)");
        Instant now = Instant.now();
        for (Finding finding : findings) {
            writes.add(session.executeAsync(insert.bind(
                                    copyId,
                                    finding.targetToken(),
                                    finding.targetKey().duplicate(),
                                    finding.sourceToken(),
                                    finding.kind(),
                                    finding.rowText(),
                                    now)
                            .setConsistencyLevel(consistency)
                            .setIdempotent(true))
                    .toCompletableFuture());
        }
        CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).join();
    }

    /**
     * @param copyId the copy
     * @return its findings, by target token; empty when the table does not exist
     */
    public List<Finding> load(String copyId) {
        List<Finding> findings = new ArrayList<>();
        if (!exists()) {
            return findings;
        }
        for (Row row : session.execute(SimpleStatement.newInstance(
                        "SELECT target_token, target_key, source_token, kind, row_text FROM " + table
                                + " WHERE copy_id = ?",
                        copyId)
                .setConsistencyLevel(consistency))) {
            findings.add(new Finding(
                    row.getLong(0), row.getByteBuffer(1), row.getLong(2), row.getString(3), row.getString(4)));
        }
        return findings;
    }

    /** @return the table, {@code keyspace.table} */
    public String table() {
        return table;
    }
}
