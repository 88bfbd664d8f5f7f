package io.apiary.ingest.topics;

import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;

/**
 * One Kafka topic with the serdes of its key and value: the single description the topology,
 * the sink, the producers and the tests share. Immutable and thread-safe if the serdes are.
 *
 * @param name       topic name, not null
 * @param keySerde   serde of the record key, not null
 * @param valueSerde serde of the record value, not null
 * @param <K>        key type
 * @param <V>        value type
 */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

    /** Checks that no component is null. */
    public Topic {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
    }
}
