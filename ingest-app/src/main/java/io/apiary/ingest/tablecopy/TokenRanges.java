package io.apiary.ingest.tablecopy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * How {@code table copy} and {@code table verify} cut the Murmur3 ring: into {@code splits}
 * ranges of equal width (a function of the count alone, so every worker and every restart sees
 * the same ranges, whatever the cluster's nodes), shared among workers by index, and each range
 * cut again at the cluster's token boundaries before it is read, so that every query covers
 * tokens of one replica set and can be sent to a replica. Pure functions; thread-safe.
 */
public final class TokenRanges {

    private TokenRanges() {}

    /**
     * The ring in {@code count} consecutive ranges of equal width (the first ones one token wider
     * when the width does not divide evenly), in token order, covering {@code (Long.MIN_VALUE,
     * Long.MAX_VALUE]} exactly once.
     *
     * @param count ranges, from 1 to 2^20
     * @return the ranges, sorted
     * @throws IllegalArgumentException if {@code count} is out of bounds
     */
    public static List<TokenRange> split(int count) {
        if (count < 1 || count > 1 << 20) {
            throw new IllegalArgumentException("splits must be from 1 to " + (1 << 20) + ": " + count);
        }
        // the ring holds 2^64 - 1 tokens: width = (2^64 - 1) / count, remainder spread over the first ranges
        long width = Long.divideUnsigned(-1L, count);
        long remainder = Long.remainderUnsigned(-1L, count);
        List<TokenRange> ranges = new ArrayList<>(count);
        long start = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            long end = i == count - 1 ? Long.MAX_VALUE : start + width + (i < remainder ? 1 : 0);
            ranges.add(new TokenRange(start, end));
            start = end;
        }
        return ranges;
    }

    /**
     * The share of one worker: the ranges whose index modulo {@code workers} is
     * {@code workerIndex}, so the shares of {@code 0..workers-1} are disjoint, cover every range,
     * and differ in size by at most one.
     *
     * @param ranges      every range, in order
     * @param workers     how many workers share them, at least 1
     * @param workerIndex this worker, from 0 to {@code workers - 1}
     * @return its ranges, in order
     * @throws IllegalArgumentException if the index is out of bounds
     */
    public static List<TokenRange> share(List<TokenRange> ranges, int workers, int workerIndex) {
        if (workers < 1 || workerIndex < 0 || workerIndex >= workers) {
            throw new IllegalArgumentException(
                    "worker index must be from 0 to workers - 1 (" + (workers - 1) + "): " + workerIndex);
        }
        List<TokenRange> share = new ArrayList<>(ranges.size() / workers + 1);
        for (int i = workerIndex; i < ranges.size(); i += workers) {
            share.add(ranges.get(i));
        }
        return share;
    }

    /**
     * Cuts a range at boundary tokens: each piece ends at a boundary or at the range's end, so no
     * piece holds tokens on both sides of a boundary.
     *
     * @param range      the range
     * @param boundaries tokens after which a new piece starts (the end tokens of the cluster's
     *                   token ranges); any order, any values
     * @return the pieces in token order, covering {@code range} exactly once
     */
    public static List<TokenRange> cut(TokenRange range, Collection<Long> boundaries) {
        NavigableSet<Long> inside = new TreeSet<>();
        for (Long boundary : boundaries) {
            if (boundary > range.start() && boundary < range.end()) {
                inside.add(boundary);
            }
        }
        List<TokenRange> pieces = new ArrayList<>(inside.size() + 1);
        long start = range.start();
        for (long boundary : inside) {
            pieces.add(new TokenRange(start, boundary));
            start = boundary;
        }
        pieces.add(new TokenRange(start, range.end()));
        return pieces;
    }

    /**
     * Cuts a range into {@code parts} consecutive pieces of about equal width (fewer when it holds
     * fewer tokens).
     *
     * @param range the range
     * @param parts pieces wanted, at least 1
     * @return the pieces in token order, covering {@code range} exactly once
     */
    public static List<TokenRange> divide(TokenRange range, int parts) {
        long width = range.width();
        int count = Long.compareUnsigned(width, parts) < 0 ? (int) width : parts;
        long step = Long.divideUnsigned(width, count);
        long remainder = Long.remainderUnsigned(width, count);
        List<TokenRange> pieces = new ArrayList<>(count);
        long start = range.start();
        for (int i = 0; i < count; i++) {
            long end = i == count - 1 ? range.end() : start + step + (i < remainder ? 1 : 0);
            pieces.add(new TokenRange(start, end));
            start = end;
        }
        return pieces;
    }

    /**
     * @param sorted disjoint ranges in token order
     * @param token  a token
     * @return the index of the range that holds it, or -1
     */
    public static int indexOf(List<TokenRange> sorted, long token) {
        int low = 0;
        int high = sorted.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            TokenRange range = sorted.get(mid);
            if (token <= range.start()) {
                high = mid - 1;
            } else if (token > range.end()) {
                low = mid + 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /**
     * Merges closed token intervals into the fewest ranges that hold them.
     *
     * @param intervals {@code [first, last]} pairs of tokens, {@code first <= last}, first above
     *                  {@code Long.MIN_VALUE}; any order
     * @return disjoint ranges in token order
     */
    public static List<TokenRange> covering(List<long[]> intervals) {
        List<long[]> sorted = new ArrayList<>(intervals);
        sorted.sort((a, b) -> Long.compare(a[0], b[0]));
        List<TokenRange> merged = new ArrayList<>();
        long start = 0;
        long end = 0;
        boolean open = false;
        for (long[] interval : sorted) {
            long from = interval[0] - 1;
            if (open && from <= end) {
                end = Math.max(end, interval[1]);
                continue;
            }
            if (open) {
                merged.add(new TokenRange(start, end));
            }
            start = from;
            end = interval[1];
            open = true;
        }
        if (open) {
            merged.add(new TokenRange(start, end));
        }
        return merged;
    }
}
