package io.apiary.ingest.report;

import io.apiary.ingest.identity.Identifiers;
import io.apiary.ingest.read.TelemetryRow;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a sensor's chart plots: its readings in time order, or, above {@value #MAX_POINTS} readings,
 * bucket means with their min–max band. A sensor is a sensor type and a sensor id; its
 * {@link #label() label} is the type alone when the type's only sensor in the report is
 * {@code default} (a hive with one sensor of the type), else the type and the id
 * ({@code TEMPERATURE inside}, {@code TEMPERATURE default}). Immutable, thread-safe.
 *
 * <p><b>Downsampling rule.</b> A sensor with more than {@value #MAX_POINTS} plottable readings is
 * plotted per time bucket: the bucket width is the shortest of {@link #BUCKET_WIDTHS} (1 minute to 28
 * days) that cuts the chart's time span into at most {@value #MAX_BUCKETS} buckets; buckets start at
 * multiples of the width since 1970-01-01T00:00:00Z (UTC); each non-empty bucket is one point at the
 * bucket's middle, at the mean of its readings, with the least and greatest reading as a band.
 *
 * <p><b>Gap rule.</b> The line is broken between two consecutive points further apart than
 * {@value #GAP_FACTOR} times the median of the positive intervals between consecutive points.
 *
 * <p>Readings with a non-finite value (NaN, infinity) or none (a null cell) are not plotted; {@link #unplotted()} counts them.
 */
final class SensorSeries {

    /** The most readings plotted one by one. */
    static final int MAX_POINTS = 2_000;
    /** The most buckets a downsampled chart is cut into. */
    static final int MAX_BUCKETS = 1_000;
    /** Consecutive points more than this many median intervals apart are not joined. */
    static final double GAP_FACTOR = 3.0;
    /** The most decimals {@link #decimals()} gives. */
    static final int MAX_DECIMALS = 4;

    private static final long MINUTE = 60_000L;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;
    /** Bucket widths tried, shortest first, in milliseconds. */
    static final long[] BUCKET_WIDTHS = {
        MINUTE,
        2 * MINUTE,
        5 * MINUTE,
        10 * MINUTE,
        15 * MINUTE,
        30 * MINUTE,
        HOUR,
        2 * HOUR,
        3 * HOUR,
        6 * HOUR,
        12 * HOUR,
        DAY,
        2 * DAY,
        7 * DAY,
        14 * DAY,
        28 * DAY
    };

    /**
     * One plotted point.
     *
     * @param time  where it is plotted, epoch milliseconds
     * @param value the reading, or the bucket's mean
     * @param min   the bucket's least reading (the reading itself when not downsampled)
     * @param max   the bucket's greatest reading (the reading itself when not downsampled)
     * @param count readings behind the point
     */
    record Point(long time, double value, double min, double max, int count) {}

    private final String sensorType;
    private final String sensorId;
    private final String label;
    private final int sensorsOfType;
    private final List<TelemetryRow> readings;
    private final List<Point> points;
    private final long bucketWidth;
    private final SortedSet<String> units;
    private final boolean someWithoutUnit;
    private final int unplotted;
    private final int decimals;

    private SensorSeries(
            String sensorType,
            String sensorId,
            int sensorsOfType,
            List<TelemetryRow> readings,
            List<Point> points,
            long bucketWidth,
            SortedSet<String> units,
            boolean someWithoutUnit,
            int unplotted) {
        this.sensorType = sensorType;
        this.sensorId = sensorId;
        this.sensorsOfType = sensorsOfType;
        this.label = label(sensorType, sensorId, sensorsOfType);
        this.readings = readings;
        this.points = points;
        this.bucketWidth = bucketWidth;
        this.units = units;
        this.someWithoutUnit = someWithoutUnit;
        this.unplotted = unplotted;
        this.decimals = readings.stream()
                .filter(TelemetryRow::hasFiniteValue)
                .mapToInt(r -> Math.max(
                        0, BigDecimal.valueOf(r.value()).stripTrailingZeros().scale()))
                .map(scale -> Math.min(scale, MAX_DECIMALS))
                .max()
                .orElse(0);
    }

    /**
     * @param sensorType    the sensor type, not null
     * @param sensorId      the sensor id, not null
     * @param sensorsOfType how many sensors of the type the report has, at least 1 (labels the series)
     * @param readings      its readings, any order
     * @param spanMillis    the chart's time span in milliseconds, positive (sizes the buckets)
     * @return the series
     */
    static SensorSeries of(
            String sensorType, String sensorId, int sensorsOfType, List<TelemetryRow> readings, long spanMillis) {
        List<TelemetryRow> sorted = readings.stream()
                .sorted(Comparator.comparing(TelemetryRow::readingTime))
                .toList();
        SortedSet<String> units = new TreeSet<>();
        boolean someWithoutUnit = false;
        for (TelemetryRow row : sorted) {
            if (row.unit() == null || row.unit().isBlank()) {
                someWithoutUnit = true;
            } else {
                units.add(row.unit());
            }
        }
        List<TelemetryRow> plottable =
                sorted.stream().filter(TelemetryRow::hasFiniteValue).toList();
        long width = 0;
        List<Point> points;
        if (plottable.size() > MAX_POINTS) {
            width = bucketWidth(spanMillis);
            long half = width / 2;
            points = Buckets.of(plottable, width).stream()
                    .map(b -> new Point(b.start() + half, b.mean(), b.min(), b.max(), b.count()))
                    .toList();
        } else {
            points = plottable.stream()
                    .map(r -> {
                        double v = r.value();
                        return new Point(r.readingTime().toEpochMilli(), v, v, v, 1);
                    })
                    .toList();
        }
        return new SensorSeries(
                sensorType,
                sensorId,
                sensorsOfType,
                sorted,
                points,
                width,
                units,
                someWithoutUnit,
                sorted.size() - plottable.size());
    }

    /**
     * @param spanMillis a time span, positive
     * @return the shortest of {@link #BUCKET_WIDTHS} giving at most {@link #MAX_BUCKETS} buckets over
     *         the span, or the span divided by that many (rounded up) if none does
     */
    static long bucketWidth(long spanMillis) {
        for (long width : BUCKET_WIDTHS) {
            if ((spanMillis + width - 1) / width <= MAX_BUCKETS) {
                return width;
            }
        }
        return (spanMillis + MAX_BUCKETS - 1) / MAX_BUCKETS;
    }

    /**
     * @return how many decimals the readings have (the most of any plottable reading, written
     *         shortest), 0 to {@value #MAX_DECIMALS}: the precision the tables show means with
     */
    int decimals() {
        return decimals;
    }

    /**
     * @param sensorType    a sensor type
     * @param sensorId      a sensor id
     * @param sensorsOfType sensors of that type in the report
     * @return the type alone for a type whose only sensor is {@code default}, else the type and id
     */
    static String label(String sensorType, String sensorId, int sensorsOfType) {
        return sensorsOfType == 1 && sensorId.equals(Identifiers.DEFAULT_SENSOR_ID)
                ? sensorType
                : sensorType + " " + sensorId;
    }

    /** @return the sensor type */
    String sensorType() {
        return sensorType;
    }

    /** @return the sensor id */
    String sensorId() {
        return sensorId;
    }

    /** @return how many sensors of this type the report has */
    int sensorsOfType() {
        return sensorsOfType;
    }

    /** @return the sensor's name in the report, e.g. {@code TEMPERATURE inside} or {@code HUMIDITY} */
    String label() {
        return label;
    }

    /** @return all its readings, time order (including unplottable ones) */
    List<TelemetryRow> readings() {
        return readings;
    }

    /** @return the plotted points, time order */
    List<Point> points() {
        return points;
    }

    /** @return whether points are bucket means */
    boolean downsampled() {
        return bucketWidth > 0;
    }

    /** @return the bucket width in milliseconds, 0 when not downsampled */
    long bucketWidth() {
        return bucketWidth;
    }

    /** @return readings with a non-finite value, not plotted */
    int unplotted() {
        return unplotted;
    }

    /** @return whether the readings do not all have the same unit (one without a unit counts as different) */
    boolean mixedUnits() {
        return units.size() > 1 || (someWithoutUnit && !units.isEmpty());
    }

    /**
     * @return the unit for the axis as a reader writes it ({@link ReportFormat#unitSymbol}): the only
     *         unit, or empty if none; when mixed, the units joined with {@code , }
     */
    String unitLabel() {
        return String.join(", ", units.stream().map(ReportFormat::unitSymbol).toList());
    }

    /**
     * @return the points cut where the line is broken by the gap rule; each part not empty
     */
    List<List<Point>> segments() {
        List<List<Point>> segments = new ArrayList<>();
        if (points.isEmpty()) {
            return segments;
        }
        double limit = GAP_FACTOR * medianInterval();
        List<Point> current = new ArrayList<>();
        Point previous = null;
        for (Point p : points) {
            if (previous != null && limit > 0 && p.time() - previous.time() > limit) {
                segments.add(current);
                current = new ArrayList<>();
            }
            current.add(p);
            previous = p;
        }
        segments.add(current);
        return segments;
    }

    private double medianInterval() {
        long[] intervals = new long[Math.max(0, points.size() - 1)];
        int n = 0;
        for (int i = 1; i < points.size(); i++) {
            long interval = points.get(i).time() - points.get(i - 1).time();
            if (interval > 0) {
                intervals[n++] = interval;
            }
        }
        if (n == 0) {
            return 0;
        }
        long[] positive = Arrays.copyOf(intervals, n);
        Arrays.sort(positive);
        return n % 2 == 1 ? positive[n / 2] : (positive[n / 2 - 1] + positive[n / 2]) / 2.0;
    }
}
