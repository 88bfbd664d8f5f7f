package io.apiary.ingest.serde;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.net.ssl.SSLContext;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.security.ssl.DefaultSslEngineFactory;

/**
 * The settings of {@link KafkaAvroSerializer} and {@link KafkaAvroDeserializer}, read from the
 * producer's or consumer's own configuration, with Confluent's names where Confluent's serdes have
 * the setting. Settings of the client itself ({@code bootstrap.servers}, ...) are ignored; a setting
 * in this serde's name space ({@code schema.registry.*}, {@code basic.auth.*}, {@code bearer.auth.*},
 * {@code specific.avro.*}, {@code avro.*}) that it does not know, and Confluent serde settings it does
 * not support, are refused.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code schema.registry.url}</td><td>(required)</td><td>base URLs, comma-separated, of a
 *       registry speaking Confluent's REST API; no credentials in them</td></tr>
 *   <tr><td>{@code basic.auth.credentials.source}</td><td>{@code USER_INFO}</td><td>only
 *       {@code USER_INFO}</td></tr>
 *   <tr><td>{@code basic.auth.user.info} or {@code schema.registry.basic.auth.user.info}</td><td>none</td>
 *       <td>{@code user:password} for HTTP basic authentication</td></tr>
 *   <tr><td>{@code bearer.auth.credentials.source}</td><td>{@code STATIC_TOKEN}</td><td>only
 *       {@code STATIC_TOKEN}</td></tr>
 *   <tr><td>{@code bearer.auth.token}</td><td>none</td><td>token sent as {@code Authorization: Bearer}
 *       (not with basic authentication)</td></tr>
 *   <tr><td>{@code schema.registry.ssl.*}</td><td>Kafka's</td><td>Kafka's client TLS settings for
 *       {@code https} URLs: {@code .truststore.location/.password/.type},
 *       {@code .keystore.location/.password/.type}, {@code .key.password}, ...</td></tr>
 *   <tr><td>{@code schema.registry.request.timeout.ms}</td><td>10000</td><td>longest one request may
 *       take</td></tr>
 *   <tr><td>{@code schema.registry.retries}</td><td>3</td><td>retries of a request that found the
 *       registry unreachable, 0 to {@link RegistrySettings#MAX_RETRIES}</td></tr>
 *   <tr><td>{@code auto.register.schemas}</td><td>true</td><td>serializer: register the record's schema
 *       under {@code <topic>-value} when missing; else look it up</td></tr>
 *   <tr><td>{@code use.latest.version}</td><td>false</td><td>serializer: write with the id of the
 *       subject's latest version (which must encode as the record's schema does)</td></tr>
 *   <tr><td>{@code specific.avro.value.type} / {@code .key.type}</td><td>none</td><td>deserializer: the
 *       generated class to read into</td></tr>
 *   <tr><td>{@code specific.avro.reader}</td><td>false</td><td>deserializer: true requires the
 *       {@code specific.avro.*.type} above</td></tr>
 *   <tr><td>{@code avro.reader.value.schema} / {@code avro.reader.key.schema}</td><td>none</td><td>deserializer:
 *       read {@code GenericRecord}s of this schema: its JSON text, or the class path resource of an
 *       {@code .avsc} such as {@code schemas/HourlyActivity.avsc}</td></tr>
 *   <tr><td>{@code wire.format.read.single.object}</td><td>true</td><td>deserializer: also read Avro
 *       single-object encoding ({@code C3 01})</td></tr>
 * </table>
 *
 * <p>The TLS settings are Kafka's own ({@code ssl.*} of a client, prefixed), loaded by Kafka's
 * {@link DefaultSslEngineFactory}, as Confluent's client does. Immutable and thread-safe.
 */
public final class KafkaAvroSerdeConfig extends AbstractConfig {

    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String BASIC_AUTH_CREDENTIALS_SOURCE = "basic.auth.credentials.source";
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    public static final String REGISTRY_BASIC_AUTH_USER_INFO = "schema.registry.basic.auth.user.info";
    public static final String BEARER_AUTH_CREDENTIALS_SOURCE = "bearer.auth.credentials.source";
    public static final String BEARER_AUTH_TOKEN = "bearer.auth.token";
    public static final String REQUEST_TIMEOUT_MS = "schema.registry.request.timeout.ms";
    public static final String RETRIES = "schema.registry.retries";
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    public static final String USE_LATEST_VERSION = "use.latest.version";
    public static final String SPECIFIC_AVRO_READER = "specific.avro.reader";
    public static final String SPECIFIC_AVRO_KEY_TYPE = "specific.avro.key.type";
    public static final String SPECIFIC_AVRO_VALUE_TYPE = "specific.avro.value.type";
    public static final String READER_KEY_SCHEMA = "avro.reader.key.schema";
    public static final String READER_VALUE_SCHEMA = "avro.reader.value.schema";
    public static final String READ_SINGLE_OBJECT = "wire.format.read.single.object";
    /** Prefix of Kafka's client TLS settings ({@code ssl.*}) for the registry. */
    public static final String SSL_PREFIX = "schema.registry.";

