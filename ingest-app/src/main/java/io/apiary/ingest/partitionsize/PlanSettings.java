package io.apiary.ingest.partitionsize;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The planned load and size assumptions of a partition plan, per table name. The option names
 * ({@code partitions.plan.*}) are this record's constants, their definitions {@link Options}, and
 * {@link #from} reads them. Immutable and thread-safe.
 *
 * @param rates       planned write rate per entity (a value of the partition key without its
 *                    bucket and shard columns: a hive, a station, an agent), by table
 * @param entities    planned number of entities, by table (for the cluster-wide write rate)
 * @param shards      shards per bucket, by table, for tables with a {@code shard} partition-key column
 * @param buckets     bucket by table, where it is not read from the partition key
 * @param textBytes   assumed bytes of a variable-size value (text, blob, collection) without a
 *                    {@code columnBytes} entry, at least 0
 * @param columnBytes bytes of one value, by {@code table.column}
 * @param rowBytes    whole bytes of one row, overheads included, by table: replaces the estimate
 *                    from the column types
 * @param limits      the limits the plan is judged against, not null
 */
public record PlanSettings(
        Map<String, WriteRate> rates,
        Map<String, Long> entities,
        Map<String, Integer> shards,
        Map<String, Bucket> buckets,
        long textBytes,
        Map<String, Long> columnBytes,
        Map<String, Long> rowBytes,
        PartitionLimits limits) {

    public static final String PARTITIONS_PLAN_RATES = "partitions.plan.rates";
    public static final String PARTITIONS_PLAN_ENTITIES = "partitions.plan.entities";
    public static final String PARTITIONS_PLAN_SHARDS = "partitions.plan.shards";
    public static final String PARTITIONS_PLAN_BUCKETS = "partitions.plan.buckets";
    public static final String PARTITIONS_PLAN_TEXT_BYTES = "partitions.plan.text.bytes";
    public static final String PARTITIONS_PLAN_COLUMN_BYTES = "partitions.plan.column.bytes";
    public static final String PARTITIONS_PLAN_ROW_BYTES = "partitions.plan.row.bytes";

    /** Copies the maps, keeping their order. */
    public PlanSettings {
        rates = ordered(rates);
        entities = ordered(entities);
        shards = ordered(shards);
        buckets = ordered(buckets);
        columnBytes = ordered(columnBytes);
        rowBytes = ordered(rowBytes);
        if (textBytes < 0) {
            throw new IllegalArgumentException("textBytes must be at least 0");
        }
        java.util.Objects.requireNonNull(limits);
    }

    /**
     * The settings of a configuration ({@code partitions.plan.*}), with more {@code NAME=VALUE}
     * entries appended to its list settings (later entries win).
     *
     * <p>Shards default to the topology's own settings: {@code telemetry.shards} for
     * hive_telemetry and {@code weather.shards} for weather_readings.
     *
     * @param config the configuration, not null
     * @param extra  more entries by setting name (e.g. from command-line options), not null
     * @return the settings
     * @throws IllegalArgumentException naming the setting and entry that cannot be read
     */
    public static PlanSettings from(IngestConfig config, Map<String, List<String>> extra) {
        Map<String, Integer> shards = new LinkedHashMap<>();
        shards.put(io.apiary.ingest.tables.TableNames.HIVE_TELEMETRY, config.getInt(IngestConfig.TELEMETRY_SHARDS));
        shards.put("weather_readings", config.getInt(IngestConfig.WEATHER_SHARDS));
        shards.putAll(entries(config, extra, PARTITIONS_PLAN_SHARDS, PlanSettings::positiveInt));
        return new PlanSettings(
                entries(config, extra, PARTITIONS_PLAN_RATES, WriteRate::parse),
                entries(config, extra, PARTITIONS_PLAN_ENTITIES, v -> (long) positiveInt(v)),
                shards,
                entries(config, extra, PARTITIONS_PLAN_BUCKETS, Bucket::parse),
                config.getInt(PARTITIONS_PLAN_TEXT_BYTES),
                columnEntries(entries(config, extra, PARTITIONS_PLAN_COLUMN_BYTES, v -> (long) nonNegativeInt(v))),
                entries(config, extra, PARTITIONS_PLAN_ROW_BYTES, v -> (long) positiveInt(v)),
                PartitionLimits.DEFAULT);
    }

    /**
     * Reads {@code NAME=VALUE} entries.
     *
     * @param setting the setting's name, for messages
     * @param entries the entries, in order (a later one for the same name wins)
     * @param value   parses a value, throwing IllegalArgumentException if it cannot
     * @param <T>     the value type
     * @return name to value, in first-seen order
     * @throws IllegalArgumentException naming the setting and the entry
     */
    public static <T> Map<String, T> parseEntries(String setting, List<String> entries, Function<String, T> value) {
        Map<String, T> out = new LinkedHashMap<>();
        for (String entry : entries) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq == entry.length() - 1) {
                throw new IllegalArgumentException(setting + ": '" + entry + "' is not NAME=VALUE");
            }
            String name = entry.substring(0, eq).strip();
            try {
                out.put(name, value.apply(entry.substring(eq + 1).strip()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(setting + ": '" + entry + "': " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static Map<String, Long> columnEntries(Map<String, Long> entries) {
        entries.keySet().stream()
                .filter(k -> k.indexOf('.') <= 0 || k.endsWith("."))
                .findFirst()
                .ifPresent(k -> {
                    throw new IllegalArgumentException(
                            PARTITIONS_PLAN_COLUMN_BYTES + ": '" + k + "' is not TABLE.COLUMN");
                });
        return entries;
    }

    private static <T> Map<String, T> ordered(Map<String, T> map) {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    private static <T> Map<String, T> entries(
            IngestConfig config, Map<String, List<String>> extra, String setting, Function<String, T> value) {
        List<String> all = new ArrayList<>(config.getList(setting));
        all.addAll(extra.getOrDefault(setting, List.of()));
        return parseEntries(setting, all, value);
    }

    /**
     * @param text a decimal integer
     * @return it, if at least 1
     * @throws IllegalArgumentException otherwise
     */
    public static int positiveInt(String text) {
        int v = nonNegativeInt(text);
        if (v < 1) {
            throw new IllegalArgumentException("must be at least 1");
        }
        return v;
    }

    /**
     * @param text a decimal integer
     * @return it, if at least 0
     * @throws IllegalArgumentException otherwise
     */
    public static int nonNegativeInt(String text) {
        int v;
        try {
            v = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    text.strip().matches("[0-9]+")
                            ? "'" + text + "' is above " + "2,147,483,647"
                            : "'" + text + "' is not a whole number");
        }
        if (v < 0) {
            throw new IllegalArgumentException("must not be negative");
        }
        return v;
    }

    /**
     * The definitions of the options of {@code ingest-app partitions plan}: the planned load and the
     * size assumptions the partition-size calculator uses ({@link PartitionPlanner}); the pipeline
     * itself ignores them. Part of the application's one {@link IngestConfig#definition() definition}: {@link IngestConfig}
     * loads it as an {@link OptionGroup} (listed in
     * {@code META-INF/services/io.apiary.ingest.config.OptionGroup}, hence public with a public
     * no-argument constructor). Stateless and thread-safe.
     *
     * <p>The defaults are the planned load (docs/performance.md, "Capacity model") and the cql/ files: 10,000 hives x 1,000
     * readings/min; an hourly activity row per hive; 1,000 weather stations reporting every 10 s;
     * agent alerts designed for a storm of one every 10 s (the planned rate is a few a day), with
     * one agent per hive (an upper bound; a gateway may serve several hives).
     */
    public static final class Options implements OptionGroup {
        /** Instantiated by {@link java.util.ServiceLoader}. */
        public Options() {}

        @Override
        public void define(ConfigDef def) {
            def.define(
                            PARTITIONS_PLAN_RATES,
                            Type.LIST,
                            "hive_telemetry_v2=1000/min,hive_activity=1/h,weather_readings=6/min,agent_alerts_v2=6/min",
                            entries(WriteRate::parse),
                            Importance.LOW,
                            "partitions plan: planned write rate per entity (a hive, station or agent: a value of the "
                                    + "partition key without its bucket and shard columns), TABLE=COUNT/UNIT with UNIT s, "
                                    + "min, h or day. Tables without an entry are not planned.")
                    .define(
                            PARTITIONS_PLAN_ENTITIES,
                            Type.LIST,
                            "hive_telemetry_v2=10000,hive_activity=10000,weather_readings=1000,agent_alerts_v2=10000",
                            entries(PlanSettings::positiveInt),
                            Importance.LOW,
                            "partitions plan: planned number of entities per table, TABLE=N (for the cluster-wide "
                                    + "write rate; 1 when missing).")
                    .define(
                            PARTITIONS_PLAN_SHARDS,
                            Type.LIST,
                            "",
                            entries(PlanSettings::positiveInt),
                            Importance.LOW,
                            "partitions plan: shards per bucket, TABLE=N, for tables with a shard column. By default "
                                    + "hive_telemetry_v2 takes telemetry.shards and weather_readings weather.shards.")
                    .define(
                            PARTITIONS_PLAN_BUCKETS,
                            Type.LIST,
                            "",
                            entries(Bucket::parse),
                            Importance.LOW,
                            "partitions plan: time bucket per table, TABLE=minute|hour|day|week|month|year|none, "
                                    + "where not read from the partition key (a date column there is a day bucket; "
                                    + "none: partitions live as long as the table's default_time_to_live).")
                    .define(
                            PARTITIONS_PLAN_TEXT_BYTES,
                            Type.INT,
                            16,
                            Range.between(0, 1_000_000),
                            Importance.LOW,
                            "partitions plan: assumed bytes of a variable-size value (text, blob, varint, collection) "
                                    + "without a partitions.plan.column.bytes entry.")
                    .define(
                            PARTITIONS_PLAN_COLUMN_BYTES,
                            Type.LIST,
                            "agent_alerts_v2.message=200",
                            entries(PlanSettings::nonNegativeInt),
                            Importance.LOW,
                            "partitions plan: bytes of one value of a column, TABLE.COLUMN=N; replaces the size "
                                    + "from its type or partitions.plan.text.bytes.")
                    .define(
                            PARTITIONS_PLAN_ROW_BYTES,
                            Type.LIST,
                            "",
                            entries(PlanSettings::positiveInt),
                            Importance.LOW,
                            "partitions plan: whole bytes of one row, overheads included, TABLE=N; replaces the "
                                    + "estimate from the column types (e.g. a figure measured with nodetool tablestats).");
        }

        private static ConfigDef.Validator entries(Function<String, ?> value) {
            return ConfigDef.LambdaValidator.with(
                    (name, list) -> {
                        try {
                            @SuppressWarnings("unchecked")
                            List<String> entries = (List<String>) list;
                            PlanSettings.parseEntries(name, entries, value);
                        } catch (IllegalArgumentException e) {
                            throw new ConfigException(name, list, e.getMessage().replaceFirst("^" + name + ": ", ""));
                        }
                    },
                    () -> "NAME=VALUE, comma-separated");
        }
    }
}
