package io.apiary.ingest.serde;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka serializer of Avro records in registry framing (Confluent's wire format: byte 0, the
 * 4-byte schema id, the Avro body), for producers outside the pipeline such as gateways, set by
 * class name: {@code value.serializer=io.apiary.ingest.serde.KafkaAvroSerializer} with
 * {@code schema.registry.url} and the other settings of {@link KafkaAvroSerdeConfig}, named as
 * Confluent's. Kafka calls the no-argument constructor and then {@link #configure}.
 *
 * <p>Each record is written with its own schema (a generated class's, or a {@link GenericRecord}'s)
 * by {@link AvroWireSerde}, under the subject {@code <topic>-value} ({@code <topic>-key} for keys):
 * with {@code auto.register.schemas=true} (the default, as Confluent's) the schema is registered
 * there when missing; with {@code false}, which gateways should set (the pipeline registers the
 * subjects), it is looked up and a missing one is refused; with {@code use.latest.version=true} the
 * subject's latest version is used if it encodes as the record's schema does. The id is found once
 * per topic and schema and then cached for the life of the serializer.
 *
 * <p>Errors: {@link ConfigException} naming the setting, from {@link #configure}; from
 * {@link #serialize}, {@link SerializationException} for a value that is not an Avro record, a
 * record that does not fit its schema, or a schema that is not registered (auto-registration off)
 * or that the registry refuses; {@link SchemaRegistryException} with
 * {@link SchemaRegistryException#unavailable()} true when the registry cannot be reached (after
 * {@code schema.registry.retries}): a fault of the moment, the record itself is fine.
 *
 * <p>Thread-safe once configured (a producer calls it from any thread).
 *
 * @param <T> the generated class, or {@link GenericRecord} (unbounded, as Kafka passes {@code Object}s: any
 *            other value is refused with a message)
 */
public final class KafkaAvroSerializer<T> implements Serializer<T> {

    private final Map<Object, AvroWireSerde<IndexedRecord>> serdes = new ConcurrentHashMap<>();
    private volatile WireFormat format;
    private boolean isKey;
    private boolean latestVersion;

    /** An unconfigured serializer: Kafka calls {@link #configure} next. */
    public KafkaAvroSerializer() {}

    /**
     * @param configs the producer's configuration (see {@link KafkaAvroSerdeConfig}), not null
     * @param isKey   whether it serializes keys (subject {@code <topic>-key}) or values
     * @throws ConfigException naming a missing, unknown or wrong setting
     */
    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        KafkaAvroSerdeConfig config = KafkaAvroSerdeConfig.of(configs);
        boolean autoRegister = config.getBoolean(KafkaAvroSerdeConfig.AUTO_REGISTER_SCHEMAS);
        boolean latest = config.getBoolean(KafkaAvroSerdeConfig.USE_LATEST_VERSION);
        if (autoRegister && latest) {
            throw new ConfigException(
                    KafkaAvroSerdeConfig.USE_LATEST_VERSION,
                    true,
                    "needs auto.register.schemas=false (as with Confluent's serializer)");
        }
        this.isKey = isKey;
        this.latestVersion = latest;
        serdes.clear();
        this.format = new WireFormat(
                WireFormat.Framing.REGISTRY, true, new SchemaRegistryClient(config.registrySettings()), autoRegister);
    }

    /** @return the wire format it writes, with its registry client; null before {@link #configure} */
    WireFormat format() {
        return format;
    }

    /**
     * @param topic  the topic, not null
     * @param record the record, or null (a tombstone)
     * @return the registry-framed record, or null
     * @throws SerializationException  see the class comment
     * @throws SchemaRegistryException if the registry is unavailable
     * @throws IllegalStateException   if not configured
     */
    @Override
    public byte[] serialize(String topic, T record) {
        if (record == null) {
            return null;
        }
        WireFormat wire = format;
        if (wire == null) {
            throw new IllegalStateException("KafkaAvroSerializer is not configured: set it by class name in the"
                    + " producer's settings, or call configure(settings, isKey)");
        }
        Object value = record;
        if (!(value instanceof IndexedRecord avro)) {
            throw new SerializationException("KafkaAvroSerializer writes Avro records (generated classes or"
                    + " GenericRecord), not " + value.getClass().getName() + " (topic " + topic + ")");
        }
        return serdeFor(wire, avro).encode(topic, avro);
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // a serde of the record's own class or schema
    private AvroWireSerde<IndexedRecord> serdeFor(WireFormat wire, IndexedRecord record) {
        if (record instanceof SpecificRecord) {
            return serdes.computeIfAbsent(
                    record.getClass(),
                    c -> new AvroWireSerde(
                            AvroSingleObjectSerde.of((Class<? extends SpecificRecord>) c), wire, isKey, latestVersion));
        }
        Schema schema = record.getSchema();
        return serdes.computeIfAbsent(
                schema,
                s -> new AvroWireSerde(
                        AvroSingleObjectSerde.generic(schema, "the producer's record schema"),
                        wire,
                        isKey,
                        latestVersion));
    }
}
