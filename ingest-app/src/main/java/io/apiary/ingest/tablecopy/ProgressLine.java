package io.apiary.ingest.tablecopy;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * The progress lines of {@code table copy} on stderr, one every interval:
 * {@code [  10.0 s] 123,456 rows copied | 12,345 rows/s | ranges done 12 of 512 | 0 rows failed | 0 retries}
 * (rows per second over the last interval). Not thread-safe: the copy's loop.
 */
final class ProgressLine {

    private final long startNanos;
    private final long intervalNanos;
    private long nextNanos;
    private long lastNanos;
    private long lastRows;

    /**
     * @param startNanos when the copy started
     * @param interval   time between lines
     */
    ProgressLine(long startNanos, Duration interval) {
        this.startNanos = startNanos;
        this.intervalNanos = interval.toNanos();
        this.nextNanos = startNanos + intervalNanos;
        this.lastNanos = startNanos;
    }

    /**
     * Prints a line when the interval has passed.
     *
     * @param out        where
     * @param now        the time, nanoseconds
     * @param rows       rows copied so far in this run
     * @param rangesDone ranges of the share done
     * @param ranges     ranges of the share
     * @param failed     rows that could not be copied
     * @param retries    requests retried
     * @return whether a line was printed
     */
    boolean maybePrint(PrintWriter out, long now, long rows, int rangesDone, int ranges, long failed, long retries) {
        if (now < nextNanos) {
            return false;
        }
        out.println(format(now, rows, rangesDone, ranges, failed, retries));
        out.flush();
        lastNanos = now;
        lastRows = rows;
        nextNanos = now + intervalNanos;
        return true;
    }

    String format(long now, long rows, int rangesDone, int ranges, long failed, long retries) {
        double interval = (now - lastNanos) / 1e9;
        return String.format(
                "[%6.1f s] %,d rows copied | %,.0f rows/s | ranges done %,d of %,d | %,d rows failed | %,d "
                        + "retries",
                (now - startNanos) / 1e9,
                rows,
                interval <= 0 ? 0 : (rows - lastRows) / interval,
                rangesDone,
                ranges,
                failed,
                retries);
    }
}
