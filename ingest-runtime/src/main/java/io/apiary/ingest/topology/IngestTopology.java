package io.apiary.ingest.topology;

import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.tables.TableCatalog;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.validation.RecordValidator;
import io.apiary.ingest.validation.Rejection;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.HourlyActivityState;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.Stores;

/**
 * The Kafka Streams topology, built by one pure function (no I/O) that the tests reuse.
 *
 * <pre>
 * hive.telemetry.v1 --check--&gt; bucket (UTC day, shard) --&gt; rows.hive_telemetry.v1 (key: hive_id, day, shard)
 * hive.activity.v1  --check--&gt; hourly sums per hive ({@link HourlyActivityProcessor})
 *                                 +--&gt; interim sums, results, corrections --&gt; rows.hive_activity.v1 (key: hive_id)
 *                                 +--&gt; a result per (hive, hour) at close, then corrections --&gt; hive.activity.hourly.v1 (key: hive_id)
 *                                 +--&gt; samples beyond the correction horizon --&gt; hive.activity.late.v1 (key: hive_id)
 * weather.readings.v1 --check--&gt; bucket (UTC day, shard) --&gt; rows.weather_readings.v1 (key: station_id, day, shard)
 * agent.alerts.v1     --check--&gt; bucket (UTC day)        --&gt; rows.agent_alerts.v1 (key: agent_id, day)
 * undecodable or invalid records --&gt; dead letter topic (Streams' exception handlers)
 * </pre>
 * The streams that feed a table's rows are built from the table's spec ({@link BuiltInTables}): its
 * gateway topic, validator, row mapper and row topic. Every gateway stream is checked by its
 * {@link RecordValidator} twice: in its timestamp extractor, so that an invalid record (from the future, too old, key not matching...) cannot move stream time,
 * and in its check step, which throws the rejection to Kafka Streams' processing exception handler
 * and so to the dead letter topic. Every processor, store and internal topic is named, so renaming
 * one is a visible change (the test {@code TopologyDescriptionTest} compares the description with
 * the committed one).
 *
 * <p>The hourly state lives in state stores backed by changelog topics (with Streams' record cache in
 * front, so an hour's many updates within one commit interval reach the changelog once): RocksDB by
 * default, on disk in {@code topology.state.dir} within {@code topology.rocksdb.memory.bytes}, or on the
 * heap with {@code topology.store.type=in_memory}. Each hive holds its close time, and the sums and
 * sample identities of its hours within grace plus correction horizon of it; restoring reads about
 * that much changelog (an in-memory store at every start; RocksDB only the changelog's tail on the
 * same volume). The changelogs use the broker's append time, like the pipeline's topics, so the
 * broker's retention does not delete the state of a replay of old readings. The quiet rule learns
 * whether the input is caught up from {@link TopologySettings#inputLag()}, which the check step of
 * the entrance-counter stream tells of every record it takes.
 */
public final class IngestTopology {

    /** Length of the activity windows. */
    public static final Duration WINDOW = Duration.ofHours(1);
    /** Default TTL of hive_telemetry_v2 (its default_time_to_live in cql/010-hive_telemetry_v2.cql), the default maximum age of readings. */
    public static final Duration TELEMETRY_RETENTION =
            TableCatalog.bundled().table(TableNames.HIVE_TELEMETRY).retention();
    /** Default TTL of hive_activity (its default_time_to_live in cql/020-hive_activity.cql), the default maximum age of samples. */
    public static final Duration ACTIVITY_RETENTION =
            TableCatalog.bundled().table(TableNames.HIVE_ACTIVITY).retention();
    /** Default TTL of weather_readings (its default_time_to_live in cql/030-weather_readings.cql), the default maximum age of readings. */
    public static final Duration WEATHER_RETENTION =
            TableCatalog.bundled().table(TableNames.WEATHER_READINGS).retention();
    /** Default TTL of agent_alerts_v2 (its default_time_to_live in cql/040-agent_alerts_v2.cql), the default maximum age of alerts. */
    public static final Duration ALERTS_RETENTION =
            TableCatalog.bundled().table(TableNames.AGENT_ALERTS).retention();

    private IngestTopology() {}

