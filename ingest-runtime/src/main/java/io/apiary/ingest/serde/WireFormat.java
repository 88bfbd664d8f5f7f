package io.apiary.ingest.serde;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigException;

/**
 * How Avro records are framed on the pipeline's topics: which framing writers use, which ones
 * readers accept, and the schema registry behind the registry framing.
 *
 * <ul>
 *   <li>{@link Framing#REGISTRY}: byte {@code 0}, the 4-byte big-endian schema id, the Avro
 *       binary body. The schema is in a registry speaking Confluent's REST API, under the subject
 *       {@code <topic>-value} or {@code <topic>-key} (Kafka's usual topic naming). What ksqlDB,
 *       Flink's {@code avro-confluent}, Kafka Connect's Avro converter and the common non-JVM
 *       clients read and write.</li>
 *   <li>{@link Framing#SINGLE_OBJECT}: Avro's single-object encoding ({@code C3 01}, the 8-byte
 *       CRC-64-AVRO fingerprint, the body), the schemas being those kept in {@code schemas/}.</li>
 * </ul>
 *
 * Readers tell the two apart by the first byte, so a topic can hold both while a running pipeline
 * moves from one to the other; {@code acceptSingleObject} says whether single-object records are
 * still read (when not, they are refused with a reason that names the setting, and go to the
 * dead letter topic). Registry-framed records are read whenever a registry is configured.
 *
 * <p>Immutable and thread-safe.
 *
 * @param write              the framing writers use, not null
 * @param acceptSingleObject whether readers accept single-object encoded records
 * @param registry           the registry, or null when none is configured (then the write
 *                           framing must be single-object, and registry-framed records are refused)
 * @param autoRegister       whether a writer registers its schema under its subject when it is
 *                           not there yet (Confluent's {@code auto.register.schemas}); else it is
 *                           refused until {@code registry register} has run
 */
