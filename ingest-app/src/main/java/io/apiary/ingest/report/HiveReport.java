package io.apiary.ingest.report;

import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.read.TimeRange;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;

/**
 * What {@link HtmlReport} renders: one hive's rows over a time range. Immutable (the lists are
 * copied), thread-safe.
 *
 * @param hiveId         the hive, not null (any text: it is escaped when rendered)
 * @param range          the UTC time range the rows were read for, not null
 * @param readings       the hive's sensor readings, in any order, not null, may be empty
 * @param activity       the hive's hourly bee counts, in any order, not null, may be empty
 * @param generatedAt    when the report was made, shown in its header, not null (passed in so
 *                       that the same input renders the same bytes)
 * @param readStatistics one line about the read (e.g. {@code 14 partitions read in 1.2 s}), or null
 * @param note           a note shown under the header for every reader to see (e.g. that the counts
 *                       are simulated), or null
 * @param zone           the display zone of every time in the report (e.g. the apiary's
 *                       {@code America/Toronto}), not null
 */
public record HiveReport(
        String hiveId,
        TimeRange range,
        List<TelemetryRow> readings,
        List<ActivityRow> activity,
        Instant generatedAt,
        String readStatistics,
        String note,
        ZoneId zone) {

    /**
     * A report in UTC.
     *
     * @param hiveId         the hive, not null
     * @param range          the UTC time range, not null
     * @param readings       the readings, not null
     * @param activity       the hourly counts, not null
     * @param generatedAt    when the report was made, not null
     * @param readStatistics one line about the read, or null
     * @param note           the note, or null
     */
    public HiveReport(
            String hiveId,
            TimeRange range,
            List<TelemetryRow> readings,
            List<ActivityRow> activity,
            Instant generatedAt,
            String readStatistics,
            String note) {
        this(hiveId, range, readings, activity, generatedAt, readStatistics, note, ZoneOffset.UTC);
    }

    /**
     * A report in UTC without a note.
     *
     * @param hiveId         the hive, not null
     * @param range          the UTC time range, not null
     * @param readings       the readings, not null
     * @param activity       the hourly counts, not null
     * @param generatedAt    when the report was made, not null
     * @param readStatistics one line about the read, or null
     */
    public HiveReport(
            String hiveId,
            TimeRange range,
            List<TelemetryRow> readings,
            List<ActivityRow> activity,
            Instant generatedAt,
            String readStatistics) {
        this(hiveId, range, readings, activity, generatedAt, readStatistics, null, ZoneOffset.UTC);
    }

    /** Checks the non-null fields and copies the lists. */
    public HiveReport {
        Objects.requireNonNull(hiveId, "hiveId");
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(generatedAt, "generatedAt");
        Objects.requireNonNull(zone, "zone");
        readings = List.copyOf(Objects.requireNonNull(readings, "readings"));
        activity = List.copyOf(Objects.requireNonNull(activity, "activity"));
    }

    /** @return whether there is neither a reading nor an activity row */
    public boolean isEmpty() {
        return readings.isEmpty() && activity.isEmpty();
    }
}
