package io.apiary.benchspark;

import io.apiary.schema.HiveTelemetryRow;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;

/**
 * One hive_telemetry_v2 row as a Java bean, the shape Spark's bean encoder maps to a Dataset
 * column each property ({@code day} a date, {@code readingTime} a timestamp). Mutable, not
 * thread-safe: made and read by one Spark task.
 */
public final class TelemetryRowBean implements Serializable {

    private static final long serialVersionUID = 1L;

    private String hiveId;
    private LocalDate day;
    private int shard;
    private String sensorType;
    private String sensorId;
    private Instant readingTime;
    private String gatewayId;
    private double value;
    private String unit;

    /** An empty row, for the encoder. */
    public TelemetryRowBean() {}

    /**
     * @param row a decoded row topic value, not null
     * @return its columns
     */
    static TelemetryRowBean of(HiveTelemetryRow row) {
        TelemetryRowBean bean = new TelemetryRowBean();
        bean.hiveId = row.getHiveId();
        bean.day = row.getDay();
        bean.shard = row.getShard();
        bean.sensorType = row.getSensorType();
        bean.sensorId = row.getSensorId();
        bean.readingTime = row.getReadingTime();
        bean.gatewayId = row.getGatewayId();
        bean.value = row.getValue();
        bean.unit = row.getUnit();
        return bean;
    }

    /** @return hive_id */
    public String getHiveId() {
        return hiveId;
    }

    /** @param hiveId hive_id */
    public void setHiveId(String hiveId) {
        this.hiveId = hiveId;
    }

    /** @return day, the UTC date of the reading */
    public LocalDate getDay() {
        return day;
    }

    /** @param day day */
    public void setDay(LocalDate day) {
        this.day = day;
    }

    /** @return shard */
    public int getShard() {
        return shard;
    }

    /** @param shard shard */
    public void setShard(int shard) {
        this.shard = shard;
    }

    /** @return sensor_type */
    public String getSensorType() {
        return sensorType;
    }

    /** @param sensorType sensor_type */
    public void setSensorType(String sensorType) {
        this.sensorType = sensorType;
    }

    /** @return sensor_id */
    public String getSensorId() {
        return sensorId;
    }

    /** @param sensorId sensor_id */
    public void setSensorId(String sensorId) {
        this.sensorId = sensorId;
    }

    /** @return reading_time */
    public Instant getReadingTime() {
        return readingTime;
    }

    /** @param readingTime reading_time */
    public void setReadingTime(Instant readingTime) {
        this.readingTime = readingTime;
    }

    /** @return gateway_id */
    public String getGatewayId() {
        return gatewayId;
    }

    /** @param gatewayId gateway_id */
    public void setGatewayId(String gatewayId) {
        this.gatewayId = gatewayId;
    }

    /** @return value */
    public double getValue() {
        return value;
    }

    /** @param value value */
    public void setValue(double value) {
        this.value = value;
    }

    /** @return unit, may be null */
    public String getUnit() {
        return unit;
    }

    /** @param unit unit */
    public void setUnit(String unit) {
        this.unit = unit;
    }
}
