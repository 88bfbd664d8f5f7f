package io.apiary.ingest.partitionsize;

/**
 * The partition-size limits a plan is judged against, in decimal units (1 MB = 1,000,000
 * bytes). The defaults are the usual Cassandra data-modeling guidance: a partition should stay
 * under about 100 MB and 100,000 cells (values), 1 to 10 MB is ideal, and above 50 MB reads,
 * repairs and compactions of the partition are getting heavy. Immutable and thread-safe.
 *
 * @param idealMinBytes below this a partition is small (harmless, but a range query then reads
 *                      many partitions)
 * @param idealMaxBytes up to this a partition is ideal
 * @param warnBytes     above this a partition is too big for comfort (warning)
 * @param maxBytes      above this a partition is over the limit
 * @param maxCells      above this many cells a partition is over the limit
 */
public record PartitionLimits(long idealMinBytes, long idealMaxBytes, long warnBytes, long maxBytes, long maxCells) {

    /** Ideal 1-10 MB, warning above 50 MB, limit 100 MB and 100,000 cells. */
    public static final PartitionLimits DEFAULT =
            new PartitionLimits(1_000_000, 10_000_000, 50_000_000, 100_000_000, 100_000);

    /** Checks the order of the thresholds. */
    public PartitionLimits {
        if (!(0 <= idealMinBytes
                && idealMinBytes <= idealMaxBytes
                && idealMaxBytes <= warnBytes
                && warnBytes <= maxBytes
                && maxCells > 0)) {
            throw new IllegalArgumentException("partition limits out of order");
        }
    }

    /**
     * Judges a partition.
     *
     * @param bytes estimated bytes at the end of its life; {@link Long#MAX_VALUE} for unbounded
     * @param cells estimated cells at the end of its life; {@link Long#MAX_VALUE} for unbounded
     * @return the verdict, never null
     */
    public Verdict verdict(long bytes, long cells) {
        if (bytes > maxBytes || cells > maxCells) {
            return Verdict.OVER;
        }
        if (bytes > warnBytes) {
            return Verdict.WARN;
        }
        if (bytes > idealMaxBytes) {
            return Verdict.OK;
        }
        return bytes >= idealMinBytes ? Verdict.IDEAL : Verdict.SMALL;
    }

    /** What a partition's estimate means, from best to worst (the order of the constants). */
    public enum Verdict {
        /** Below the ideal range: fine for Cassandra; a range query reads more partitions. */
        SMALL("small"),
        /** In the ideal range. */
        IDEAL("ideal"),
        /** Above the ideal range, below the warning threshold. */
        OK("ok"),
        /** Above the warning threshold, within the limits. */
        WARN("warning"),
        /** Over the byte or the cell limit. */
        OVER("over limit");

        private final String label;

        Verdict(String label) {
            this.label = label;
        }

        /** @return the word printed for it */
        public String label() {
            return label;
        }

        /** @return true unless it is {@link #WARN} or {@link #OVER} */
        public boolean withinComfort() {
            return compareTo(WARN) < 0;
        }
    }
}
