package io.apiary.ingest.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.demo.LocalStackSession;
import io.apiary.ingest.demo.UrbanDataset;
import io.apiary.schema.TelemetryReading;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * The real UrBAN readings (2021) through the real topology's validation: as live traffic they are
 * all too old for hive_telemetry's 90-day retention; as a replay of history (the maximum age
 * raised, as the demo and the dev stack do) every reading passes. Prints the counts per reason.
 * Every {@value #STRIDE}th reading of the file (about 20,000, spread over its whole span) keeps the
 * test short; with every reading (160,472) the counts were the same in kind (all EXPIRED_TIMESTAMP,
 * or none).
 */
class UrbanValidationTest {

    private static final Instant TODAY = Instant.parse("2026-11-30T00:00:00Z");
    private static final int STRIDE = 8;
    private static final java.util.List<TelemetryReading> READINGS =
            every(STRIDE, UrbanDataset.load().readings());

    private static java.util.List<TelemetryReading> every(int stride, java.util.List<TelemetryReading> all) {
        java.util.List<TelemetryReading> some = new java.util.ArrayList<>();
        for (int i = 0; i < all.size(); i += stride) {
            some.add(all.get(i));
        }
        return some;
    }

    private static Map<String, Long> deadLettersByReason(TopologyFixture fixture) {
        for (TelemetryReading reading : READINGS) {
            fixture.telemetry.pipeInput(reading.getHiveId(), reading);
        }
        Map<String, Long> byReason = new TreeMap<>();
        for (TestRecord<byte[], byte[]> dead : fixture.deadLetter.readRecordsToList()) {
            byReason.merge(DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.REASON), 1L, Long::sum);
        }
        return byReason;
    }

    @Test
    void as_live_traffic_every_2021_reading_is_expired() {
        try (TopologyFixture fixture = new TopologyFixture(Map.of(), TODAY)) {
            Map<String, Long> byReason = deadLettersByReason(fixture);
            System.out.printf(
                    "UrBAN readings as live traffic on %s: %,d readings, dead letters by reason %s%n",
                    TODAY, READINGS.size(), byReason);
            assertThat(byReason).containsExactly(Map.entry("EXPIRED_TIMESTAMP", (long) READINGS.size()));
            assertThat(fixture.telemetryRows.isEmpty()).isTrue();
        }
    }

    @Test
    void as_a_replay_of_history_every_reading_passes() {
        try (TopologyFixture fixture = new TopologyFixture(
                Map.of(IngestConfig.VALIDATION_MAX_AGE_MS, LocalStackSession.REPLAY_MAX_AGE.toMillis()), TODAY)) {
            Map<String, Long> byReason = deadLettersByReason(fixture);
            long rows = fixture.telemetryRows.getQueueSize();
            System.out.printf(
                    "UrBAN readings replayed with validation.max.age.ms=%d: %,d readings, %,d rows, "
                            + "dead letters by reason %s%n",
                    LocalStackSession.REPLAY_MAX_AGE.toMillis(), READINGS.size(), rows, byReason);
            assertThat(byReason).isEmpty();
            assertThat(rows).isEqualTo(READINGS.size());
        }
    }
}