public record WireFormat(
        Framing write, boolean acceptSingleObject, SchemaRegistryClient registry, boolean autoRegister) {

    /** A framing of Avro records on a topic. */
    public enum Framing {
        /** Byte 0, a 4-byte schema id, the Avro body (Confluent's wire format). */
        REGISTRY,
        /** Avro single-object encoding: C3 01, an 8-byte fingerprint, the Avro body. */
        SINGLE_OBJECT;

        /** @return the setting's spelling: {@code registry} or {@code single-object} */
        public String setting() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /**
         * @param text {@code registry} or {@code single-object} (any case)
         * @return the framing
         * @throws IllegalArgumentException naming the choices
         */
        public static Framing parse(String text) {
            for (Framing framing : values()) {
                if (framing.setting().equalsIgnoreCase(text.trim())) {
                    return framing;
                }
            }
            throw new IllegalArgumentException("unknown wire format '" + text + "': use registry or single-object");
        }
    }

    /** Checks the values. */
    public WireFormat {
        Objects.requireNonNull(write, "write");
        if (write == Framing.REGISTRY && registry == null) {
            throw new IllegalArgumentException("the registry wire format needs a schema registry URL");
        }
    }

    /**
     * @return single-object encoding written and read, no registry (the format of the tests of
     *         our own logic and of tools that run without one)
     */
    public static WireFormat singleObject() {
        return new WireFormat(Framing.SINGLE_OBJECT, true, null, false);
    }

    /**
     * @param registry the registry, not null
     * @return registry framing written, both framings read, schemas registered on first use
     */
    public static WireFormat registry(SchemaRegistryClient registry) {
        return new WireFormat(Framing.REGISTRY, true, Objects.requireNonNull(registry), true);
    }

    /**
     * Builds the wire format a configuration asks for, with its registry client when a URL is set (one
     * client per call: callers keep it). The options are {@link RegistrySettings}'.
     *
     * @param config      a configuration defined with {@link RegistrySettings#define}, not null
     * @param registryTls the TLS context of the registry's stores, asked only for {@code https} URLs; not null
     * @return the wire format
     * @throws ConfigException if registry framing is asked for without a URL, a URL is malformed,
     *                         both basic and bearer authentication are set, or a TLS store cannot be read
     */
    public static WireFormat from(AbstractConfig config, Supplier<SSLContext> registryTls) {
        Framing write = Framing.parse(config.getString(RegistrySettings.WIRE_FORMAT_WRITE));
        SchemaRegistryClient client = null;
        if (config.getString(RegistrySettings.REGISTRY_URL).isBlank()) {
            if (write == Framing.REGISTRY) {
                throw new ConfigException(
                        RegistrySettings.REGISTRY_URL,
                        "",
                        "wire.format.write=registry (the default) needs the URL "
                                + "of a schema registry speaking Confluent's API (e.g. http://127.0.0.1:8081, or an Apicurio "
                                + "registry's /apis/ccompat/v6); `ingest-app devstack` prints the local one. Or set "
                                + "wire.format.write=single-object.");
            }
        } else {
            client = new SchemaRegistryClient(RegistrySettings.from(config, registryTls));
        }
        return new WireFormat(
                write,
                config.getBoolean(RegistrySettings.WIRE_FORMAT_READ_SINGLE_OBJECT),
                client,
                config.getBoolean(RegistrySettings.REGISTRY_AUTO_REGISTER));
    }

    /** @return the registry, if one is configured */
    public Optional<SchemaRegistryClient> registryClient() {
        return Optional.ofNullable(registry);
    }

    /**
     * @param type the generated Avro class, not null
     * @param key  whether the serde is for record keys (subject {@code <topic>-key}) or values
     * @param <T>  the class
     * @return a serde in this format for that class
     */
    public <T extends SpecificRecord> AvroWireSerde<T> serde(Class<T> type, boolean key) {
        return new AvroWireSerde<>(AvroSingleObjectSerde.of(type), this, key);
    }

    /**
     * A serde in this format for records of a schema known only at run time (a registered
     * table's row schema, {@code sink.extra.tables}), read as {@link GenericRecord}s: registry
     * framing under the topic's subject, resolved to {@code schema}; single-object encoding (while
     * {@link #acceptSingleObject()}) of {@code schema} itself.
     *
     * @param schema    the record schema, not null
     * @param whereFrom where the schema comes from, for messages, e.g. {@code the row schema
     *                  HiveWeightRow.avsc}; not null
     * @param key       whether for record keys (subject {@code <topic>-key}) or values
     * @return the serde
     */
    public AvroWireSerde<GenericRecord> genericSerde(Schema schema, String whereFrom, boolean key) {
        return new AvroWireSerde<>(AvroSingleObjectSerde.generic(schema, whereFrom), this, key);
    }

    /**
     * @param topic a topic name, not null
     * @param key   whether for keys
     * @return the subject of the topic's keys or values by Kafka's topic naming:
     *         {@code <topic>-key} or {@code <topic>-value}
     */
    public static String subject(String topic, boolean key) {
        return topic + (key ? "-key" : "-value");
    }

    /**
     * @return the framings readers accept, for messages: {@code registry framing and single-object
     *         encoding}, {@code registry framing}, {@code single-object encoding}, or {@code
     *         nothing} (no registry, single-object refused)
     */
    public String framingsRead() {
        List<String> read = new ArrayList<>();
        if (registry != null) {
            read.add("registry framing");
        }
        if (acceptSingleObject) {
            read.add("single-object encoding");
        }
        return read.isEmpty() ? "nothing" : String.join(" and ", read);
    }

    /** No credential in the text. */
    @Override
    public String toString() {
        return "WireFormat[write=" + write.setting() + ", acceptSingleObject=" + acceptSingleObject + ", registry="
                + (registry == null ? "none" : registry.settings().urls()) + ", autoRegister=" + autoRegister + "]";
    }
}
