package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.identity.Identifiers;
import io.apiary.schema.HiveTelemetryRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rule that keeps a copy of the legacy {@code hive_telemetry} consistent with the read path:
 * a legacy row (no sensor id, so it may have merged two sensors of one type at one instant) is
 * the same reading as any row of the target with the same hive, partition, sensor type and
 * reading time, whatever its sensor id. The read path hides such a legacy row behind the new one;
 * the copy therefore skips it (it would otherwise add a {@code default} series beside the real
 * sensors), and verify counts it as superseded, not as missing. The copy reads the target's
 * readings of the partitions a page writes to before writing it: one single-partition query per
 * target partition and page ({@code sensor_type IN ?}, the whole partition's rows of those types,
 * four columns). Only copies from the legacy layout need it. Not thread-safe; the session is.
 */
final class SupersededReadings {

    private final CqlSession session;
    private final PreparedStatement select;
    private final ConsistencyLevel consistency;

    /**
     * @param session     an open session
     * @param target      the copy's target, of {@code hive_telemetry_v2}'s layout
     * @param consistency the read consistency level
     */
    SupersededReadings(CqlSession session, TableRef target, ConsistencyLevel consistency) {
        this.session = session;
        this.consistency = consistency;
        this.select = session.prepare("SELECT sensor_type, reading_time, sensor_id, WRITETIME(value) FROM " + target
                + " WHERE hive_id = ? AND day = ? AND shard = ? AND sensor_type IN ?");
    }

    /**
     * @param plan a copy plan
     * @return whether its source is the legacy readings layout, whose rows the rule applies to
     */
    static boolean appliesTo(CopyPlan<?> plan) {
        return plan.mapping().source() == TableShape.LEGACY_TELEMETRY;
    }

    /**
     * @param row a reading in the target's layout
     * @return what makes it one reading for the rule: hive, day, shard, sensor type, reading time
     */
    static List<Object> readingKey(HiveTelemetryRow row) {
        return List.of(row.getHiveId(), row.getDay(), row.getShard(), row.getSensorType(), row.getReadingTime());
    }

    /**
     * The readings of some rows that the target already holds, under any sensor id, read with one
     * query per target partition the rows fall in. A {@code default} row with the legacy row's own
     * write time is the copy's own (a copy keeps the legacy write time), from an earlier run or
     * another worker: it supersedes nothing, so the legacy row is written again (the same cells)
     * and counted as copied.
     *
     * @param rows       rows mapped to the target's layout, not null
     * @param writeTimes the source write time of each of {@code rows} (microseconds; the same
     *                   index), or {@link ScannedRow#NO_CELLS}
     * @return their {@link #readingKey}s present in the target, but for the copy's own rows
     * @throws RuntimeException if Cassandra cannot answer (the caller retries the page)
     */
    Set<List<Object>> present(List<HiveTelemetryRow> rows, List<Long> writeTimes) {
        Map<List<Object>, Set<String>> typesByPartition = new LinkedHashMap<>();
        Map<List<Object>, Long> ownWriteTimes = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            HiveTelemetryRow row = rows.get(i);
            ownWriteTimes.put(readingKey(row), writeTimes.get(i));
            typesByPartition
                    .computeIfAbsent(List.of(row.getHiveId(), row.getDay(), row.getShard()), k -> new LinkedHashSet<>())
                    .add(row.getSensorType());
        }
        Set<List<Object>> present = new HashSet<>();
        typesByPartition.forEach((partition, types) -> {
            for (Row found : session.execute(
                    select.bind(partition.get(0), partition.get(1), partition.get(2), new ArrayList<>(types))
                            .setConsistencyLevel(consistency)
                            .setIdempotent(true))) {
                List<Object> key = List.of(
                        partition.get(0), partition.get(1), partition.get(2), found.getString(0), found.getInstant(1));
                boolean copied = Identifiers.DEFAULT_SENSOR_ID.equals(found.getString(2))
                        && !found.isNull(3)
                        && Long.valueOf(found.getLong(3)).equals(ownWriteTimes.get(key));
                if (!copied) {
                    present.add(key);
                }
            }
        });
        return present;
    }
}
