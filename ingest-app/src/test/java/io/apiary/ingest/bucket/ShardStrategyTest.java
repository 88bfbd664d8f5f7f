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
import org.junit.jupiter.params.provider.MethodSource;

class ShardStrategyTest {

    private static final long DAY = DayBucket.MILLIS_PER_DAY;

    static Stream<Arguments> readings() {
        return RandomCases.cases(2_000, r -> new Object[] {
            ShardStrategy.values()[r.nextInt(2)],
            RandomCases.letters(r, 1 + r.nextInt(12)),
            RandomCases.letters(r, 1 + r.nextInt(8)),
            r.nextLong(-DAY * 365, DAY * 365 * 200),
            r.nextLong(0, DAY + 1),
            1 + r.nextInt(r.nextBoolean() ? 96 : 5_000)
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readings")
    void should_always_return_the_same_shard_in_range_for_the_same_reading(
            String seed, ShardStrategy strategy, String hive, String otherHive, long time, long later, int shards) {
        int shard = strategy.shard(hive, "TEMPERATURE", time, shards);

        assertThat(shard).isBetween(0, shards - 1);
        assertThat(strategy.shard(hive, "TEMPERATURE", time, shards))
                .as("deterministic")
                .isEqualTo(shard);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readings")
    void should_give_every_hive_and_sensor_the_same_shard_at_one_instant_with_time_strategy(
            String seed, ShardStrategy ignored, String hive, String otherHive, long time, long later, int shards) {
        assertThat(ShardStrategy.TIME.shard(hive, "TEMPERATURE", time, shards))
                .isEqualTo(ShardStrategy.TIME.shard(otherHive, "HUMIDITY", time, shards));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readings")
    void should_never_decrease_within_one_utc_day_with_time_strategy(
            String seed, ShardStrategy ignored, String hive, String otherHive, long time, long later, int shards) {
        long other = time + later;
        if (DayBucket.epochDay(other) == DayBucket.epochDay(time)) {
            assertThat(ShardStrategy.TIME.shard(hive, "WEIGHT", other, shards))
                    .isGreaterThanOrEqualTo(ShardStrategy.TIME.shard(hive, "WEIGHT", time, shards));
        }
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
