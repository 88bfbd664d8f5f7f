package io.apiary.ingest.topology;

import java.time.Duration;
import java.util.Map;

import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.deadletter.RejectedRecordException;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.HourlyActivityState;
import io.apiary.schema.TelemetryReading;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.Stores;

/**
 * The Kafka Streams topology, built by one pure function (no I/O) that the tests reuse.
 *
 * <pre>
 * hive.telemetry.v1 --check--&gt; bucket (UTC day, shard) --&gt; rows.hive_telemetry.v1 (key: hive_id, day, shard)
 * hive.activity.v1  --check--&gt; 1 h tumbling event-time windows (grace) sum per hive
 *                                 +--&gt; every update --&gt; rows.hive_activity.v1 (key: hive_id)
 *                                 +--&gt; once closed  --&gt; hive.activity.hourly.v1 (key: hive_id)
 * undecodable or invalid records --&gt; dead letter topic (Streams' exception handlers)
 * </pre>
 * Every processor, store and internal topic is named, so renaming one is a visible change.
 *
 * <p>The open hours live in an in-memory window store (backed by its changelog topic), not in
 * RocksDB: each hive holds at most two open hours of three numbers, a few MB for 10,000 hives,
 * and a persistent segmented store opens and closes a RocksDB instance every half hour of stream
 * time, which made replays of history (months of readings in minutes) crawl and pushed
 * transactions past their timeout. Restoring it after a restart reads at most window + grace of
 * changelog. Its changelog uses the broker's append time, like the pipeline's topics, so the
 * broker's retention does not delete the state of a replay of old readings.
 */
public final class IngestTopology {

    /** Length of the activity windows. */
    public static final Duration WINDOW = Duration.ofHours(1);
    /**
     * Longest key, hive id or gateway id accepted, in characters. Under exactly-once, an output
     * record too large for Kafka cannot be skipped (the failed send aborts the whole transaction),
     * so the topology bounds its inputs' text instead: with these limits every output record stays
     * under a few kilobytes.
     */
    public static final int MAX_ID_CHARS = 200;
    /** Longest unit accepted, in characters. */
    public static final int MAX_UNIT_CHARS = 32;
    /** Name of the window store holding each hive's open hour. */
    public static final String ACTIVITY_STORE = "hourly-activity-store";

    private IngestTopology() {
    }

    /**
     * Builds the topology.
     *
     * @param settings topics, shard strategy and grace period, not null
     * @return a new topology
     */
    public static Topology build(TopologySettings settings) {
        Topics topics = settings.topics();
        StreamsBuilder builder = new StreamsBuilder(topologyConfig());
        addTelemetry(builder, topics, new RowMapper(settings.shardStrategy(), settings.shards()));
        addHourlyActivity(builder, topics, settings.grace());
        return builder.build();
    }

    /**
     * The builder's own settings. Only topology-level options matter here; the application id
     * and servers are placeholders (the real ones reach {@code KafkaStreams}), and the global
     * processing handler flag matches {@code StreamsProperties}, so the builder does not warn.
     */
    private static TopologyConfig topologyConfig() {
        return new TopologyConfig(new StreamsConfig(Map.of(
                StreamsConfig.APPLICATION_ID_CONFIG, "apiary-ingest-topology",
                StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092",
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true)));
    }

    private static void addTelemetry(StreamsBuilder builder, Topics topics, RowMapper rows) {
        Topic<String, TelemetryReading> source = topics.telemetryTopic();
        Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> sink = topics.telemetryRowsTopic();
        builder.stream(source.name(), Consumed.with(source.keySerde(), source.valueSerde())
                        .withTimestampExtractor(new EventTimeExtractor())
                        .withName("telemetry-source"))
                .mapValues(IngestTopology::checkPresent, Named.as("telemetry-check"))
                .map((hiveId, reading) -> rows.telemetryRow(reading), Named.as("telemetry-bucket"))
                .to(sink.name(), Produced.with(sink.keySerde(), sink.valueSerde()).withName("telemetry-rows-sink"));
    }

