package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.metadata.Metadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import io.apiary.ingest.read.ShardScheme;
import org.apache.avro.specific.SpecificRecord;

/**
 * What a copy (or a verification) moves: a source table and a target table, both of known
 * layouts ({@link TableShape}, from the driver's schema metadata), the mapping between them, and
 * the copy's id under which its progress is saved. Immutable.
 *
 * @param <T>         the target's row record type
 * @param source      the source table
 * @param target      the target table
 * @param mapping     how source rows become target rows
 * @param splits      ranges the ring is cut into
 */
public record CopyPlan<T extends SpecificRecord>(TableRef source, TableRef target, CopyMapping<T> mapping, int splits) {

    /**
     * Checks the tables and finds the mapping.
     *
     * @param metadata        the cluster's schema, from the session
     * @param source          the table to read
     * @param target          the table to write
     * @param telemetryScheme the shard scheme of readings rows written (telemetry.shard.strategy, telemetry.shards)
     * @param weatherScheme   the shard scheme of weather rows written (weather.shards)
     * @param splits          ranges the ring is cut into
     * @return the plan
     * @throws CopyRefused naming the problem: a table missing, copied onto itself, of a layout not
     *                     known, or a pair of layouts not supported
     */
    public static CopyPlan<?> resolve(
            Metadata metadata,
            TableRef source,
            TableRef target,
            ShardScheme telemetryScheme,
            ShardScheme weatherScheme,
            int splits) {
        if (source.equals(target)) {
            throw new CopyRefused("--from and --to name the same table, " + source + ": copy into a new table");
        }
        TableShape from = shape(metadata, source, "--from");
        TableShape to = shape(metadata, target, "--to");
        return new CopyPlan<>(
                source,
                target,
                CopyMapping.of(from, to, telemetryScheme, weatherScheme)
                        .orElseThrow(
                                () -> new CopyRefused("cannot copy " + source + " (" + name(from) + " layout) into "
                                        + target + " (" + name(to)
                                        + " layout): the supported pairs are readings (legacy or current) "
                                        + "into the current readings layout, alerts (legacy or current) into the current alerts "
                                        + "layout, and weather readings into the weather layout")),
                splits);
    }

    private static TableShape shape(Metadata metadata, TableRef table, String option) {
        TableMetadata found = metadata.getKeyspace(table.keyspace())
                .flatMap(k -> k.getTable(table.table()))
                .orElseThrow(() -> new CopyRefused(option + " " + table + ": no such table"
                        + (metadata.getKeyspace(table.keyspace()).isEmpty()
                                ? " (keyspace " + table.keyspace() + " does not exist)"
                                : "")
                        + ("--to".equals(option)
                                ? "; create the target with 'schema apply' (cql/) before copying"
                                : "; check the name (the source must exist)")));
        return TableShape.recognise(found)
                .orElseThrow(() -> new CopyRefused(option + " " + table
                        + " has a layout table copy does not know: " + TableShape.describe(found)
                        + " (known: the tables of cql/ and cql/legacy/)"));
    }

    private static String name(TableShape shape) {
        return shape.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }

    /**
     * @return the copy's id: source, target, the target's shard scheme and the split count, so
     *         that a copy with other settings does not resume from this one's progress
     */
    public String copyId() {
        ShardScheme scheme = mapping.scheme();
        return source + " -> " + target + (scheme == null ? "" : " " + scheme) + " splits " + splits;
    }
}
