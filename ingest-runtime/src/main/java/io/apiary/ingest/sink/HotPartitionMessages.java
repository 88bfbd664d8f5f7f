package io.apiary.ingest.sink;

import io.apiary.ingest.sink.HotPartitionReport.PartitionLoad;
import io.apiary.ingest.sink.HotPartitionReport.Projection;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The WARN lines of the hot-partition detection, for operators. Thread-safe (stateless).
 */
final class HotPartitionMessages {

    private static final DateTimeFormatter MINUTE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private HotPartitionMessages() {}

    /**
     * For example: {@code Hot partition in hive_telemetry: (hive_id='hive-0042', day=2026-11-30,
     * shard=37) took 33.6% of the rows and 34.0% of the bytes written in the last 10 s (1,680
     * rows/s, 0.21 MB/s; 99 partitions written); at this rate it holds 190 MB and 7,560,000 cells at
     * the end of its bucket (2026-11-30T09:15Z), over the 100 MB and 100,000-cell limits}.
     *
     * @param table      table name
     * @param load       the partition's load, hot or over a limit
     * @param seconds    the window's length, s
     * @param partitions partitions of the table written in the window
     * @return the line
     */
    static String partition(String table, PartitionLoad load, double seconds, long partitions) {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%s in %s: %s took %.1f%% of the rows and %.1f%% of the bytes written in the last %s s "
                        + "(%,.0f rows/s, %.2f MB/s; %,d partitions written)",
                load.hot() ? "Hot partition" : "Partition growing past the size limits",
                table,
                load.key(),
                load.rowsShare() * 100,
                load.bytesShare() * 100,
                seconds(seconds),
                load.rowsPerSecond(),
                load.bytesPerSecond() / 1e6,
                partitions));
        Projection projection = load.projection();
        if (projection != null) {
            boolean bytes = projection.bytes() > HotPartitionReport.LIMIT_BYTES;
            boolean cells = projection.cells() > HotPartitionReport.LIMIT_CELLS;
            line.append(String.format(
                    Locale.ROOT,
                    "; at this rate it holds %s MB and %,.0f cells at the end of its bucket (%s), %s",
                    megabytes(projection.bytes()),
                    projection.cells(),
                    MINUTE.format(projection.bucketEnd()),
                    bytes && cells
                            ? "over the 100 MB and 100,000-cell limits"
                            : bytes
                                    ? "over the 100 MB limit"
                                    : cells
                                            ? "over the 100,000-cell limit"
                                            : "within the 100 MB and 100,000-cell limits"));
        }
        return line.toString();
    }

    /**
     * @param node    the node, {@code host:port}
     * @param share   share of the window's rows of which it is a replica
     * @param mean    the mean share over the nodes owning tokens
     * @param owners  nodes owning tokens
     * @param seconds the window's length, s
     * @return the line
     */
    static String node(String node, double share, double mean, int owners, double seconds) {
        return String.format(
                Locale.ROOT,
                "Hot Cassandra node %s: a replica of %.1f%% of the rows written in the "
                        + "last %s s, against a mean of %.1f%% over the %d nodes owning tokens; look for hot partitions "
                        + "(apiary.sink.partition.hottest.share) and at the token ownership (nodetool status)",
                node,
                share * 100,
                seconds(seconds),
                mean * 100,
                owners);
    }

    private static String seconds(double seconds) {
        return seconds >= 9.5
                ? String.format(Locale.ROOT, "%,.0f", seconds)
                : String.format(Locale.ROOT, "%.1f", seconds);
    }

    private static String megabytes(double bytes) {
        double mb = bytes / 1e6;
        return mb >= 9.5 ? String.format(Locale.ROOT, "%,.0f", mb) : String.format(Locale.ROOT, "%.1f", mb);
    }
}
