package io.apiary.ingest.read;

import io.apiary.ingest.bucket.ShardStrategy;
import java.util.Locale;
import java.util.Objects;

/**
 * How a sharded table's rows were spread over the shards of their day bucket: a
 * {@link ShardStrategy} and a shard count, as the topology was configured
 * ({@code telemetry.shard.strategy} with {@code telemetry.shards} or {@code weather.shards}) when
 * the rows were written. A table written under several schemes over time (the shard count was
 * changed) is read under all of them. Immutable, thread-safe.
 *
 * @param strategy how a row's shard was chosen, not null
 * @param shards   shards per day bucket, 1 to 100,000 (the range {@code telemetry.shards} accepts)
 */
public record ShardScheme(ShardStrategy strategy, int shards) {

    /** The most shards per day bucket a scheme may have (as {@code telemetry.shards}). */
    public static final int MAX_SHARDS = 100_000;

    /**
     * @throws NullPointerException     if {@code strategy} is null
     * @throws IllegalArgumentException if {@code shards} is outside 1 to {@value #MAX_SHARDS}
     */
    public ShardScheme {
        Objects.requireNonNull(strategy, "strategy");
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("a shard count must be 1 to " + MAX_SHARDS + ", was " + shards);
        }
    }

    /**
     * Parses {@code STRATEGY:COUNT}, e.g. {@code time:48} or {@code hash:96}.
     *
     * @param text the scheme, not null
     * @return the scheme
     * @throws IllegalArgumentException naming the expected form if {@code text} is not one
     */
    public static ShardScheme parse(String text) {
        String[] parts = text.trim().split(":", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a shard scheme: write STRATEGY:COUNT, " + "e.g. time:48 or hash:96");
        }
        int shards;
        try {
            shards = Integer.parseInt(parts[1].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a shard scheme: the count '" + parts[1] + "' is not a whole number", e);
        }
        return new ShardScheme(ShardStrategy.parse(parts[0]), shards);
    }

    @Override
    public String toString() {
        return strategy.name().toLowerCase(Locale.ROOT) + ":" + shards;
    }
}
