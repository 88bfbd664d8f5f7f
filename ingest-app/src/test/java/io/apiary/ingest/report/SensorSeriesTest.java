package io.apiary.ingest.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.read.TelemetryRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SensorSeriesTest {

    private static final long DAY = 86_400_000L;
    private static final Instant START = Instant.parse("2021-07-12T00:00:00Z");

    @Test
    void should_pick_the_shortest_listed_width_giving_at_most_the_bucket_cap_when_sizing_buckets() {
        // When / Then: one day / 1,000 = 86.4 s, a week / 1,000 = 10.1 min, a year / 1,000 = 8.8 h
        assertThat(SensorSeries.bucketWidth(DAY)).isEqualTo(2 * 60_000L);
        assertThat(SensorSeries.bucketWidth(7 * DAY)).isEqualTo(15 * 60_000L);
        assertThat(SensorSeries.bucketWidth(365 * DAY)).isEqualTo(12 * 3_600_000L);
        assertThat(SensorSeries.bucketWidth(1_000 * 60_000L)).isEqualTo(60_000L);
    }

    @Test
    void should_keep_one_segment_when_readings_share_times() {
        // Given: pairs of readings at the same time, 10 minutes apart
        List<TelemetryRow> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(new TelemetryRow("h", "S", "default", START.plusSeconds(600L * (i / 2)), (double) i, "C", null));
        }

        // When
        SensorSeries series = SensorSeries.of("S", "default", 1, rows, DAY);

        // Then
        assertThat(series.segments()).hasSize(1);
        assertThat(series.segments().get(0)).hasSize(20);
    }

    @Test
    void should_leave_out_non_finite_values_and_count_them_when_plotting() {
        // Given
        List<TelemetryRow> rows = List.of(
                new TelemetryRow("h", "S", "default", START, 1.0, "C", null),
                new TelemetryRow("h", "S", "default", START.plusSeconds(60), Double.NaN, "C", null),
                new TelemetryRow("h", "S", "default", START.plusSeconds(120), Double.POSITIVE_INFINITY, "C", null));

        // When
        SensorSeries series = SensorSeries.of("S", "default", 1, rows, DAY);

        // Then
        assertThat(series.points()).hasSize(1);
        assertThat(series.unplotted()).isEqualTo(2);
        assertThat(series.readings()).hasSize(3);
    }

    @Test
    void should_call_units_mixed_when_some_readings_have_none() {
        // Given
        List<TelemetryRow> rows = List.of(
                new TelemetryRow("h", "S", "default", START, 1.0, "C", null),
                new TelemetryRow("h", "S", "default", START.plusSeconds(60), 2.0, null, null));

        // When
        SensorSeries series = SensorSeries.of("S", "default", 1, rows, DAY);

        // Then
        assertThat(series.mixedUnits()).isTrue();
        assertThat(series.unitLabel()).isEqualTo("C");
    }
}
