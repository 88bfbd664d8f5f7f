package io.apiary.ingest.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde of an Avro record (a generated class, or a {@link org.apache.avro.generic.GenericRecord}
 * of a schema known at run time) in the pipeline's {@link WireFormat}: writes one framing,
 * reads both, told apart by the first byte ({@code 00} registry framing, {@code C3} single-object
 * encoding).
 *
 * <p>Registry framing (Confluent's wire format): byte {@code 0}, the schema id as a 4-byte
 * big-endian int, then the Avro binary body, nothing after it. Writing looks up (or, with
 * auto-registration, registers) the serde's schema under the topic's subject once, in its
 * published form ({@link PublishedSchemas}); a subject that holds it only in the Java flavour an
 * earlier release registered (not yet migrated by {@link SchemaSubjects#register}) is written with
 * that version's id, never registered twice. Reading
 * fetches the writer schema by id once and resolves it to the serde's schema (Avro schema
 * resolution), so records written by other producers with other compatible versions are read.
 * The body is encoded and decoded by Avro's own binary encoder and datum readers and writers.
 *
 * <p>Errors: a record that cannot be read (unknown framing, an id the registry does not know, a
 * writer schema that cannot be resolved to the serde's, a corrupt body, bytes left over, a
 * refused framing) raises {@link SerializationException} with the reason, which sends it to the
 * dead letter topic. A registry that cannot be reached raises {@link SchemaRegistryException}
 * with {@link SchemaRegistryException#unavailable()} true instead: the record is fine, and the
 * callers treat that as a fault of the moment, not as bad input.
 *
 * <p>Thread-safe: Avro's datum readers and writers are, and buffers are per thread.
 *
 * @param <T> the generated class, or {@link org.apache.avro.generic.GenericRecord}
 */
public final class AvroWireSerde<T extends IndexedRecord> implements Serde<T> {

    /** First byte of a registry-framed record. */
    public static final byte MAGIC_BYTE = 0;
    /** Bytes before the Avro body in a registry-framed record: the magic byte and a 4-byte id. */
    public static final int HEADER_BYTES = 5;

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    private final AvroSingleObjectSerde<T> singleObject;
    private final WireFormat format;
    private final boolean key;
    private final boolean latestVersion;
    private final Schema schema;
    private final Schema published;
    private final GenericData model;
    private final DatumWriter<T> writer;
    private final Map<Integer, Object> readersById = new ConcurrentHashMap<>();
    private final Map<String, Integer> idsByTopic = new ConcurrentHashMap<>();

    AvroWireSerde(AvroSingleObjectSerde<T> singleObject, WireFormat format, boolean key) {
        this(singleObject, format, key, false);
    }

    /**
     * @param latestVersion write registry framing with the id of the subject's latest version
     *                      (Confluent's {@code use.latest.version}) rather than registering or
     *                      looking up {@code singleObject}'s schema
     */
    AvroWireSerde(AvroSingleObjectSerde<T> singleObject, WireFormat format, boolean key, boolean latestVersion) {
        this.singleObject = Objects.requireNonNull(singleObject);
        this.format = Objects.requireNonNull(format);
        this.key = key;
        this.latestVersion = latestVersion;
        this.schema = singleObject.schema();
        this.published = PublishedSchemas.of(schema);
        this.model = singleObject.model();
        this.writer = datumWriter(model, schema);
    }

    @SuppressWarnings("unchecked") // the model's writer of records of the serde's type
    private static <T> DatumWriter<T> datumWriter(GenericData model, Schema schema) {
        return (DatumWriter<T>) model.createDatumWriter(schema);
    }

    /** @return the schema this serde writes with and reads into (a generated class's, or the one it was made for) */
    public Schema schema() {
        return schema;
    }

    /** @return the format: framing written, framings read, registry */
    public WireFormat format() {
        return format;
    }

    /**
     * Encodes one record for a topic.
     *
     * @param topic  the topic (its subject holds the schema in registry framing), not null
     * @param record the record, or null
     * @return the framed record, or null for a null record
     * @throws SerializationException  if the record does not fit its schema, or its schema is not
     *                                 registered and auto-registration is off, or the registry
     *                                 refuses it (e.g. incompatible with the subject)
     * @throws SchemaRegistryException if the registry is unavailable
     */
    public byte[] encode(String topic, T record) {
        if (record == null) {
            return null;
        }
        if (format.write() == WireFormat.Framing.SINGLE_OBJECT) {
            return singleObject.encode(record);
        }
        int id = idFor(Objects.requireNonNull(topic, "topic"));
        Buffers buffers = BUFFERS.get();
        buffers.out.reset();
        buffers.out.write(MAGIC_BYTE);
        buffers.out.write(id >>> 24);
        buffers.out.write(id >>> 16);
        buffers.out.write(id >>> 8);
        buffers.out.write(id);
        try {
            buffers.encoder = EncoderFactory.get().directBinaryEncoder(buffers.out, buffers.encoder);
            writer.write(record, buffers.encoder);
            buffers.encoder.flush();
        } catch (IOException | AvroRuntimeException | NullPointerException | ClassCastException e) {
            throw new SerializationException("Cannot encode " + schema.getName() + " as Avro: " + e.getMessage(), e);
        }
        return buffers.out.toByteArray();
    }

    private int idFor(String topic) {
        Integer known = idsByTopic.get(topic);
        if (known != null) {
            return known;
        }
        String subject = WireFormat.subject(topic, key);
        SchemaRegistryClient registry = format.registry();
        int id;
        try {
            OptionalInt found = latestVersion ? OptionalInt.of(latestId(registry, subject)) : OptionalInt.empty();
            if (found.isEmpty()) {
                found = registry.lookup(subject, published);
            }
            if (found.isEmpty() && published != schema) {
                found = registry.lookup(subject, schema); // the Java flavour, on a subject not migrated yet
            }
            if (found.isPresent()) {
                id = found.getAsInt();
            } else if (format.autoRegister()) {
                id = registry.register(subject, published);
            } else {
                throw new SerializationException("The schema of " + schema.getFullName() + " is not registered"
                        + " under subject " + subject + " and auto-registration is off: run"
                        + " `ingest-app registry register` first");
            }
        } catch (SchemaRegistryException e) {
            if (e.unavailable()) {
                throw e;
            }
            throw new SerializationException(
                    "The schema registry refused the schema of " + schema.getFullName() + " under subject " + subject
                            + ": " + e.getMessage(),
                    e);
        }
        idsByTopic.put(topic, id);
        return id;
    }

    /**
     * @return the id of the subject's latest version, if it encodes as this serde's schema does
     *         (equal Parsing Canonical Form, Avro specification: what the binary encoding depends on)
     * @throws SerializationException  if the subject has no version or its latest encodes otherwise
     * @throws SchemaRegistryException if the registry is unavailable or refuses the request
     */
    private int latestId(SchemaRegistryClient registry, String subject) {
        SchemaRegistryClient.SubjectVersion latest;
        try {
            // the registry's own latest (version -1): a deleted version can stay listed (Apicurio Registry 2.x
            // lists the versions its soft delete disabled), so the highest listed number need not be it
            latest = registry.version(subject, -1);
        } catch (SchemaRegistryException e) {
            if (!e.notFound()) {
                throw e;
            }
            throw new SerializationException("Subject " + subject + " has no version to write "
                    + schema.getFullName() + " with (use.latest.version): register it first, e.g. by starting"
                    + " the pipeline or `ingest-app registry register`");
        }
        if (SchemaNormalization.parsingFingerprint64(latest.schema())
                != SchemaNormalization.parsingFingerprint64(schema)) {
            throw new SerializationException("The latest version (" + latest.version() + ", id " + latest.id()
                    + ") of subject " + subject + " does not encode as " + schema.getFullName() + " of this"
                    + " producer does (another Parsing Canonical Form): generate the classes from the latest"
                    + " schema, or set use.latest.version=false to look up this producer's schema");
        }
        return latest.id();
    }

    /**
     * Decodes one record in either framing.
     *
     * @param bytes the record as read, or null
     * @return the record, or null for null bytes
     * @throws SerializationException  with the reason it cannot be read (see the class comment)
     * @throws SchemaRegistryException if the registry is unavailable
     */
    public T decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        if (bytes.length > 0 && bytes[0] == MAGIC_BYTE) {
            return decodeFramed(bytes);
        }
        if (bytes.length > 1 && bytes[0] == (byte) 0xC3 && bytes[1] == 0x01) {
            if (!format.acceptSingleObject()) {
                throw new SerializationException("A single-object encoded (C3 01) " + schema.getName()
                        + " is no longer accepted (wire.format.read.single.object=false): producers must write"
                        + " the registry framing (byte 0, 4-byte schema id)");
            }
            return singleObject.decode(bytes);
        }
        throw new SerializationException("Neither registry framing (byte 0, a 4-byte schema id) nor single-object"
                + " encoding (C3 01) for " + schema.getName() + ": payload of " + bytes.length + " bytes"
                + (bytes.length > 0 ? String.format(" starting 0x%02X", bytes[0] & 0xFF) : ""));
    }

    @SuppressWarnings("unchecked")
    private T decodeFramed(byte[] bytes) {
        if (bytes.length < HEADER_BYTES) {
            throw new SerializationException("A registry-framed " + schema.getName() + " needs at least " + HEADER_BYTES
                    + " bytes (byte 0 and a 4-byte schema id); got " + bytes.length);
        }
        SchemaRegistryClient registry = format.registry();
        if (registry == null) {
            throw new SerializationException("A registry-framed " + schema.getName()
                    + " (byte 0, schema id) but no schema registry is configured (schema.registry.url)");
        }
        int id = ((bytes[1] & 0xFF) << 24) | ((bytes[2] & 0xFF) << 16) | ((bytes[3] & 0xFF) << 8) | (bytes[4] & 0xFF);
        Object reader = readersById.computeIfAbsent(id, i -> readerFor(registry, i));
        if (reader instanceof Refusal refusal) {
            if (refusal.expired()) { // an id unknown a moment ago may have been registered since
                readersById.remove(id, reader);
                reader = readersById.computeIfAbsent(id, i -> readerFor(registry, i));
            }
        }
        if (reader instanceof Refusal refusal) {
            throw new SerializationException(
                    refusal.reason().getMessage(), refusal.reason().getCause());
        }
        Buffers buffers = BUFFERS.get();
        try {
            buffers.decoder = DecoderFactory.get()
                    .binaryDecoder(bytes, HEADER_BYTES, bytes.length - HEADER_BYTES, buffers.decoder);
            T record = ((DatumReader<T>) reader).read(null, buffers.decoder);
            if (!buffers.decoder.isEnd()) {
                throw new SerializationException("Bytes follow the " + schema.getName() + " record (schema id " + id
                        + ") in a payload of " + bytes.length + " bytes: not one registry-framed record");
            }
            return record;
        } catch (IOException
                | AvroRuntimeException
                | IndexOutOfBoundsException
                | NegativeArraySizeException
                | UnsupportedOperationException // Avro: a length above the largest array, e.g. 0xFEFFFFFF0F
                | ClassCastException e) {
            throw new SerializationException(
                    "Corrupt Avro body for " + schema.getName() + " (schema id " + id + "), payload of " + bytes.length
                            + " bytes: " + e,
                    e);
        }
    }

    /**
     * @return the reader of records written with schema id {@code id}, or the refusal (cached: a
     *         schema id names one schema forever; an id the registry does not know is asked again
     *         after {@link #UNKNOWN_ID_RECHECK_NANOS}); registry unavailability is thrown, not cached
     */
    private Object readerFor(SchemaRegistryClient registry, int id) {
        Schema writerSchema;
        try {
            writerSchema = registry.schemaById(id);
        } catch (SchemaRegistryException e) {
            if (e.unavailable()) {
                throw e;
            }
            return new Refusal(
                    new SerializationException(
                            "Schema id " + id + " of a registry-framed " + schema.getName() + " cannot be used: "
                                    + e.getMessage(),
                            e),
                    System.nanoTime() + UNKNOWN_ID_RECHECK_NANOS);
        }
        SchemaCompatibility.SchemaPairCompatibility pair =
                SchemaCompatibility.checkReaderWriterCompatibility(schema, writerSchema);
        if (pair.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return new Refusal(
                    new SerializationException("Schema id " + id + " (" + writerSchema.getFullName()
                            + ") cannot be read as " + schema.getFullName() + ": " + SchemaSubjects.describe(pair)),
                    Long.MAX_VALUE);
        }
        return model.createDatumReader(writerSchema, schema);
    }

    @Override
    public Serializer<T> serializer() {
        return this::encode;
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, data) -> decode(data);
    }

    /** How long an id the registry did not know stays refused before it is asked again: 10 s. */
    static final long UNKNOWN_ID_RECHECK_NANOS = 10_000_000_000L;

    /** A cached refusal of a schema id: permanent (a schema that does not resolve) or until a time. */
    private record Refusal(SerializationException reason, long untilNanos) {
        boolean expired() {
            return untilNanos != Long.MAX_VALUE && System.nanoTime() - untilNanos > 0;
        }
    }

    /** Per-thread encoder state. */
    private static final class Buffers {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder;
        BinaryDecoder decoder;
    }
}
