package io.apiary.ingest.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.ReadOptions;

/**
 * What a {@link HiveDataReader} needs to know: where the tables are, how their rows were sharded,
 * and how hard it may press Cassandra. Immutable, thread-safe.
 *
 * @param keyspace         the keyspace of the tables, not null
 * @param telemetrySchemes the shard schemes hive_telemetry was written with, current first; not empty
 * @param weatherSchemes   the shard schemes weather_readings was written with, current first; not empty
 * @param maxInFlight      most requests one read keeps in flight, at least 1
 * @param pageSize         rows per page of a partition query, at least 1
 * @param consistency      read consistency level, not null
 * @param maxPartitionQueries most (partition, series) queries one read may plan, at least 1
 */
public record ReadSettings(String keyspace, List<ShardScheme> telemetrySchemes, List<ShardScheme> weatherSchemes,
        int maxInFlight, int pageSize, ConsistencyLevel consistency, int maxPartitionQueries) {

    /** Checks and copies the fields. */
    public ReadSettings {
        Objects.requireNonNull(keyspace, "keyspace");
        telemetrySchemes = List.copyOf(telemetrySchemes);
        weatherSchemes = List.copyOf(weatherSchemes);
        Objects.requireNonNull(consistency, "consistency");
        if (telemetrySchemes.isEmpty() || weatherSchemes.isEmpty()) {
            throw new IllegalArgumentException("a sharded table needs at least one shard scheme");
        }
        if (maxInFlight < 1 || pageSize < 1 || maxPartitionQueries < 1) {
            throw new IllegalArgumentException("maxInFlight, pageSize and maxPartitionQueries must be at least 1, were "
                    + maxInFlight + ", " + pageSize + " and " + maxPartitionQueries);
        }
    }

    /**
     * The settings of a configuration: {@code cassandra.keyspace}; the current schemes from
     * {@code telemetry.shard.strategy}, {@code telemetry.shards} and {@code weather.shards}, then
     * {@code read.*.previous.shard.schemes}; {@code read.max.in.flight.requests},
     * {@code read.page.size}, {@code read.consistency} and {@code read.max.partition.queries}.
     *
     * @param config the validated configuration, not null
     * @return the settings
     */
    public static ReadSettings from(IngestConfig config) {
        return new ReadSettings(config.getString(IngestConfig.CASSANDRA_KEYSPACE),
                schemes(new ShardScheme(config.shardStrategy(), config.getInt(IngestConfig.TELEMETRY_SHARDS)),
                        config.getList(ReadOptions.READ_TELEMETRY_PREVIOUS_SCHEMES)),
                schemes(new ShardScheme(config.shardStrategy(), config.getInt(IngestConfig.WEATHER_SHARDS)),
                        config.getList(ReadOptions.READ_WEATHER_PREVIOUS_SCHEMES)),
                config.getInt(ReadOptions.READ_MAX_IN_FLIGHT), config.getInt(ReadOptions.READ_PAGE_SIZE),
                DefaultConsistencyLevel.valueOf(config.getString(ReadOptions.READ_CONSISTENCY).trim()
                        .toUpperCase(Locale.ROOT)), config.getInt(ReadOptions.READ_MAX_PARTITION_QUERIES));
    }

    private static List<ShardScheme> schemes(ShardScheme current, List<String> previous) {
        List<ShardScheme> schemes = new ArrayList<>();
        schemes.add(current);
        for (String text : previous) {
            ShardScheme scheme = ShardScheme.parse(text);
            if (!schemes.contains(scheme)) {
                schemes.add(scheme);
            }
        }
        return schemes;
    }
}