    private static void addHourlyActivity(StreamsBuilder builder, Topics topics, Duration grace) {
        Topic<String, EntranceCount> source = topics.entranceCountsTopic();
        AvroSingleObjectSerde<HourlyActivityState> stateSerde = AvroSingleObjectSerde.of(HourlyActivityState.class);

        KTable<Windowed<String>, HourlyActivityState> hourly = builder
                .stream(source.name(), Consumed.with(source.keySerde(), source.valueSerde())
                        .withTimestampExtractor(new EventTimeExtractor())
                        .withName("entrance-counts-source"))
                .mapValues(IngestTopology::checkPresent, Named.as("entrance-counts-check"))
                .groupByKey(Grouped.with("entrance-counts-by-hive", Serdes.String(), source.valueSerde()))
                .windowedBy(TimeWindows.ofSizeAndGrace(WINDOW, grace))
                .aggregate(() -> new HourlyActivityState(0L, 0L, 0),
                        (hiveId, sample, state) -> new HourlyActivityState(
                                state.getEntries() + sample.getBeesIn(),
                                state.getExits() + sample.getBeesOut(),
                                state.getSamples() + 1),
                        Named.as("hourly-activity-aggregate"),
                        Materialized.<String, HourlyActivityState>as(
                                        Stores.inMemoryWindowStore(ACTIVITY_STORE, WINDOW.plus(grace), WINDOW, false))
                                .withKeySerde(Serdes.String())
                                .withValueSerde(stateSerde)
                                .withLoggingEnabled(TopicProvisioner.TOPIC_CONFIGS));

        Topic<HiveActivityPartitionKey, HourlyActivity> rows = topics.activityRowsTopic();
        hourly.toStream(Named.as("hourly-activity-updates"))
                .map((window, state) -> RowMapper.activityRow(
                                RowMapper.hourlyActivity(window.key(), window.window(), state)),
                        Named.as("hourly-activity-to-row"))
                .to(rows.name(), Produced.with(rows.keySerde(), rows.valueSerde()).withName("activity-rows-sink"));

        Topic<String, HourlyActivity> results = topics.hourlyActivityTopic();
        hourly.suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded())
                        .withName("hourly-activity-final"))
                .toStream(Named.as("hourly-activity-closed"))
                .map((window, state) -> KeyValue.pair(window.key(),
                                RowMapper.hourlyActivity(window.key(), window.window(), state)),
                        Named.as("hourly-activity-to-result"))
                .to(results.name(), Produced.with(results.keySerde(), results.valueSerde())
                        .withName("hourly-activity-sink"));
    }

    private static void checkLength(String field, String text, int max) {
        if (text != null && text.length() > max) {
            throw new RejectedRecordException(RejectReason.FIELD_TOO_LONG, field + " is " + text.length()
                    + " characters long; at most " + max + " are accepted");
        }
    }

    private static <V> V checkPresent(String key, V value) {
        if (key == null || key.isEmpty()) {
            throw new RejectedRecordException(RejectReason.NULL_KEY,
                    "Record has no key; gateway topics are keyed by the hive id (UTF-8)");
        }
        if (value == null) {
            throw new RejectedRecordException(RejectReason.NULL_VALUE,
                    "Record for key '" + key + "' has no value (tombstone); gateway topics carry Avro records");
        }
        checkLength("key", key, MAX_ID_CHARS);
        if (value instanceof TelemetryReading reading) {
            checkLength("hive_id", reading.getHiveId(), MAX_ID_CHARS);
            checkLength("gateway_id", reading.getGatewayId(), MAX_ID_CHARS);
            checkLength("unit", reading.getUnit(), MAX_UNIT_CHARS);
        } else if (value instanceof EntranceCount count) {
            checkLength("hive_id", count.getHiveId(), MAX_ID_CHARS);
            checkLength("gateway_id", count.getGatewayId(), MAX_ID_CHARS);
        }
        long eventTime = EventTimeExtractor.eventTime(value);
        if (!EventTimeExtractor.isUsable(eventTime)) {
            throw new RejectedRecordException(RejectReason.INVALID_TIMESTAMP, "Event time " + eventTime
                    + " ms of the record for key '" + key + "' is not after 1970-01-01T00:00:00Z and before year 10000");
        }
        return value;
    }
}
