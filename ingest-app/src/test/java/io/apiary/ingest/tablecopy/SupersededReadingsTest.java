package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.sink.WriteTimestamps;
import io.apiary.schema.HiveTelemetryRow;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The legacy-reading rule: which legacy rows the copy skips because the target holds their
 * reading, and which it writes, as verify names them.
 */
class SupersededReadingsTest {

    private static final Instant READING = Instant.parse("2026-11-20T10:00:00Z");
    private static final long MILLIS = READING.toEpochMilli();
    /** A legacy row's write time, at a legacy client's clock (not one the sink gives). */
    private static final long LEGACY = 1_795_600_000_000_000L;
    /** A write time the sink gives for the reading. */
    private static final long PIPELINE = WriteTimestamps.event(MILLIS, 12_345);
    /** A write by hand after the copy, at the server's clock. */
    private static final long BY_HAND = LEGACY + 60_000_000L;

    @Test
    void should_write_a_legacy_row_the_target_does_not_hold() {
        assertThat(SupersededReadings.skipReason(LEGACY, MILLIS, Map.of())).isNull();
    }

    @Test
    void should_write_a_legacy_row_over_the_copys_own_row() {
        assertThat(SupersededReadings.skipReason(LEGACY, MILLIS, Map.of("default", LEGACY)))
                .isNull();
    }

    @Test
    void should_write_a_legacy_row_over_its_copied_row_changed_by_hand() {
        assertThat(SupersededReadings.skipReason(LEGACY, MILLIS, Map.of("default", BY_HAND)))
                .isNull();
    }

    @Test
    void should_write_a_legacy_row_over_its_copied_row_without_cells() {
        assertThat(SupersededReadings.skipReason(LEGACY, MILLIS, Map.of("default", ScannedRow.NO_CELLS)))
                .isNull();
    }

    @Test
    void should_write_a_legacy_row_over_its_copied_row_changed_by_hand_beside_other_sensors() {
        assertThat(SupersededReadings.skipReason(LEGACY, MILLIS, Map.of("default", BY_HAND, "inside", PIPELINE)))
                .isNull();
    }

    @Test
    void should_skip_a_legacy_row_the_pipeline_wrote_again_under_the_default_sensor_id() {
        assertThat(SupersededReadings.skipReason(LEGACY, MILLIS, Map.of("default", PIPELINE)))
                .contains("the pipeline wrote this reading again under sensor id default");
    }

    @Test
    void should_skip_a_legacy_row_whose_reading_the_target_holds_under_other_sensor_ids() {
        assertThat(SupersededReadings.skipReason(LEGACY, MILLIS, Map.of("outside", PIPELINE, "inside", BY_HAND)))
                .isEqualTo("the target holds this reading under sensor id [inside, outside]");
    }

    @Test
    void should_take_a_target_row_for_the_pipelines_only_with_a_sink_write_time_and_every_value() {
        assertThat(SupersededReadings.pipelineWrite(target(PIPELINE, List.of())))
                .isTrue();
        assertThat(SupersededReadings.pipelineWrite(target(BY_HAND, List.of()))).isFalse();
        assertThat(SupersededReadings.pipelineWrite(target(PIPELINE, List.of("value"))))
                .isFalse();
    }

    private static VerifiedRow target(long writeTime, List<String> nullColumns) {
        HiveTelemetryRow row = new HiveTelemetryRow(
                "h", LocalDate.parse("2026-11-20"), 40, "TEMPERATURE", "default", READING, "gw", 0.0, "degC");
        return new VerifiedRow(ByteBuffer.allocate(0), 1, 1, 1, 1, writeTime, row, nullColumns);
    }
}
