package io.apiary.ingest.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.testing.RandomCases;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ShardStrategyTest {

    private static final long DAY = DayBucket.MILLIS_PER_DAY;

    static Stream<Arguments> readings() {
        return RandomCases.cases(r -> new Object[] {
            ShardStrategy.values()[r.nextInt(2)],
            RandomCases.letters(r, 1 + r.nextInt(12)),
            RandomCases.letters(r, 1 + r.nextInt(12)),
            r.nextBoolean() ? r.nextLong() : r.nextLong(-DAY * 365, DAY * 365 * 200),
            1 + r.nextInt(r.nextBoolean() ? 96 : Integer.MAX_VALUE - 1)
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readings")
    void should_return_a_shard_from_0_to_the_count_less_one_for_any_reading(
            String seed, ShardStrategy strategy, String hive, String sensor, long time, int shards) {
        assertThat(strategy.shard(hive, sensor, time, shards)).isBetween(0, shards - 1);
    }

    /**
     * Rows already stored were written to these shards: a change to either function would leave
     * them unread by the read path and unmatched by a replay, so the values are pinned.
     */
    @ParameterizedTest
    @CsvSource({
        "HASH, 3627, TEMPERATURE, 2021-07-15T11:03:43.123Z, 96, 36",
        "HASH, 3627, HUMIDITY, 2021-07-15T11:03:43.123Z, 96, 56",
        "HASH, hive-1, WEIGHT, 1969-12-31T23:59:59.999Z, 96, 35",
        "HASH, st-9, WEATHER, 2026-12-01T00:00:00Z, 4, 0",
        "HASH, h, T, 2021-07-15T00:00:00Z, 1000, 703",
        "TIME, 3627, TEMPERATURE, 2021-07-15T11:03:43.123Z, 96, 44",
        "TIME, hive-1, WEIGHT, 1969-12-31T23:59:59.999Z, 96, 95",
    })
    void should_keep_the_shard_that_stored_rows_were_written_to(
            ShardStrategy strategy, String hive, String sensor, Instant time, int shards, int shard) {
        assertThat(strategy.shard(hive, sensor, time.toEpochMilli(), shards)).isEqualTo(shard);
    }

    static Stream<Arguments> instants() {
        return RandomCases.cases(r -> new Object[] {
            RandomCases.letters(r, 1 + r.nextInt(12)),
            RandomCases.letters(r, 1 + r.nextInt(12)),
            r.nextLong(-DAY * 365, DAY * 365 * 200),
            1 + r.nextInt(r.nextBoolean() ? 96 : 5_000)
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("instants")
    void should_give_every_hive_and_sensor_the_same_shard_at_one_instant_with_time_strategy(
            String seed, String hive, String otherHive, long time, int shards) {
        assertThat(ShardStrategy.TIME.shard(hive, "TEMPERATURE", time, shards))
                .isEqualTo(ShardStrategy.TIME.shard(otherHive, "HUMIDITY", time, shards));
    }

    /** Two instants of one UTC day, the second not before the first. */
    static Stream<Arguments> withinOneDay() {
        return RandomCases.cases(r -> {
            long dayStart = r.nextLong(-365, 365 * 200) * DAY;
            long first = r.nextLong(DAY);
            return new Object[] {dayStart + first, dayStart + r.nextLong(first, DAY), 1 + r.nextInt(5_000)};
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withinOneDay")
    void should_never_decrease_within_one_utc_day_with_time_strategy(String seed, long time, long later, int shards) {
        assertThat(ShardStrategy.TIME.shard("3627", "WEIGHT", later, shards))
                .isGreaterThanOrEqualTo(ShardStrategy.TIME.shard("3627", "WEIGHT", time, shards));
    }

    /** An instant, and one in the next UTC day at most a day later. */
    static Stream<Arguments> acrossMidnight() {
        return RandomCases.cases(r -> {
            long dayStart = r.nextLong(-365, 365 * 200) * DAY;
            long first = r.nextLong(DAY);
            return new Object[] {dayStart + first, dayStart + DAY + r.nextLong(first + 1), 1 + r.nextInt(5_000)};
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acrossMidnight")
    void should_start_the_slices_again_after_midnight_with_time_strategy(
            String seed, long time, long nextDay, int shards) {
        int shard = ShardStrategy.TIME.shard("3627", "WEIGHT", nextDay, shards);

        assertThat(shard).isLessThanOrEqualTo(ShardStrategy.TIME.shard("3627", "WEIGHT", time, shards));
        assertThat(shard)
                .as("the same slice as a day before")
                .isEqualTo(ShardStrategy.TIME.shard("3627", "WEIGHT", nextDay - DAY, shards));
    }

    @Test
    void should_cut_the_day_into_96_slices_of_15_minutes_with_time_strategy() {
        long midnight = Instant.parse("2021-07-15T00:00:00Z").toEpochMilli();

        assertThat(ShardStrategy.TIME.shard("3627", "TEMPERATURE", midnight, 96))
                .isZero();
        assertThat(ShardStrategy.TIME.shard("3627", "TEMPERATURE", midnight + 15 * 60_000 - 1, 96))
                .isZero();
        assertThat(ShardStrategy.TIME.shard("3627", "TEMPERATURE", midnight + 15 * 60_000, 96))
                .isEqualTo(1);
        assertThat(ShardStrategy.TIME.shard("3627", "TEMPERATURE", midnight + DAY - 1, 96))
                .isEqualTo(95);
        assertThat(ShardStrategy.TIME.shard("3627", "TEMPERATURE", midnight + DAY, 96))
                .isZero();
    }

    @Test
    void should_spread_a_day_of_readings_evenly_over_the_shards_with_both_strategies() {
        long midnight = Instant.parse("2021-07-15T00:00:00Z").toEpochMilli();
        for (ShardStrategy strategy : ShardStrategy.values()) {
            Map<Integer, Integer> perShard = new HashMap<>();
            for (long t = midnight; t < midnight + DAY; t += 1_000) {
                perShard.merge(strategy.shard("3627", "TEMPERATURE", t, 96), 1, Integer::sum);
            }
            assertThat(perShard).as(strategy.name()).hasSize(96);
            assertThat(perShard.values())
                    .as(strategy.name())
                    .allSatisfy(n -> assertThat(n).isBetween(800, 1000));
        }
    }

    @Test
    void should_name_the_accepted_values_when_the_strategy_is_unknown() {
        assertThatThrownBy(() -> ShardStrategy.parse("random"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'time' or 'hash'");
        assertThat(ShardStrategy.parse(" Hash ")).isEqualTo(ShardStrategy.HASH);
    }
}
