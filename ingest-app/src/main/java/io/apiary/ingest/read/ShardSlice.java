package io.apiary.ingest.read;

import java.util.Objects;

/**
 * A partition bucket that can hold rows of a queried range, with the part of the range it can
 * hold rows for: {@code [fromMillis, toMillis)}. The reader uses the bounds to open a partition's
 * query only when the merge reaches its time. Immutable, thread-safe.
 *
 * @param bucket     the day and shard, not null
 * @param fromMillis first instant the partition can hold within the range, ms since 1970-01-01T00:00:00Z
 * @param toMillis   first instant after it, exclusive; greater than {@code fromMillis}
 */
public record ShardSlice(DayShard bucket, long fromMillis, long toMillis) {

    /** Checks the fields. */
    public ShardSlice {
        Objects.requireNonNull(bucket, "bucket");
        if (toMillis <= fromMillis) {
            throw new IllegalArgumentException("empty slice [" + fromMillis + ", " + toMillis + ")");
        }
    }
}
