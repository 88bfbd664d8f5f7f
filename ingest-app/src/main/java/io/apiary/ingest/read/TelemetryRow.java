package io.apiary.ingest.read;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of {@code hive_telemetry_v2}: a reading of one sensor of a hive. A row of the legacy
 * {@code hive_telemetry} table (no sensor id) reads with sensor id
 * {@link io.apiary.ingest.identity.Identifiers#DEFAULT_SENSOR_ID}.
 *
 * @param hiveId      the hive (partition-key column {@code hive_id}), not null
 * @param sensorType  the sensor type's name, e.g. {@code TEMPERATURE} (clustering column
 *                    {@code sensor_type}), not null
 * @param sensorId    which sensor of its type, e.g. {@code inside} or {@code default} (clustering
 *                    column {@code sensor_id}), not null
 * @param readingTime when the reading was taken (clustering column {@code reading_time}),
 *                    millisecond precision, not null
 * @param value       the reading, in {@code unit}; null when the cell is null (a row another writer
 *                    or a partial update left without a value), never read as 0; may be NaN or
 *                    infinite
 * @param unit        the unit the gateway sent (e.g. {@code degC}, {@code %RH}), null when it sent none
 * @param gatewayId   the gateway that sent the reading, null if the column is empty
 */
public record TelemetryRow(
        String hiveId,
        String sensorType,
        String sensorId,
        Instant readingTime,
        Double value,
        String unit,
        String gatewayId)
        implements TimedRow {

    /** Checks the non-null fields. */
    public TelemetryRow {
        Objects.requireNonNull(hiveId, "hiveId");
        Objects.requireNonNull(sensorType, "sensorType");
        Objects.requireNonNull(sensorId, "sensorId");
        Objects.requireNonNull(readingTime, "readingTime");
    }

    /** @return whether {@link #value()} is a number to plot or average: not null, not NaN, not infinite */
    public boolean hasFiniteValue() {
        return value != null && Double.isFinite(value);
    }

    @Override
    public Instant time() {
        return readingTime;
    }

    /** @return the sensor type */
    @Override
    public String series() {
        return sensorType;
    }

    /** @return the sensor id */
    @Override
    public String seriesId() {
        return sensorId;
    }
}
