package io.apiary.ingest.report;

import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.TelemetryRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Groups readings of one sensor into UTC time buckets (the hourly table's hours, the charts'
 * downsampling buckets). Stateless, thread-safe.
 */
final class Buckets {

    /**
     * The readings of one bucket.
     *
     * @param start the bucket's start, epoch milliseconds (a multiple of its width)
     * @param mean  mean of the values
     * @param min   least value
     * @param max   greatest value
     * @param count number of readings, at least 1
     */
    record Bucket(long start, double mean, double min, double max, int count) {}

    /**
     * A hive's bee traffic in one UTC hour.
     *
     * @param start   the hour's start, epoch milliseconds
     * @param in      bees that entered, or null when every row of the hour has a null {@code bees_in}
     * @param out     bees that left, or null when every row of the hour has a null {@code bees_out}
     * @param samples entrance-counter samples, or null when every row of the hour has a null {@code samples}
     */
    record HourActivity(long start, Long in, Long out, Long samples) {

        /** @return {@link #in()}, 0 where it is null (for sums and bar heights) */
        long inOrZero() {
            return in == null ? 0 : in;
        }

        /** @return {@link #out()}, 0 where it is null (for sums and bar heights) */
        long outOrZero() {
            return out == null ? 0 : out;
        }
    }

    private Buckets() {}

    /**
     * @param rows activity rows, any order; rows of the same hour are summed, null cells skipped
     * @return one entry per hour with a row, in time order
     */
    static List<HourActivity> hours(List<ActivityRow> rows) {
        Map<Long, Long[]> sums = new TreeMap<>();
        for (ActivityRow row : rows) {
            Long[] sum = sums.computeIfAbsent(row.time().toEpochMilli(), k -> new Long[3]);
            // A null cell is absent: it adds nothing; an hour whose every row has it null has no such figure.
            sum[0] = add(sum[0], row.beesIn());
            sum[1] = add(sum[1], row.beesOut());
            sum[2] = add(sum[2], row.samples() == null ? null : row.samples().longValue());
        }
        List<HourActivity> hours = new ArrayList<>(sums.size());
        sums.forEach((start, sum) -> hours.add(new HourActivity(start, sum[0], sum[1], sum[2])));
        return hours;
    }

    private static Long add(Long sum, Long value) {
        return value == null ? sum : sum == null ? value : Long.valueOf(sum + value);
    }

    /**
     * @param sorted readings sorted by time, with finite values
     * @param width  bucket width in milliseconds, positive; buckets start at multiples of it since
     *               1970-01-01T00:00:00Z (so an hour's bucket is the UTC hour)
     * @return the non-empty buckets, in time order
     */
    static List<Bucket> of(List<TelemetryRow> sorted, long width) {
        List<Bucket> buckets = new ArrayList<>();
        long start = Long.MIN_VALUE;
        double sum = 0;
        double min = 0;
        double max = 0;
        int count = 0;
        for (TelemetryRow row : sorted) {
            long bucket = Math.floorDiv(row.readingTime().toEpochMilli(), width) * width;
            if (bucket != start && count > 0) {
                buckets.add(new Bucket(start, sum / count, min, max, count));
                count = 0;
            }
            double v = row.value();
            if (count == 0) {
                start = bucket;
                sum = 0;
                min = v;
                max = v;
            }
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
            count++;
        }
        if (count > 0) {
            buckets.add(new Bucket(start, sum / count, min, max, count));
        }
        return buckets;
    }
}
