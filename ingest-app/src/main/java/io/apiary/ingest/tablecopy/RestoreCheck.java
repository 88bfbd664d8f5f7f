package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.apiary.ingest.sink.SinkTable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/**
 * After a copy, checks that the rows the last {@code table verify} named ({@link VerifyFindings})
 * in the ranges the copy just copied are now in the target as the source holds them. A copy
 * writes each row with the source's write time, so a delete (tombstone) or a write in the target
 * newer than that shadows the copy's write: Cassandra acknowledges it and the row stays missing or
 * different. Writing is no proof, so this reads the rows back, and only those: one single-token
 * range read of the source and one of the target per distinct partition of the findings (at most
 * {@link VerifyFindings#MAX_KEPT} per verification worker), not the whole table. A row the copy
 * did not write again (a range not copied by this run) is not checked. Not thread-safe: one
 * {@link #run} at a time, from one thread ({@link TableJobs#checkRestored} sets it up).
 *
 * @param <T> the target's row record type
 */
public final class RestoreCheck<T extends SpecificRecord> {

    /** What became of a named row after the copy. */
    enum Outcome {
        /** The target holds the source's values with the source's write time or a newer one. */
        RESTORED,
        /** Not in the target: a newer delete shadows the copy's write. */
        STILL_MISSING,
        /** In the target with other values (or an older write time): a newer write shadows the copy's. */
        STILL_DIFFERENT,
        /** The source no longer holds the row (or it cannot be a target row): nothing to restore. */
        NOT_IN_SOURCE
    }

    /**
     * What the check found.
     *
     * @param checked     findings checked (in the ranges copied)
     * @param restored    of those, restored
     * @param notInSource of those, no longer in the source
     * @param notRestored of those, still missing or different, in the order found; each line names
     *                    the row, at most {@code maxReported} lines (all are counted in
     *                    {@code notRestoredCount})
     * @param notRestoredCount findings still missing or different
     */
    public record Result(int checked, int restored, int notInSource, List<String> notRestored, int notRestoredCount) {
        /** Nothing checked. */
        public static final Result NONE = new Result(0, 0, 0, List.of(), 0);
    }

    private final RangeScans scans;
    private final CopyPlan<T> plan;
    private final SinkTable<T> table;
    private final RangeReader.Routing sourceRouting;
    private final RangeReader.Routing targetRouting;
    private final TokenMap tokenMap;
    private final int maxReported;

    /**
     * @param scans         reads the tables
     * @param plan          the copy
     * @param table         the target's binding (both sides are bound by it, as verify binds them)
     * @param sourceRouting the source's keyspace and token map, or null
     * @param targetRouting the target's keyspace and token map, or null
     * @param tokenMap      the cluster's token map (target tokens of source rows), not null
     * @param maxReported   most rows named
     */
    RestoreCheck(
            RangeScans scans,
            CopyPlan<T> plan,
            SinkTable<T> table,
            RangeReader.Routing sourceRouting,
            RangeReader.Routing targetRouting,
            TokenMap tokenMap,
            int maxReported) {
        this.scans = scans;
        this.plan = plan;
        this.table = table;
        this.sourceRouting = sourceRouting;
        this.targetRouting = targetRouting;
        this.tokenMap = tokenMap;
        this.maxReported = maxReported;
    }

