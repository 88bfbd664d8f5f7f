package io.apiary.ingest.report;

import static io.apiary.ingest.report.Html.escape;

import io.apiary.ingest.report.Buckets.HourActivity;
import io.apiary.ingest.report.SensorSeries.Point;
import java.util.List;

/**
 * Draws the report's charts as inline SVG (no script, no external resource). Each chart has a
 * {@code viewBox} of {@value #WIDTH} by {@value #HEIGHT} units and scales to its container's width;
 * colours and sizes come from the page's style sheet (classes below).
 *
 * <p>Sensor chart: {@code <svg class="chart sensor-chart" data-sensor="TYPE" data-points="N"
 * data-sensor-id="ID">}; each
 * unbroken part of the line is a {@code <polyline class="series">}, a part of one point a
 * {@code <circle class="lone">}, so the pairs of all polylines plus the lone circles are the N plotted
 * points; downsampled charts add a {@code <polygon class="band">} (min–max) per part. With at most
 * {@value #MAX_TOOLTIPS} points, each has an invisible {@code <circle class="pt">} with a
 * {@code <title>} tooltip.
 *
 * <p>Activity chart: {@code <svg class="chart activity-chart" data-bars="H">}, one
 * {@code <g class="hour">} per hour with data, bees in as a {@code <rect class="bar in">} above the
 * zero line, bees out as a {@code <rect class="bar out">} below it, and a legend.
 *
 * <p>Stateless, thread-safe.
 */
final class SvgCharts {

    static final int WIDTH = 960;
    static final int HEIGHT = 300;
    static final int MAX_TOOLTIPS = 1_000;

    private static final int LEFT = 64; // the least left margin; wider where value labels need it (Frame.left)
    private static final int RIGHT = 48;
    private static final int TOP = 34;
    /** Two rows of tick labels clear of the lowest value label, then the axis title on a row of its own. */
    private static final int BOTTOM = 64;

    private static final long HOUR = 3_600_000L;

    private SvgCharts() {}

    /** Maps times and values to the plot area. */
    private record Frame(long from, long to, double lo, double hi, int left) {

        /**
         * @param ticks the value axis' ticks, whose labels the left margin must hold
         * @return a frame whose left margin holds the longest value label (about 9 units per character at 14 units
         *         font size) and 8 units of space, and at least 64 units
         */
        static Frame of(long from, long to, double lo, double hi, Axis.Ticks ticks) {
            int longest = ticks.values().stream()
                    .mapToInt(v -> ticks.label(Math.abs(v)).length() + (v < 0 ? 1 : 0))
                    .max()
                    .orElse(0);
            return new Frame(from, to, lo, hi, Math.max(LEFT, 16 + 9 * longest));
        }

        double x(long time) {
            return left + (double) (time - from) / (to - from) * (WIDTH - left - RIGHT);
        }

        double y(double value) {
            return TOP + (hi - value) / (hi - lo) * (HEIGHT - TOP - BOTTOM);
        }
    }

    /**
     * @param series the sensor's series
     * @param from   the time axis' start, epoch milliseconds
     * @param to     the time axis' end, after {@code from}, not before the last point
     * @param time   the display zone of the time axis and tooltips
     * @return the chart's {@code <svg>} element
     */
    static String sensorChart(SensorSeries series, long from, long to, ReportTime time) {
        List<Point> points = series.points();
        double lo = points.stream().mapToDouble(Point::min).min().orElse(0);
        double hi = points.stream().mapToDouble(Point::max).max().orElse(1);
        Axis.Ticks ticks = Axis.values(lo, hi, 6);
        Frame frame = Frame.of(from, to, ticks.lo(), ticks.hi(), ticks);
        String unit = series.unitLabel();
        String label = series.label() + " over time, "
                + (series.downsampled()
                        ? ReportFormat.count(points.size(), "bucket mean", "bucket means")
                        : ReportFormat.count(points.size(), "reading", "readings"))
                + (unit.isEmpty() ? "" : ", unit " + unit);
        StringBuilder svg = new StringBuilder(64 * points.size() + 4096);
        open(svg, "chart sensor-chart", label)
                .append(" data-sensor=\"")
                .append(escape(series.sensorType()))
                .append("\" data-points=\"")
                .append(points.size())
                .append("\" data-sensor-id=\"")
                .append(escape(series.sensorId()))
                .append("\">");
        valueAxis(svg, frame, ticks, false);
        timeAxis(svg, frame, time);
        svg.append("<text class=\"unit\" x=\"")
                .append(frame.left() - 8)
                .append("\" y=\"")
                .append(TOP - 14)
                .append("\" text-anchor=\"end\">")
                .append(escape(series.mixedUnits() ? "mixed units" : unit))
                .append("</text>");
        List<List<Point>> segments = series.segments();
        if (series.downsampled()) {
            for (List<Point> segment : segments) {
                svg.append("<polygon class=\"band\" points=\"");
                segment.forEach(p -> pair(svg, frame.x(p.time()), frame.y(p.max())));
                for (int i = segment.size() - 1; i >= 0; i--) {
                    pair(
                            svg,
                            frame.x(segment.get(i).time()),
                            frame.y(segment.get(i).min()));
                }
                trimAndClose(svg);
            }
        }
        for (List<Point> segment : segments) {
            if (segment.size() == 1) {
                Point p = segment.get(0);
                svg.append("<circle class=\"lone\" r=\"2.5\" cx=\"")
                        .append(c(frame.x(p.time())))
                        .append("\" cy=\"")
                        .append(c(frame.y(p.value())))
                        .append("\"/>");
            } else {
                svg.append("<polyline class=\"series\" points=\"");
                segment.forEach(p -> pair(svg, frame.x(p.time()), frame.y(p.value())));
                trimAndClose(svg);
            }
        }
        if (points.size() <= MAX_TOOLTIPS) {
            svg.append("<g class=\"pts\">");
            for (Point p : points) {
                svg.append("<circle class=\"pt\" r=\"4\" cx=\"")
                        .append(c(frame.x(p.time())))
                        .append("\" cy=\"")
                        .append(c(frame.y(p.value())))
                        .append("\"><title>")
                        .append(time.minute(p.time()))
                        .append(time.offsetChanges() ? ": " : " " + time.offsetAt(p.time()) + ": ")
                        .append(escape(tooltipValue(series, p)))
                        .append("</title></circle>");
            }
            svg.append("</g>");
        }
        return svg.append("</svg>").toString();
    }

