package io.apiary.ingest.serde;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde for an Avro record in Avro's single-object encoding: the two marker bytes
 * {@code C3 01}, the 8-byte little-endian CRC-64-AVRO fingerprint of the writer schema, then the
 * Avro binary body (Avro specification, "Single object encoding").
 *
 * <p>Reading resolves the writer schema named by the fingerprint against the reader's schema
 * (Avro schema resolution), so data written with any older or newer version is read into the
 * current one. {@link #of(Class)}, for a generated class, accepts every version kept in {@code
 * schemas/versions/} (see {@link SchemaVersions}); {@link #generic(Schema, String)}, for records
 * of a schema known only at run time, accepts that schema; further writer schemas can be
 * registered with {@link #withWriterSchema(Schema)}. A {@code null} payload (tombstone) reads and
 * writes as {@code null}. A payload with bytes after its record is refused.
 *
 * <p>Thread-safe: Avro's message encoder and decoder keep their buffers per thread.
 *
 * @param <T> the generated Avro class, or {@link GenericRecord}
 */
public final class AvroSingleObjectSerde<T extends IndexedRecord> implements Serde<T> {

    /** Package of the classes generated from schemas/. */
    public static final String GENERATED_PACKAGE = "io.apiary.schema";

    /**
     * Longest string or bytes value the decoder accepts, in bytes (1 MiB, Kafka's default largest
     * record): a corrupt length prefix then fails the one record instead of making Avro allocate
     * up to 2 GiB (its default limit) and run the JVM out of memory.
     */
    public static final int MAX_VALUE_BYTES = 1 << 20;

    static {
        limitValueSizes();
        // Avro 1.12 only instantiates classes it trusts (CVE-2024-47561). Trust exactly the
        // classes generated from schemas/ (records and enums of one package), nothing else.
        ClassSecurityValidator.ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(
                previous,
                c -> GENERATED_PACKAGE.equals(c.getPackageName())
                        && (SpecificRecord.class.isAssignableFrom(c) || c.isEnum())));
    }

    /**
     * Sets Avro's limits on string and bytes lengths to {@link #MAX_VALUE_BYTES}, unless the
     * operator chose others ({@code -Dorg.apache.avro.limits...}). Avro reads them once, when
     * {@code SystemLimitException} is initialized, which any Avro string (a {@code Utf8}, a record
     * builder's copy) may cause: so the application calls this first thing in {@code main}, and
     * this class when it loads. Idempotent and thread-safe (system properties).
     */
    public static void limitValueSizes() {
        for (String limit :
                new String[] {"org.apache.avro.limits.string.maxLength", "org.apache.avro.limits.bytes.maxLength"}) {
            if (System.getProperty(limit) == null) {
                System.setProperty(limit, Integer.toString(MAX_VALUE_BYTES));
            }
        }
    }

    private final Schema schema;
    private final GenericData model;
    private final String knownSchemas;
    private final BinaryMessageEncoder<T> encoder;
    private final BinaryMessageDecoder<T> decoder;

    private AvroSingleObjectSerde(Schema schema, GenericData model, String knownSchemas) {
        this.schema = schema;
        this.model = model;
        this.knownSchemas = knownSchemas;
        // without a copy: encode() copies the encoder's per-thread buffer once, into the returned array
        this.encoder = new BinaryMessageEncoder<>(model, schema, false);
        this.decoder = new BinaryMessageDecoder<>(model, schema);
    }

    /**
     * A serde for a generated Avro class that reads data written with the class's schema or any
     * version of the record kept in {@code schemas/versions/<RecordName>/} on the class's
     * classpath.
     *
     * @param type the generated class, not null
     * @param <T>  the generated class
     * @return a serde that writes with the class's schema and reads every kept version
     * @throws IllegalStateException if a kept version cannot be read or parsed
     */
    public static <T extends SpecificRecord> AvroSingleObjectSerde<T> of(Class<T> type) {
        Schema schema = SpecificData.get().getSchema(Objects.requireNonNull(type));
        AvroSingleObjectSerde<T> serde = new AvroSingleObjectSerde<>(
                schema, SpecificData.getForSchema(schema), "no schema version kept in schemas/");
        ClassLoader loader = type.getClassLoader() == null ? ClassLoader.getSystemClassLoader() : type.getClassLoader();
        for (Schema kept : SchemaVersions.load(serde.schema.getName(), loader)) {
            serde.withWriterSchema(kept);
        }
        return serde;
    }

    /**
     * A serde for records of a schema known only at run time (a registered table's row schema),
     * read and written as {@link GenericRecord}s with Avro's {@link GenericData}: strings are
     * {@link org.apache.avro.util.Utf8}, logical types their underlying int or long.
     *
     * @param schema    the record schema, written with and read into, not null
     * @param whereFrom where the schema comes from, for messages about a fingerprint it does not
     *                  match, e.g. {@code the row schema HiveWeightRow.avsc}; not null
     * @return a serde that writes and reads that schema only (more with {@link #withWriterSchema})
     */
    public static AvroSingleObjectSerde<GenericRecord> generic(Schema schema, String whereFrom) {
        Objects.requireNonNull(schema, "schema");
        return new AvroSingleObjectSerde<>(schema, GenericData.get(), Objects.requireNonNull(whereFrom, "whereFrom"));
    }

    /**
     * Accepts data written with another version of the schema (older or newer), resolved to the
     * serde's schema when read.
     *
     * @param writerSchema a schema version of the same record, not null
     * @return this serde
     */
    public AvroSingleObjectSerde<T> withWriterSchema(Schema writerSchema) {
        decoder.addSchema(Objects.requireNonNull(writerSchema));
        return this;
    }

    /** @return the schema this serde writes with and reads into (the generated class's schema) */
    public Schema schema() {
        return schema;
    }

    /** @return the data model records are read into: {@link SpecificData} for a generated class, else {@link GenericData} */
    public GenericData model() {
        return model;
    }

    /**
     * Encodes one record.
     *
     * @param record the record, or null
     * @return the single-object encoding, or null for a null record
     * @throws SerializationException if the record does not fit its schema (e.g. a null in a
     *                                non-null field)
     */
    public byte[] encode(T record) {
        if (record == null) {
            return null;
        }
        try {
            ByteBuffer buffer = encoder.encode(record);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException | AvroRuntimeException | NullPointerException | ClassCastException e) {
            throw new SerializationException("Cannot encode " + schema.getName() + " as Avro: " + e.getMessage(), e);
        }
    }

    /**
     * Decodes one record.
     *
     * @param bytes the single-object encoding, or null
     * @return the record, or null for null bytes
     * @throws SerializationException with the reason (not single-object encoded, unknown writer
     *                                schema, a body that does not match its schema, or bytes left
     *                                over after the record)
     */
    public T decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            ByteArrayInputStream in = new ByteArrayInputStream(bytes);
            T record = decoder.decode(in);
            if (in.available() > 0) {
                throw new SerializationException(in.available() + " bytes follow the " + schema.getName()
                        + " record in a payload of " + bytes.length + " bytes: not one single-object encoded record");
            }
            return record;
        } catch (BadHeaderException e) {
            throw new SerializationException(
                    "Not Avro single-object encoding (expected the marker bytes"
                            + " C3 01 and an 8-byte schema fingerprint) for " + schema.getName()
                            + ", payload of " + bytes.length + " bytes",
                    e);
        } catch (MissingSchemaException e) {
            throw new SerializationException(
                    "Unknown writer schema for " + schema.getName() + ": its fingerprint matches " + knownSchemas + " ("
                            + e.getMessage() + ")",
                    e);
        } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException | NegativeArraySizeException e) {
            throw new SerializationException(
                    "Corrupt Avro body for " + schema.getName() + ", payload of " + bytes.length + " bytes: " + e, e);
        }
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, data) -> encode(data);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, data) -> decode(data);
    }
}
