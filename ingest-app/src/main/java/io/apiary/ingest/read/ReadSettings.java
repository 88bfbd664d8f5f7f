package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.tables.TableNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

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
 * @param maxPartitionQueries most partition queries one read may plan, at least 1
 * @param legacyTelemetryTable the legacy readings table read beside hive_telemetry_v2 when it
 *                         exists (e.g. {@code hive_telemetry}); empty to read none; not null
 * @param legacyAlertsTable the legacy alerts table read beside agent_alerts_v2 when it exists (e.g.
 *                         {@code agent_alerts}); empty to read none; not null
 * @param probePartitions  partitions of hive_telemetry_v2 asked about per probe request, when a
 *                         read spans more than this many; 0 never probes
 * @param maxProbedPartitions most partitions one probed read may ask about, at least 1
 */
public record ReadSettings(
        String keyspace,
        List<ShardScheme> telemetrySchemes,
        List<ShardScheme> weatherSchemes,
        int maxInFlight,
        int pageSize,
        ConsistencyLevel consistency,
        int maxPartitionQueries,
        String legacyTelemetryTable,
        String legacyAlertsTable,
        int probePartitions,
        int maxProbedPartitions) {

    /**
     * Settings that never probe (every partition in range is queried).
     *
     * @param keyspace             the keyspace
     * @param telemetrySchemes     hive_telemetry_v2's shard schemes, current first
     * @param weatherSchemes       weather_readings' shard schemes, current first
     * @param maxInFlight          most requests in flight
     * @param pageSize             rows per page
     * @param consistency          read consistency level
     * @param maxPartitionQueries  most partition queries
     * @param legacyTelemetryTable the legacy readings table, or empty
     * @param legacyAlertsTable    the legacy alerts table, or empty
     */
    public ReadSettings(
            String keyspace,
            List<ShardScheme> telemetrySchemes,
            List<ShardScheme> weatherSchemes,
            int maxInFlight,
            int pageSize,
            ConsistencyLevel consistency,
            int maxPartitionQueries,
            String legacyTelemetryTable,
            String legacyAlertsTable) {
        this(
                keyspace,
                telemetrySchemes,
                weatherSchemes,
                maxInFlight,
                pageSize,
                consistency,
                maxPartitionQueries,
                legacyTelemetryTable,
                legacyAlertsTable,
                0,
                1);
    }

    /** Checks and copies the fields. */
    public ReadSettings {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(legacyTelemetryTable, "legacyTelemetryTable");
        Objects.requireNonNull(legacyAlertsTable, "legacyAlertsTable");
        telemetrySchemes = List.copyOf(telemetrySchemes);
        weatherSchemes = List.copyOf(weatherSchemes);
        Objects.requireNonNull(consistency, "consistency");
        if (telemetrySchemes.isEmpty() || weatherSchemes.isEmpty()) {
            throw new IllegalArgumentException("a sharded table needs at least one shard scheme");
        }
        for (String legacy : List.of(legacyTelemetryTable, legacyAlertsTable)) {
            if (legacyTableProblem(legacy) != null) {
                throw new IllegalArgumentException(legacyTableProblem(legacy));
            }
        }
        if (probePartitions < 0 || maxProbedPartitions < 1) {
            throw new IllegalArgumentException("probePartitions must be at least 0 and maxProbedPartitions at least 1,"
                    + " were " + probePartitions + " and " + maxProbedPartitions);
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
     * {@code read.page.size}, {@code read.consistency}, {@code read.max.partition.queries},
     * {@code read.probe.partitions}, {@code read.max.probed.partitions},
     * {@code read.telemetry.legacy.table} and {@code read.alerts.legacy.table}.
     *
     * @param config the validated configuration, not null
     * @return the settings
     */
    public static ReadSettings from(IngestConfig config) {
        return new ReadSettings(
                config.getString(IngestConfig.CASSANDRA_KEYSPACE),
                schemes(
                        new ShardScheme(config.shardStrategy(), config.getInt(IngestConfig.TELEMETRY_SHARDS)),
                        config.getList(ReadOptions.READ_TELEMETRY_PREVIOUS_SCHEMES)),
                schemes(
                        new ShardScheme(config.shardStrategy(), config.getInt(IngestConfig.WEATHER_SHARDS)),
                        config.getList(ReadOptions.READ_WEATHER_PREVIOUS_SCHEMES)),
                config.getInt(ReadOptions.READ_MAX_IN_FLIGHT),
                config.getInt(ReadOptions.READ_PAGE_SIZE),
                DefaultConsistencyLevel.valueOf(
                        config.getString(ReadOptions.READ_CONSISTENCY).trim().toUpperCase(Locale.ROOT)),
                config.getInt(ReadOptions.READ_MAX_PARTITION_QUERIES),
                config.getString(ReadOptions.READ_TELEMETRY_LEGACY_TABLE).trim(),
                config.getString(ReadOptions.READ_ALERTS_LEGACY_TABLE).trim(),
                config.getInt(ReadOptions.READ_PROBE_PARTITIONS),
                config.getInt(ReadOptions.READ_MAX_PROBED_PARTITIONS));
    }

    /**
     * @param rows rows per page, at least 1
     * @return these settings with that page size
     */
    public ReadSettings withPageSize(int rows) {
        return new ReadSettings(
                keyspace,
                telemetrySchemes,
                weatherSchemes,
                maxInFlight,
                rows,
                consistency,
                maxPartitionQueries,
                legacyTelemetryTable,
                legacyAlertsTable,
                probePartitions,
                maxProbedPartitions);
    }

    /**
     * @param partitions partitions asked about per probe request, 0 to never probe
     * @param max        most partitions one probed read may ask about, at least 1
     * @return these settings with that probing
     */
    public ReadSettings withProbes(int partitions, int max) {
        return new ReadSettings(
                keyspace,
                telemetrySchemes,
                weatherSchemes,
                maxInFlight,
                pageSize,
                consistency,
                maxPartitionQueries,
                legacyTelemetryTable,
                legacyAlertsTable,
                partitions,
                max);
    }

    /**
     * @param telemetry the legacy readings table, or empty for none
     * @param alerts    the legacy alerts table, or empty for none
     * @return these settings with those legacy tables
     */
    public ReadSettings withLegacyTables(String telemetry, String alerts) {
        return new ReadSettings(
                keyspace,
                telemetrySchemes,
                weatherSchemes,
                maxInFlight,
                pageSize,
                consistency,
                maxPartitionQueries,
                telemetry,
                alerts,
                probePartitions,
                maxProbedPartitions);
    }

    /**
     * @param table a table the reader reads, not null
     * @return the shard schemes it was written with: weather_readings' for it, hive_telemetry's for
     *         the others (which only the sharded hive_telemetry_v2 uses)
     */
    List<ShardScheme> schemes(SeriesTable<?> table) {
        return table.name().equals(TableNames.WEATHER_READINGS) ? weatherSchemes : telemetrySchemes;
    }

    /**
     * @param table a table the reader reads, not null
     * @return the legacy table configured for it, or empty when none is (or the table has no legacy layout)
     */
    String legacyTable(SeriesTable<?> table) {
        if (table.legacyLayout() == null) {
            return "";
        }
        return switch (table.name()) {
            case TableNames.HIVE_TELEMETRY -> legacyTelemetryTable;
            case TableNames.AGENT_ALERTS -> legacyAlertsTable;
            default -> "";
        };
    }

    /**
     * What is wrong with a legacy table's name: it goes into CQL text, so it must be an unquoted
     * CQL identifier (a letter, then letters, digits and '_', at most 48 characters: Cassandra's
     * limit for table names), and must not be a table of {@code cql/}.
     *
     * @param name the name, not null; empty (no legacy table) is fine
     * @return the problem, for a person, or null when there is none
     */
    public static String legacyTableProblem(String name) {
        if (name.isEmpty()) {
            return null;
        }
        if (!name.matches("[A-Za-z][A-Za-z0-9_]{0,47}")) {
            return "'" + name + "' is not a table name: a letter, then letters, digits and '_', at most 48 characters";
        }
        if (TableNames.CURRENT.contains(name.toLowerCase(Locale.ROOT))) {
            return name + " is a current table, not a legacy one";
        }
        return null;
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
