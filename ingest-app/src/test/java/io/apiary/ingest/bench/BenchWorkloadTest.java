package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.validation.EntranceCountValidator;
import io.apiary.ingest.validation.TelemetryValidator;
import io.apiary.ingest.validation.TimeLimits;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.TelemetryReading;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BenchWorkloadTest {

    private static final TimeLimits LIMITS = new TimeLimits(Duration.ofMinutes(5), Duration.ofDays(365L * 100));

    @ParameterizedTest
    @EnumSource(ShardStrategy.class)
    void rows_are_distinct_interleaved_in_time_order_and_in_their_strategy_s_shard(ShardStrategy strategy) {
        BenchWorkload workload = new BenchWorkload(1_000, 96, strategy);
        Set<List<Object>> identities = new HashSet<>();
        HiveTelemetryRow previous = null;
        for (long i = 0; i < 20_000; i++) {
            HiveTelemetryRow row = workload.row(i);
            assertThat(identities.add(List.of(row.getHiveId(), row.getSensorType(), row.getReadingTime())))
                    .as("row %d repeats a (hive, sensor, time)", i)
                    .isTrue();
            assertThat(row.getShard())
                    .isEqualTo(strategy.shard(
                            row.getHiveId(),
                            row.getSensorType(),
                            row.getReadingTime().toEpochMilli(),
                            96));
            if (previous != null) {
                assertThat(row.getHiveId())
                        .as("consecutive rows belong to different hives")
                        .isNotEqualTo(previous.getHiveId());
                // time order: a round starts at most 49 ms (the hive offset) before the previous row
                assertThat(row.getReadingTime().toEpochMilli())
                        .isGreaterThanOrEqualTo(previous.getReadingTime().toEpochMilli() - 49);
            }
            previous = row;
        }
        // 20 rounds of 1,000 hives: 20 readings x 60 ms per hive
        assertThat(workload.row(19_999).getReadingTime()).isEqualTo(BenchWorkload.START.plusMillis(19 * 60 + 999 % 50));
    }

    @ParameterizedTest
    @EnumSource(ShardStrategy.class)
    void gateway_records_pass_the_pipeline_s_validation_and_match_their_rows(ShardStrategy strategy) {
        BenchWorkload workload = new BenchWorkload(300, 96, strategy);
        TelemetryValidator readings = new TelemetryValidator(LIMITS);
        EntranceCountValidator counts = new EntranceCountValidator(LIMITS);
        long now = BenchWorkload.START.toEpochMilli() + 3_600_000;
        int samples = 0;
        for (long i = 0; i < 300 * 40; i++) {
            TelemetryReading reading = workload.reading(i);
            assertThat(readings.check(reading.getHiveId(), reading, now))
                    .as("reading %d", i)
                    .isNull();
            HiveTelemetryRow row = workload.row(i);
            assertThat(row.getHiveId()).isEqualTo(reading.getHiveId());
            assertThat(row.getReadingTime()).isEqualTo(reading.getReadingTime());
            assertThat(row.getSensorType()).isEqualTo(reading.getSensorType().name());
            assertThat(row.getValue()).isEqualTo(reading.getValue());
            EntranceCount sample = workload.entranceCountAfter(i);
            if (sample != null) {
                samples++;
                assertThat(counts.check(sample.getHiveId(), sample, now)).isNull();
            }
        }
        // 40 rounds of 60 ms span seconds 0, 1 and 2: one sample per hive and second
        assertThat(samples).isEqualTo(300 * 3);
    }
}
