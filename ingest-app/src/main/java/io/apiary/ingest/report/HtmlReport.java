package io.apiary.ingest.report;

import static io.apiary.ingest.report.Html.escape;

import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.read.TimeRange;
import io.apiary.ingest.report.Buckets.HourActivity;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Renders a {@link HiveReport} as one self-contained HTML file for analysts: header and summary, a
 * line chart per sensor (sensor type and sensor id, sorted by type, then id; labelled as
 * {@link SensorSeries#label()} says, the caption naming the sensor id), the hourly bees in/out as
 * bars, an hourly table and the raw readings per sensor (collapsed). The page works offline: inline style sheet, inline SVG charts
 * ({@link SvgCharts}), no script, no font, no image, no URL. The markup is HTML5 that is also
 * well-formed XML; every text from the data is escaped ({@link Html#escape}). Numbers are formatted
 * with {@link java.util.Locale#ROOT}; times are in the report's {@link HiveReport#zone() display zone}, with
 * its offset from UTC named ({@link ReportTime}).
 *
 * <p>All charts share one time axis: the report's range, widened to any row outside it. Charts follow
 * {@link SensorSeries}' downsampling and gap rules.
 *
 * <p>Deterministic: the same report gives the same text (the generation time is the report's). A
 * report without rows renders a page saying no data was found. Stateless, thread-safe.
 */
public final class HtmlReport {

    private static final long HOUR = 3_600_000L;

    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; color: #1b1b1b; background: #fff; margin: 0 auto;
              max-width: 1200px; padding: 16px 24px; line-height: 1.4; }
            h1 { font-size: 1.6rem; margin: 0.2rem 0; }
            h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ccc; padding-bottom: 0.2rem; }
            .meta, .note, figcaption { color: #444; font-size: 0.9rem; }
            .notice { color: #7a4a00; background: #fff6e0; border-left: 4px solid #e0a020; padding: 0.3rem 0.6rem; }
            .empty { border: 2px solid #b35900; background: #fff6ec; padding: 12px 16px; }
            figure { margin: 1rem 0 1.8rem; }
            figcaption { margin-bottom: 0.3rem; }
            figcaption strong { color: #1b1b1b; font-size: 1rem; }
            svg.chart { display: block; width: 100%; height: auto; }
            svg text { font-family: system-ui, sans-serif; font-size: 14px; fill: #333; }
            svg .unit, svg .axis-title { font-weight: bold; }
            .axis line { stroke: #555; }
            .grid line, .axis line.vgrid { stroke: #e2e2e2; stroke-width: 1; }
            polyline.series { fill: none; stroke: #1f4e9c; stroke-width: 1.6; stroke-linejoin: round; }
            circle.lone { fill: #1f4e9c; }
            polygon.band { fill: #1f4e9c; fill-opacity: 0.2; stroke: none; }
            circle.pt { fill: #1f4e9c; fill-opacity: 0; pointer-events: all; }
            circle.pt:hover { fill-opacity: 1; }
            rect.in { fill: #1f4e9c; }
            rect.out { fill: #e08a1e; }
            line.zero { stroke: #333; stroke-width: 1; }
            g.hour:hover rect { fill-opacity: 0.7; }
            table { border-collapse: collapse; font-size: 0.85rem; font-variant-numeric: tabular-nums; }
            th, td { padding: 2px 10px; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }
            thead th { position: sticky; top: 0; background: #f3f3f3; vertical-align: bottom; }
            th:first-child, td:first-child { text-align: left; }
            table.summary th { text-align: left; font-weight: 600; }
            table.summary td { text-align: left; white-space: normal; }
            .table-wrap { overflow-x: auto; max-width: 100%; }
            table.hourly thead th { white-space: normal; min-width: 4.5em; }
            table.hourly .sensor-id { overflow-wrap: anywhere; }
            table.hourly tbody td { white-space: normal; }
            table.hourly tbody th { white-space: nowrap; }
            table.hourly .range { display: block; font-size: 0.8em; color: #555; }
            details { margin: 0.5rem 0; }
            summary { cursor: pointer; font-weight: 600; }
            @media print { body { max-width: none; padding: 0; } figure, tr { break-inside: avoid; }
              thead th { position: static; } }
            """;

    private HtmlReport() {}

    /**
     * @param report the report, not null
     * @return the whole HTML document (UTF-8 text, starting with {@code <!DOCTYPE html>})
     */
    public static String render(HiveReport report) {
        TimeRange shown = report.range().wholeHours();
        long from = shown.fromMillis();
        long to = shown.toMillis();
        for (TelemetryRow row : report.readings()) {
            from = Math.min(from, row.readingTime().toEpochMilli());
            to = Math.max(to, row.readingTime().toEpochMilli() + 1);
        }
        List<HourActivity> hours = Buckets.hours(report.activity());
        for (HourActivity h : hours) {
            from = Math.min(from, h.start());
            to = Math.max(to, h.start() + HOUR);
        }
        Map<String, Map<String, List<TelemetryRow>>> bySensor = report.readings().stream()
                .collect(Collectors.groupingBy(
                        TelemetryRow::sensorType,
                        TreeMap::new,
                        Collectors.groupingBy(TelemetryRow::sensorId, TreeMap::new, Collectors.toList())));
        long span = to - from;
        List<SensorSeries> series = bySensor.entrySet().stream()
                .flatMap(type -> type.getValue().entrySet().stream()
                        .map(sensor -> SensorSeries.of(
                                type.getKey(), sensor.getKey(), type.getValue().size(), sensor.getValue(), span)))
                .toList();

        ReportTime time = new ReportTime(report.zone(), from, to);
        String range = time.range(report.range()) + " (" + escape(time.label()) + ")";
        StringBuilder html = new StringBuilder(1 << 16);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>")
                .append("<title>Hive ")
                .append(escape(report.hiveId()))
                .append(" – ")
                .append(range)
                .append("</title>")
                .append("<style>\n")
                .append(STYLE)
                .append("</style></head>\n<body>\n<header><h1>Hive ")
                .append(escape(report.hiveId()))
                .append("</h1><p class=\"meta\">")
                .append(range)
                .append(" · generated ")
                .append(time.secondWithOffset(report.generatedAt()))
                .append("</p>");
        if (!shown.equals(report.range())) {
            html.append("<p class=\"meta widened\">Shown from ")
                    .append(time.minute(shown.fromMillis()))
                    .append(" to ")
                    .append(time.minute(shown.toMillis()))
                    .append(": the range widened to whole UTC hours, since bees are counted per UTC hour, so that")
                    .append(" every hour shown holds all its readings and counts.</p>");
        }
        if (report.readStatistics() != null) {
            html.append("<p class=\"meta stats\">Read: ")
                    .append(escape(report.readStatistics()))
                    .append("</p>");
        }
        if (report.note() != null) {
            html.append("<p class=\"note notice\"><strong>Note:</strong> ")
                    .append(escape(report.note()))
                    .append("</p>");
        }
        html.append("</header>\n");
        if (report.isEmpty()) {
            html.append("<section class=\"empty\"><p><strong>No data was found for hive ")
                    .append(escape(report.hiveId()))
                    .append(" in ")
                    .append(range)
                    .append(".</strong></p>")
                    .append("<p>Check the hive id (it is matched exactly, case included) and the date range ")
                    .append("(days are days in ")
                    .append(escape(time.isUtc() ? "UTC" : time.zone().getId()))
                    .append(").</p></section>\n");
        } else {
            summary(html, series, hours, to - from);
            sensors(html, series, from, to, time);
            activity(html, hours, from, to, time);
            html.append("<section class=\"hourly\"><h2>Hourly figures</h2>")
                    .append(ReportTables.hourly(series, hours, time))
                    .append("</section>\n");
            if (!series.isEmpty()) {
                html.append("<section class=\"raw\"><h2>Raw readings</h2>");
                series.forEach(s -> html.append(ReportTables.raw(s, time)).append('\n'));
                html.append("</section>\n");
            }
        }
        return html.append("</body></html>\n").toString();
    }

    private static void summary(StringBuilder html, List<SensorSeries> series, List<HourActivity> hours, long span) {
        String readings = series.isEmpty()
                ? "none"
                : series.stream()
                        .map(s -> escape(s.label()) + ": "
                                + ReportFormat.count(s.readings().size()))
                        .collect(Collectors.joining(" · "));
        long in = hours.stream().mapToLong(HourActivity::inOrZero).sum();
        long out = hours.stream().mapToLong(HourActivity::outOrZero).sum();
        html.append("<section class=\"summary\"><h2>Summary</h2><table class=\"summary\"><tbody>")
                .append("<tr><th scope=\"row\">Readings per sensor</th><td>")
                .append(readings)
                .append("</td></tr>")
                .append("<tr><th scope=\"row\">Bees in / out</th><td>")
                .append(ReportFormat.count(in))
                .append(" / ")
                .append(ReportFormat.count(out))
                .append("</td></tr>")
                .append("<tr><th scope=\"row\">Hours with activity data</th><td>")
                .append(ReportFormat.count(hours.size()))
                .append(" of ")
                .append(ReportFormat.count((span + HOUR - 1) / HOUR))
                .append("</td></tr>")
                .append("</tbody></table></section>\n");
    }

    private static void sensors(StringBuilder html, List<SensorSeries> series, long from, long to, ReportTime time) {
        html.append("<section class=\"sensors\"><h2>Sensor readings</h2>");
        if (series.isEmpty()) {
            html.append("<p class=\"note\">No sensor readings in this range.</p>");
        }
        for (SensorSeries s : series) {
            html.append("<figure><figcaption><strong>")
                    .append(escape(s.label()))
                    .append("</strong> – ")
                    .append(ReportFormat.count(s.readings().size(), "reading", "readings"));
            if (s.mixedUnits()) {
                html.append("; <strong>units differ</strong>: ")
                        .append(escape(s.unitLabel()))
                        .append(" and readings without a unit are plotted on one axis");
            } else if (!s.unitLabel().isEmpty()) {
                html.append(", unit ").append(escape(s.unitLabel()));
            }
            if (s.downsampled()) {
                html.append("; more than ")
                        .append(ReportFormat.count(SensorSeries.MAX_POINTS))
                        .append(", so plotted as ")
                        .append(ReportFormat.count(s.points().size()))
                        .append(' ')
                        .append(duration(s.bucketWidth()))
                        .append(" means (line) with their min–max (band)");
            }
            if (s.unplotted() > 0) {
                html.append("; ").append(ReportFormat.count(s.unplotted())).append(" non-numeric values not plotted");
            }
            html.append(
                    s.sensorsOfType() == 1
                            ? ". Sensor id " + escape(s.sensorId()) + ", the only " + escape(s.sensorType())
                                    + " sensor in this report"
                            : ". Sensor id " + escape(s.sensorId()) + ", one of " + s.sensorsOfType() + " "
                                    + escape(s.sensorType()) + " sensors");
            html.append(". The line is broken where readings are more than ")
                    .append(ReportFormat.number(SensorSeries.GAP_FACTOR, 1))
                    .append("× the median interval apart.")
                    .append("</figcaption>")
                    .append(SvgCharts.sensorChart(s, from, to, time))
                    .append("</figure>\n");
        }
        html.append("</section>\n");
    }

    private static void activity(StringBuilder html, List<HourActivity> hours, long from, long to, ReportTime time) {
        html.append("<section class=\"activity\"><h2>Bee traffic per hour</h2>");
        if (hours.isEmpty()) {
            html.append("<p class=\"note\">No hourly activity data in this range.</p>");
        } else {
            html.append("<figure><figcaption>Bees in (up, blue) and out (down, orange) per hour; ")
                    .append(hours.size())
                    .append(" hours with data.</figcaption>")
                    .append(SvgCharts.activityChart(hours, from, to, time))
                    .append("</figure>");
        }
        html.append("</section>\n");
    }

    /** @return e.g. {@code 15-minute}, {@code 1-hour}, {@code 2-day}, or {@code 90-second} */
    static String duration(long millis) {
        long[] units = {86_400_000L, HOUR, 60_000L, 1_000L};
        String[] names = {"day", "hour", "minute", "second"};
        for (int i = 0; i < units.length; i++) {
            if (millis % units[i] == 0) {
                return millis / units[i] + "-" + names[i];
            }
        }
        return millis + "-millisecond";
    }
}
