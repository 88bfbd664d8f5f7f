package io.apiary.ingest.tablecopy;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Names the rows that differ between the two sides of some token ranges: the source's rows
 * (mapped to the target's layout) are held by target key, then the target's rows are compared
 * with them one by one as they are read. A target row without a source row is extra, a source
 * row without a target row missing, and two rows of one key whose values differ, or whose target
 * write time is older than the source's, are different. Two rows of one key with equal values
 * and a newer write time in the target are no difference: the target row was written again with
 * the same values (by {@code table copy --fresh-write-time}, which gives the current time, or by
 * the pipeline), and they are counted as rewritten. Two source rows that map to one target key (the same reading stored under two shard
 * schemes) are one target row: the one with the greater write time is kept, as Cassandra keeps
 * it, and the other is counted as merged, not as a difference. A legacy reading the target holds
 * under another sensor id or under a write of the pipeline is superseded ({@link SupersededReadings}),
 * not a difference; a copied row changed by another writer (by hand) is different. Not thread-safe.
 */
final class Differences {

    /** What differs. */
    enum Kind {
        /** In the source, not in the target. */
        MISSING,
        /** In the target, not in the source. */
        EXTRA,
        /** In both, with other values or another write time. */
        DIFFERENT
    }

    /**
     * One difference.
     *
     * @param kind   what differs
     * @param source the source's row, null when extra
     * @param target the target's row, null when missing
     */
    record Difference(Kind kind, VerifiedRow source, VerifiedRow target) {}

    private final Map<ByteBuffer, VerifiedRow> held = new HashMap<>();
    private final Set<Object> targetReadings = new HashSet<>();
    private final Consumer<Difference> report;
    private final Function<VerifiedRow, Object> readingKey;
    private final Predicate<VerifiedRow> pipelineWrite;
    private long superseded;
    private long missing;
    private long extra;
    private long different;
    private long merged;
    private long rewritten;

    /** @param report receives each difference as it is found */
    Differences(Consumer<Difference> report) {
        this(report, null, null);
    }

    /**
     * @param report        receives each difference as it is found
     * @param readingKey    for a copy from the legacy readings layout, a row's reading
     *                      ({@link SupersededReadings#readingKey}): a source row whose reading the
     *                      target holds under another sensor id, or under the same key written by
     *                      the pipeline, is superseded, as the copy skipped it; null for other copies
     * @param pipelineWrite with {@code readingKey}: whether a target row's write time is one the
     *                      sink gives ({@link io.apiary.ingest.sink.WriteTimestamps#isEventWrite}),
     *                      so that a row changed by hand after the copy (another write time, not the
     *                      pipeline's) is different, not superseded; null when {@code readingKey} is
     */
    Differences(
            Consumer<Difference> report,
            Function<VerifiedRow, Object> readingKey,
            Predicate<VerifiedRow> pipelineWrite) {
        if ((readingKey == null) != (pipelineWrite == null)) {
            throw new IllegalArgumentException("readingKey and pipelineWrite go together");
        }
        this.report = report;
        this.readingKey = readingKey;
        this.pipelineWrite = pipelineWrite;
    }

    /** @param row a source row, mapped; held until {@link #finish} */
    void source(VerifiedRow row) {
        VerifiedRow other = held.get(row.key());
        if (other != null) {
            merged++;
            if (other.writeTimeMicros() >= row.writeTimeMicros()) {
                return;
            }
        }
        held.put(row.key(), row);
    }

    /** @param row a target row of the ranges whose source rows were all given */
    void target(VerifiedRow row) {
        if (readingKey != null) {
            targetReadings.add(readingKey.apply(row));
        }
        VerifiedRow source = held.remove(row.key());
        if (source == null) {
            extra++;
            report.accept(new Difference(Kind.EXTRA, null, row));
        } else if (source.hash() != row.hash()
                && source.valuesHash() == row.valuesHash()
                && row.writeTimeMicros() > source.writeTimeMicros()) {
            rewritten++;
        } else if (source.hash() != row.hash()
                && readingKey != null
                && source.writeTimeMicros() != row.writeTimeMicros()
                && pipelineWrite.test(row)) {
            superseded++; // the pipeline's write of this reading, not the copy's (the copy keeps the write time)
        } else if (source.hash() != row.hash()) {
            different++;
            report.accept(new Difference(Kind.DIFFERENT, source, row));
        }
    }

    /** Reports every source row no target row matched as missing, and forgets them. */
    void finish() {
        for (VerifiedRow row : held.values()) {
            if (readingKey != null && targetReadings.contains(readingKey.apply(row))) {
                superseded++;
                continue;
            }
            missing++;
            report.accept(new Difference(Kind.MISSING, row, null));
        }
        targetReadings.clear();
        held.clear();
    }

    /** @return source rows without a target row */
    long missing() {
        return missing;
    }

    /** @return target rows without a source row */
    long extra() {
        return extra;
    }

    /** @return rows of one key that differ */
    long different() {
        return different;
    }

    /** @return source rows that shared a target key with another */
    long merged() {
        return merged;
    }

    /** @return rows of one key with equal values and a newer write time in the target (not differences) */
    long rewritten() {
        return rewritten;
    }

    /** @return legacy source rows whose reading the target holds under another write (not differences) */
    long superseded() {
        return superseded;
    }

    /** @return every difference: missing, extra and different */
    long total() {
        return missing + extra + different;
    }
}
