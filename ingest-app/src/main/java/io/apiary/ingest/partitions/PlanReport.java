package io.apiary.ingest.partitions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Prints partition plans as an aligned table followed by one paragraph per table: where the
 * bucket and shard count came from, what was assumed, and what to change when a table passes
 * a threshold. Sizes are decimal (1 MB = 1,000,000 bytes). Thread-safe (stateless).
 */
public final class PlanReport {

    private static final String[] HEADER = {"TABLE", "PARTITION KEY", "BUCKET", "SHARDS", "RATE PER ENTITY",
        "ENTITIES", "ROWS", "CELLS", "BYTES/ROW", "SIZE", "VERDICT"};

    private PlanReport() {
    }

    /**
     * @param source   what the tables were read from, e.g. "cql/ bundled with the application"
     * @param plans    the plans, not null
     * @param skipped  tables without a planned rate, not null
     * @param unknown  tables named by settings but absent from the CQL files, not null
     * @param limits   the limits judged against, not null
     * @return the report, lines ending in '\n'
     */
    public static String format(String source, List<TablePlan> plans, List<String> skipped, Set<String> unknown,
            PartitionLimits limits) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Partition plan for %d table%s of %s%n", plans.size(),
                plans.size() == 1 ? "" : "s", source));
        out.append(String.format(Locale.ROOT, "Limits per partition: ideal %s to %s, warning above %s, limit %s and %,d "
                + "cells. 1 MB = 1,000,000 bytes.%n", mb(limits.idealMinBytes()), mb(limits.idealMaxBytes()),
                mb(limits.warnBytes()), mb(limits.maxBytes()), limits.maxCells()));
        out.append("Size St = partition key + static columns + Nr x (clustering + regular columns) + 8 B x Nv; "
                + "cells Nv = Nr (Nc - Npk - Ns) + Ns; Nr = rate x life / shards.\n\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (TablePlan plan : plans) {
            rows.add(new String[] {plan.table().name(), String.join(", ", plan.table().partitionKey()),
                bucket(plan), plan.shardColumn() == null ? "-" : Integer.toString(plan.shards()),
                plan.rate().toString(), String.format(Locale.ROOT, "%,d", plan.entities()), count(plan.rows()),
                count(plan.cells()), String.format(Locale.ROOT, "%,d", plan.shape().bytesPerRow()),
                plan.unbounded() ? "unbounded" : mb(plan.bytes()), plan.verdict().label()});
        }
        appendAligned(out, rows);
        out.append('\n');
        double total = 0;
        for (TablePlan plan : plans) {
            total += plan.clusterRowsPerSecond();
            out.append(paragraph(plan, limits)).append('\n');
        }
        out.append(String.format(Locale.ROOT, "Planned writes over the cluster: %s rows/s (%s).%n", rate(total),
                plans.stream().map(p -> p.table().name() + " " + rate(p.clusterRowsPerSecond()))
                        .collect(Collectors.joining(", "))));
        if (!skipped.isEmpty()) {
            out.append("Not planned (no rate in partitions.plan.rates): ").append(String.join(", ", skipped))
                    .append(".\n");
        }
        if (!unknown.isEmpty()) {
            out.append("Settings name tables that are not in the CQL files: ").append(String.join(", ", unknown))
                    .append(".\n");
        }
        long over = plans.stream().filter(p -> p.verdict() == PartitionLimits.Verdict.OVER).count();
        long warn = plans.stream().filter(p -> p.verdict() == PartitionLimits.Verdict.WARN).count();
        out.append(over == 0 && warn == 0 ? "Every planned table is within the limits.\n"
                : String.format(Locale.ROOT, "%d table%s over the limits, %d above the warning threshold.%n", over,
                        over == 1 ? "" : "s", warn));
        return out.toString();
    }

    private static String paragraph(TablePlan plan, PartitionLimits limits) {
        List<String> parts = new ArrayList<>();
        String entity = plan.table().partitionKey().stream()
                .filter(c -> !c.equals(plan.shardColumn()) && !"date".equals(plan.table().columns().get(c)))
                .collect(Collectors.joining(", "));
        parts.add(String.format(Locale.ROOT, "%s per %s; %s (%s)%s; a partition receives rows for %s: "
                + "%s rows, %s cells, %s (%s).", plan.rate(), entity.isEmpty() ? "partition" : entity,
                plan.bucket() == Bucket.NONE ? "no time bucket" : plan.bucket().label() + " bucket", plan.bucketSource(),
                plan.shardColumn() == null ? "" : ", " + plan.shards() + (plan.shards() == 1 ? " shard" : " shards"),
                life(plan),
                count(plan.rows()), count(plan.cells()), plan.unbounded() ? "unbounded" : mb(plan.bytes()),
                plan.verdict().label()));
        if (plan.unbounded()) {
            parts.add("The partition key has no time bucket and the table no default_time_to_live: partitions grow "
                    + "for as long as their entity writes.");
        } else if (plan.cells() > limits.maxCells()) {
            parts.add(String.format(Locale.ROOT, "Cells pass the %,d limit.", limits.maxCells()));
        }
        if (plan.shardColumn() != null) {
            parts.add(plan.smallestShards().isPresent()
                    ? "Smallest shard count within the limits (no warning): " + plan.smallestShards().getAsInt() + "."
                    : "No shard count up to " + PartitionPlanner.MAX_SHARDS + " brings it within the limits.");
        } else if (!plan.verdict().withinComfort()) {
            parts.add(plan.smallestShards().isPresent()
                    ? "A shard column of " + plan.smallestShards().getAsInt()
                            + " shards in the partition key would bring it within the limits."
                    : "No shard count up to " + PartitionPlanner.MAX_SHARDS + " brings it within the limits.");
        }
        if (plan.finerBucket() != null) {
            parts.add("Or bucket by " + plan.finerBucket().label() + ".");
        } else if (!plan.verdict().withinComfort()) {
            parts.add("No finer bucket brings it within the limits at this shard count.");
        }
        if (!plan.assumed().isEmpty()) {
            parts.add("Assumed per value (partitions.plan.text.bytes): " + String.join(", ", plan.assumed()) + ".");
        }
        if (plan.shape().explicit()) {
            parts.add("Row size from partitions.plan.row.bytes.");
        }
        return wrap(plan.table().name() + ": " + String.join(" ", parts), 110);
    }

    private static String bucket(TablePlan plan) {
        if (plan.bucket() != Bucket.NONE) {
            return plan.bucket().label();
        }
        return plan.lifeSeconds() == 0 ? "none" : "none, TTL " + days(plan.lifeSeconds());
    }

    private static String life(TablePlan plan) {
        if (plan.lifeSeconds() == 0) {
            return "ever";
        }
        return plan.bucket() == Bucket.NONE ? "the TTL, " + days(plan.lifeSeconds())
                : String.format(Locale.ROOT, "%,d s", plan.lifeSeconds());
    }

    private static String days(long seconds) {
        return seconds % 86_400 == 0 ? String.format(Locale.ROOT, "%,d d", seconds / 86_400)
                : String.format(Locale.ROOT, "%,d s", seconds);
    }

    private static String count(long value) {
        return value == Long.MAX_VALUE ? "unbounded" : String.format(Locale.ROOT, "%,d", value);
    }

    private static String rate(double perSecond) {
        return perSecond >= 100 ? String.format(Locale.ROOT, "%,.0f", perSecond)
                : String.format(Locale.ROOT, "%,.1f", perSecond);
    }

    /**
     * @param bytes a size in bytes
     * @return it in decimal megabytes: 3 significant digits ("1.56 MB", "26.3 MB", "432 MB")
     */
    public static String mb(long bytes) {
        double mb = bytes / 1_000_000.0;
        if (mb >= 100 || mb == Math.rint(mb)) {
            return String.format(Locale.ROOT, "%,.0f MB", mb);
        }
        return String.format(Locale.ROOT, mb >= 10 ? "%.1f MB" : "%.2f MB", mb);
    }

    private static void appendAligned(StringBuilder out, List<String[]> rows) {
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]).append(" ".repeat(widths[i] - row[i].length() + 2));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }

    private static String wrap(String text, int width) {
        StringBuilder out = new StringBuilder();
        int lineLength = 0;
        for (String word : text.split(" ")) {
            if (lineLength > 0 && lineLength + 1 + word.length() > width) {
                out.append("\n  ");
                lineLength = 2;
            } else if (lineLength > 0) {
                out.append(' ');
                lineLength++;
            }
            out.append(word);
            lineLength += word.length();
        }
        return out.append('\n').toString();
    }
}
