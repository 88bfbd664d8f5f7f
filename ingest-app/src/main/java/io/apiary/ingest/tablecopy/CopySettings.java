package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@code table copy} and {@code table verify} run. Immutable.
 *
 * @param workers          processes sharing the ranges, at least 1
 * @param workerIndex      this one, 0 to {@code workers - 1}
 * @param splits           ranges the ring is cut into, at least {@code workers}
 * @param scanConcurrency  ranges this worker reads at once, at least 1
 * @param pageRows         rows per page of a range query
 * @param readConsistency  consistency of the range queries
 * @param writeConsistency consistency of the copy's writes and of its progress
 * @param maxInFlight      most write requests in flight (the sink's {@code sink.max.in.flight.requests})
 * @param batchMaxRows     most rows per batch ({@code sink.batch.max.rows})
 * @param batchMaxBytes    most bytes per batch as Cassandra counts them ({@code sink.batch.max.bytes}; -1: the server's threshold)
 * @param maxRowsPerSecond most rows written per second by this worker, 0 for no limit
 * @param maxPendingRows   rows read and not yet written before reading pauses ({@code sink.max.buffered.rows})
 * @param retryBackoff     first wait before a retry ({@code sink.retry.backoff.ms})
 * @param retryBackoffMax  longest wait ({@code sink.retry.backoff.max.ms})
 * @param progressInterval how often a progress line is printed
 * @param maxReported      most rows named on the output (failed rows, differences); all are counted
 */
public record CopySettings(
        int workers,
        int workerIndex,
        int splits,
        int scanConcurrency,
        int pageRows,
        ConsistencyLevel readConsistency,
        ConsistencyLevel writeConsistency,
        int maxInFlight,
        int batchMaxRows,
        long batchMaxBytes,
        long maxRowsPerSecond,
        int maxPendingRows,
        Duration retryBackoff,
        Duration retryBackoffMax,
        Duration progressInterval,
        int maxReported) {

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException naming the option out of range
     */
    public CopySettings {
        Objects.requireNonNull(readConsistency);
        Objects.requireNonNull(writeConsistency);
        Objects.requireNonNull(retryBackoff);
        Objects.requireNonNull(retryBackoffMax);
        Objects.requireNonNull(progressInterval);
        if (workers < 1) {
            throw new IllegalArgumentException("--workers must be at least 1, was " + workers);
        }
        if (workerIndex < 0 || workerIndex >= workers) {
            throw new IllegalArgumentException("--worker-index must be from 0 to " + (workers - 1) + " (--workers "
                    + workers + "), was " + workerIndex);
        }
        if (splits < workers || splits > 1 << 20) {
            throw new IllegalArgumentException(
                    "--splits must be from --workers (" + workers + ") to " + (1 << 20) + ", was " + splits);
        }
        atLeast("--scan-concurrency", scanConcurrency, 1);
        atLeast("--page-rows", pageRows, 1);
        atLeast("sink.max.buffered.rows", maxPendingRows, 1);
        atLeast("sink.max.in.flight.requests", maxInFlight, 1);
        atLeast("sink.batch.max.rows", batchMaxRows, 1);
        atLeast("--max-rows-per-second", maxRowsPerSecond, 0);
        atLeast("--max-reported", maxReported, 0);
    }

    private static void atLeast(String option, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(option + " must be at least " + min + ", was " + value);
        }
    }
}
