package io.apiary.ingest.bucket;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.testing.RandomCases;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TimeZone;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties of the bucket functions over seeded random cases (JUnit parameterized tests; see
 * {@link RandomCases}): the day bucket is the UTC date whatever the JVM default zone, and both
 * strategies spread uniform input evenly over the shards.
 */
class BucketPropertiesTest {

    private static final List<String> ZONES = new ArrayList<>(ZoneId.getAvailableZoneIds());

    static {
        ZONES.sort(null);
    }

    private final TimeZone original = TimeZone.getDefault();

    @AfterEach
    void restoreZone() {
        TimeZone.setDefault(original);
    }

    static Stream<Arguments> instantsAndZones() {
        return RandomCases.cases(r -> new Object[] {
            r.nextLong(-62_135_596_800_000L, 253_402_300_799_999L), // years 1..9999
            ZONES.get(r.nextInt(ZONES.size()))
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("instantsAndZones")
    void day_bucket_is_the_utc_date_and_hour_the_utc_hour_in_any_default_zone(String seed, long millis, String zone) {
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        var utc = Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC);

        assertThat(DayBucket.of(millis)).isEqualTo(utc.toLocalDate());
        assertThat(HourBucket.hourOfDay(millis)).isEqualTo(utc.getHour());
        assertThat(HourBucket.hourStart(millis))
                .isEqualTo(
                        utc.withMinute(0).withSecond(0).withNano(0).toInstant().toEpochMilli());
    }

    static Stream<Arguments> uniformDays() {
        // fewer than the default: a case shards up to 80,000 readings
        return RandomCases.cases(40, r -> new Object[] {
            ShardStrategy.values()[r.nextInt(2)],
            1 + r.nextInt(200),
            r.nextLong(0, 20_000L) * DayBucket.MILLIS_PER_DAY,
            r.split()
        });
    }

    /**
     * Uniform input: 400 readings per shard on average, random hives and sensors, times uniform
     * over one UTC day. Bound tested: every shard holds between 60% and 140% of the mean
     * (the mean is 400, one standard deviation of a fair spread about 20, so the bound is about
     * 8 standard deviations wide on each side: a failure means a skewed function, not bad luck).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("uniformDays")
    void shards_spread_uniform_input_evenly(
            String seed, ShardStrategy strategy, int shards, long dayStart, SplittableRandom random) {
        int perShard = 400;
        int[] counts = new int[shards];
        for (int i = 0; i < shards * perShard; i++) {
            String hive = "hive-" + random.nextInt(10_000);
            String sensor = random.nextBoolean() ? "TEMPERATURE" : "HUMIDITY";
            long time = dayStart + random.nextLong(DayBucket.MILLIS_PER_DAY);
            counts[strategy.shard(hive, sensor, time, shards)]++;
        }
        for (int shard = 0; shard < shards; shard++) {
            assertThat(counts[shard])
                    .as("shard %d of %d (%s)", shard, shards, strategy)
                    .isBetween(perShard * 60 / 100, perShard * 140 / 100);
        }
    }
}
