package io.apiary.ingest.serde;

import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka deserializer of Avro records in registry framing (and, unless
 * {@code wire.format.read.single.object=false}, Avro single-object encoding), for consumers outside
 * the pipeline such as analysts, set by class name:
 * {@code value.deserializer=io.apiary.ingest.serde.KafkaAvroDeserializer} with
 * {@code schema.registry.url} and what to read into: {@code specific.avro.value.type} (a generated
 * class, as Confluent's setting) or {@code avro.reader.value.schema} ({@link GenericRecord}s of a
 * schema); see {@link KafkaAvroSerdeConfig}. Kafka calls the no-argument constructor and then
 * {@link #configure}.
 *
 * <p>Each writer schema is fetched by id once and resolved to the reader's schema (Avro schema
 * resolution), by {@link AvroWireSerde}: so records of every compatible version are read.
 *
 * <p>Errors: {@link ConfigException} naming the setting, from {@link #configure}; from
 * {@link #deserialize}, {@link SerializationException} with the reason a record cannot be read
 * (unknown framing, an unknown schema id, a writer schema that does not resolve, a corrupt body,
 * bytes left over); {@link SchemaRegistryException} with {@link SchemaRegistryException#unavailable()}
 * true when the registry cannot be reached.
 *
 * <p>Thread-safe once configured.
 *
 * @param <T> the generated class, or {@link GenericRecord}
 */
public final class KafkaAvroDeserializer<T extends IndexedRecord> implements Deserializer<T> {

    private volatile AvroWireSerde<T> serde;

    /** An unconfigured deserializer: Kafka calls {@link #configure} next. */
    public KafkaAvroDeserializer() {}

    /**
     * @param configs the consumer's configuration (see {@link KafkaAvroSerdeConfig}), not null
     * @param isKey   whether it reads keys (settings {@code specific.avro.key.type},
     *                {@code avro.reader.key.schema}) or values
     * @throws ConfigException naming a missing, unknown or wrong setting
     */
    @Override
    @SuppressWarnings("unchecked") // T is the configured class, or GenericRecord
    public void configure(Map<String, ?> configs, boolean isKey) {
        KafkaAvroSerdeConfig config = KafkaAvroSerdeConfig.of(configs);
        Class<? extends SpecificRecord> type = config.specificType(isKey);
        Schema readerSchema = type == null ? config.readerSchema(isKey) : null;
        WireFormat format = new WireFormat(
                WireFormat.Framing.REGISTRY,
                config.getBoolean(KafkaAvroSerdeConfig.READ_SINGLE_OBJECT),
                new SchemaRegistryClient(config.registrySettings()),
                false);
        String schemaSetting =
                isKey ? KafkaAvroSerdeConfig.READER_KEY_SCHEMA : KafkaAvroSerdeConfig.READER_VALUE_SCHEMA;
        this.serde = type != null
                ? (AvroWireSerde<T>) format.serde(type, isKey)
                : (AvroWireSerde<T>) format.genericSerde(readerSchema, "the reader schema of " + schemaSetting, isKey);
    }

    /** @return the schema records are read into; null before {@link #configure} */
    public Schema readerSchema() {
        AvroWireSerde<T> configured = serde;
        return configured == null ? null : configured.schema();
    }

    /**
     * @param topic the topic (unused: the schema id is in the record)
     * @param data  the record's bytes, or null
     * @return the record, or null for null bytes
     * @throws SerializationException  see the class comment
     * @throws SchemaRegistryException if the registry is unavailable
     * @throws IllegalStateException   if not configured
     */
    @Override
    public T deserialize(String topic, byte[] data) {
        AvroWireSerde<T> configured = serde;
        if (configured == null) {
            throw new IllegalStateException("KafkaAvroDeserializer is not configured: set it by class name in the"
                    + " consumer's settings, or call configure(settings, isKey)");
        }
        return configured.decode(data);
    }
}
