package io.apiary.ingest.report;

import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.read.TimeRange;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/** Rows and reports for the report tests. */
final class ReportRows {

    static final String HIVE = "3627";
    static final LocalDate DAY = LocalDate.of(2021, 7, 12);
    static final TimeRange ONE_DAY = TimeRange.days(DAY, DAY);
    static final Instant GENERATED = Instant.parse("2021-07-19T08:00:00Z");

    private ReportRows() {}

    /**
     * @return {@code count} readings of the type's only sensor ({@code default}) from {@code start}, one every
     *         {@code stepSeconds}, values rising by 0.25
     */
    static List<TelemetryRow> readings(String sensor, String unit, Instant start, int count, long stepSeconds) {
        return readings(sensor, "default", unit, start, count, stepSeconds);
    }

    /** @return {@code count} readings of one sensor from {@code start}, one every {@code stepSeconds}, values rising by 0.25 */
    static List<TelemetryRow> readings(
            String sensor, String sensorId, String unit, Instant start, int count, long stepSeconds) {
        List<TelemetryRow> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(new TelemetryRow(
                    HIVE, sensor, sensorId, start.plusSeconds(i * stepSeconds), 20 + 0.25 * (i % 40), unit, "gw"));
        }
        return rows;
    }

    static ActivityRow hour(int hour, long in, long out) {
        return new ActivityRow(HIVE, DAY, hour, in, out, 60);
    }

    static HiveReport report(List<TelemetryRow> readings, List<ActivityRow> activity) {
        return new HiveReport(HIVE, ONE_DAY, readings, activity, GENERATED, null);
    }
}
