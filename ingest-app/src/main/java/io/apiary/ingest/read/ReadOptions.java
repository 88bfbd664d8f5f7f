package io.apiary.ingest.read;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import io.apiary.ingest.tables.TableNames;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The options of the read path ({@code read.*}): the {@code query} and {@code report} commands
 * and the {@code io.apiary.ingest.read} library. They are part of the {@link IngestConfig#definition() definition}
 * (one definition, one reference); this package owns them and {@link IngestConfig} loads them as an
 * {@link OptionGroup}.
 * Thread-safe (constants only).
 */
public final class ReadOptions implements OptionGroup {

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

    /** Instantiated by {@link java.util.ServiceLoader} (META-INF/services/io.apiary.ingest.config.OptionGroup). */
    public ReadOptions() {}

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
                                + TableNames.HIVE_TELEMETRY + " that probes (read.probe.partitions) counts only the "
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
                                + TableNames.HIVE_TELEMETRY + " has any reading of that hive, sensor type and time, "
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
