package io.apiary.ingest.read;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of {@code hive_telemetry}: a sensor reading of a hive.
 *
 * @param hiveId      the hive (partition-key column {@code hive_id}), not null
 * @param sensorType  the sensor type's name, e.g. {@code TEMPERATURE} (clustering column
 *                    {@code sensor_type}), not null
 * @param readingTime when the reading was taken (clustering column {@code reading_time}),
 *                    millisecond precision, not null
 * @param value       the reading, in {@code unit}
 * @param unit        the unit the gateway sent (e.g. {@code C}, {@code %}), null when it sent none
 * @param gatewayId   the gateway that sent the reading, null if the column is empty
 */
public record TelemetryRow(String hiveId, String sensorType, Instant readingTime, double value, String unit,
        String gatewayId) implements TimedRow {

    /** Checks the non-null fields. */
    public TelemetryRow {
        Objects.requireNonNull(hiveId, "hiveId");
        Objects.requireNonNull(sensorType, "sensorType");
        Objects.requireNonNull(readingTime, "readingTime");
    }

    @Override
    public Instant time() {
        return readingTime;
    }

    @Override
    public String series() {
        return sensorType;
    }
}
