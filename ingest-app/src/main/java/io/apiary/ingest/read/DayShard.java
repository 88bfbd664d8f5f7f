package io.apiary.ingest.read;

import java.time.LocalDate;
import java.util.Comparator;
import java.util.Objects;

/**
 * The bucket part of a sharded partition key: a UTC day and a shard. Ordered by day, then shard.
 * Immutable, thread-safe.
 *
 * @param day   the day bucket (UTC date), not null
 * @param shard the shard within the day, 0 or more
 */
public record DayShard(LocalDate day, int shard) implements Comparable<DayShard> {

    private static final Comparator<DayShard> ORDER =
            Comparator.comparing(DayShard::day).thenComparingInt(DayShard::shard);

    /** Checks the fields. */
    public DayShard {
        Objects.requireNonNull(day, "day");
        if (shard < 0) {
            throw new IllegalArgumentException("shard must be 0 or more, was " + shard);
        }
    }

    @Override
    public int compareTo(DayShard other) {
        return ORDER.compare(this, other);
    }
}
