package io.apiary.ingest.topology;

import java.time.Duration;
import java.util.Objects;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.topics.Topics;

/**
 * What the topology's shape depends on. Immutable and thread-safe.
 *
 * @param topics        topic names, not null
 * @param shardStrategy shard strategy of hive_telemetry, not null
 * @param shards        shards per day bucket of hive_telemetry, at least 1
 * @param grace         grace period of the hourly windows, not negative
 */
public record TopologySettings(Topics topics, ShardStrategy shardStrategy, int shards, Duration grace) {

    /** Checks the values. */
    public TopologySettings {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(shardStrategy, "shardStrategy");
        Objects.requireNonNull(grace, "grace");
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1, was " + shards);
        }
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace must not be negative, was " + grace);
        }
    }

    /**
     * The settings named by a configuration.
     *
     * @param config the configuration, not null
     * @return the settings
     */
    public static TopologySettings from(IngestConfig config) {
        return new TopologySettings(config.topics(), config.shardStrategy(),
                config.getInt(IngestConfig.TELEMETRY_SHARDS),
                Duration.ofMillis(config.getLong(IngestConfig.ACTIVITY_GRACE_MS)));
    }
}