    private static final String TOPIC_NAME_STRATEGY = "io.confluent.kafka.serializers.subject.TopicNameStrategy";
    private static final ConfigDef SSL = new ConfigDef().withClientSslSupport();
    private static final ConfigDef CONFIG = definition();
    /** Prefixes of this serde's name space: a setting under one that it does not define is refused. */
    private static final List<String> OWN_PREFIXES =
            List.of("schema.registry.", "basic.auth.", "bearer.auth.", "specific.avro.", "avro.");
    /** Confluent serde settings outside those prefixes that this serde does not support. */
    private static final Set<String> UNSUPPORTED = Set.of(
            "key.subject.name.strategy",
            "value.subject.name.strategy",
            "latest.compatibility.strict",
            "normalize.schemas",
            "use.schema.id",
            "id.compatibility.strict",
            "latest.cache.ttl.sec",
            "context.name.strategy",
            "max.schemas.per.subject",
            "proxy.host",
            "proxy.port");

    private KafkaAvroSerdeConfig(Map<String, ?> configs) {
        super(CONFIG, configs, false);
    }

    /** @return a copy of the definition (names, types, defaults, docs), e.g. for {@code toHtml()} */
    public static ConfigDef configDef() {
        return new ConfigDef(CONFIG);
    }

    private static ConfigDef definition() {
        ConfigDef def = new ConfigDef()
                .define(
                        SCHEMA_REGISTRY_URL,
                        Type.LIST,
                        ConfigDef.NO_DEFAULT_VALUE,
                        Importance.HIGH,
                        "Base URLs, comma-separated, of a registry speaking Confluent's REST API (Confluent, "
                                + "Apicurio's /apis/ccompat/v6, Karapace); tried in order. No credentials in them.")
                .define(
                        BASIC_AUTH_CREDENTIALS_SOURCE,
                        Type.STRING,
                        "USER_INFO",
                        ConfigDef.ValidString.in("USER_INFO"),
                        Importance.MEDIUM,
                        "Where basic-auth credentials come from: USER_INFO (basic.auth.user.info) only.")
                .define(
                        BASIC_AUTH_USER_INFO,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "user:password for HTTP basic authentication to the registry.")
                .define(
                        REGISTRY_BASIC_AUTH_USER_INFO,
                        Type.PASSWORD,
                        "",
                        Importance.LOW,
                        "The same as basic.auth.user.info (the application's name for it).")
                .define(
                        BEARER_AUTH_CREDENTIALS_SOURCE,
                        Type.STRING,
                        "STATIC_TOKEN",
                        ConfigDef.ValidString.in("STATIC_TOKEN"),
                        Importance.LOW,
                        "Where the bearer token comes from: STATIC_TOKEN (bearer.auth.token) only.")
                .define(
                        BEARER_AUTH_TOKEN,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "A token sent as 'Authorization: Bearer' (not with basic authentication).")
                .define(
                        AUTO_REGISTER_SCHEMAS,
                        Type.BOOLEAN,
                        true,
                        Importance.MEDIUM,
                        "Serializer: register the record's schema under <topic>-value (-key) when it is missing. "
                                + "Gateways set false: the pipeline registers the subjects.")
                .define(
                        USE_LATEST_VERSION,
                        Type.BOOLEAN,
                        false,
                        Importance.LOW,
                        "Serializer: write with the id of the subject's latest version instead of looking up "
                                + "the record's schema; refused unless both encode alike (same Parsing Canonical Form).")
                .define(
                        SPECIFIC_AVRO_READER,
                        Type.BOOLEAN,
                        false,
                        Importance.LOW,
                        "Deserializer: read into a generated class; needs specific.avro.value.type (key.type).")
                .define(
                        SPECIFIC_AVRO_KEY_TYPE,
                        Type.CLASS,
                        null,
                        Importance.MEDIUM,
                        "Deserializer of keys: the generated Avro class to read into.")
                .define(
                        SPECIFIC_AVRO_VALUE_TYPE,
                        Type.CLASS,
                        null,
                        Importance.HIGH,
                        "Deserializer of values: the generated Avro class to read into.")
                .define(
                        READER_KEY_SCHEMA,
                        Type.STRING,
                        null,
                        Importance.MEDIUM,
                        "Deserializer of keys: read GenericRecords of this schema (JSON text, or a class path "
                                + "resource such as schemas/HourlyActivity.avsc).")
                .define(
                        READER_VALUE_SCHEMA,
                        Type.STRING,
                        null,
                        Importance.HIGH,
                        "Deserializer of values: read GenericRecords of this schema (JSON text, or a class path "
                                + "resource such as schemas/HourlyActivity.avsc).")
                .define(
                        READ_SINGLE_OBJECT,
                        Type.BOOLEAN,
                        true,
                        Importance.LOW,
                        "Deserializer: also read Avro single-object encoding (C3 01, fingerprint, body).");
        defineRequestLimits(def);
        def.embed(SSL_PREFIX, "", def.names().size(), SSL);
        return def;
    }

