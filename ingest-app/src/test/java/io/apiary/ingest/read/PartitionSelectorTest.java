package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.testing.RandomCases;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The partitions the reader computes for a range are exactly those that can hold rows in it:
 * compared with a brute-force enumeration of every millisecond of the range through the topology's
 * own bucket functions, over seeded random ranges (see {@link RandomCases}), half of them placed
 * around a midnight that ends a month or a year.
 */
class PartitionSelectorTest {

    /** Midnights that end a month, a leap February, and a year. */
    private static final List<LocalDate> EDGES = List.of(
            LocalDate.of(2021, 2, 1),
            LocalDate.of(2024, 3, 1),
            LocalDate.of(2026, 12, 1),
            LocalDate.of(2027, 1, 1),
            LocalDate.of(2021, 8, 1));

    private static final int[] SHARD_COUNTS = {1, 2, 3, 7, 8, 96, 1_000};

    static Stream<Arguments> timeRanges() {
        // Lengths log-uniform from 1 ms to 3 days, so most ranges are short and some span days.
        return RandomCases.cases(r -> range(r, Math.log(3 * DayBucket.MILLIS_PER_DAY)));
    }

    static Stream<Arguments> hashRanges() {
        // Up to 2 minutes: every millisecond is hashed by the brute force; fewer cases than the
        // default for the same reason.
        return RandomCases.cases(60, r -> range(r, Math.log(120_000)));
    }

    private static Object[] range(SplittableRandom r, double maxLogLength) {
        long from;
        if (r.nextBoolean()) {
            long edge = EDGES.get(r.nextInt(EDGES.size()))
                    .atStartOfDay()
                    .toInstant(ZoneOffset.UTC)
                    .toEpochMilli();
            from = edge - r.nextLong(1, 6 * 3_600_000L);
        } else {
            from = r.nextLong(
                    Instant.parse("2020-01-01T00:00:00Z").toEpochMilli(),
                    Instant.parse("2030-01-01T00:00:00Z").toEpochMilli());
        }
        long length = Math.max(1, (long) Math.exp(r.nextDouble() * maxLogLength));
        return new Object[] {
            "hive-" + r.nextInt(1000), from, from + length, SHARD_COUNTS[r.nextInt(SHARD_COUNTS.length)]
        };
    }

    @ParameterizedTest(name = "{0}: [{2}, {3}) at {4} time shards")
    @MethodSource("timeRanges")
    void should_select_exactly_the_time_shards_that_hold_a_millisecond_of_the_range(
            String seed, String hive, long from, long to, int shards) {
        ShardScheme scheme = new ShardScheme(ShardStrategy.TIME, shards);

        List<ShardSlice> slices = PartitionSelector.slices(hive, "TEMPERATURE", range(from, to), scheme);

        assertThat(slices).containsExactlyElementsOf(bruteForce(hive, "TEMPERATURE", from, to, scheme));
    }

    @ParameterizedTest(name = "{0}: [{2}, {3}) at {4} hash shards")
    @MethodSource("hashRanges")
    void should_select_exactly_the_hash_shards_that_hold_a_millisecond_of_the_range(
            String seed, String hive, long from, long to, int shards) {
        ShardScheme scheme = new ShardScheme(ShardStrategy.HASH, shards);

        List<ShardSlice> slices = PartitionSelector.slices(hive, "HUMIDITY", range(from, to), scheme);

        assertThat(slices).containsExactlyElementsOf(bruteForce(hive, "HUMIDITY", from, to, scheme));
    }

    @Test
    void should_select_every_hash_shard_of_each_day_when_the_range_covers_whole_days() {
        TimeRange twoDays = TimeRange.days(LocalDate.of(2021, 1, 31), LocalDate.of(2021, 2, 1));

        List<ShardSlice> slices =
                PartitionSelector.slices("hive-1", "WEIGHT", twoDays, new ShardScheme(ShardStrategy.HASH, 96));

        assertThat(slices).hasSize(2 * 96);
        assertThat(slices.get(0).bucket()).isEqualTo(new DayShard(LocalDate.of(2021, 1, 31), 0));
        assertThat(slices.get(191).bucket()).isEqualTo(new DayShard(LocalDate.of(2021, 2, 1), 95));
    }

    @Test
    void should_give_each_time_shard_the_slice_of_the_day_it_holds() {
        TimeRange day = TimeRange.days(LocalDate.of(2021, 7, 15), LocalDate.of(2021, 7, 15));

        List<ShardSlice> slices = PartitionSelector.slices("h", "T", day, new ShardScheme(ShardStrategy.TIME, 96));

        assertThat(slices).hasSize(96);
        assertThat(Instant.ofEpochMilli(slices.get(1).fromMillis())).isEqualTo(Instant.parse("2021-07-15T00:15:00Z"));
        assertThat(Instant.ofEpochMilli(slices.get(95).toMillis())).isEqualTo(Instant.parse("2021-07-16T00:00:00Z"));
    }

    @Test
    void should_refuse_an_empty_or_reversed_range() {
        Instant t = Instant.parse("2021-07-15T00:00:00Z");

        assertThatThrownBy(() -> new TimeRange(t, t))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be after its start");
    }

    /**
     * Every millisecond of {@code [from, to)} through the topology's bucket functions; each bucket
     * with the first and last millisecond that fell in it.
     */
    private static List<ShardSlice> bruteForce(String hive, String series, long from, long to, ShardScheme scheme) {
        TreeMap<DayShard, long[]> seen = new TreeMap<>();
        long runStart = from;
        int runDay = DayBucket.epochDay(from);
        int runShard = scheme.strategy().shard(hive, series, from, scheme.shards());
        for (long t = from + 1; t <= to; t++) {
            int day = t < to ? DayBucket.epochDay(t) : Integer.MIN_VALUE;
            int shard = t < to ? scheme.strategy().shard(hive, series, t, scheme.shards()) : -1;
            if (day != runDay || shard != runShard) {
                long first = runStart;
                long last = t - 1;
                seen.merge(new DayShard(LocalDate.ofEpochDay(runDay), runShard), new long[] {first, last}, (a, b) ->
                        new long[] {Math.min(a[0], first), Math.max(a[1], last)});
                runStart = t;
                runDay = day;
                runShard = shard;
            }
        }
        return seen.entrySet().stream()
                .map(e -> expectedSlice(e.getKey(), e.getValue(), from, to, scheme))
                .toList();
    }

    /**
     * What the selector should report for a bucket the brute force found: for time shards the first
     * and last millisecond seen (the shard's part of the range), for hash shards the day's part of
     * the range (a hash shard can hold any millisecond of its day).
     */
    private static ShardSlice expectedSlice(DayShard bucket, long[] span, long from, long to, ShardScheme scheme) {
        if (scheme.strategy() == ShardStrategy.TIME) {
            return new ShardSlice(bucket, span[0], span[1] + 1);
        }
        long dayStart = bucket.day().toEpochDay() * DayBucket.MILLIS_PER_DAY;
        return new ShardSlice(bucket, Math.max(from, dayStart), Math.min(to, dayStart + DayBucket.MILLIS_PER_DAY));
    }

    private static TimeRange range(long from, long to) {
        return new TimeRange(Instant.ofEpochMilli(from), Instant.ofEpochMilli(to));
    }
}