    /**
     * Builds the topology.
     *
     * @param settings topics, shard strategy, windows and validation limits, not null
     * @return a new topology
     */
    public static Topology build(TopologySettings settings) {
        StreamsBuilder builder = new StreamsBuilder(topologyConfig());
        for (TableSpec<?, ?> table : BuiltInTables.ALL) {
            if (table.input() != null) {
                addRows(builder, settings, table);
            } else if (table == BuiltInTables.ACTIVITY) {
                addHourlyActivity(builder, settings);
            }
        }
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

    /**
     * A gateway topic as a stream of valid records: source {@code <name>-source} with the
     * validating timestamp extractor, then check step {@code <name>-check}, which sends invalid
     * records to the dead letter topic.
     *
     * @param builder   the builder, not null
     * @param source    the gateway topic, not null
     * @param validator its checks, not null
     * @param wallClock the clock of the checks, not null
     * @param name      prefix of the processor names, not null
     * @param <V>       the value type
     * @return the valid records, their timestamps being their event times
     */
    public static <V> KStream<String, V> validatedStream(
            StreamsBuilder builder,
            Topic<String, V> source,
            RecordValidator<V> validator,
            LongSupplier wallClock,
            String name) {
        return validatedStream(builder, source, validator, wallClock, name, null);
    }

    /**
     * As {@link #validatedStream(StreamsBuilder, Topic, RecordValidator, LongSupplier, String)}, with
     * the check step telling {@code progress} of every record it takes (valid or not).
     *
     * @param progress told of each record the check step takes; null for none
     */
    private static <V> KStream<String, V> validatedStream(
            StreamsBuilder builder,
            Topic<String, V> source,
            RecordValidator<V> validator,
            LongSupplier wallClock,
            String name,
            InputLag progress) {
        return builder.stream(
                        source.name(),
                        Consumed.with(source.keySerde(), source.valueSerde())
                                .withTimestampExtractor(new ValidatingTimestampExtractor<>(validator, wallClock))
                                .withName(name + "-source"))
                .processValues(() -> new CheckStep<>(validator, wallClock, progress), Named.as(name + "-check"));
    }

    /**
     * The check step: the validator's verdict, consistent with the timestamp extractor's. The
     * extractor decided at an earlier instant of the wall clock; a record it refused carries the
     * partition's time instead of its event time, and is refused here too, even if the wall clock
     * has since moved far enough to accept it (a record just beyond the future skew), so that no
     * record is ever processed with a time other than its own event time.
     */
    private static final class CheckStep<V> implements FixedKeyProcessor<String, V, V> {

        private final RecordValidator<V> validator;
        private final LongSupplier wallClock;
        private final InputLag progress;
        private FixedKeyProcessorContext<String, V> context;
        private org.apache.kafka.common.TopicPartition partition;

        CheckStep(RecordValidator<V> validator, LongSupplier wallClock, InputLag progress) {
            this.validator = validator;
            this.wallClock = wallClock;
            this.progress = progress;
        }

        @Override
        public void init(FixedKeyProcessorContext<String, V> context) {
            this.context = context;
        }

        @Override
        public void process(FixedKeyRecord<String, V> record) {
            if (progress != null) {
                context.recordMetadata().ifPresent(source -> {
                    if (partition == null
                            || partition.partition() != source.partition()
                            || !partition.topic().equals(source.topic())) {
                        partition = new org.apache.kafka.common.TopicPartition(source.topic(), source.partition());
                    }
                    progress.handled(partition, source.offset());
                });
            }
            Rejection rejection = validator.check(record.key(), record.value(), wallClock.getAsLong());
            if (rejection == null && record.timestamp() != validator.eventTime(record.value())) {
                rejection = new Rejection(
                        RejectReason.FUTURE_TIMESTAMP,
                        "event time "
                                + java.time.Instant.ofEpochMilli(validator.eventTime(record.value()))
                                + " was too far ahead of the receiver's clock when the record was received");
            }
            if (rejection != null) {
                throw rejection.toException();
            }
            context.forward(record);
        }
    }

    private static <K, R extends org.apache.avro.generic.IndexedRecord> void addRows(
            StreamsBuilder builder, TopologySettings settings, TableSpec<K, R> table) {
        addRows(builder, settings, table.input(), table.rowTopic().apply(settings.topics()));
    }

    /**
     * A table's rows from its gateway topic: the validated stream {@code <name>}, mapped to rows in
     * {@code <name>-bucket}, written to the row topic by {@code <name>-rows-sink}.
     */
    private static <I, K, R> void addRows(
            StreamsBuilder builder, TopologySettings settings, TableSpec.Input<I, K, R> input, Topic<K, R> rows) {
        Function<I, KeyValue<K, R>> mapper = input.mapper().apply(settings);
        validatedStream(
                        builder,
                        input.topic().apply(settings.topics()),
                        input.validator().apply(settings),
                        settings.wallClock(),
                        input.name())
                .map((id, value) -> mapper.apply(value), Named.as(input.name() + "-bucket"))
                .to(
                        rows.name(),
                        Produced.with(rows.keySerde(), rows.valueSerde()).withName(input.name() + "-rows-sink"));
    }

    /** A key-value store of the configured type; RocksDB memory is bounded by {@link BoundedRocksDbMemory}. */
    private static org.apache.kafka.streams.state.KeyValueBytesStoreSupplier storeSupplier(
            TopologySettings settings, String name) {
        return settings.storeType() == TopologySettings.StoreType.ROCKSDB
                ? Stores.persistentKeyValueStore(name)
                : Stores.inMemoryKeyValueStore(name);
    }

    private static void addHourlyActivity(StreamsBuilder builder, TopologySettings settings) {
        Topics topics = settings.topics();
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        storeSupplier(settings, HourlyActivityProcessor.HIVES_STORE),
                        Serdes.String(),
                        Serdes.ByteArray())
                .withCachingEnabled()
                .withLoggingEnabled(Topics.TOPIC_CONFIGS));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        storeSupplier(settings, HourlyActivityProcessor.HOURS_STORE),
                        Serdes.Bytes(),
                        AvroSingleObjectSerde.of(HourlyActivityState.class))
                .withCachingEnabled()
                .withLoggingEnabled(Topics.TOPIC_CONFIGS));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        storeSupplier(settings, HourlyActivityProcessor.SAMPLES_STORE),
                        Serdes.Bytes(),
                        Serdes.ByteArray())
                .withCachingEnabled()
                .withLoggingEnabled(Topics.TOPIC_CONFIGS));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                        storeSupplier(settings, HourlyActivityProcessor.CORRECTIONS_STORE),
                        Serdes.Bytes(),
                        Serdes.ByteArray())
                .withCachingEnabled()
                .withLoggingEnabled(Topics.TOPIC_CONFIGS));

        Duration grace = settings.grace();
        Duration idleTimeout = settings.idleTimeout();
        Duration updateInterval = settings.updateInterval();
        Duration horizon = settings.correctionHorizon();
        InputLag inputLag = settings.inputLag();
        String input = topics.entranceCounts();
        KStream<String, ActivityOutput> outputs = validatedStream(
                        builder,
                        topics.entranceCountsTopic(),
                        settings.entranceCountValidator(),
                        settings.wallClock(),
                        "entrance-counts",
                        inputLag)
                .process(
                        () -> new HourlyActivityProcessor(grace, idleTimeout, updateInterval, horizon, inputLag, input),
                        Named.as("hourly-activity-aggregate"),
                        HourlyActivityProcessor.HIVES_STORE,
                        HourlyActivityProcessor.HOURS_STORE,
                        HourlyActivityProcessor.SAMPLES_STORE,
                        HourlyActivityProcessor.CORRECTIONS_STORE);

        Topic<HiveActivityPartitionKey, HourlyActivity> rows = topics.activityRowsTopic();
        outputs.filter((hive, out) -> !(out instanceof ActivityOutput.Late), Named.as("hourly-activity-updates"))
                .map((hive, out) -> RowMapper.activityRow(sums(out)), Named.as("hourly-activity-to-row"))
                .to(
                        rows.name(),
                        Produced.with(rows.keySerde(), rows.valueSerde()).withName("activity-rows-sink"));

        Topic<String, HourlyActivity> results = topics.hourlyActivityTopic();
        outputs.filter((hive, out) -> out instanceof ActivityOutput.Final, Named.as("hourly-activity-final"))
                .mapValues(IngestTopology::sums, Named.as("hourly-activity-to-result"))
                .to(
                        results.name(),
                        Produced.with(results.keySerde(), results.valueSerde()).withName("hourly-activity-sink"));

        Topic<String, EntranceCount> late = topics.activityLateTopic();
        outputs.filter((hive, out) -> out instanceof ActivityOutput.Late, Named.as("entrance-counts-late"))
                .mapValues(out -> ((ActivityOutput.Late) out).sample(), Named.as("entrance-counts-late-sample"))
                .to(
                        late.name(),
                        Produced.with(late.keySerde(), late.valueSerde()).withName("entrance-counts-late-sink"));
    }

    private static HourlyActivity sums(ActivityOutput out) {
        if (out instanceof ActivityOutput.Interim interim) {
            return interim.activity();
        }
        return ((ActivityOutput.Final) out).activity();
    }
}