    /**
     * Defines {@code schema.registry.request.timeout.ms} and {@code schema.registry.retries}, the
     * limits of one registry request, shared with the application's own settings.
     *
     * @param def the definition to add them to, not null
     */
    public static void defineRequestLimits(ConfigDef def) {
        def.define(
                        REQUEST_TIMEOUT_MS,
                        Type.INT,
                        10_000,
                        Range.between(100, 300_000),
                        Importance.LOW,
                        "Longest one registry request may take, in milliseconds.")
                .define(
                        RETRIES,
                        Type.INT,
                        3,
                        Range.between(0, RegistrySettings.MAX_RETRIES),
                        Importance.LOW,
                        "How many times a registry request that found it unreachable (or answering 5xx) is "
                                + "tried again, with a backoff doubling from 200 ms, before the next URL. At most 8: "
                                + "the pauses double, so 8 retries pause 51 s in all (20 paused 58 hours), which with "
                                + "the request timeout keeps a stream thread waiting on the registry below Kafka's "
                                + "max.poll.interval.ms (5 min).");
    }

    /**
     * Reads the serde's settings out of a client's configuration.
     *
     * @param configs the producer's or consumer's configuration, not null
     * @return the settings
     * @throws ConfigException naming the setting: missing {@code schema.registry.url}, a wrong value
     *                         or type, a setting of this serde's name space it does not know, or an
     *                         unsupported Confluent setting
     */
    public static KafkaAvroSerdeConfig of(Map<String, ?> configs) {
        Set<String> known = CONFIG.names();
        for (Map.Entry<String, ?> entry : configs.entrySet()) {
            String name = entry.getKey();
            boolean ours = OWN_PREFIXES.stream().anyMatch(name::startsWith);
            if (entry.getValue() == null && (ours || known.contains(name))) {
                throw new ConfigException(name, null, "has no value (null): set a value or leave the setting out");
            }
            if (ours && !known.contains(name)) {
                throw new ConfigException(
                        name,
                        "[hidden]",
                        "not a setting of io.apiary.ingest.serde's Avro" + " serializer/deserializer; its settings are "
                                + new TreeSet<>(known));
            }
            if (UNSUPPORTED.contains(name) && !TOPIC_NAME_STRATEGY.equals(String.valueOf(entry.getValue()))) {
                throw new ConfigException(
                        name,
                        entry.getValue(),
                        "not supported: subjects are always named"
                                + " <topic>-value / <topic>-key, and schemas are used as the registry holds them");
            }
        }
        return new KafkaAvroSerdeConfig(configs);
    }

    /**
     * @return the registry's settings (nothing is contacted)
     * @throws ConfigException naming the setting: a URL that is not http(s) with a host or holds
     *                         credentials, both kinds of authentication, user info without a colon,
     *                         two different user infos, or a TLS store that cannot be read
     */
    public RegistrySettings registrySettings() {
        String user = getPassword(BASIC_AUTH_USER_INFO).value();
        String alias = getPassword(REGISTRY_BASIC_AUTH_USER_INFO).value();
        if (!user.isEmpty() && !alias.isEmpty() && !user.equals(alias)) {
            throw new ConfigException(
                    REGISTRY_BASIC_AUTH_USER_INFO,
                    "[hidden]",
                    "differs from " + BASIC_AUTH_USER_INFO + ": set one of them");
        }
        return RegistrySettings.fromOptions(
                new RegistrySettings.OptionNames(
                        SCHEMA_REGISTRY_URL,
                        user.isEmpty() && !alias.isEmpty() ? REGISTRY_BASIC_AUTH_USER_INFO : BASIC_AUTH_USER_INFO,
                        BEARER_AUTH_TOKEN),
                String.join(",", getList(SCHEMA_REGISTRY_URL)),
                user.isEmpty() ? alias : user,
                getPassword(BEARER_AUTH_TOKEN).value(),
                this::sslContext,
                Duration.ofMillis(getInt(REQUEST_TIMEOUT_MS)),
                getInt(RETRIES));
    }

