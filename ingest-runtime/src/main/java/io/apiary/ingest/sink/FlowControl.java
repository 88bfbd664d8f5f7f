package io.apiary.ingest.sink;

/**
 * When the sink pauses and resumes its Kafka partitions: it pauses when the rows polled and not
 * yet acknowledged reach {@code maxBufferedRows}, or their key and value bytes reach
 * {@code maxBufferedBytes}, or the rows acknowledged behind a slower one (which cost only their
 * offsets, but cannot be committed) reach four times {@code maxBufferedRows}; it resumes once
 * all three are back to half of those. Between the two it keeps its state (hysteresis, so that
 * partitions do not flap). Lingering batches are sent early, oldest first, once lingering rows or
 * bytes pass {@link #earlyRows()} or {@link #earlyBytes()} (three quarters of the bounds). Pure
 * logic; immutable and thread-safe.
 *
 * @param maxBufferedRows  rows held before pausing, at least 1
 * @param maxBufferedBytes bytes held before pausing, at least 1
 */
record FlowControl(int maxBufferedRows, long maxBufferedBytes) {

    /** Checks the bounds. */
    FlowControl {
        if (maxBufferedRows < 1 || maxBufferedBytes < 1) {
            throw new IllegalArgumentException(
                    "buffer bounds must be at least 1: " + maxBufferedRows + ", " + maxBufferedBytes);
        }
    }

    /**
     * @param paused        whether the partitions are paused now
     * @param rows          rows polled and not yet acknowledged
     * @param bytes         their key and value bytes
     * @param uncommittable rows acknowledged but behind an unacknowledged one
     * @return whether the partitions should be paused after this call
     */
    boolean paused(boolean paused, int rows, long bytes, int uncommittable) {
        if (!paused) {
            return rows >= maxBufferedRows || bytes >= maxBufferedBytes || uncommittable >= 4L * maxBufferedRows;
        }
        return !(rows <= maxBufferedRows / 2 && bytes <= maxBufferedBytes / 2 && uncommittable <= 2L * maxBufferedRows);
    }

    /** @return lingering rows above which the oldest batches are sent early */
    int earlyRows() {
        return maxBufferedRows / 4 * 3;
    }

    /** @return lingering bytes above which the oldest batches are sent early */
    long earlyBytes() {
        return maxBufferedBytes / 4 * 3;
    }
}
