package io.apiary.ingest.pipeline;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterExceptionHandlers;
import io.apiary.ingest.topology.BoundedRocksDbMemory;
import io.apiary.ingest.topology.InputProgress;
import io.apiary.ingest.topology.StateStoreOptions;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka Streams settings of the topology: client settings ({@code kafka.*}), the
 * application id, state folder and processing guarantee, the dead letter handlers (undecodable
 * records through {@link InputProgress.DeserializationFailures}), RocksDB's
 * memory bound ({@link BoundedRocksDbMemory}), the main consumers' static membership
 * ({@link GroupMembership}), task idling off (each task reads one partition), then any
 * {@code streams.*} override. Thread-safe (stateless).
 */
public final class StreamsProperties {

    private StreamsProperties() {}

    /**
     * @param config the configuration, not null
     * @return new properties for {@link org.apache.kafka.streams.KafkaStreams}
     */
    public static Properties from(IngestConfig config) {
        Properties props = new Properties();
        props.putAll(config.kafkaClientSettings());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID));
        props.put(StreamsConfig.STATE_DIR_CONFIG, config.getString(IngestConfig.TOPOLOGY_STATE_DIR));
        props.put(
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                config.getString(IngestConfig.TOPOLOGY_PROCESSING_GUARANTEE));
        props.put(
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                InputProgress.DeserializationFailures.class.getName());
        props.put(
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterExceptionHandlers.Processing.class.getName());
        props.put(
                StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterExceptionHandlers.Production.class.getName());
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        props.put(
                StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG,
                config.topics().deadLetter());
        props.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 10);
        // Every task of the topology reads one input partition, so there is no other partition to wait for and
        // idling decides nothing; disabled, Kafka Streams also skips the check (and the trace message it formats
        // whether tracing is on or not) that it makes of each idle task on every loop.
        props.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDbMemory.class.getName());
        // read by BoundedRocksDbMemory from the configs Kafka Streams hands it
        props.put(
                StateStoreOptions.TOPOLOGY_ROCKSDB_MEMORY_BYTES,
                config.getLong(StateStoreOptions.TOPOLOGY_ROCKSDB_MEMORY_BYTES));
        props.put(
                StateStoreOptions.TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO,
                config.getDouble(StateStoreOptions.TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO));
        GroupMembership.applyToStreams(props, config);
        props.putAll(config.passThrough(IngestConfig.STREAMS_PREFIX));
        return props;
    }
}
