package io.apiary.ingest.topology;

import java.time.Instant;
import java.time.LocalDate;

import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.HourlyActivityState;
import io.apiary.schema.TelemetryReading;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Window;

/**
 * Pure functions from gateway records to Cassandra rows keyed by their full partition key.
 * Thread-safe (immutable).
 *
 * @param shardStrategy how a reading's shard is chosen, not null
 * @param shards        shards per day bucket of hive_telemetry, at least 1
 */
public record RowMapper(ShardStrategy shardStrategy, int shards) {

    /**
     * The hive_telemetry row of a reading, keyed by (hive_id, day, shard).
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
                .setReadingTime(reading.getReadingTime())
                .setGatewayId(reading.getGatewayId())
                .setValue(reading.getValue())
                .setUnit(reading.getUnit())
                .build();
        return KeyValue.pair(new HiveTelemetryPartitionKey(reading.getHiveId(), day, shard), row);
    }

    /**
     * The hourly activity of one hive and one window.
     *
     * @param hiveId hive id, not null
     * @param window a one-hour window aligned to UTC hours, not null
     * @param state  the window's sums, not null
     * @return the result, with day and hour of the window's start
     */
    public static HourlyActivity hourlyActivity(String hiveId, Window window, HourlyActivityState state) {
        return HourlyActivity.newBuilder()
                .setHiveId(hiveId)
                .setDay(DayBucket.of(window.start()))
                .setHour(HourBucket.hourOfDay(window.start()))
                .setWindowStart(Instant.ofEpochMilli(window.start()))
                .setWindowEnd(Instant.ofEpochMilli(window.end()))
                .setEntries(state.getEntries())
                .setExits(state.getExits())
                .setSamples(state.getSamples())
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