    private static String tooltipValue(SensorSeries series, Point p) {
        String unit = series.mixedUnits() ? "" : " " + series.unitLabel();
        if (!series.downsampled()) {
            return ReportFormat.exact(p.value()) + unit;
        }
        int decimals = series.decimals();
        return "mean " + ReportFormat.fixed(p.value(), decimals) + unit + " (" + ReportFormat.fixed(p.min(), decimals)
                + "–" + ReportFormat.fixed(p.max(), decimals) + ", "
                + ReportFormat.count(p.count(), "reading", "readings")
                + ")";
    }

    /**
     * @param hours the hours with data, time order
     * @param from  the time axis' start, epoch milliseconds
     * @param to    the time axis' end, after {@code from}, not before the last hour's end
     * @param time  the display zone of the time axis and tooltips
     * @return the chart's {@code <svg>} element
     */
    static String activityChart(List<HourActivity> hours, long from, long to, ReportTime time) {
        long max = hours.stream()
                .mapToLong(h -> Math.max(h.inOrZero(), h.outOrZero()))
                .max()
                .orElse(0);
        Axis.Ticks ticks = Axis.values(0, Math.max(max, 1), 4);
        Frame frame = Frame.of(from, to, -ticks.hi(), ticks.hi(), ticks);
        StringBuilder svg = new StringBuilder(200 * hours.size() + 4096);
        open(svg, "chart activity-chart", "Bees in and out per hour, " + hours.size() + " hours with data")
                .append(" data-bars=\"")
                .append(hours.size())
                .append("\">");
        valueAxis(svg, frame, new Axis.Ticks(mirrored(ticks.values()), ticks.scale()), true);
        timeAxis(svg, frame, time);
        double hourWidth = frame.x(from + HOUR) - frame.x(from);
        double barWidth = Math.max(1.0, hourWidth * 0.8);
        double zero = frame.y(0);
        for (HourActivity h : hours) {
            double x = frame.x(h.start()) + (hourWidth - barWidth) / 2;
            svg.append("<g class=\"hour\"><title>")
                    .append(time.minute(h.start()))
                    .append(time.offsetChanges() ? ": " : " " + time.offsetAt(h.start()) + ": ")
                    .append(h.in() == null ? "– (null)" : ReportFormat.count(h.in()))
                    .append(" in, ")
                    .append(h.out() == null ? "– (null)" : ReportFormat.count(h.out()))
                    .append(" out</title>");
            double top = frame.y(h.inOrZero());
            bar(svg, "bar in", x, top, barWidth, zero - top);
            bar(svg, "bar out", x, zero, barWidth, frame.y(-h.outOrZero()) - zero);
            svg.append("</g>");
        }
        svg.append("<line class=\"zero\" x1=\"")
                .append(frame.left())
                .append("\" x2=\"")
                .append(WIDTH - RIGHT)
                .append("\" y1=\"")
                .append(c(zero))
                .append("\" y2=\"")
                .append(c(zero))
                .append("\"/>");
        legend(svg);
        return svg.append("</svg>").toString();
    }

    private static List<Double> mirrored(List<Double> positive) {
        return java.util.stream.Stream.concat(
                        positive.stream().filter(v -> v > 0).map(v -> -v).sorted(), positive.stream())
                .toList();
    }

