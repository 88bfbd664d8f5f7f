package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.schema.HiveTelemetryRow;
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
 * {@link VerifyFindings#MAX_KEPT} per verification worker), not the whole table. A row in a range
 * saved as done before this run is checked too: the run did not copy it, so one still missing or
 * different is named as such (copy it again with {@code --restart}), never as shadowed. A legacy
 * reading the copy skipped by the rule of {@link SupersededReadings} is named with the rule's
 * reason, never as written and shadowed. Rows of ranges not done are not checked. Not thread-safe: one
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
     *                    the row and why, at most {@code maxReported} lines (all are counted in
     *                    the three counts that follow)
     * @param notRestoredCount findings the copy wrote that are still missing or different (a newer
     *                    delete or write shadows the copy's write)
     * @param skippedCount findings still missing or different that the copy skipped by the
     *                    legacy-reading rule ({@link SupersededReadings#skipReason})
     * @param notCopiedCount findings still missing or different in ranges done before this run,
     *                    which it did not copy
     */
    public record Result(
            int checked,
            int restored,
            int notInSource,
            List<String> notRestored,
            int notRestoredCount,
            int skippedCount,
            int notCopiedCount) {
        /** Nothing checked. */
        public static final Result NONE = new Result(0, 0, 0, List.of(), 0, 0, 0);

        /** @return whether every checked row is restored or no longer in the source */
        public boolean allRestored() {
            return notRestoredCount + skippedCount + notCopiedCount == 0;
        }
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
     * @param copied   the source ranges this run copied, sorted
     * @param doneEarlier the source ranges saved as done before this run, sorted (findings of
     *                 other ranges are not checked)
     * @return what became of them
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if a partition cannot be read (after retries of what may pass)
     */
    Result run(List<VerifyFindings.Finding> findings, List<TokenRange> copied, List<TokenRange> doneEarlier)
            throws InterruptedException {
        Map<ByteBuffer, VerifyFindings.Finding> wanted = new HashMap<>();
        TreeSet<Long> sourceTokens = new TreeSet<>();
        TreeSet<Long> targetTokens = new TreeSet<>();
        for (VerifyFindings.Finding finding : findings) {
            if (TokenRanges.indexOf(copied, finding.sourceToken()) >= 0
                    || TokenRanges.indexOf(doneEarlier, finding.sourceToken()) >= 0) {
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
        boolean legacy = SupersededReadings.appliesTo(plan);
        Map<List<Object>, Map<String, Long>> readings = new HashMap<>(); // legacy copies: the rule's input
        ScanQuery targetQuery = new ScanQuery(plan.target(), plan.mapping().target());
        scans.scan(targetQuery, targetRouting, single(targetTokens), row -> {
            VerifiedRow verified = VerifiedRow.stored(
                    table, plan.mapping().readStored(row.values()), row.writeTimeMicros(), row.token());
            if (wanted.containsKey(verified.key())) {
                targets.put(verified.key(), verified);
            }
            if (legacy) {
                HiveTelemetryRow reading = (HiveTelemetryRow) verified.row();
                readings.computeIfAbsent(SupersededReadings.readingKey(reading), k -> new HashMap<>())
                        .put(reading.getSensorId(), row.writeTimeMicros());
            }
        });
        int restored = 0;
        int notInSource = 0;
        int notRestored = 0;
        int skipped = 0;
        int notCopied = 0;
        List<String> lines = new ArrayList<>();
        for (Map.Entry<ByteBuffer, VerifyFindings.Finding> entry : wanted.entrySet()) {
            VerifiedRow source = sources.get(entry.getKey());
            VerifiedRow target = targets.get(entry.getKey());
            Outcome outcome = outcome(source, target);
            if (outcome == Outcome.RESTORED) {
                restored++;
                continue;
            }
            if (outcome == Outcome.NOT_IN_SOURCE) {
                notInSource++;
                continue;
            }
            String line;
            if (TokenRanges.indexOf(copied, entry.getValue().sourceToken()) < 0) {
                notCopied++;
                line = "not copied by this run: " + describe(entry.getValue(), source, target, "")
                        + ": its range was copied before this run, which skipped it; copy it again with --restart";
            } else {
                String skip = legacy ? skipReason(source, readings) : null;
                if (skip != null) {
                    skipped++;
                    line = "not restored, skipped by the legacy-reading rule: "
                            + describe(entry.getValue(), source, target, "")
                            + ": " + skip + "; reads of both layouts return that row and hide the legacy one, so the "
                            + "copy does not write it (docs/platform.md, \"Changing a table's key\"). If that row is "
                            + "wrong, fix or delete it in the target, then copy with --restart again";
                } else {
                    notRestored++;
                    line = "not restored: " + describe(entry.getValue(), source, target, shadow(target));
                }
            }
            if (lines.size() < maxReported) {
                lines.add(line);
            }
        }
        return new Result(wanted.size(), restored, notInSource, List.copyOf(lines), notRestored, skipped, notCopied);
    }

    /** The legacy-reading rule's reason to skip the source row, from the target's rows of its reading; null for none. */
    private static String skipReason(VerifiedRow source, Map<List<Object>, Map<String, Long>> readings) {
        HiveTelemetryRow reading = (HiveTelemetryRow) source.row();
        return SupersededReadings.skipReason(
                source.writeTimeMicros(),
                reading.getReadingTime().toEpochMilli(),
                readings.getOrDefault(SupersededReadings.readingKey(reading), Map.of()));
    }

    private static String shadow(VerifiedRow target) {
        return target == null ? "; a newer delete in the target shadows it" : "";
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

    private String describe(VerifyFindings.Finding finding, VerifiedRow source, VerifiedRow target, String cause) {
        return target == null
                ? "missing in target: " + finding.rowText() + " (source's write time " + source.writeTimeMicros()
                        + cause + ")"
                : "different: " + finding.rowText() + " (source: "
                        + RowText.values(table, source) + ", write time " + source.writeTimeMicros()
                        + "; target: " + RowText.values(table, target) + ", write time "
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
