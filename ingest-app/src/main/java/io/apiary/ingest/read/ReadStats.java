package io.apiary.ingest.read;

import java.time.Duration;
import java.util.Objects;

/**
 * What a read cost. Immutable, thread-safe.
 *
 * @param partitionsInRange Cassandra partitions that can hold rows of the query (the bucket math's
 *                          answer, over every series and shard scheme)
 * @param partitionsRead    of those, the partitions queried before the read stopped (a limited read
 *                          stops early and leaves later partitions unread)
 * @param requests          CQL requests sent: one per partition opened, plus one per further page,
 *                          plus one per sensor type for a slice too large to hold in memory (see
 *                          {@link HiveDataReader})
 * @param rows              rows returned to the caller
 * @param elapsed           wall-clock time from the start of the read to its end (or to now, while it runs), not null
 */
public record ReadStats(int partitionsInRange, int partitionsRead, long requests, long rows, Duration elapsed) {

    /** Checks the fields. */
    public ReadStats {
        Objects.requireNonNull(elapsed, "elapsed");
    }
}
