package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.identity.Identifiers;
import io.apiary.ingest.sink.WriteTimestamps;
import io.apiary.schema.HiveTelemetryRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rule that keeps a copy of the legacy {@code hive_telemetry} consistent with the read path:
 * a legacy row (no sensor id, so it may have merged two sensors of one type at one instant) is
 * the same reading as a row of the target with the same hive, partition, sensor type and reading
 * time under another sensor id, or as the pipeline's own write of its target key (sensor id
 * {@code default}, a write time the sink gives, {@link WriteTimestamps#isEventWrite}). The read
 * path hides such a legacy row behind the new one; the copy therefore skips it (it would otherwise
 * add a {@code default} series beside the real sensors, or overwrite the pipeline's newer
 * reading), and verify counts it as superseded, not as missing ({@link #skipReason}, which
 * {@link Differences} mirrors). A {@code default} row the pipeline did not write (the copy's own,
 * or one changed or emptied by hand) supersedes nothing: the copy writes the legacy row over it,
 * as verify names it different. The copy reads the target's readings of the partitions a page
 * writes to before writing it: one single-partition query per target partition and page
 * ({@code sensor_type IN ?}, the whole partition's rows of those types, six columns). Only copies
 * from the legacy layout need it. Not thread-safe; the session is.
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
        this.select = session.prepare("SELECT sensor_type, reading_time, sensor_id, WRITETIME(gateway_id), "
                + "WRITETIME(value), WRITETIME(unit) FROM " + target
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
     * The rule for one legacy row, given the target's rows of its reading.
     *
     * @param legacyWriteTime   the legacy row's write time (microseconds), or {@link ScannedRow#NO_CELLS}
     * @param readingTimeMillis its reading time, milliseconds since the epoch
     * @param held              the target's rows of its reading: sensor id to the greatest write
     *                          time of the row's regular cells ({@link ScannedRow#NO_CELLS} for none); not null
     * @return null when the copy writes the legacy row, else why it skips it, for the operator
     */
    static String skipReason(long legacyWriteTime, long readingTimeMillis, Map<String, Long> held) {
        Long own = held.get(Identifiers.DEFAULT_SENSOR_ID);
        if (own != null) {
            return own != ScannedRow.NO_CELLS
                            && own != legacyWriteTime
                            && WriteTimestamps.isEventWrite(readingTimeMillis, own)
                    ? "the pipeline wrote this reading again under sensor id " + Identifiers.DEFAULT_SENSOR_ID
                            + " (write time " + own + ", one the sink gives)"
                    : null; // the copy's own row, or one another writer changed: writing restores it
        }
        return held.isEmpty() ? null : "the target holds this reading under sensor id " + new TreeSet<>(held.keySet());
    }

    /**
     * Verify's side of the rule for a target row at a legacy row's key ({@link Differences}).
     *
     * @param target a target row as verify compares it, of the readings layout
     * @return whether the pipeline wrote it: a write time the sink gives and no required column
     *         null (the pipeline never writes a reading without its value)
     */
    static boolean pipelineWrite(VerifiedRow target) {
        return target.nullColumns().isEmpty()
                && WriteTimestamps.isEventWrite(
                        ((HiveTelemetryRow) target.row()).getReadingTime().toEpochMilli(), target.writeTimeMicros());
    }

    /**
     * Applies {@link #skipReason} to some rows, reading the target's readings with one query per
     * target partition the rows fall in.
     *
     * @param rows       rows mapped to the target's layout, not null
     * @param writeTimes the source write time of each of {@code rows} (microseconds; the same
     *                   index), or {@link ScannedRow#NO_CELLS}
     * @return for each of {@code rows} (the same index), why the copy skips it, or null to write it
     * @throws RuntimeException if Cassandra cannot answer (the caller retries the page)
     */
    List<String> skipReasons(List<HiveTelemetryRow> rows, List<Long> writeTimes) {
        Map<List<Object>, Set<String>> typesByPartition = new LinkedHashMap<>();
        for (HiveTelemetryRow row : rows) {
            typesByPartition
                    .computeIfAbsent(List.of(row.getHiveId(), row.getDay(), row.getShard()), k -> new LinkedHashSet<>())
                    .add(row.getSensorType());
        }
        Map<List<Object>, Map<String, Long>> held = new HashMap<>();
        typesByPartition.forEach((partition, types) -> {
            for (Row found : session.execute(
                    select.bind(partition.get(0), partition.get(1), partition.get(2), new ArrayList<>(types))
                            .setConsistencyLevel(consistency)
                            .setIdempotent(true))) {
                long writeTime = ScannedRow.NO_CELLS;
                for (int i = 3; i <= 5; i++) {
                    writeTime = found.isNull(i) ? writeTime : Math.max(writeTime, found.getLong(i));
                }
                held.computeIfAbsent(
                                List.of(
                                        partition.get(0),
                                        partition.get(1),
                                        partition.get(2),
                                        found.getString(0),
                                        found.getInstant(1)),
                                k -> new HashMap<>())
                        .put(found.getString(2), writeTime);
            }
        });
        List<String> reasons = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            HiveTelemetryRow row = rows.get(i);
            reasons.add(skipReason(
                    writeTimes.get(i),
                    row.getReadingTime().toEpochMilli(),
                    held.getOrDefault(readingKey(row), Map.of())));
        }
        return reasons;
    }
}
