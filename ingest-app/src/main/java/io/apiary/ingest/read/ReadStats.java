package io.apiary.ingest.read;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a read cost. Immutable, thread-safe.
 *
 * @param partitionsInRange Cassandra partitions that can hold rows of the query (the bucket math's
 *                          answer, over every sensor type and shard scheme, in the current table
 *                          and in a legacy table read beside it)
 * @param partitionsRead    of those, the partitions queried before the read stopped (a limited read
 *                          stops early and leaves later partitions unread)
 * @param requests          CQL requests sent: one per partition opened, plus one per further page,
 *                          plus, for a partition too large to hold in memory, the requests that
 *                          read it again series by series (see {@link HiveDataReader}), plus the
 *                          probes of a sparse read (which partitions hold rows)
 * @param rows              rows returned to the caller
 * @param elapsed           wall-clock time from the start of the read to its end (or to now, while it runs), not null
 * @param tables            the tables read: the current one, then the legacy one when it was read too; not null
 */
public record ReadStats(
        int partitionsInRange, int partitionsRead, long requests, long rows, Duration elapsed, List<String> tables) {

    /** Checks the fields and copies the list. */
    public ReadStats {
        Objects.requireNonNull(elapsed, "elapsed");
        tables = List.copyOf(tables);
    }

    /** @return the tables read, for people: {@code hive_telemetry_v2}, or {@code hive_telemetry_v2 and the legacy hive_telemetry} */
    public String tablesText() {
        if (tables.size() <= 1) {
            return tables.isEmpty() ? "" : tables.get(0);
        }
        return tables.get(0) + " and the legacy " + String.join(" and ", tables.subList(1, tables.size()));
    }
}
