package io.apiary.ingest.read;

import java.time.Instant;
import java.time.LocalDate;

/** Rows of each type for the output tests, with some null columns. */
final class OutputRows {

    static final Instant TIME = Instant.parse("2021-07-15T17:00:00Z");

    static final TelemetryRow TELEMETRY = new TelemetryRow("3627", "TEMPERATURE", "inside", TIME, 21.5, "C", null);
    static final ActivityRow ACTIVITY = new ActivityRow("3627", LocalDate.of(2021, 7, 15), 17, 1200L, 1150L, 60);
    static final WeatherRow WEATHER = new WeatherRow("YUL", TIME, 24.25, null, 1013.2, 3.0, null, 0.0, 812.5);
    /** Numbers whose cells are null, each beside a real 0. */
    static final TelemetryRow TELEMETRY_NULL = new TelemetryRow("3627", "TEMPERATURE", "inside", TIME, null, "C", "gw");

    static final TelemetryRow TELEMETRY_ZERO = new TelemetryRow("3627", "TEMPERATURE", "inside", TIME, 0.0, "C", "gw");
    static final ActivityRow ACTIVITY_NULLS = new ActivityRow("3627", LocalDate.of(2021, 7, 15), 17, null, 0L, null);
    static final ActivityRow ACTIVITY_ZEROS = new ActivityRow("3627", LocalDate.of(2021, 7, 15), 18, 0L, null, 0);
    static final AlertRow ALERT =
            new AlertRow("agent-1", TIME, "a-17", null, "WARNING", "SWARMING_SUSPECTED", "weight dropped by 1.2 kg");

    private OutputRows() {}
}
