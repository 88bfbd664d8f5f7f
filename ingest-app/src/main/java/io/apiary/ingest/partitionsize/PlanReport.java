package io.apiary.ingest.partitionsize;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Prints partition plans as an aligned table followed by one paragraph per table: where the
 * bucket and shard count came from, what was assumed, and what to change when a table passes
 * a threshold. Sizes are decimal (1 MB = 1,000,000 bytes). Thread-safe (stateless).
 */
public final class PlanReport {

    private static final String[] HEADER = {
        "TABLE",
        "PARTITION KEY",
        "BUCKET",
        "SHARDS",
        "RATE PER ENTITY",
        "ENTITIES",
        "ROWS",
        "CELLS",
        "BYTES/ROW",
        "SIZE",
        "VERDICT"
    };

    private PlanReport() {}

    /**
     * @param source   what the tables were read from, e.g. "cql/ bundled with the application"
     * @param plans    the plans, not null
     * @param skipped  tables without a planned rate, not null
     * @param limits   the limits judged against, not null
     * @return the report, lines ending in '\n'
     */
    public static String format(String source, List<TablePlan> plans, List<String> skipped, PartitionLimits limits) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "Partition plan for %d table%s of %s%n",
                plans.size(),
                plans.size() == 1 ? "" : "s",
                source));
        out.append(String.format(
                Locale.ROOT,
                "Limits per partition: ideal %s to %s, warning above %s, limit %s and %,d "
                        + "cells. 1 MB = 1,000,000 bytes.%n",
                mb(limits.idealMinBytes()).replace(".00", ""),
                mb(limits.idealMaxBytes()).replace(".0", ""),
                mb(limits.warnBytes()).replace(".0", ""),
                mb(limits.maxBytes()),
                limits.maxCells()));
        out.append("Rows Nr = rate x life / shards; cells Nv = Nr (Nc - Npk - Ns) + Ns with Nc columns, Npk "
                + "primary-key columns, Ns static columns;\nsize St = partition key + static columns + Nr x "
                + "(clustering + regular columns) + 8 B x Nv (DataStax's partition-size formula, uncompressed).\n\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (TablePlan plan : plans) {
            rows.add(new String[] {
                plan.table().name(),
                String.join(", ", plan.table().partitionKey()),
                bucket(plan),
                plan.shardColumn() == null ? "-" : Integer.toString(plan.shards()),
                plan.rate().toString(),
                String.format(Locale.ROOT, "%,d", plan.entities()),
                count(plan, plan.rows()),
                count(plan, plan.cells()),
                String.format(Locale.ROOT, "%,d", plan.shape().bytesPerRow()),
                size(plan),
                plan.verdict().label()
            });
        }
        appendAligned(out, rows);
        out.append('\n');
        double total = 0;
        for (TablePlan plan : plans) {
            total += plan.clusterRowsPerSecond();
            out.append(paragraph(plan, limits)).append('\n');
        }
        out.append(String.format(
                Locale.ROOT,
                "Planned writes over the cluster: %s rows/s (%s).%n",
                rate(total),
                plans.stream()
                        .map(p -> p.table().name() + " " + rate(p.clusterRowsPerSecond()))
                        .collect(Collectors.joining(", "))));
        if (!skipped.isEmpty()) {
            out.append("Not planned (no rate in partitions.plan.rates): ")
                    .append(String.join(", ", skipped))
                    .append(".\n");
        }
        long over = plans.stream()
                .filter(p -> p.verdict() == PartitionLimits.Verdict.OVER)
                .count();
        long warn = plans.stream()
                .filter(p -> p.verdict() == PartitionLimits.Verdict.WARN)
                .count();
        out.append(
                over == 0 && warn == 0
                        ? "Every planned table is within the limits.\n"
                        : String.format(
                                Locale.ROOT,
                                "%d table%s over the limits, %d above the warning threshold.%n",
                                over,
                                over == 1 ? "" : "s",
                                warn));
        return out.toString().replace('\u00a0', ' ');
    }

    private static String paragraph(TablePlan plan, PartitionLimits limits) {
        List<String> parts = new ArrayList<>();
        String entity = String.join(", ", PartitionPlanner.entityColumns(plan.table(), plan.shardColumn()));
        parts.add(String.format(
                Locale.ROOT,
                "%s per %s; %s (%s)%s; a partition receives rows for %s: " + "%s rows, %s cells, %s (%s).",
                plan.rate(),
                entity.isEmpty() ? "entity" : entity,
                plan.bucket() == Bucket.NONE ? "no time bucket" : plan.bucket().label() + " bucket",
                plan.bucketSource(),
                plan.shardColumn() == null ? "" : ", " + plan.shards() + (plan.shards() == 1 ? " shard" : " shards"),
                life(plan),
                count(plan, plan.rows()),
                count(plan, plan.cells()),
                plan.unbounded() || plan.overflow()
                        ? size(plan)
                        : String.format(Locale.ROOT, "%,d bytes", plan.bytes()),
                plan.verdict().label()));
        parts.addAll(plan.notes());
        if (plan.unbounded()) {
            parts.add("The partition key has no time bucket and the table no default_time_to_live: partitions grow "
                    + "for as long as their entity writes.");
        } else if (plan.overflow()) {
            parts.add("The counts pass 9.2 x 10^18: check the rate and the sizes.");
        } else if (plan.cells() > limits.maxCells()) {
            parts.add(String.format(Locale.ROOT, "Cells pass the %,d limit.", limits.maxCells()));
        }
        if (plan.shardColumn() != null) {
            parts.add(
                    plan.smallestShards().isPresent()
                            ? "Smallest shard count within the limits (no warning): "
                                    + plan.smallestShards().getAsInt() + "."
                            : String.format(
                                    Locale.ROOT,
                                    "No shard count up to %,d brings it within the limits.",
                                    PartitionPlanner.MAX_SHARDS));
        } else if (!plan.verdict().withinComfort()) {
            parts.add(
                    plan.smallestShards().isPresent()
                            ? "A shard column of " + plan.smallestShards().getAsInt()
                                    + " shards in the partition key would bring it within the limits."
                            : String.format(
                                    Locale.ROOT,
                                    "No shard count up to %,d brings it within the limits.",
                                    PartitionPlanner.MAX_SHARDS));
        }
        if (plan.finerBucket() != null) {
            parts.add("Or bucket by " + plan.finerBucket().label() + ".");
        } else if (!plan.verdict().withinComfort()
                && !plan.table().clusteringColumns().isEmpty()) {
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

    private static String size(TablePlan plan) {
        return plan.unbounded() ? "unbounded" : plan.overflow() ? "overflow" : mb(plan.bytes());
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
        return plan.bucket() == Bucket.NONE
                ? "the TTL, " + days(plan.lifeSeconds())
                : String.format(Locale.ROOT, "%,d\u00a0s", plan.lifeSeconds());
    }

    private static String days(long seconds) {
        return seconds % 86_400 == 0
                ? String.format(Locale.ROOT, "%,d\u00a0d", seconds / 86_400)
                : String.format(Locale.ROOT, "%,d\u00a0s", seconds);
    }

    private static String count(TablePlan plan, long value) {
        return value != Long.MAX_VALUE
                ? String.format(Locale.ROOT, "%,d", value)
                : plan.unbounded() ? "unbounded" : "overflow";
    }

    private static String rate(double perSecond) {
        if (perSecond >= 100) {
            return String.format(Locale.ROOT, "%,.0f", perSecond);
        }
        return perSecond >= 0.1 || perSecond == 0
                ? String.format(Locale.ROOT, "%,.1f", perSecond)
                : String.format(Locale.ROOT, "%.2g", perSecond);
    }

    /**
     * @param bytes a size in bytes, at least 0
     * @return it in decimal units to 3 significant digits, rounded down so that a size just over a
     *         threshold never prints as the threshold's value below it ("99.9 MB" for 99,999,999
     *         bytes): "1.56 MB", "26.2 MB", "432 MB", "4.2 kB", "512 B"
     */
    public static String mb(long bytes) {
        if (bytes < 1_000) {
            return bytes + " B";
        }
        if (bytes < 1_000_000) {
            return String.format(Locale.ROOT, "%s kB", threeDigits(bytes / 1_000.0));
        }
        return String.format(Locale.ROOT, "%s MB", threeDigits(bytes / 1_000_000.0));
    }

    private static String threeDigits(double value) {
        java.math.BigDecimal v = java.math.BigDecimal.valueOf(value);
        int scale = value >= 100 ? 0 : value >= 10 ? 1 : 2;
        return String.format(Locale.ROOT, "%,." + scale + "f", v.setScale(scale, java.math.RoundingMode.DOWN));
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
        return out.append('\n').toString().replace('\u00a0', ' '); // non-breaking spaces keep "86,400 s" on one line
    }
}
