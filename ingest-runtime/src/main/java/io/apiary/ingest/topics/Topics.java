package io.apiary.ingest.topics;

import io.apiary.ingest.serde.SchemaSubjects;
import io.apiary.ingest.serde.StrictUtf8Deserializer;
import io.apiary.ingest.serde.WireFormat;
import io.apiary.schema.AgentAlert;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.AgentAlertsPartitionKey;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.TelemetryReading;
import io.apiary.schema.WeatherReading;
import io.apiary.schema.WeatherReadingRow;
import io.apiary.schema.WeatherReadingsPartitionKey;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The topics of the pipeline, with their contract names (docs/gateway-developers.md) as defaults, and the wire
 * format of their Avro keys and values. Names can be changed by configuration ({@code topic.*}),
 * the framing by {@code wire.format.*} (see {@link WireFormat}); key and value types cannot.
 *
 * <p>Immutable and thread-safe.
 *
 * @param telemetry      gateway readings; key hive id (UTF-8), value {@link TelemetryReading}
 * @param entranceCounts gateway entrance-counter samples; key hive id, value {@link EntranceCount}
 * @param hourlyActivity final hourly results for analysts; key hive id, value {@link HourlyActivity}
 * @param telemetryRows  rows of hive_telemetry; key {@link HiveTelemetryPartitionKey}, value {@link HiveTelemetryRow}
 * @param activityRows   rows of hive_activity; key {@link HiveActivityPartitionKey}, value {@link HourlyActivity}
 * @param deadLetter     records that could not be processed, with headers naming stage and reason;
 *                       key and value are the original bytes
 * @param activityLate   entrance-counter samples that arrived after their hour closed; key hive id,
 *                       value the original {@link EntranceCount}
 * @param weather        weather station readings; key station id (UTF-8), value {@link WeatherReading}
 * @param alerts         agent alerts; key agent id (UTF-8), value {@link AgentAlert}
 * @param weatherRows    rows of weather_readings; key {@link WeatherReadingsPartitionKey}
 *                       (station_id, day, shard), value {@link WeatherReadingRow}
 * @param alertRows      rows of agent_alerts; key {@link AgentAlertsPartitionKey} (agent_id, day),
 *                       value {@link AgentAlertRow}
 * @param format         how Avro keys and values are framed (registry framing or single-object
 *                       encoding), built when first needed (so that commands which only use the
 *                       names need no registry settings); not null, and so is what it supplies
 */