    /**
     * @param findings the last verification's findings of this copy
     * @param copied   the source ranges this run copied, sorted (only their findings are checked)
     * @return what became of them
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if a partition cannot be read (after retries of what may pass)
     */
    Result run(List<VerifyFindings.Finding> findings, List<TokenRange> copied) throws InterruptedException {
        Map<ByteBuffer, VerifyFindings.Finding> wanted = new HashMap<>();
        TreeSet<Long> sourceTokens = new TreeSet<>();
        TreeSet<Long> targetTokens = new TreeSet<>();
        for (VerifyFindings.Finding finding : findings) {
            if (TokenRanges.indexOf(copied, finding.sourceToken()) >= 0) {
                wanted.put(finding.targetKey(), finding);
                sourceTokens.add(finding.sourceToken());
                targetTokens.add(finding.targetToken());
            }
        }
        if (wanted.isEmpty()) {
            return Result.NONE;
        }
        Map<ByteBuffer, VerifiedRow> sources = new HashMap<>();
        ScanQuery sourceQuery = new ScanQuery(plan.source(), plan.mapping().source());
        scans.scan(sourceQuery, sourceRouting, single(sourceTokens), row -> {
            T mapped;
            try {
                mapped = plan.mapping().map(row.values());
            } catch (RuntimeException e) {
                return; // cannot be a target row: the copy named it as failed
            }
            VerifiedRow verified = VerifiedRow.of(table, mapped, row.writeTimeMicros(), row.token(), this::tokenOf);
            if (wanted.containsKey(verified.key())) {
                sources.merge(verified.key(), verified, (a, b) -> a.writeTimeMicros() >= b.writeTimeMicros() ? a : b);
            }
        });
        Map<ByteBuffer, VerifiedRow> targets = new HashMap<>();
        ScanQuery targetQuery = new ScanQuery(plan.target(), plan.mapping().target());
        scans.scan(targetQuery, targetRouting, single(targetTokens), row -> {
            T stored = plan.mapping().readTarget().apply(row.values());
            VerifiedRow verified = VerifiedRow.of(table, stored, row.writeTimeMicros(), row.token(), k -> row.token());
            if (wanted.containsKey(verified.key())) {
                targets.put(verified.key(), verified);
            }
        });
        int restored = 0;
        int notInSource = 0;
        int notRestored = 0;
        List<String> lines = new ArrayList<>();
        for (Map.Entry<ByteBuffer, VerifyFindings.Finding> entry : wanted.entrySet()) {
            VerifiedRow source = sources.get(entry.getKey());
            VerifiedRow target = targets.get(entry.getKey());
            switch (outcome(source, target)) {
                case RESTORED -> restored++;
                case NOT_IN_SOURCE -> notInSource++;
                case STILL_MISSING, STILL_DIFFERENT -> {
                    notRestored++;
                    if (lines.size() < maxReported) {
                        lines.add(describe(entry.getValue(), source, target));
                    }
                }
            }
        }
        return new Result(wanted.size(), restored, notInSource, List.copyOf(lines), notRestored);
    }

    /**
     * @param source the source row mapped to the target's layout, null when the source no longer holds it
     * @param target the target row of the same key, null when the target holds none
     * @return what became of the row
     */
    static Outcome outcome(VerifiedRow source, VerifiedRow target) {
        if (source == null) {
            return Outcome.NOT_IN_SOURCE;
        }
        if (target == null) {
            return Outcome.STILL_MISSING;
        }
        return source.valuesHash() == target.valuesHash() && target.writeTimeMicros() >= source.writeTimeMicros()
                ? Outcome.RESTORED
                : Outcome.STILL_DIFFERENT;
    }

    private String describe(VerifyFindings.Finding finding, VerifiedRow source, VerifiedRow target) {
        return target == null
                ? "not restored: missing in target: " + finding.rowText() + " (copied with the source's write time "
                        + source.writeTimeMicros() + "; a newer delete in the target shadows it)"
                : "not restored: different: " + finding.rowText() + " (source: "
                        + RowText.values(table, source.row()) + ", write time " + source.writeTimeMicros()
                        + "; target: " + RowText.values(table, target.row()) + ", write time "
                        + target.writeTimeMicros() + ")";
    }

    /** The ranges {@code (t - 1, t]} of the tokens: each reads the partitions of one token. */
    private static List<TokenRange> single(TreeSet<Long> tokens) {
        List<TokenRange> ranges = new ArrayList<>(tokens.size());
        for (long token : tokens) {
            ranges.add(new TokenRange(token - 1, token));
        }
        return ranges;
    }

    private long tokenOf(ByteBuffer partitionKey) {
        return TableVerify.tokenOf(tokenMap, partitionKey);
    }
}
