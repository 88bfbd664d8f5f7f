package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The batch thresholds of the Cassandra cluster, read from the {@code system_views.settings}
 * virtual table (Cassandra 4.0 and later) of the node the driver asks, so that the sink's default
 * caps stay below them and never cause the server's batch warnings.
 *
 * @param warnBytes     {@code batch_size_warn_threshold} in bytes: a batch of several partitions
 *                      whose data size exceeds it is logged and answered with a warning
 * @param warnPartitions {@code unlogged_batch_across_partitions_warn_threshold}: an UNLOGGED
 *                      batch spanning more partitions than this is warned about
 * @param fromServer    whether the figures were read from the server (false: the stock defaults)
 */
public record ServerBatchLimits(long warnBytes, int warnPartitions, boolean fromServer) {

    /** Cassandra's stock values (cassandra.yaml of 4.0-5.0): 5 KiB and 10 partitions. */
    public static final ServerBatchLimits STOCK = new ServerBatchLimits(5 * 1024, 10, false);

    private static final Logger LOG = LoggerFactory.getLogger(ServerBatchLimits.class);
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+)\\s*([KMG]?i?B)?\\s*", Pattern.CASE_INSENSITIVE);

    /**
     * Reads the thresholds; falls back to {@link #STOCK} (with an INFO line) if the virtual table
     * cannot be read (older server, missing permission).
     *
     * @param session an open session, not null
     * @return the limits, never null
     */
    public static ServerBatchLimits read(CqlSession session) {
        try {
            long bytes = STOCK.warnBytes();
            int partitions = STOCK.warnPartitions();
            for (Row row : session.execute(
                    SimpleStatement.newInstance("SELECT name, value FROM system_views.settings WHERE name IN "
                            + "('batch_size_warn_threshold', 'batch_size_warn_threshold_in_kb', "
                            + "'unlogged_batch_across_partitions_warn_threshold')"))) {
                String name = row.getString("name");
                String value = row.getString("value");
                if (value == null) {
                    continue;
                }
                if (name.equals("unlogged_batch_across_partitions_warn_threshold")) {
                    partitions = Integer.parseInt(value.trim());
                } else if (name.equals("batch_size_warn_threshold_in_kb")) {
                    bytes = Long.parseLong(value.trim()) * 1024;
                } else {
                    bytes = parseSize(value);
                }
            }
            return new ServerBatchLimits(bytes, partitions, true);
        } catch (RuntimeException e) {
            LOG.info(
                    "Cannot read the server's batch thresholds from system_views.settings ({}); assuming "
                            + "Cassandra's stock values ({} bytes, {} partitions)",
                    e.toString(),
                    STOCK.warnBytes(),
                    STOCK.warnPartitions());
            return STOCK;
        }
    }

    /**
     * Parses a Cassandra data-storage value such as {@code 5KiB}, {@code 5120B} or {@code 5120}.
     *
     * @param value the setting's text
     * @return bytes
     * @throws IllegalArgumentException if the text is not such a value
     */
    static long parseSize(String value) {
        Matcher m = SIZE.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a data size: " + value);
        }
        long number = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
        switch (unit) {
            case "B":
                return number;
            case "KIB":
            case "KB":
                return number * 1024;
            case "MIB":
            case "MB":
                return number * 1024 * 1024;
            case "GIB":
            case "GB":
                return number * 1024 * 1024 * 1024;
            default:
                throw new IllegalArgumentException("unknown unit in data size: " + value);
        }
    }
}
