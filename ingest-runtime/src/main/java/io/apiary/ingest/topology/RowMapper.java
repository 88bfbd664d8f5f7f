package io.apiary.ingest.topology;

import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.identity.AlertIds;
import io.apiary.schema.AgentAlert;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.AgentAlertsPartitionKey;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.HourlyActivityState;
import io.apiary.schema.ResultTiming;
import io.apiary.schema.TelemetryReading;
import io.apiary.schema.WeatherReading;
import io.apiary.schema.WeatherReadingRow;
import io.apiary.schema.WeatherReadingsPartitionKey;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.kafka.streams.KeyValue;

/**
 * Pure functions from gateway records to Cassandra rows keyed by their full partition key.
 * One instance per sharded table (hive_telemetry, weather_readings), since each has its own shard
 * count. Thread-safe (immutable).
 *
 * @param shardStrategy how a reading's shard is chosen, not null
 * @param shards        shards per day bucket of the table this mapper writes, at least 1
 */
public record RowMapper(ShardStrategy shardStrategy, int shards) {

    /**
     * The hive_telemetry_v2 row of a reading, keyed by (hive_id, day, shard). The shard does not
     * depend on the sensor id, so all sensors of a type at one instant share a partition.
     *
     * @param reading a reading, not null
     * @return the partition key and the row
     */
    public KeyValue<HiveTelemetryPartitionKey, HiveTelemetryRow> telemetryRow(TelemetryReading reading) {
        long readingTime = reading.getReadingTime().toEpochMilli();
        String sensorType = reading.getSensorType().name();
        LocalDate day = DayBucket.of(readingTime);
        int shard = shardStrategy.shard(reading.getHiveId(), sensorType, readingTime, shards);
        HiveTelemetryRow row = HiveTelemetryRow.newBuilder()
                .setHiveId(reading.getHiveId())
                .setDay(day)
                .setShard(shard)
                .setSensorType(sensorType)
                .setSensorId(reading.getSensorId())
                .setReadingTime(reading.getReadingTime())
                .setGatewayId(reading.getGatewayId())
                .setValue(reading.getValue())
                .setUnit(reading.getUnit())
                .build();
        return KeyValue.pair(new HiveTelemetryPartitionKey(reading.getHiveId(), day, shard), row);
    }

    /**
     * The weather_readings row of a station reading, keyed by (station_id, day, shard). The shard
     * is the shard strategy's function of station id, the constant {@value ShardStrategy#WEATHER_SHARD_SENSOR}
     * in place of a sensor type, and reading time, so a replay lands on the same row.
     *
     * @param reading a valid reading (reading time set), not null
     * @return the partition key and the row; absent measurements stay null
     */
    public KeyValue<WeatherReadingsPartitionKey, WeatherReadingRow> weatherRow(WeatherReading reading) {
        long readingTime = reading.getReadingTime().toEpochMilli();
        LocalDate day = DayBucket.of(readingTime);
        int shard =
                shardStrategy.shard(reading.getStationId(), ShardStrategy.WEATHER_SHARD_SENSOR, readingTime, shards);
        WeatherReadingRow row = WeatherReadingRow.newBuilder()
                .setStationId(reading.getStationId())
                .setDay(day)
                .setShard(shard)
                .setReadingTime(reading.getReadingTime())
                .setTemperatureC(reading.getTemperatureC())
                .setRelativeHumidity(reading.getRelativeHumidity())
                .setPressureHpa(reading.getPressureHpa())
                .setWindSpeedMs(reading.getWindSpeedMs())
                .setWindDirectionDeg(reading.getWindDirectionDeg())
                .setRainfallMm(reading.getRainfallMm())
                .setSolarRadiationWm2(reading.getSolarRadiationWm2())
                .build();
        return KeyValue.pair(new WeatherReadingsPartitionKey(reading.getStationId(), day, shard), row);
    }

    /**
     * The agent_alerts_v2 row of an alert, keyed by (agent_id, day), day being the UTC date of
     * alert_time; its alert_id is the agent's, or derived from the content ({@link AlertIds}).
     *
     * @param alert a valid alert (alert time set), not null
     * @return the partition key and the row; severity as its symbol's name
     */
    public static KeyValue<AgentAlertsPartitionKey, AgentAlertRow> alertRow(AgentAlert alert) {
        LocalDate day = DayBucket.of(alert.getAlertTime().toEpochMilli());
        AgentAlertRow row = AgentAlertRow.newBuilder()
                .setAgentId(alert.getAgentId())
                .setDay(day)
                .setAlertTime(alert.getAlertTime())
                .setAlertId(AlertIds.of(
                        alert.getAlertId(),
                        alert.getHiveId(),
                        alert.getSeverity().name(),
                        alert.getAlertType(),
                        alert.getMessage()))
                .setHiveId(alert.getHiveId())
                .setSeverity(alert.getSeverity().name())
                .setAlertType(alert.getAlertType())
                .setMessage(alert.getMessage())
                .build();
        return KeyValue.pair(new AgentAlertsPartitionKey(alert.getAgentId(), day), row);
    }

    /**
     * The hourly activity of one hive and one UTC hour.
     *
     * @param hiveId    hive id, not null
     * @param hourStart start of the hour, ms since the epoch, a multiple of one hour
     * @param state     the hour's sums, not null; its {@code results} (results published before this
     *                  one) is the result's {@code pane_index}
     * @param timing    when the result is made, not null
     * @return the result, with day and hour of the hour's start and window_end one hour later
     */
    public static HourlyActivity hourlyActivity(
            String hiveId, long hourStart, HourlyActivityState state, ResultTiming timing) {
        return HourlyActivity.newBuilder()
                .setHiveId(hiveId)
                .setDay(DayBucket.of(hourStart))
                .setHour(HourBucket.hourOfDay(hourStart))
                .setWindowStart(Instant.ofEpochMilli(hourStart))
                .setWindowEnd(Instant.ofEpochMilli(hourStart + HourBucket.MILLIS_PER_HOUR))
                .setEntries(state.getEntries())
                .setExits(state.getExits())
                .setSamples(state.getSamples())
                .setRevision(state.getRevision())
                .setTiming(timing)
                .setPaneIndex(state.getResults())
                .build();
    }

    /**
     * The hive_activity row of an hourly result, keyed by its partition key (hive_id).
     *
     * @param activity an hourly result, not null
     * @return the partition key and the row
     */
    public static KeyValue<HiveActivityPartitionKey, HourlyActivity> activityRow(HourlyActivity activity) {
        return KeyValue.pair(new HiveActivityPartitionKey(activity.getHiveId()), activity);
    }
}
