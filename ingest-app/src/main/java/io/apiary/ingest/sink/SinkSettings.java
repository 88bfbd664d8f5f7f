package io.apiary.ingest.sink;

import java.time.Duration;
import java.util.Objects;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.apiary.ingest.config.IngestConfig;

/**
 * The sink's flow-control settings. Immutable and thread-safe.
 *
 * @param maxInFlight       write requests awaiting Cassandra's answer, at least 1
 * @param batchMaxRows      rows per single-partition batch, at least 1
 * @param batchMaxBytes     bound-value bytes per batch, at least 1
 * @param maxBufferedRows   rows polled and not yet acknowledged before the sink pauses its partitions
 * @param maxBufferedBytes  key and value bytes of those rows before the sink pauses its partitions
 * @param commitInterval    how often acknowledged offsets are committed
 * @param retryBackoff      first wait before retrying a failed write; doubles per retry, with jitter
 * @param retryBackoffMax   longest wait between two attempts of one write
 * @param drainTimeout      how long revocation and shutdown wait for in-flight writes
 * @param consistency       write consistency level
 * @param deadLetterTopic   topic for rows Cassandra can never accept, not null
 */
public record SinkSettings(int maxInFlight, int batchMaxRows, int batchMaxBytes, int maxBufferedRows,
        long maxBufferedBytes,
        Duration commitInterval, Duration retryBackoff, Duration retryBackoffMax, Duration drainTimeout,
        ConsistencyLevel consistency, String deadLetterTopic) {

    /** Checks the values. */
    public SinkSettings {
        if (maxInFlight < 1 || batchMaxRows < 1 || batchMaxBytes < 1 || maxBufferedRows < 1 || maxBufferedBytes < 1) {
            throw new IllegalArgumentException("sink limits must be at least 1");
        }
        Objects.requireNonNull(commitInterval);
        Objects.requireNonNull(retryBackoff);
        Objects.requireNonNull(retryBackoffMax);
        Objects.requireNonNull(drainTimeout);
        Objects.requireNonNull(consistency);
        Objects.requireNonNull(deadLetterTopic);
    }

    /**
     * The settings named by a configuration.
     *
     * @param config the configuration
     * @return the settings; consistency LOCAL_QUORUM, drain timeout 30 s
     */
    public static SinkSettings from(IngestConfig config) {
        return new SinkSettings(
                config.getInt(IngestConfig.SINK_MAX_IN_FLIGHT),
                config.getInt(IngestConfig.SINK_BATCH_MAX_ROWS),
                config.getInt(IngestConfig.SINK_BATCH_MAX_BYTES),
                config.getInt(IngestConfig.SINK_MAX_BUFFERED_ROWS),
                config.getLong(IngestConfig.SINK_MAX_BUFFERED_BYTES),
                Duration.ofMillis(config.getLong(IngestConfig.SINK_COMMIT_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.SINK_RETRY_BACKOFF_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.SINK_RETRY_BACKOFF_MAX_MS)),
                Duration.ofSeconds(30),
                DefaultConsistencyLevel.LOCAL_QUORUM,
                config.topics().deadLetter());
    }
}
