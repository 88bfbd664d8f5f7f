package io.apiary.ingest.partitionsize;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The options of {@code ingest-app partitions plan}: the planned load and the size assumptions
 * the partition-size calculator uses ({@link PartitionPlanner}).
 * The pipeline itself ignores them. Part of the {@link IngestConfig#definition() definition}; this package owns them and
 * {@link IngestConfig} loads them as an {@link OptionGroup}. Thread-safe (constants only).
 *
 * <p>The defaults are the planned load (docs/performance.md, "Capacity model") and the cql/ files: 10,000 hives x 1,000
 * readings/min; an hourly activity row per hive; 1,000 weather stations reporting every 10 s;
 * agent alerts designed for a storm of one every 10 s (the planned rate is a few a day), with
 * one agent per hive (an upper bound; a gateway may serve several hives).
 */
public final class PlanOptions implements OptionGroup {

    public static final String PARTITIONS_PLAN_RATES = "partitions.plan.rates";
    public static final String PARTITIONS_PLAN_ENTITIES = "partitions.plan.entities";
    public static final String PARTITIONS_PLAN_SHARDS = "partitions.plan.shards";
    public static final String PARTITIONS_PLAN_BUCKETS = "partitions.plan.buckets";
    public static final String PARTITIONS_PLAN_TEXT_BYTES = "partitions.plan.text.bytes";
    public static final String PARTITIONS_PLAN_COLUMN_BYTES = "partitions.plan.column.bytes";
    public static final String PARTITIONS_PLAN_ROW_BYTES = "partitions.plan.row.bytes";

    /** Instantiated by {@link java.util.ServiceLoader} (META-INF/services/io.apiary.ingest.config.OptionGroup). */
    public PlanOptions() {}

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
