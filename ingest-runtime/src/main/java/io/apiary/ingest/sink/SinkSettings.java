package io.apiary.ingest.sink;

import io.apiary.ingest.config.IngestConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * The sink's batching and flow-control settings. Immutable and thread-safe.
 *
 * @param maxInFlight          most write requests awaiting Cassandra's answer, at least 1; the
 *                             sink's own limit ({@link ConcurrencyLimit}) stays at or below it
 * @param limitAlgorithm       how the limit follows Cassandra's latency, not null
 * @param batchMaxRows         most rows per batch, at least 1
 * @param batchMaxBytes        most bytes per batch as Cassandra counts them
 *                             ({@link SinkTable#serverBytes}), at most
 *                             {@link IngestConfig#SINK_BATCH_MAX_BYTES_LIMIT}; -1 takes
 *                             {@link #SINGLE_PARTITION_BATCH_BYTES} for single-partition batches and
 *                             the server's {@code batch_size_warn_threshold} for combined ones
 * @param linger               how long a partition's first row waits for more rows, not negative
 * @param maxRowsPerSecond     most rows written per second, 0 for no limit
 * @param combineReplicas      whether small batches of partitions with the same replicas are
 *                             combined into one request
 * @param combineMaxPartitions most partitions per combined batch, 2 to
 *                             {@link IngestConfig#SINK_COMBINE_MAX_PARTITIONS_LIMIT}; -1 takes the server's
 *                             {@code unlogged_batch_across_partitions_warn_threshold}
 * @param maxBufferedRows      rows polled and not yet acknowledged before the sink pauses its
 *                             partitions, at least 1
 * @param maxBufferedBytes     key and value bytes of those rows before the sink pauses, at least 1
 * @param commitInterval       how often acknowledged offsets are committed, positive, at most
 *                             {@link IngestConfig#MAX_WAIT_MS} (as the three waits below)
 * @param retryBackoff         first wait before retrying a failed write; doubles per retry, with jitter;
 *                             positive
 * @param retryBackoffMax      longest wait between two attempts of one write, positive
 * @param drainTimeout         how long shutdown keeps writing, and revocation waits for in-flight writes;
 *                             not negative
 * @param deadLetterTopic      topic for rows Cassandra can never accept, not null
 * @param hot                  hot-partition detection, not null
 */
public record SinkSettings(
        int maxInFlight,
        ConcurrencyLimit.Algorithm limitAlgorithm,
        int batchMaxRows,
        long batchMaxBytes,
        Duration linger,
        long maxRowsPerSecond,
        boolean combineReplicas,
        int combineMaxPartitions,
        int maxBufferedRows,
        long maxBufferedBytes,
        Duration commitInterval,
        Duration retryBackoff,
        Duration retryBackoffMax,
        Duration drainTimeout,
        String deadLetterTopic,
        HotPartitionSettings hot) {

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if a limit is out of range (naming its setting where it is a wait, a
     *                                  batch's bytes or partitions), or the hot-partition window is shorter
     *                                  than twice the linger
     * @throws NullPointerException     if a duration, the topic or the hot-partition settings are null
     */
    public SinkSettings {
        if (maxInFlight < 1
                || batchMaxRows < 1
                || maxBufferedRows < 1
                || maxBufferedBytes < 1
                || maxRowsPerSecond < 0
                || (batchMaxBytes < 1 && batchMaxBytes != -1)
                || (combineMaxPartitions < 2 && combineMaxPartitions != -1)) {
            throw new IllegalArgumentException("sink limits out of range: " + maxInFlight + ", " + batchMaxRows
                    + ", " + batchMaxBytes + ", " + maxRowsPerSecond + ", " + combineMaxPartitions + ", "
                    + maxBufferedRows + ", " + maxBufferedBytes);
        }
        if (batchMaxBytes > IngestConfig.SINK_BATCH_MAX_BYTES_LIMIT) {
            throw new IllegalArgumentException(IngestConfig.SINK_BATCH_MAX_BYTES + " (" + batchMaxBytes + ") is above "
                    + IngestConfig.SINK_BATCH_MAX_BYTES_LIMIT + ", the Cassandra driver's largest frame");
        }
        if (combineMaxPartitions > IngestConfig.SINK_COMBINE_MAX_PARTITIONS_LIMIT) {
            throw new IllegalArgumentException(IngestConfig.SINK_COMBINE_MAX_PARTITIONS + " (" + combineMaxPartitions
                    + ") is above " + IngestConfig.SINK_COMBINE_MAX_PARTITIONS_LIMIT + ", the most rows of a batch");
        }
        Objects.requireNonNull(limitAlgorithm);
        Objects.requireNonNull(linger);
        Objects.requireNonNull(commitInterval);
        Objects.requireNonNull(retryBackoff);
        Objects.requireNonNull(retryBackoffMax);
        Objects.requireNonNull(drainTimeout);
        Objects.requireNonNull(deadLetterTopic);
        Objects.requireNonNull(hot);
        IngestConfig.requireWait(IngestConfig.SINK_COMMIT_INTERVAL_MS, commitInterval, 1, IngestConfig.MAX_WAIT_MS);
        IngestConfig.requireWait(IngestConfig.SINK_RETRY_BACKOFF_MS, retryBackoff, 1, IngestConfig.MAX_WAIT_MS);
        IngestConfig.requireWait(IngestConfig.SINK_RETRY_BACKOFF_MAX_MS, retryBackoffMax, 1, IngestConfig.MAX_WAIT_MS);
        IngestConfig.requireWait(IngestConfig.SINK_DRAIN_TIMEOUT_MS, drainTimeout, 0, IngestConfig.MAX_WAIT_MS);
        if (hot.enabled() && hot.window().compareTo(linger.multipliedBy(2)) < 0) {
            // a partition is acknowledged about once a linger: a shorter window sees bursts, not rates
            throw new IllegalArgumentException("sink.hot.window.ms ("
                    + hot.window().toMillis()
                    + ") must be at least twice sink.linger.ms (" + linger.toMillis() + "), or the hot-partition "
                    + "rates measure bursts of batches; raise it or set sink.hot.enabled=false");
        }
        if (linger.isNegative()) {
            throw new IllegalArgumentException("linger must not be negative: " + linger);
        }
    }

    /**
     * The settings named by a configuration.
     *
     * @param config the configuration, not null
     * @return the settings
     */
    public static SinkSettings from(IngestConfig config) {
        return new SinkSettings(
                config.getInt(IngestConfig.SINK_MAX_IN_FLIGHT),
                ConcurrencyLimit.Algorithm.parse(config.getString(IngestConfig.SINK_LIMIT_ALGORITHM)),
                config.getInt(IngestConfig.SINK_BATCH_MAX_ROWS),
                config.getLong(IngestConfig.SINK_BATCH_MAX_BYTES),
                Duration.ofMillis(config.getLong(IngestConfig.SINK_LINGER_MS)),
                config.getLong(IngestConfig.SINK_MAX_ROWS_PER_SECOND),
                config.getBoolean(IngestConfig.SINK_COMBINE_REPLICAS),
                config.getInt(IngestConfig.SINK_COMBINE_MAX_PARTITIONS),
                config.getInt(IngestConfig.SINK_MAX_BUFFERED_ROWS),
                config.getLong(IngestConfig.SINK_MAX_BUFFERED_BYTES),
                Duration.ofMillis(config.getLong(IngestConfig.SINK_COMMIT_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.SINK_RETRY_BACKOFF_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.SINK_RETRY_BACKOFF_MAX_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.SINK_DRAIN_TIMEOUT_MS)),
                config.topics().deadLetter(),
                HotPartitionSettings.from(config));
    }

    /**
     * The default byte cap of a single-partition batch: 512 KiB. Cassandra checks
     * {@code batch_size_warn_threshold} and {@code batch_size_fail_threshold} only for batches
     * whose mutations span more than one partition ({@code BatchStatement.verifyBatchSize}:
     * "We only warn for batch spanning multiple mutations", CASSANDRA-10876), so a batch of one
     * partition is bounded by the size of one mutation instead: half of
     * {@code commitlog_segment_size} (stock 32 MiB, so 16 MiB). 512 KiB stays far below that and
     * below the native protocol's frame; with the default 100 rows per batch it never binds for
     * the project's tables.
     */
    public static final long SINGLE_PARTITION_BATCH_BYTES = 512L * 1024;

    /**
     * @param server the server's thresholds, not null (unused for single-partition batches; kept
     *               so that callers pass what they read)
     * @return the byte cap of a single-partition batch: the configured one, or
     *         {@link #SINGLE_PARTITION_BATCH_BYTES}
     */
    public long effectiveBatchMaxBytes(ServerBatchLimits server) {
        return batchMaxBytes == -1 ? SINGLE_PARTITION_BATCH_BYTES : batchMaxBytes;
    }

    /**
     * @param server the server's thresholds, not null
     * @return the byte cap of a batch combining several partitions: the smaller of the configured
     *         cap and the server's {@code batch_size_warn_threshold}, which such batches are checked against
     */
    long effectiveCombinedMaxBytes(ServerBatchLimits server) {
        return batchMaxBytes == -1 ? server.warnBytes() : Math.min(batchMaxBytes, server.warnBytes());
    }

    /**
     * @param server the server's thresholds, not null
     * @return the partition cap of combined batches: the configured one, or the server's threshold
     */
    int effectiveCombineMaxPartitions(ServerBatchLimits server) {
        return combineMaxPartitions == -1 ? server.warnPartitions() : combineMaxPartitions;
    }
}