public record Topics(
        String telemetry,
        String entranceCounts,
        String hourlyActivity,
        String telemetryRows,
        String activityRows,
        String deadLetter,
        String activityLate,
        String weather,
        String alerts,
        String weatherRows,
        String alertRows,
        java.util.function.Supplier<WireFormat> format) {

    /**
     * Configs of every topic the pipeline creates (its own and Kafka Streams' changelogs). Records carry event times that can be years old
     * (replays of history); with the default CreateTime, the broker's time-based retention would
     * delete them minutes after they arrive, before the topology or the sink has read them. The
     * broker's append time keeps retention about arrival; event time travels in the value.
     */
    public static final java.util.Map<String, String> TOPIC_CONFIGS =
            java.util.Map.of(org.apache.kafka.common.config.TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");

    /** Checks that no component is null. */
    public Topics {
        java.util.Objects.requireNonNull(format, "format");
    }

    /**
     * @return the wire format (built on the first call when it comes from a configuration)
     * @throws org.apache.kafka.common.config.ConfigException if the configuration's registry
     *         settings are missing or invalid
     */
    public WireFormat wireFormat() {
        return java.util.Objects.requireNonNull(format.get(), "wire format");
    }

    /** Contract name of the gateway telemetry topic. */
    public static final String TELEMETRY = "hive.telemetry.v1";
    /** Contract name of the gateway entrance-counter topic. */
    public static final String ENTRANCE_COUNTS = "hive.activity.v1";
    /** Contract name of the final hourly activity topic. */
    public static final String HOURLY_ACTIVITY = "hive.activity.hourly.v1";
    /** Contract name of the hive_telemetry row topic. */
    public static final String TELEMETRY_ROWS = "rows.hive_telemetry.v1";
    /** Contract name of the hive_activity row topic. */
    public static final String ACTIVITY_ROWS = "rows.hive_activity.v1";
    /** Contract name of the dead letter topic. */
    public static final String DEAD_LETTER = "ingest.dead-letter.v1";
    /** Contract name of the late entrance-counter samples topic. */
    public static final String ACTIVITY_LATE = "hive.activity.late.v1";
    /** Contract name of the weather station readings topic. */
    public static final String WEATHER = "weather.readings.v1";
    /** Contract name of the agent alerts topic. */
    public static final String ALERTS = "agent.alerts.v1";
    /** Contract name of the weather_readings row topic. */
    public static final String WEATHER_ROWS = "rows.weather_readings.v1";
    /** Contract name of the agent_alerts row topic. */
    public static final String ALERT_ROWS = "rows.agent_alerts.v1";

    /** Serde of the UTF-8 ids that key the gateway topics (hive, station or agent id). */
    /** Ids as keys: UTF-8 text, and bytes that are not valid UTF-8 are refused when read. */
    private static final Serde<String> HIVE_ID = Serdes.serdeFrom(new StringSerializer(), new StrictUtf8Deserializer());

    /** @return the contract names, in single-object encoding without a registry */
    public static Topics defaults() {
        return new Topics(
                TELEMETRY,
                ENTRANCE_COUNTS,
                HOURLY_ACTIVITY,
                TELEMETRY_ROWS,
                ACTIVITY_ROWS,
                DEAD_LETTER,
                ACTIVITY_LATE,
                WEATHER,
                ALERTS,
                WEATHER_ROWS,
                ALERT_ROWS,
                WireFormat::singleObject);
    }

    /**
     * @param format the wire format, not null
     * @return these topic names in that format
     */
    public Topics withWireFormat(WireFormat format) {
        return new Topics(
                telemetry,
                entranceCounts,
                hourlyActivity,
                telemetryRows,
                activityRows,
                deadLetter,
                activityLate,
                weather,
                alerts,
                weatherRows,
                alertRows,
                () -> format);
    }

    /**
     * @return every Avro subject of the pipeline's topics (by Kafka's topic naming), gateway
     *         topics first: what {@code registry register} registers
     */
    public List<SchemaSubjects.Subject> avroSubjects() {
        return List.of(
                new SchemaSubjects.Subject(telemetry, false, TelemetryReading.class),
                new SchemaSubjects.Subject(entranceCounts, false, EntranceCount.class),
                new SchemaSubjects.Subject(weather, false, WeatherReading.class),
                new SchemaSubjects.Subject(alerts, false, AgentAlert.class),
                new SchemaSubjects.Subject(hourlyActivity, false, HourlyActivity.class),
                new SchemaSubjects.Subject(activityLate, false, EntranceCount.class),
                new SchemaSubjects.Subject(telemetryRows, true, HiveTelemetryPartitionKey.class),
                new SchemaSubjects.Subject(telemetryRows, false, HiveTelemetryRow.class),
                new SchemaSubjects.Subject(activityRows, true, HiveActivityPartitionKey.class),
                new SchemaSubjects.Subject(activityRows, false, HourlyActivity.class),
                new SchemaSubjects.Subject(weatherRows, true, WeatherReadingsPartitionKey.class),
                new SchemaSubjects.Subject(weatherRows, false, WeatherReadingRow.class),
                new SchemaSubjects.Subject(alertRows, true, AgentAlertsPartitionKey.class),
                new SchemaSubjects.Subject(alertRows, false, AgentAlertRow.class));
    }

    /** @return every topic of the pipeline, gateway topics first */
    public List<String> all() {
        return List.of(
                telemetry,
                entranceCounts,
                weather,
                alerts,
                hourlyActivity,
                activityLate,
                telemetryRows,
                activityRows,
                weatherRows,
                alertRows,
                deadLetter);
    }

    /** @return the row topics the sink consumes */
    public List<String> rowTopics() {
        return List.of(telemetryRows, activityRows, weatherRows, alertRows);
    }

    /** @return the late entrance-counter samples topic (key hive id, value the original sample) */
    public Topic<String, EntranceCount> activityLateTopic() {
        return new Topic<>(activityLate, HIVE_ID, wireFormat().serde(EntranceCount.class, false));
    }

    /** @return the gateway telemetry topic */
    public Topic<String, TelemetryReading> telemetryTopic() {
        return new Topic<>(telemetry, HIVE_ID, wireFormat().serde(TelemetryReading.class, false));
    }

    /** @return the gateway entrance-counter topic */
    public Topic<String, EntranceCount> entranceCountsTopic() {
        return new Topic<>(entranceCounts, HIVE_ID, wireFormat().serde(EntranceCount.class, false));
    }

    /** @return the final hourly activity topic */
    public Topic<String, HourlyActivity> hourlyActivityTopic() {
        return new Topic<>(hourlyActivity, HIVE_ID, wireFormat().serde(HourlyActivity.class, false));
    }

    /** @return the hive_telemetry row topic */
    public Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> telemetryRowsTopic() {
        return new Topic<>(
                telemetryRows,
                wireFormat().serde(HiveTelemetryPartitionKey.class, true),
                wireFormat().serde(HiveTelemetryRow.class, false));
    }

    /** @return the hive_activity row topic */
    public Topic<HiveActivityPartitionKey, HourlyActivity> activityRowsTopic() {
        return new Topic<>(
                activityRows,
                wireFormat().serde(HiveActivityPartitionKey.class, true),
                wireFormat().serde(HourlyActivity.class, false));
    }

    /** @return the gateway weather station readings topic (key station id, UTF-8) */
    public Topic<String, WeatherReading> weatherTopic() {
        return new Topic<>(weather, HIVE_ID, wireFormat().serde(WeatherReading.class, false));
    }

    /** @return the gateway agent alerts topic (key agent id, UTF-8) */
    public Topic<String, AgentAlert> alertsTopic() {
        return new Topic<>(alerts, HIVE_ID, wireFormat().serde(AgentAlert.class, false));
    }

    /** @return the weather_readings row topic */
    public Topic<WeatherReadingsPartitionKey, WeatherReadingRow> weatherRowsTopic() {
        return new Topic<>(
                weatherRows,
                wireFormat().serde(WeatherReadingsPartitionKey.class, true),
                wireFormat().serde(WeatherReadingRow.class, false));
    }

    /** @return the agent_alerts row topic */
    public Topic<AgentAlertsPartitionKey, AgentAlertRow> alertRowsTopic() {
        return new Topic<>(
                alertRows,
                wireFormat().serde(AgentAlertsPartitionKey.class, true),
                wireFormat().serde(AgentAlertRow.class, false));
    }
}
