package io.apiary.ingest.tablecopy;

/**
 * An order-independent digest of the rows of one token range of one side of a verification: how
 * many, and the sum and the exclusive or of their 64-bit row hashes ({@link VerifiedRow#hash}), so
 * two sides with the same rows agree in whatever order they were read, and a missing, extra or
 * changed row changes the digest (but for a collision of about one in 2^64). The source side also
 * keeps the least and greatest source token of its rows, where a closer look must read. Not
 * thread-safe.
 */
final class RangeDigest {

    private long count;
    private long sum;
    private long xor;
    private long minSourceToken = Long.MAX_VALUE;
    private long maxSourceToken = Long.MIN_VALUE;

    /**
     * @param hash        the row's hash
     * @param sourceToken the token the row was read at (its source partition's)
     */
    void add(long hash, long sourceToken) {
        count++;
        sum += hash;
        xor ^= hash;
        minSourceToken = Math.min(minSourceToken, sourceToken);
        maxSourceToken = Math.max(maxSourceToken, sourceToken);
    }

    /** @return rows added */
    long count() {
        return count;
    }

    /** @return the least source token added; only meaningful when {@link #count()} is above 0 */
    long minSourceToken() {
        return minSourceToken;
    }

    /** @return the greatest source token added */
    long maxSourceToken() {
        return maxSourceToken;
    }

    /**
     * @param other the other side's digest of the same range
     * @return whether both hold the same rows (by count, sum and xor of hashes)
     */
    boolean matches(RangeDigest other) {
        return count == other.count && sum == other.sum && xor == other.xor;
    }
}