    /** @return the TLS context of Kafka's {@code ssl.*} settings under {@link #SSL_PREFIX} */
    private SSLContext sslContext() {
        Map<String, Object> ssl = SSL.parse(originalsWithPrefix(SSL_PREFIX));
        for (String store : List.of("ssl.truststore.location", "ssl.keystore.location")) {
            Object location = ssl.get(store);
            if (location != null && !java.nio.file.Files.isReadable(java.nio.file.Path.of(location.toString()))) {
                throw new ConfigException(
                        SSL_PREFIX + store,
                        location,
                        "no readable file there: cannot set up TLS to the schema registry");
            }
        }
        DefaultSslEngineFactory factory = new DefaultSslEngineFactory();
        try {
            factory.configure(ssl);
            return factory.sslContext();
        } catch (KafkaException e) {
            String store = String.valueOf(e.getMessage())
                            .toLowerCase(java.util.Locale.ROOT)
                            .contains("truststore")
                    ? "ssl.truststore.location"
                    : "ssl.keystore.location";
            throw new ConfigException(
                    SSL_PREFIX + store, "[hidden]", "cannot set up TLS to the schema registry: " + e.getMessage());
        }
    }

    /**
     * @param isKey whether for keys
     * @return the generated class the deserializer reads into, or null when it reads
     *         {@code GenericRecord}s of {@link #readerSchema}
     * @throws ConfigException if the class is not a generated Avro class, both or neither of the
     *                         class and the reader schema are set, or {@code specific.avro.reader}
     *                         contradicts them
     */
    public Class<? extends SpecificRecord> specificType(boolean isKey) {
        String typeSetting = isKey ? SPECIFIC_AVRO_KEY_TYPE : SPECIFIC_AVRO_VALUE_TYPE;
        String schemaSetting = isKey ? READER_KEY_SCHEMA : READER_VALUE_SCHEMA;
        Class<?> type = getClass(typeSetting);
        boolean schema = getString(schemaSetting) != null;
        if (type == null && !schema) {
            throw new ConfigException(
                    typeSetting,
                    null,
                    "the deserializer needs what to read into: set " + typeSetting + " (a generated Avro class) or "
                            + schemaSetting + " (GenericRecords of a schema)");
        }
        if (type != null && schema) {
            throw new ConfigException(
                    schemaSetting, "[set]", "set " + typeSetting + " or " + schemaSetting + ", not both");
        }
        if (getBoolean(SPECIFIC_AVRO_READER) && type == null) {
            throw new ConfigException(SPECIFIC_AVRO_READER, true, "true needs " + typeSetting);
        }
        if (type == null) {
            return null;
        }
        if (!SpecificRecord.class.isAssignableFrom(type)) {
            throw new ConfigException(typeSetting, type.getName(), "not a generated Avro class (SpecificRecord)");
        }
        return type.asSubclass(SpecificRecord.class);
    }

    /**
     * @param isKey whether for keys
     * @return the reader schema of {@code avro.reader.key.schema} / {@code avro.reader.value.schema}, or null
     * @throws ConfigException if it is neither valid schema JSON nor a readable class path resource
     */
    public Schema readerSchema(boolean isKey) {
        String setting = isKey ? READER_KEY_SCHEMA : READER_VALUE_SCHEMA;
        String text = getString(setting);
        if (text == null) {
            return null;
        }
        String json = text.trim();
        if (!json.startsWith("{")) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            try (InputStream in = (loader != null ? loader : getClass().getClassLoader())
                    .getResourceAsStream(json.startsWith("/") ? json.substring(1) : json)) {
                if (in == null) {
                    throw new ConfigException(setting, text, "neither schema JSON nor a resource on the class path");
                }
                json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ConfigException(setting, text, "cannot read the resource: " + e.getMessage());
            }
        }
        try {
            Schema schema = new Schema.Parser().parse(json);
            if (schema.getType() != Schema.Type.RECORD) {
                throw new ConfigException(setting, text, "not a record schema but " + schema.getType());
            }
            return schema;
        } catch (SchemaParseException e) {
            throw new ConfigException(setting, text, "not a valid Avro schema: " + e.getMessage());
        }
    }
}
