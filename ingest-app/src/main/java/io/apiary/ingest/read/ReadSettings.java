package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import io.apiary.ingest.tables.TableNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * What a {@link HiveDataReader} needs to know: where the tables are, how their rows were sharded,
 * and how hard it may press Cassandra. The option names ({@code read.*}) are this record's constants,
 * their definitions {@link Options}, and {@link #from} reads them. Immutable, thread-safe.
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

    public static final String READ_MAX_IN_FLIGHT = "read.max.in.flight.requests";
    public static final String READ_PAGE_SIZE = "read.page.size";
    public static final String READ_MAX_PARTITION_QUERIES = "read.max.partition.queries";
    public static final String READ_CONSISTENCY = "read.consistency";
    public static final String READ_PROBE_PARTITIONS = "read.probe.partitions";
    public static final String READ_MAX_PROBED_PARTITIONS = "read.max.probed.partitions";
    public static final String READ_TELEMETRY_PREVIOUS_SCHEMES = "read.telemetry.previous.shard.schemes";
    public static final String READ_WEATHER_PREVIOUS_SCHEMES = "read.weather.previous.shard.schemes";
    public static final String READ_TELEMETRY_LEGACY_TABLE = "read.telemetry.legacy.table";
    public static final String READ_ALERTS_LEGACY_TABLE = "read.alerts.legacy.table";

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
                        config.getList(READ_TELEMETRY_PREVIOUS_SCHEMES)),
                schemes(
                        new ShardScheme(config.shardStrategy(), config.getInt(IngestConfig.WEATHER_SHARDS)),
                        config.getList(READ_WEATHER_PREVIOUS_SCHEMES)),
                config.getInt(READ_MAX_IN_FLIGHT),
                config.getInt(READ_PAGE_SIZE),
                DefaultConsistencyLevel.valueOf(
                        config.getString(READ_CONSISTENCY).trim().toUpperCase(Locale.ROOT)),
                config.getInt(READ_MAX_PARTITION_QUERIES),
                config.getString(READ_TELEMETRY_LEGACY_TABLE).trim(),
                config.getString(READ_ALERTS_LEGACY_TABLE).trim(),
                config.getInt(READ_PROBE_PARTITIONS),
                config.getInt(READ_MAX_PROBED_PARTITIONS));
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

    /**
     * The definitions of the read path's options ({@code read.*}), for the {@code query} and
     * {@code report} commands and the {@code io.apiary.ingest.read} library. Part of the application's one {@link IngestConfig#definition() definition}: {@link IngestConfig}
     * loads it as an {@link OptionGroup} (listed in
     * {@code META-INF/services/io.apiary.ingest.config.OptionGroup}, hence public with a public
     * no-argument constructor). Stateless and thread-safe.
     */
    public static final class Options implements OptionGroup {
        /** Instantiated by {@link java.util.ServiceLoader}. */
        public Options() {}

        /** A list of {@code STRATEGY:COUNT} shard schemes, e.g. {@code time:48,hash:96}. */
        private static ConfigDef.Validator schemes() {
            return ConfigDef.LambdaValidator.with(
                    (name, value) -> {
                        for (Object scheme : (java.util.List<?>) value) {
                            try {
                                ShardScheme.parse(scheme.toString());
                            } catch (IllegalArgumentException e) {
                                throw new ConfigException(name, value, e.getMessage());
                            }
                        }
                    },
                    () -> "list of STRATEGY:COUNT, e.g. time:48,hash:96");
        }

        /** Empty, or the name of a legacy table (an unquoted CQL identifier, not a table of cql/). */
        private static ConfigDef.Validator legacyTable() {
            return ConfigDef.LambdaValidator.with(
                    (name, value) -> {
                        String problem =
                                ReadSettings.legacyTableProblem(value.toString().trim());
                        if (problem != null) {
                            throw new ConfigException(name, value, problem);
                        }
                    },
                    () -> "empty, or a table name (a letter, then letters, digits and '_')");
        }

        /**
         * Adds the options to a definition.
         *
         * @param definition the application's definition, not null
         */
        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(
                            READ_MAX_IN_FLIGHT,
                            Type.INT,
                            16,
                            Range.between(1, 1_024),
                            Importance.MEDIUM,
                            "Most CQL requests one read keeps in flight: a read spanning many day and shard "
                                    + "partitions queries this many of them at once, in time order.")
                    .define(
                            READ_MAX_PARTITION_QUERIES,
                            Type.INT,
                            100_000,
                            Range.between(1, 10_000_000),
                            Importance.LOW,
                            "Most partition queries one read may plan (one per partition that can hold its rows, "
                                    + "counted as days x shards of every shard scheme, and again for a legacy table read "
                                    + "beside the current one; the sensor types of a partition are read with one query); "
                                    + "a longer read is refused with a message rather than held in memory. At 96 shards, "
                                    + "100,000 covers 1,041 days (96 a day), or 520 with the legacy table. A read of "
                                    + TableNames.HIVE_TELEMETRY
                                    + " that probes (read.probe.partitions) counts only the "
                                    + "partitions that hold rows.")
                    .define(
                            READ_PROBE_PARTITIONS,
                            Type.INT,
                            1_000,
                            Range.between(0, 10_000),
                            Importance.LOW,
                            "A read of " + TableNames.HIVE_TELEMETRY + " over more partitions than this first asks "
                                    + "which of them hold rows, this many partitions per request (hive_id = ? AND day IN ? "
                                    + "AND shard IN ? PER PARTITION LIMIT 1), and then queries only those: a sparse year "
                                    + "costs a request per this many partitions plus one per partition with rows, not one "
                                    + "per partition. Up to a quarter of read.max.in.flight.requests probes are in flight. "
                                    + "A cluster with a guardrail on partition keys in a SELECT "
                                    + "(partition_keys_in_select_fail_threshold, in_select_cartesian_product_fail_threshold) "
                                    + "refuses larger probes: set this at or below it (a refused probe makes the read query "
                                    + "every partition, with a warning). 0 never asks (every partition in range is queried).")
                    .define(
                            READ_MAX_PROBED_PARTITIONS,
                            Type.INT,
                            400_000,
                            Range.between(1, 100_000_000),
                            Importance.LOW,
                            "Most partitions one probed read may ask about (days x shards of every shard scheme; a "
                                    + "larger read.max.partition.queries wins); about 500 bytes of memory each while the "
                                    + "read is planned. At 96 shards a day, 400,000 covers 11 years (about 200 MB). "
                                    + "read.max.partition.queries then counts only the partitions that hold rows.")
                    .define(
                            READ_PAGE_SIZE,
                            Type.INT,
                            5_000,
                            Range.between(1, 100_000),
                            Importance.LOW,
                            "Rows per page Cassandra returns for one partition query (the driver's page size); a "
                                    + "read of one sensor with a limit asks for at most the limit plus one. A limited read "
                                    + "of several sensors fetches at most one page of a partition before it reads that "
                                    + "partition sensor by sensor.")
                    .define(
                            READ_CONSISTENCY,
                            Type.STRING,
                            "LOCAL_QUORUM",
                            IngestConfig.consistencyLevel(false, true),
                            Importance.MEDIUM,
                            "Read consistency level. LOCAL_QUORUM with the sink's LOCAL_QUORUM writes reads every "
                                    + "acknowledged row; LOCAL_ONE is faster and may miss the latest rows.")
                    .define(
                            READ_TELEMETRY_PREVIOUS_SCHEMES,
                            Type.LIST,
                            "",
                            schemes(),
                            Importance.MEDIUM,
                            "Shard schemes hive_telemetry was written with before the current telemetry.shard.strategy "
                                    + "and telemetry.shards, as STRATEGY:COUNT (e.g. time:48): reads also query their "
                                    + "partitions, so rows written before a change of the shard count are found.")
                    .define(
                            READ_WEATHER_PREVIOUS_SCHEMES,
                            Type.LIST,
                            "",
                            schemes(),
                            Importance.LOW,
                            "Shard schemes weather_readings was written with before the current "
                                    + "telemetry.shard.strategy and weather.shards, as STRATEGY:COUNT.")
                    .define(
                            READ_TELEMETRY_LEGACY_TABLE,
                            Type.STRING,
                            TableNames.LEGACY_HIVE_TELEMETRY,
                            legacyTable(),
                            Importance.MEDIUM,
                            "The readings table of the layout before sensor ids (cql/legacy/), read beside "
                                    + TableNames.HIVE_TELEMETRY + " while a migration copies it: only if it exists in "
                                    + "cassandra.keyspace (no request is made when it does not), with the same shard "
                                    + "schemes. Its rows read as sensor 'default'; one is left out when "
                                    + TableNames.HIVE_TELEMETRY
                                    + " has any reading of that hive, sensor type and time, "
                                    + "so each reading is returned once. Each of its partitions is one more query "
                                    + "(read.max.partition.queries counts them). Empty: never read it.")
                    .define(
                            READ_ALERTS_LEGACY_TABLE,
                            Type.STRING,
                            TableNames.LEGACY_AGENT_ALERTS,
                            legacyTable(),
                            Importance.LOW,
                            "The alerts table of the layout before alert ids (cql/legacy/), read beside "
                                    + TableNames.AGENT_ALERTS + " while a migration copies it: only if it exists in "
                                    + "cassandra.keyspace. Its rows read with the alert id derived from their content, "
                                    + "as the pipeline derives it, and are left out when " + TableNames.AGENT_ALERTS
                                    + " has a row of that time and id. Empty: never read it.");
        }
    }
}
