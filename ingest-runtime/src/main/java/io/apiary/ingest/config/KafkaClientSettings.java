package io.apiary.ingest.config;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The names of the Kafka clients' own settings, from their {@code ConfigDef}s, to tell a
 * pass-through setting from a misspelt one. Thread-safe (immutable).
 */
final class KafkaClientSettings {

    /** Settings of a Kafka consumer. */
    static final Set<String> CONSUMER = Set.copyOf(ConsumerConfig.configNames());
    /** Settings of any Kafka client the application creates: consumer, producer, admin client, Kafka Streams. */
    static final Set<String> ANY_CLIENT = anyClient();
    /** Kafka Streams' prefixes for the settings of its own clients. */
    private static final List<String> STREAMS_CLIENT_PREFIXES = List.of(
            StreamsConfig.CONSUMER_PREFIX,
            StreamsConfig.PRODUCER_PREFIX,
            StreamsConfig.ADMIN_CLIENT_PREFIX,
            StreamsConfig.MAIN_CONSUMER_PREFIX,
            StreamsConfig.RESTORE_CONSUMER_PREFIX,
            StreamsConfig.GLOBAL_CONSUMER_PREFIX);

    private KafkaClientSettings() {}

    private static Set<String> anyClient() {
        Set<String> names = new HashSet<>(ConsumerConfig.configNames());
        names.addAll(ProducerConfig.configNames());
        names.addAll(AdminClientConfig.configNames());
        names.addAll(StreamsConfig.configDef().names());
        return Set.copyOf(names);
    }

    /**
     * @param name a setting for Kafka Streams, without {@code streams.}
     * @return whether Kafka Streams knows it: its own, one of its clients' (plain or with its
     *         client prefixes), or a {@code topic.} setting of its internal topics
     */
    static boolean isStreamsSetting(String name) {
        if (ANY_CLIENT.contains(name) || name.startsWith(StreamsConfig.TOPIC_PREFIX)) {
            return true;
        }
        for (String prefix : STREAMS_CLIENT_PREFIXES) {
            if (name.startsWith(prefix) && ANY_CLIENT.contains(name.substring(prefix.length()))) {
                return true;
            }
        }
        return false;
    }
}
