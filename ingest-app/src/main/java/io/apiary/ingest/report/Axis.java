package io.apiary.ingest.report;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Tick positions and labels of the charts' axes. Stateless, thread-safe.
 */
final class Axis {

    private static final long MINUTE = 60_000L;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;
    private static final long[] TIME_STEPS = {
        MINUTE,
        5 * MINUTE,
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
     * Value ticks: round numbers covering a range.
     *
     * @param lo       least value
     * @param hi       greatest value, at least {@code lo}
     * @param ticks    about how many ticks, at least 2
     * @return ticks from at most {@code lo} to at least {@code hi}, evenly spaced by 1, 2, 2.5 or 5
     *         times a power of ten; {@code lo - 1} to {@code hi + 1} when {@code lo == hi}
     */
    static Ticks values(double lo, double hi, int ticks) {
        if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) {
            lo -= 1;
            hi += 1;
        }
        double raw = (hi - lo) / (ticks - 1);
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = power;
        for (double factor : new double[] {1, 2, 2.5, 5, 10}) {
            step = factor * power;
            if (step >= raw) {
                break;
            }
        }
        double first = Math.floor(lo / step) * step;
        double last = Math.ceil(hi / step) * step;
        int scale = Math.max(0, BigDecimal.valueOf(step).stripTrailingZeros().scale());
        List<Double> values = new ArrayList<>();
        for (int i = 0; first + i * step <= last + step / 2; i++) {
            values.add(first + i * step);
        }
        return new Ticks(values, scale);
    }

    /**
     * Value ticks and how many decimals their labels need.
     *
     * @param values the tick values, ascending; the first and last are the axis' ends
     * @param scale  decimals of the labels
     */
    record Ticks(List<Double> values, int scale) {

        double lo() {
            return values.get(0);
        }

        double hi() {
            return values.get(values.size() - 1);
        }

        String label(double value) {
            return ReportFormat.fixed(value, scale);
        }
    }

    /**
     * A time tick.
     *
     * @param time  epoch milliseconds
     * @param upper the first label line ({@code HH:mm} in the display zone, or the date when ticks are whole days)
     * @param lower the second label line (the date where it changes), empty if none
     */
    record TimeTick(long time, String upper, String lower) {}

    /**
     * @param from     the axis' start, epoch milliseconds
     * @param to       the axis' end, after {@code from}
     * @param maxTicks the most ticks wanted, at least 2
     * @param time     the display zone
     * @return ticks at round times of the display zone: the shortest step from 1 minute to 28 days that gives at most
     *         {@code maxTicks} ticks; steps under a day fall on local times that are multiples of the step since
     *         local midnight (a local time a daylight-saving gap skips gives no tick), steps of days on local
     *         midnights of days that are multiples of the step since 1970-01-01; a local time an autumn overlap
     *         repeats gives a tick at each of its instants; with steps under a day, the date is written under the
     *         first tick and under each tick on a new day, and where the zone's offset changes within the span, the
     *         new offset under the first tick after a change on the same day
     */
    static List<TimeTick> times(long from, long to, int maxTicks, ReportTime time) {
        long step = TIME_STEPS[TIME_STEPS.length - 1];
        for (long candidate : TIME_STEPS) {
            if ((to - from) / candidate <= maxTicks - 1) {
                step = candidate;
                break;
            }
        }
        List<TimeTick> ticks = new ArrayList<>();
        if (step >= DAY) {
            long days = step / DAY;
            LocalDate first = time.localDate(from);
            first = first.plusDays(Math.floorMod(-first.toEpochDay(), days));
            for (LocalDate d = first; ; d = d.plusDays(days)) {
                long t = time.instant(d.atStartOfDay());
                if (t > to) {
                    break;
                }
                if (t >= from) {
                    ticks.add(new TimeTick(t, time.day(t), ""));
                }
            }
            return ticks;
        }
        TreeSet<Long> instants = new TreeSet<>();
        Duration stepLength = Duration.ofMillis(step);
        for (LocalDateTime local = time.localDate(from).atStartOfDay(); ; local = local.plus(stepLength)) {
            long earlier = time.instant(local);
            if (earlier > to) {
                break;
            }
            if (local.equals(time.localDateTime(earlier))) { // else a spring gap skips this local time
                instants.add(earlier);
                instants.add(time.laterInstant(local)); // the same when the local time happens once
            }
        }
        String previousDay = "";
        String previousOffset = "";
        for (long t : instants.subSet(from, true, to, true)) {
            String day = time.day(t);
            String offset = time.offsetAt(t);
            String lower = !day.equals(previousDay)
                    ? day
                    : time.offsetChanges() && !offset.equals(previousOffset) ? offset : "";
            ticks.add(new TimeTick(t, time.hourMinute(t), lower));
            previousDay = day;
            previousOffset = offset;
        }
        return ticks;
    }

    private Axis() {}
}
