package io.apiary.ingest.cli;

import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.partitionsize.PartitionLimits;
import io.apiary.ingest.partitionsize.PartitionPlanner;
import io.apiary.ingest.partitionsize.PlanReport;
import io.apiary.ingest.partitionsize.PlanSettings;
import io.apiary.ingest.partitionsize.TablePlan;
import io.apiary.ingest.tables.CqlScript;
import io.apiary.ingest.tables.CqlTableDefinition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code partitions plan}: sizes the partitions of the tables in cql/ under a planned load. */
@Command(
        name = "partitions",
        mixinStandardHelpOptions = true,
        description = "Partition health commands.",
        subcommands = PartitionsCommand.Plan.class)
public final class PartitionsCommand {

    /** Exit code when a table is over a limit. */
    static final int OVER_LIMIT = 1;
    /** Exit code for invalid settings or CQL files (as for invalid configuration elsewhere). */
    static final int INVALID_INPUT = 2;

    /** The partition-size calculator. */
    @Command(
            name = "plan",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "Reads the tables of cql/ and, for the planned write rates (partitions.plan.* settings), "
                        + "prints the rows, cells and bytes of one partition at the end of its bucket, a verdict against "
                        + "the limits (ideal 1-10 MB, warning above 50 MB, limit 100 MB and 100,000 cells) and the "
                        + "smallest shard count or a finer bucket that keeps it within them.",
                "Exit code 0 when every planned table is within the limits, " + OVER_LIMIT
                        + " when one is over, 2 for invalid settings or CQL files, or for tables or columns they do "
                        + "not have. Needs no Kafka or Cassandra."
            })
    static final class Plan implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Option(
                names = "--cql-dir",
                paramLabel = "DIR",
                description = "Folder of .cql files to read instead of the copy bundled in the application.")
        Path cqlDir;

        @Option(
                names = "--rate",
                paramLabel = "TABLE=COUNT/UNIT",
                description =
                        "Planned rows per entity, e.g. hive_telemetry_v2=1000/min (UNIT s, min, h or day). Repeatable.")
        List<String> rates = new ArrayList<>();

        @Option(
                names = "--entities",
                paramLabel = "TABLE=N",
                description = "Planned entities (hives, stations, agents). Repeatable.")
        List<String> entities = new ArrayList<>();

        @Option(names = "--shards", paramLabel = "TABLE=N", description = "Shards per bucket. Repeatable.")
        List<String> shards = new ArrayList<>();

        @Option(
                names = "--bucket",
                paramLabel = "TABLE=BUCKET",
                description = "Time bucket: minute, hour, day, week, month, year or none. Repeatable.")
        List<String> buckets = new ArrayList<>();

        @Option(
                names = "--column-bytes",
                paramLabel = "TABLE.COLUMN=N",
                description = "Bytes of one value of a column. Repeatable.")
        List<String> columnBytes = new ArrayList<>();

        @Option(
                names = "--row-bytes",
                paramLabel = "TABLE=N",
                description = "Whole bytes of one row, overheads included, instead of the estimate. Repeatable.")
        List<String> rowBytes = new ArrayList<>();

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            IngestConfig cfg = config.load();
            Map<String, List<String>> extra = new LinkedHashMap<>();
            extra.put(PlanSettings.PARTITIONS_PLAN_RATES, rates);
            extra.put(PlanSettings.PARTITIONS_PLAN_ENTITIES, entities);
            extra.put(PlanSettings.PARTITIONS_PLAN_SHARDS, shards);
            extra.put(PlanSettings.PARTITIONS_PLAN_BUCKETS, buckets);
            extra.put(PlanSettings.PARTITIONS_PLAN_COLUMN_BYTES, columnBytes);
            extra.put(PlanSettings.PARTITIONS_PLAN_ROW_BYTES, rowBytes);
            PlanSettings settings;
            List<CqlTableDefinition> tables;
            List<TablePlan> plans;
            try {
                settings = PlanSettings.from(cfg, extra);
                tables = readTables(cqlDir, cfg.getString(IngestConfig.CASSANDRA_KEYSPACE));
                plans = PartitionPlanner.plan(tables, settings);
            } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return INVALID_INPUT;
            }
            List<String> skipped = tables.stream()
                    .map(CqlTableDefinition::name)
                    .filter(t -> !settings.rates().containsKey(t))
                    .toList();
            Set<String> unknown = unknownNames(cfg, extra, tables);
            if (!unknown.isEmpty()) {
                spec.commandLine()
                        .getErr()
                        .println("error: the settings or options name tables or columns that are "
                                + "not in " + (cqlDir == null ? "cql/" : cqlDir) + ": " + String.join(", ", unknown)
                                + " (its tables: "
                                + String.join(
                                        ", ",
                                        tables.stream()
                                                .map(CqlTableDefinition::name)
                                                .toList())
                                + ")");
                return INVALID_INPUT;
            }
            if (plans.isEmpty()) {
                spec.commandLine()
                        .getErr()
                        .println("error: no table of " + (cqlDir == null ? "cql/" : cqlDir)
                                + " has a planned rate (partitions.plan.rates or --rate); its tables: "
                                + String.join(", ", skipped));
                return INVALID_INPUT;
            }
            String source = cqlDir == null ? "cql/ (bundled with the application)" : cqlDir.toString();
            spec.commandLine().getOut().print(PlanReport.format(source, plans, skipped, settings.limits()));
            long over = plans.stream()
                    .filter(p -> p.verdict() == PartitionLimits.Verdict.OVER)
                    .count();
            if (over > 0) {
                spec.commandLine()
                        .getErr()
                        .println("partitions plan: " + over + " table" + (over == 1 ? " is" : "s are")
                                + " over the partition limits: "
                                + String.join(
                                        ", ",
                                        plans.stream()
                                                .filter(p -> p.verdict() == PartitionLimits.Verdict.OVER)
                                                .map(p -> p.table().name())
                                                .toList()));
                return OVER_LIMIT;
            }
            return 0;
        }
    }

    /**
     * Table and column names given by the user (command-line options, and settings set
     * explicitly rather than left at their defaults) that the CQL files do not have: most likely
     * typing errors.
     *
     * @return {@code table} or {@code table.column} names, in the order given
     */
    private static Set<String> unknownNames(
            IngestConfig cfg, Map<String, List<String>> extra, List<CqlTableDefinition> tables) {
        Set<String> unknown = new LinkedHashSet<>();
        for (Map.Entry<String, List<String>> setting : extra.entrySet()) {
            List<String> entries = new ArrayList<>(setting.getValue());
            if (cfg.originals().containsKey(setting.getKey())) {
                entries.addAll(0, cfg.getList(setting.getKey()));
            }
            // entries were validated by PlanSettings.from; parsed again only for their names
            for (String name : PlanSettings.parseEntries(setting.getKey(), entries, value -> value)
                    .keySet()) {
                boolean column = setting.getKey().equals(PlanSettings.PARTITIONS_PLAN_COLUMN_BYTES);
                String table = column && name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
                String col = column && name.contains(".") ? name.substring(name.indexOf('.') + 1) : null;
                boolean known = tables.stream()
                        .anyMatch(t -> t.name().equals(table)
                                && (col == null || t.columns().containsKey(col)));
                if (!known) {
                    unknown.add(name);
                }
            }
        }
        return unknown;
    }

    /**
     * Reads the tables of the CQL files.
     *
     * @param folder   folder of .cql files, or null for the bundled copy
     * @param keyspace value of the {@code ${keyspace}} placeholder
     * @return the CREATE TABLE statements' tables, in file order
     * @throws IllegalArgumentException if a file or a CREATE TABLE cannot be read
     */
    static List<CqlTableDefinition> readTables(Path folder, String keyspace) {
        List<CqlTableDefinition> tables = new ArrayList<>();
        for (CqlScript script : SchemaApplier.load(folder, keyspace, SchemaApplier.DEV_REPLICATION)) {
            for (String statement : script.statements()) {
                try {
                    CqlTableDefinition.parse(statement).ifPresent(tables::add);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(script.name() + ": " + e.getMessage(), e);
                }
            }
        }
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("no CREATE TABLE statement in " + (folder == null ? "cql/" : folder));
        }
        return tables;
    }
}
