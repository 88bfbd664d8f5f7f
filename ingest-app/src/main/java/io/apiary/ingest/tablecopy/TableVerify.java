package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import io.apiary.ingest.sink.SinkTable;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@code ingest-app table verify}: compares a copy's target with its source, range by range of
 * the target's token ring, and names every row that differs. Pass 1 reads this worker's share of
 * the target's ranges and the same share of the source's, maps each source row as the copy does
 * ({@link CopyMapping}), finds the target range of its target token, and keeps per range an
 * order-independent digest of each side ({@link RangeDigest}); when source rows land in other
 * workers' ranges (re-bucketing moves partitions), the rest of the source is read too. Ranges
 * whose digests differ are looked at closely: a range with at most {@code maxHeld} source rows is
 * compared row by row ({@link Differences}), reading only the source tokens its rows came from;
 * a larger one is cut in 16 and digested again. Rows with an event time at or after
 * {@code before} are left out on both sides (rows the new pipeline wrote after the switch). Rows
 * missing in the target or different are also kept as {@link #findings} (at most
 * {@link VerifyFindings#MAX_KEPT}), for {@code table copy}'s {@link RestoreCheck}. Not
 * thread-safe: {@link #run} drives it on the calling thread.
 *
 * @param <T> the target's row record type
 */
public final class TableVerify<T extends SpecificRecord> {

    /**
     * What a verification found, for this worker's share of the ring. Counts are rows unless named
     * otherwise; {@code uncopyable}: source rows that cannot be target rows (a required value is
     * null); {@code leftOut}: source rows whose event time is at or after {@code --before};
     * {@code rewritten}: rows of one key with equal values and a newer write time in the target
     * (written again, not differences); {@code seconds}: wall time.
     */
    public record Result(
            long sourceRows,
            long targetRows,
            int ranges,
            int rangesDiffering,
            long missing,
            long extra,
            long different,
            long merged,
            long rewritten,
            long superseded,
            long uncopyable,
            long leftOut,
            double seconds) {
        /**
         * @return whether both sides hold the same rows: no row missing, extra or different, and no
         *         source row that cannot be a target row ({@code table copy} names those as failed)
         */
        public boolean equal() {
            return missing + extra + different + uncopyable == 0;
        }
    }

    private final CopyPlan<T> plan;
    private final SinkTable<T> table;
    private final CopySettings settings;
    private final RangeScans scans;
    private final RangeReader.Routing sourceRouting;
    private final RangeReader.Routing targetRouting;
    private final TokenMap tokenMap;
    private final Instant before;
    private final long maxHeld;
    private final PrintWriter out;
    private final PrintWriter err;
    private final ScanQuery sourceQuery;
    private final ScanQuery targetQuery;
    private final long startNanos = System.nanoTime();
    private long sourceRows;
    private long targetRows;
    private long reported;
    /** Source rows of this worker's share that cannot be target rows, counted in the first pass. */
    private long uncopyable;
    /** Source rows of this worker's share left out by {@code before}, counted in the first pass. */
    private long leftOut;

    private boolean namingUncopyable;
    private final List<VerifyFindings.Finding> findings = new ArrayList<>();
    private List<TokenRange> share = List.of();

    /**
     * @param scans         reads the tables
     * @param plan          the copy to verify
     * @param table         the target's binding (both sides are bound by it)
     * @param settings      workers, splits, scan settings, most rows named
     * @param sourceRouting the source's keyspace and token map
     * @param targetRouting the target's keyspace and token map
     * @param tokenMap      the cluster's token map (for the target tokens of source rows), not null
     * @param before        leave out rows whose event time is at or after this, or null to compare all
     * @param maxHeld       most source rows held at once to name differences, at least 1
     * @param out           where the differences go
     * @param err           where progress goes
     */
    TableVerify(
            RangeScans scans,
            CopyPlan<T> plan,
            SinkTable<T> table,
            CopySettings settings,
            RangeReader.Routing sourceRouting,
            RangeReader.Routing targetRouting,
            TokenMap tokenMap,
            Instant before,
            long maxHeld,
            PrintWriter out,
            PrintWriter err) {
        this.scans = scans;
        this.plan = plan;
        this.table = table;
        this.settings = settings;
        this.sourceRouting = sourceRouting;
        this.targetRouting = targetRouting;
        this.tokenMap = tokenMap;
        this.before = before;
        this.maxHeld = maxHeld;
        this.out = out;
        this.err = err;
        this.sourceQuery = new ScanQuery(plan.source(), plan.mapping().source());
        this.targetQuery = new ScanQuery(plan.target(), plan.mapping().target());
    }

    /**
     * @return what was found; the differences are on {@code out}, at most {@code maxReported} of them
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if a range cannot be read
     */
    public Result run() throws InterruptedException {
        List<TokenRange> all = TokenRanges.split(settings.splits());
        share = TokenRanges.share(all, settings.workers(), settings.workerIndex());
        counting = true;
        namingUncopyable = true;
        List<RangeDigest[]> digests = digest(share, share, share);
        namingUncopyable = false;
        if (settings.workers() > 1 && moved > 0) {
            List<TokenRange> others = new ArrayList<>(all);
            others.removeAll(share);
            progress(
                    "%,d source rows map to other workers' ranges (re-bucketed): reading the other %,d source ranges",
                    moved, others.size());
            sourceSide(share, others, digests);
        }
        counting = false;
        int differing = 0;
        boolean legacyReadings = SupersededReadings.appliesTo(plan);
        Differences differences = new Differences(
                this::report,
                legacyReadings
                        ? row -> SupersededReadings.readingKey((io.apiary.schema.HiveTelemetryRow) row.row())
                        : null,
                legacyReadings ? SupersededReadings::pipelineWrite : null);
        List<TokenRange> work = share;
        while (!work.isEmpty()) {
            List<TokenRange> refine = new ArrayList<>();
            List<TokenRange> chunk = new ArrayList<>();
            List<long[]> chunkSources = new ArrayList<>();
            long held = 0;
            for (int i = 0; i < work.size(); i++) {
                RangeDigest source = digests.get(i)[0];
                if (source.matches(digests.get(i)[1])) {
                    continue;
                }
                differing += work == share ? 1 : 0;
                if (source.count() > maxHeld && Long.compareUnsigned(work.get(i).width(), 1) > 0) {
                    refine.add(work.get(i));
                    continue;
                }
                if (held + source.count() > maxHeld && !chunk.isEmpty()) {
                    compare(chunk, chunkSources, differences);
                    chunk.clear();
                    chunkSources.clear();
                    held = 0;
                }
                chunk.add(work.get(i));
                if (source.count() > 0) {
                    chunkSources.add(new long[] {source.minSourceToken(), source.maxSourceToken()});
                }
                held += source.count();
            }
            if (!chunk.isEmpty()) {
                compare(chunk, chunkSources, differences);
            }
            List<TokenRange> pieces = new ArrayList<>();
            List<long[]> sources = new ArrayList<>();
            for (TokenRange range : refine) {
                RangeDigest source = digests.get(work.indexOf(range))[0];
                sources.add(new long[] {source.minSourceToken(), source.maxSourceToken()});
                pieces.addAll(TokenRanges.divide(range, 16));
            }
            if (!pieces.isEmpty()) {
                progress(
                        "%,d ranges differ with more than %,d source rows each: digesting them in %,d pieces",
                        refine.size(), maxHeld, pieces.size());
                digests = digest(pieces, TokenRanges.covering(sources), pieces);
            }
            work = pieces;
        }
        return new Result(
                sourceRows,
                targetRows,
                share.size(),
                differing,
                differences.missing(),
                differences.extra(),
                differences.different(),
                differences.merged(),
                differences.rewritten(),
                differences.superseded(),
                uncopyable,
                leftOut,
                (System.nanoTime() - startNanos) / 1e9);
    }

    private long moved;
    private boolean counting;

    /** Digests of the work ranges: [0] the source's, [1] the target's. */
    private List<RangeDigest[]> digest(List<TokenRange> work, List<TokenRange> sourceScan, List<TokenRange> targetScan)
            throws InterruptedException {
        List<RangeDigest[]> digests = new ArrayList<>(work.size());
        for (int i = 0; i < work.size(); i++) {
            digests.add(new RangeDigest[] {new RangeDigest(), new RangeDigest()});
        }
        moved = 0;
        scans.scan(targetQuery, targetRouting, targetScan, row -> {
            VerifiedRow verified = target(row);
            int index = TokenRanges.indexOf(work, row.token());
            if (verified != null && index >= 0) {
                digests.get(index)[1].add(verified.hash(), row.token());
                targetRows += counting ? 1 : 0;
            }
        });
        sourceSide(work, sourceScan, digests);
        long differing = digests.stream().filter(d -> !d[0].matches(d[1])).count();
        progress("digested %,d ranges of both tables: %,d of them differ", work.size(), differing);
        return digests;
    }

    private void sourceSide(List<TokenRange> work, List<TokenRange> sourceScan, List<RangeDigest[]> digests)
            throws InterruptedException {
        scans.scan(sourceQuery, sourceRouting, sourceScan, row -> {
            VerifiedRow verified = source(row);
            if (verified == null) {
                return;
            }
            int index = TokenRanges.indexOf(work, verified.targetToken());
            if (index >= 0) {
                digests.get(index)[0].add(verified.hash(), row.token());
                sourceRows += counting ? 1 : 0;
            } else {
                moved++;
            }
        });
    }

    private void compare(List<TokenRange> chunk, List<long[]> sources, Differences differences)
            throws InterruptedException {
        scans.scan(sourceQuery, sourceRouting, TokenRanges.covering(sources), row -> {
            VerifiedRow verified = source(row);
            if (verified != null && TokenRanges.indexOf(chunk, verified.targetToken()) >= 0) {
                differences.source(verified);
            }
        });
        scans.scan(targetQuery, targetRouting, chunk, row -> {
            VerifiedRow verified = target(row);
            if (verified != null) {
                differences.target(verified);
            }
        });
        differences.finish();
    }

    /**
     * A source row mapped and bound as the copy binds it, or null when left out by {@code before}
     * or when it cannot be a target row (a required value is null): such a row is named and
     * counted in the first pass, as {@code table copy} names it as failed, and makes the result
     * unequal; it is never a reason to stop.
     */
    private VerifiedRow source(ScannedRow row) {
        T mapped;
        try {
            mapped = plan.mapping().map(row.values());
        } catch (RuntimeException e) {
            if (namingUncopyable) {
                uncopyable++;
                reported++;
                if (reported <= settings.maxReported()) {
                    out.println("not copyable: source row "
                            + plan.mapping().source().keyText(row.values()) + " of " + plan.source() + ": "
                            + e.getMessage());
                }
            }
            return null;
        }
        if (excluded(mapped)) {
            leftOut += namingUncopyable ? 1 : 0;
            return null;
        }
        return VerifiedRow.of(table, mapped, row.writeTimeMicros(), row.token(), this::tokenOf);
    }

    /**
     * A target row as stored, or null when left out by {@code before}. A row with a required
     * column null (a value deleted by hand) is kept with that column named null
     * ({@link CopyMapping#readStored}): it differs from its source row, or is extra.
     */
    private VerifiedRow target(ScannedRow row) {
        CopyMapping.Stored<T> stored = plan.mapping().readStored(row.values());
        if (excluded(stored.row())) {
            return null;
        }
        return VerifiedRow.stored(table, stored, row.writeTimeMicros(), row.token());
    }

    private boolean excluded(T row) {
        return before != null
                && !VerifiedRow.eventTime(row, plan.mapping().target().eventTime())
                        .isBefore(before);
    }

    private long tokenOf(ByteBuffer partitionKey) {
        return tokenOf(tokenMap, partitionKey);
    }

    /**
     * @param tokenMap     the cluster's token map
     * @param partitionKey a serialized partition key
     * @return its Murmur3 token
     */
    static long tokenOf(TokenMap tokenMap, ByteBuffer partitionKey) {
        Token token = tokenMap.newToken(partitionKey);
        return token instanceof Murmur3Token murmur3 ? murmur3.getValue() : Long.parseLong(tokenMap.format(token));
    }

    /**
     * @return the rows of this worker's share found missing in the target or different, at most
     *         {@link VerifyFindings#MAX_KEPT} (the first found), after {@link #run}
     */
    List<VerifyFindings.Finding> findings() {
        return List.copyOf(findings);
    }

    /** @return this worker's share of the target's ranges, after {@link #run} */
    List<TokenRange> share() {
        return share;
    }

    private void report(Differences.Difference difference) {
        if (difference.source() != null && findings.size() < VerifyFindings.MAX_KEPT) {
            VerifiedRow row = difference.source();
            findings.add(new VerifyFindings.Finding(
                    row.targetToken(),
                    row.key(),
                    row.sourceToken(),
                    difference.kind().name(),
                    RowText.key(table, row.row())));
        }
        reported++;
        if (reported > settings.maxReported()) {
            return;
        }
        String key =
                RowText.key(table, (difference.source() != null ? difference.source() : difference.target()).row());
        out.println(
                switch (difference.kind()) {
                    case MISSING -> "missing in target: " + key + " (source: " + describe(difference.source()) + ")";
                    case EXTRA -> "extra in target: " + key + " (target: " + describe(difference.target()) + ")";
                    case DIFFERENT ->
                        "different: " + key + " (source: " + describe(difference.source()) + "; target: "
                                + describe(difference.target()) + ")";
                });
    }

    private String describe(VerifiedRow row) {
        return RowText.values(table, row) + ", write time "
                + (row.writeTimeMicros() == ScannedRow.NO_CELLS ? "none (no cells)" : row.writeTimeMicros());
    }

    private void progress(String format, Object... args) {
        err.printf("[%6.1f s] " + format + "%n", prepend((System.nanoTime() - startNanos) / 1e9, args));
        err.flush();
    }

    private static Object[] prepend(Object first, Object[] rest) {
        Object[] all = new Object[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