    private static void legend(StringBuilder svg) {
        int x = WIDTH - RIGHT - 330;
        svg.append("<g class=\"legend\">")
                .append("<rect class=\"bar in\" x=\"")
                .append(x)
                .append("\" y=\"8\" width=\"14\" height=\"14\"/>")
                .append("<text x=\"")
                .append(x + 20)
                .append("\" y=\"19\">bees in (entries, up)</text>")
                .append("<rect class=\"bar out\" x=\"")
                .append(x + 170)
                .append("\" y=\"8\" width=\"14\" height=\"14\"/>")
                .append("<text x=\"")
                .append(x + 190)
                .append("\" y=\"19\">bees out (exits, down)</text>")
                .append("</g>");
    }

    private static void bar(StringBuilder svg, String cssClass, double x, double y, double width, double height) {
        svg.append("<rect class=\"")
                .append(cssClass)
                .append("\" x=\"")
                .append(c(x))
                .append("\" y=\"")
                .append(c(y))
                .append("\" width=\"")
                .append(c(width))
                .append("\" height=\"")
                .append(c(Math.max(0, height)))
                .append("\"/>");
    }

    private static StringBuilder open(StringBuilder svg, String cssClass, String label) {
        return svg.append("<svg class=\"")
                .append(cssClass)
                .append("\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"")
                .append(escape(label))
                .append('"');
    }

    private static void valueAxis(StringBuilder svg, Frame frame, Axis.Ticks ticks, boolean absolute) {
        svg.append("<g class=\"grid\">");
        for (double v : ticks.values()) {
            double y = frame.y(v);
            svg.append("<line x1=\"")
                    .append(frame.left())
                    .append("\" x2=\"")
                    .append(WIDTH - RIGHT)
                    .append("\" y1=\"")
                    .append(c(y))
                    .append("\" y2=\"")
                    .append(c(y))
                    .append("\"/>");
        }
        svg.append("</g><g class=\"axis y\">");
        for (double v : ticks.values()) {
            svg.append("<text x=\"")
                    .append(frame.left() - 8)
                    .append("\" y=\"")
                    .append(c(frame.y(v) + 4))
                    .append("\" text-anchor=\"end\">")
                    .append(ticks.label(absolute ? Math.abs(v) : v))
                    .append("</text>");
        }
        svg.append("</g>");
    }

    private static void timeAxis(StringBuilder svg, Frame frame, ReportTime time) {
        int maxTicks = Math.max(2, (WIDTH - frame.left() - RIGHT) / 80);
        double bottom = HEIGHT - BOTTOM;
        svg.append("<g class=\"axis x\"><line x1=\"")
                .append(frame.left())
                .append("\" x2=\"")
                .append(WIDTH - RIGHT)
                .append("\" y1=\"")
                .append(c(bottom))
                .append("\" y2=\"")
                .append(c(bottom))
                .append("\"/>");
        for (Axis.TimeTick tick : Axis.times(frame.from(), frame.to(), maxTicks, time)) {
            String x = c(frame.x(tick.time()));
            svg.append("<line class=\"vgrid\" x1=\"")
                    .append(x)
                    .append("\" x2=\"")
                    .append(x)
                    .append("\" y1=\"")
                    .append(TOP)
                    .append("\" y2=\"")
                    .append(c(bottom + 5))
                    .append("\"/>")
                    .append("<text x=\"")
                    .append(x)
                    .append("\" y=\"")
                    .append(c(bottom + 22))
                    .append("\" text-anchor=\"middle\">")
                    .append(tick.upper())
                    .append("</text>");
            if (!tick.lower().isEmpty()) {
                svg.append("<text x=\"")
                        .append(x)
                        .append("\" y=\"")
                        .append(c(bottom + 40))
                        .append("\" text-anchor=\"middle\">")
                        .append(tick.lower())
                        .append("</text>");
            }
        }
        svg.append("<text class=\"axis-title\" x=\"")
                .append(WIDTH - RIGHT)
                .append("\" y=\"")
                .append(HEIGHT - 4)
                .append("\" text-anchor=\"end\">")
                .append(escape(time.label()))
                .append("</text></g>");
    }

    private static void pair(StringBuilder svg, double x, double y) {
        svg.append(c(x)).append(',').append(c(y)).append(' ');
    }

    private static void trimAndClose(StringBuilder svg) {
        svg.setLength(svg.length() - 1);
        svg.append("\"/>");
    }

    /** @return a coordinate with one decimal, locale-independent */
    private static String c(double v) {
        long tenths = Math.round(v * 10);
        String sign = tenths < 0 ? "-" : "";
        long abs = Math.abs(tenths);
        return sign + abs / 10 + (abs % 10 == 0 ? "" : "." + abs % 10);
    }
}
