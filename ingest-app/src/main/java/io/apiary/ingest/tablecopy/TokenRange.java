package io.apiary.ingest.tablecopy;

/**
 * A range of the Murmur3 token ring, {@code (start, end]}: the tokens greater than {@code start}
 * and at most {@code end}, as CQL's {@code token(pk) > ? AND token(pk) <= ?} selects them.
 * Murmur3Partitioner gives keys tokens from {@code Long.MIN_VALUE + 1} to {@code Long.MAX_VALUE}
 * (it never gives {@code Long.MIN_VALUE}, the ring's minimum), so {@code (Long.MIN_VALUE,
 * Long.MAX_VALUE]} is the whole ring and a range here never wraps around. Immutable.
 *
 * @param start the greatest token before the range (exclusive), from {@code Long.MIN_VALUE}
 * @param end   the last token of the range (inclusive), greater than {@code start}
 */
public record TokenRange(long start, long end) implements Comparable<TokenRange> {

    /** The whole ring. */
    public static final TokenRange RING = new TokenRange(Long.MIN_VALUE, Long.MAX_VALUE);

    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException if the range is empty ({@code end <= start})
     */
    public TokenRange {
        if (end <= start) {
            throw new IllegalArgumentException("empty token range (" + start + ", " + end + "]");
        }
    }

    /**
     * @param token a token
     * @return whether the range holds it
     */
    public boolean contains(long token) {
        return token > start && token <= end;
    }

    /** @return how many tokens it holds, as an unsigned number (the whole ring: 2^64 - 1) */
    public long width() {
        return end - start;
    }

    /** Orders ranges by start, then end. */
    @Override
    public int compareTo(TokenRange other) {
        int byStart = Long.compare(start, other.start);
        return byStart != 0 ? byStart : Long.compare(end, other.end);
    }

    @Override
    public String toString() {
        return "(" + start + ", " + end + "]";
    }
}
