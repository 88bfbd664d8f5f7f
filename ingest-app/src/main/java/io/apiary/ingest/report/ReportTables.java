package io.apiary.ingest.report;

import static io.apiary.ingest.report.Html.escape;

import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.report.Buckets.Bucket;
import io.apiary.ingest.report.Buckets.HourActivity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The report's tables: the numbers behind the charts. Stateless, thread-safe.
 */
final class ReportTables {

    /**
     * The most sensor columns in one hourly table: more sensors get further tables, so that a table fits a
     * 1,280-pixel window whatever the sensor ids (checked by ReportBrowserTest).
     */
    static final int MAX_SENSOR_COLUMNS = 5;

    /** The most raw readings listed per sensor. */
    static final int MAX_RAW_ROWS = 5_000;

    private static final long HOUR = 3_600_000L;

    private ReportTables() {}

    /**
     * @param series the sensors' series, in column order
     * @param hours  the hours with activity data, time order
     * @param time   the display zone
     * @return {@code <table class="hourly">}s of {@value #MAX_SENSOR_COLUMNS} sensors at most (further tables after a
     *         {@code <p class="note table-part">} naming their sensors), each with the same rows: per hour with any
     *         data (the pipeline's hours, which are UTC hours, labelled by their start in the display zone), each
     *         sensor's mean (min–max), the range in a {@code <span class="range">} the style sheet puts on a line
     *         of its own (a column per sensor, headed by its label); the first table also the bees in, bees out
     *         and samples; {@code –} where the hour has no such data or only null cells
     */
    static String hourly(List<SensorSeries> series, List<HourActivity> hours, ReportTime time) {
        TreeSet<Long> starts = new TreeSet<>();
        List<Map<Long, Bucket>> perSensor = new ArrayList<>();
        for (SensorSeries s : series) {
            List<TelemetryRow> finite =
                    s.readings().stream().filter(TelemetryRow::hasFiniteValue).toList();
            Map<Long, Bucket> byHour = new HashMap<>();
            for (Bucket b : Buckets.of(finite, HOUR)) {
                byHour.put(b.start(), b);
                starts.add(b.start());
            }
            perSensor.add(byHour);
        }
        Map<Long, HourActivity> activity = new HashMap<>();
        for (HourActivity h : hours) {
            activity.put(h.start(), h);
            starts.add(h.start());
        }
        StringBuilder html = new StringBuilder(128 * starts.size() * (series.size() + 2) + 1024);
        for (int first = 0; first < Math.max(1, series.size()); first += MAX_SENSOR_COLUMNS) {
            int last = Math.min(series.size(), first + MAX_SENSOR_COLUMNS);
            if (series.size() > MAX_SENSOR_COLUMNS) {
                html.append("<p class=\"note table-part\">Sensors ")
                        .append(first + 1)
                        .append(" to ")
                        .append(last)
                        .append(" of ")
                        .append(series.size())
                        .append(first == 0 ? ", with the bees per hour" : "")
                        .append(":</p>");
            }
            table(
                    html,
                    series.subList(first, last),
                    perSensor.subList(first, last),
                    starts,
                    first == 0 ? activity : null,
                    time);
        }
        return html.toString();
    }

    private static void table(
            StringBuilder html,
            List<SensorSeries> series,
            List<Map<Long, Bucket>> perSensor,
            TreeSet<Long> starts,
            Map<Long, HourActivity> activity,
            ReportTime time) {
        html.append("<div class=\"table-wrap\"><table class=\"hourly\"><thead><tr><th scope=\"col\">hour (")
                .append(escape(time.label()))
                .append(")</th>");
        for (SensorSeries s : series) {
            String unit = s.mixedUnits() ? "mixed units" : s.unitLabel();
            String type = s.sensorType();
            String label = s.label();
            html.append("<th scope=\"col\">")
                    .append(
                            label.startsWith(type + " ")
                                    ? escape(type) + " <span class=\"sensor-id\">"
                                            + escape(label.substring(type.length() + 1)) + "</span>"
                                    : escape(label))
                    .append(unit.isEmpty() ? "" : " (" + escape(unit) + ")")
                    .append("<br/>mean (min–max)</th>");
        }
        if (activity != null) {
            html.append("<th scope=\"col\">bees in</th><th scope=\"col\">bees out</th><th scope=\"col\">samples</th>");
        }
        html.append("</tr></thead><tbody>");
        for (long start : starts) {
            html.append("<tr><th scope=\"row\">").append(time.minute(start)).append("</th>");
            for (int i = 0; i < perSensor.size(); i++) {
                Bucket b = perSensor.get(i).get(start);
                int d = series.get(i).decimals();
                html.append("<td>")
                        .append(
                                b == null
                                        ? "–"
                                        : ReportFormat.fixed(b.mean(), d) + " <span class=\"range\">("
                                                + ReportFormat.fixed(b.min(), d) + "–"
                                                + ReportFormat.fixed(b.max(), d) + ")</span>")
                        .append("</td>");
            }
            if (activity != null) {
                HourActivity h = activity.get(start);
                html.append("<td>")
                        .append(h == null || h.in() == null ? "–" : ReportFormat.count(h.in()))
                        .append("</td><td>")
                        .append(h == null || h.out() == null ? "–" : ReportFormat.count(h.out()))
                        .append("</td><td>")
                        .append(h == null || h.samples() == null ? "–" : ReportFormat.count(h.samples()));
            }
            html.append("</td></tr>");
        }
        html.append("</tbody></table></div>");
    }

    /**
     * @param series a sensor's series
     * @param time   the display zone
     * @return a closed {@code <details class="raw" data-sensor="TYPE" data-sensor-id="ID">} listing its readings (time, value,
     *         unit), the first {@value #MAX_RAW_ROWS} only, saying so when it cuts
     */
    static String raw(SensorSeries series, ReportTime time) {
        List<TelemetryRow> rows = series.readings();
        int shown = Math.min(rows.size(), MAX_RAW_ROWS);
        StringBuilder html = new StringBuilder(80 * shown + 512);
        html.append("<details class=\"raw\" data-sensor=\"")
                .append(escape(series.sensorType()))
                .append("\" data-sensor-id=\"")
                .append(escape(series.sensorId()))
                .append("\"><summary>")
                .append(escape(series.label()))
                .append(": ")
                .append(ReportFormat.count(rows.size()))
                .append(rows.size() == 1 ? " reading" : " readings");
        if (shown < rows.size()) {
            html.append(" (the first ").append(ReportFormat.count(shown)).append(" are listed)");
        }
        html.append("</summary><div class=\"table-wrap\"><table class=\"raw\"><thead><tr><th scope=\"col\">time (")
                .append(escape(time.label()))
                .append(")</th><th scope=\"col\">value</th><th scope=\"col\">unit</th></tr></thead><tbody>");
        for (TelemetryRow row : rows.subList(0, shown)) {
            html.append("<tr><td>")
                    .append(time.second(row.readingTime()))
                    .append("</td><td>")
                    .append(row.value() == null ? "–" : ReportFormat.exact(row.value()))
                    .append("</td><td>")
                    .append(escape(row.unit() == null ? "" : ReportFormat.unitSymbol(row.unit())))
                    .append("</td></tr>");
        }
        html.append("</tbody></table></div>");
        if (shown < rows.size()) {
            html.append("<p class=\"note\">")
                    .append(ReportFormat.count(rows.size() - shown))
                    .append(" more readings are not listed; the hourly table above covers all of them.</p>");
        }
        return html.append("</details>").toString();
    }
}
