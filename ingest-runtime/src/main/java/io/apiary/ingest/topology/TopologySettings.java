package io.apiary.ingest.topology;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.validation.SensorRangeOptions;
import io.apiary.ingest.validation.SensorRanges;
import io.apiary.ingest.validation.TimeLimits;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * What the topology's shape and checks depend on. Immutable and thread-safe (if the clock is).
 *
 * @param topics         topic names, not null
 * @param shardStrategy  shard strategy of hive_telemetry (and weather_readings), not null
 * @param shards         shards per day bucket of hive_telemetry, at least 1
 * @param weatherShards  shards per day bucket of weather_readings, at least 1
 * @param grace          grace period of the hourly windows, not negative
 * @param idleTimeout    quiet rule: wall-clock time without a sample of a hive, its partition
 *                       caught up, after which the hive's close time follows the wall clock, not negative
 * @param updateInterval wall-clock interval of interim hive_activity updates, of corrections and
 *                       of the quiet rule's check, positive
 * @param correctionHorizon how long after an hour closed (in its hive's event time) a sample still
 *                       corrects it, not negative
 * @param maxFutureSkew  how far ahead of the wall clock an event time may be, not negative
 * @param maxAge         how far behind the wall clock an event time may be; null takes each
 *                       table's retention
 * @param sensorRanges   the telemetry values accepted per sensor type and unit, not null
 * @param wallClock      the wall clock of the validation checks, ms since the epoch, not null
 * @param storeType      where the hourly sums' state stores live, not null
 * @param inputLag       whether a task's input partition holds unprocessed records, for the quiet
 *                       rule: {@link InputLag#SYNCHRONOUS} where every record is processed as it is
 *                       given (TopologyTestDriver), {@link InputProgress} with Kafka Streams; not null
 */
public record TopologySettings(
        Topics topics,
        ShardStrategy shardStrategy,
        int shards,
        int weatherShards,
        Duration grace,
        Duration idleTimeout,
        Duration updateInterval,
        Duration correctionHorizon,
        Duration maxFutureSkew,
        Duration maxAge,
        SensorRanges sensorRanges,
        LongSupplier wallClock,
        StoreType storeType,
        InputLag inputLag) {

    /** Where state stores live ({@value StateStoreOptions#TOPOLOGY_STORE_TYPE}). */
    public enum StoreType {
        /** On disk in the state folder (RocksDB), memory bounded by {@code BoundedRocksDbMemory}. */
        ROCKSDB,
        /** On the heap; restored from the changelog topics at every start. */
        IN_MEMORY;

        /**
         * @param text {@code rocksdb} or {@code in_memory}, any case
         * @return the type
         * @throws IllegalArgumentException for any other text
         */
        public static StoreType parse(String text) {
            return valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** Checks the values. */
    public TopologySettings {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(shardStrategy, "shardStrategy");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(updateInterval, "updateInterval");
        Objects.requireNonNull(maxFutureSkew, "maxFutureSkew");
        Objects.requireNonNull(wallClock, "wallClock");
        Objects.requireNonNull(sensorRanges, "sensorRanges");
        Objects.requireNonNull(storeType, "storeType");
        Objects.requireNonNull(correctionHorizon, "correctionHorizon");
        Objects.requireNonNull(inputLag, "inputLag");
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1, was " + shards);
        }
        if (weatherShards < 1) {
            throw new IllegalArgumentException("weatherShards must be at least 1, was " + weatherShards);
        }
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace must not be negative, was " + grace);
        }
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout must not be negative, was " + idleTimeout);
        }
        if (correctionHorizon.isNegative()) {
            throw new IllegalArgumentException("correctionHorizon must not be negative, was " + correctionHorizon);
        }
        if (updateInterval.isNegative() || updateInterval.isZero()) {
            throw new IllegalArgumentException("updateInterval must be positive, was " + updateInterval);
        }
    }

    /**
     * The settings named by a configuration, with the system clock, for a topology whose records are
     * processed as they are given ({@link InputLag#SYNCHRONOUS}); a {@code KafkaStreams} application
     * takes {@link #withInputLag} with its {@link InputProgress}.
     *
     * @param config the configuration, not null
     * @return the settings
     */
    public static TopologySettings from(IngestConfig config) {
        return from(config, System::currentTimeMillis);
    }

    /**
     * The settings named by a configuration, for a topology whose records are processed as they are
     * given ({@link InputLag#SYNCHRONOUS}).
     *
     * @param config    the configuration, not null
     * @param wallClock the wall clock of the validation checks, not null
     * @return the settings
     */
    public static TopologySettings from(IngestConfig config, LongSupplier wallClock) {
        long maxAgeMs = config.getLong(IngestConfig.VALIDATION_MAX_AGE_MS);
        return new TopologySettings(
                config.topics(),
                config.shardStrategy(),
                config.getInt(IngestConfig.TELEMETRY_SHARDS),
                config.getInt(IngestConfig.WEATHER_SHARDS),
                Duration.ofMillis(config.getLong(IngestConfig.ACTIVITY_GRACE_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.ACTIVITY_CORRECTION_HORIZON_MS)),
                Duration.ofMillis(config.getLong(IngestConfig.VALIDATION_MAX_FUTURE_SKEW_MS)),
                maxAgeMs < 0 ? null : Duration.ofMillis(maxAgeMs),
                SensorRangeOptions.ranges(config),
                wallClock,
                StoreType.parse(config.getString(StateStoreOptions.TOPOLOGY_STORE_TYPE)),
                InputLag.SYNCHRONOUS);
    }

    /**
     * @param lag how the quiet rule learns whether a task's input partition holds unprocessed records,
     *            not null
     * @return these settings with {@code lag}
     */
    public TopologySettings withInputLag(InputLag lag) {
        return new TopologySettings(
                topics,
                shardStrategy,
                shards,
                weatherShards,
                grace,
                idleTimeout,
                updateInterval,
                correctionHorizon,
                maxFutureSkew,
                maxAge,
                sensorRanges,
                wallClock,
                storeType,
                lag);
    }

    /**
     * The event-time limits of one stream.
     *
     * @param tableRetention the retention (default TTL) of the stream's table, used when no
     *                       maximum age is configured, positive
     * @return the limits
     */
    public TimeLimits timeLimits(Duration tableRetention) {
        return new TimeLimits(maxFutureSkew, maxAge != null ? maxAge : tableRetention);
    }

    /**
     * The telemetry validator the topology runs: importers run the same one before they send.
     *
     * @return the validator of hive telemetry under these settings
     */
    public io.apiary.ingest.validation.TelemetryValidator telemetryValidator() {
        return new io.apiary.ingest.validation.TelemetryValidator(
                timeLimits(IngestTopology.TELEMETRY_RETENTION), sensorRanges);
    }

    /**
     * The entrance-count validator the topology runs: importers run the same one before they send.
     *
     * @return the validator of entrance-counter samples under these settings
     */
    public io.apiary.ingest.validation.EntranceCountValidator entranceCountValidator() {
        return new io.apiary.ingest.validation.EntranceCountValidator(timeLimits(IngestTopology.ACTIVITY_RETENTION));
    }
}
