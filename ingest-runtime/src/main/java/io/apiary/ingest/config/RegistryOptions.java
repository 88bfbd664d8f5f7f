package io.apiary.ingest.config;

import io.apiary.ingest.serde.KafkaAvroSerdeConfig;
import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.serde.SchemaRegistryClient;
import io.apiary.ingest.serde.WireFormat;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The options of the topics' wire format and of the schema registry behind it (see
 * {@link WireFormat}). Option names follow Confluent's serdes ({@code schema.registry.url},
 * {@code schema.registry.basic.auth.user.info}, {@code auto.register.schemas} as
 * {@code schema.registry.auto.register}) so platform teams find them where they expect. Part of
 * {@link IngestConfig#definition()}. Thread-safe (constants only).
 */
public final class RegistryOptions {

    public static final String WIRE_FORMAT_WRITE = "wire.format.write";
    public static final String WIRE_FORMAT_READ_SINGLE_OBJECT = "wire.format.read.single.object";
    public static final String REGISTRY_URL = "schema.registry.url";
    public static final String REGISTRY_BASIC_AUTH_USER_INFO = "schema.registry.basic.auth.user.info";
    public static final String REGISTRY_BEARER_AUTH_TOKEN = "schema.registry.bearer.auth.token";
    public static final String REGISTRY_SSL_TRUSTSTORE_PATH = "schema.registry.ssl.truststore.path";
    public static final String REGISTRY_SSL_TRUSTSTORE_PASSWORD = "schema.registry.ssl.truststore.password";
    public static final String REGISTRY_SSL_KEYSTORE_PATH = "schema.registry.ssl.keystore.path";
    public static final String REGISTRY_SSL_KEYSTORE_PASSWORD = "schema.registry.ssl.keystore.password";
    public static final String REGISTRY_REQUEST_TIMEOUT_MS = KafkaAvroSerdeConfig.REQUEST_TIMEOUT_MS;
    public static final String REGISTRY_RETRIES = KafkaAvroSerdeConfig.RETRIES;
    public static final String REGISTRY_AUTO_REGISTER = "schema.registry.auto.register";

    private RegistryOptions() {}

    /**
     * Refuses {@code user:password@} in registry URLs, before the settings are ever logged; the
     * refusal does not repeat the value.
     */
    static final ConfigDef.Validator NO_CREDENTIALS_IN_URL = ConfigDef.LambdaValidator.with(
            (name, value) -> {
                for (String url : String.valueOf(value).split(",")) {
                    String text = url.trim();
                    int scheme = text.indexOf("://");
                    int end = text.indexOf('/', scheme < 0 ? 0 : scheme + 3);
                    String authority = text.substring(scheme < 0 ? 0 : scheme + 3, end < 0 ? text.length() : end);
                    if (authority.contains("@")) {
                        throw new ConfigException(
                                name,
                                "[hidden]",
                                "a registry URL must not hold credentials (user:password@):" + " set them in "
                                        + REGISTRY_BASIC_AUTH_USER_INFO + ", from a Secret");
                    }
                }
            },
            () -> "http(s) URLs without credentials, comma-separated");

    /**
     * Adds the options to a definition.
     *
     * @param definition the application's definition, not null
     */
    static void define(ConfigDef definition) {
        definition
                .define(
                        WIRE_FORMAT_WRITE,
                        Type.STRING,
                        WireFormat.Framing.REGISTRY.setting(),
                        ConfigDef.ValidString.in("registry", "single-object"),
                        Importance.HIGH,
                        "Framing of the Avro keys and values the application writes: 'registry' (byte 0, the "
                                + "4-byte schema id, the Avro body; schemas in the registry at schema.registry.url, "
                                + "subjects <topic>-value and <topic>-key) or 'single-object' (Avro's single-object "
                                + "encoding, C3 01 and the schema fingerprint; the schemas kept in schemas/). "
                                + "Readers accept both, told apart by the first byte.")
                .define(
                        WIRE_FORMAT_READ_SINGLE_OBJECT,
                        Type.BOOLEAN,
                        true,
                        Importance.MEDIUM,
                        "Whether single-object encoded records are still read. Set false once no producer "
                                + "writes them: such records are then dead-lettered with reason "
                                + "UNDECODABLE and a message naming this setting.")
                .define(
                        REGISTRY_URL,
                        Type.STRING,
                        "",
                        NO_CREDENTIALS_IN_URL,
                        Importance.HIGH,
                        "Base URL(s), comma-separated, of a schema registry speaking Confluent's REST API: "
                                + "Confluent Schema Registry (http://host:8081), Apicurio Registry "
                                + "(http://host:8080/apis/ccompat/v6) or Karapace. Required when "
                                + "wire.format.write=registry; with several, the next is tried when one is "
                                + "unreachable. No credentials in the URL (they would be logged with the settings): "
                                + "use schema.registry.basic.auth.user.info.")
                .define(
                        REGISTRY_BASIC_AUTH_USER_INFO,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "user:password for HTTP basic authentication to the registry; set it from a Secret, "
                                + "e.g. APIARY_SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO. Never logged.")
                .define(
                        REGISTRY_BEARER_AUTH_TOKEN,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "A token sent as 'Authorization: Bearer' to the registry (not with basic "
                                + "authentication). Never logged.")
                .define(
                        REGISTRY_SSL_TRUSTSTORE_PATH,
                        Type.STRING,
                        "",
                        Importance.MEDIUM,
                        "Trust store (PKCS12 or JKS) for https registry URLs; empty uses the JVM's default.")
                .define(
                        REGISTRY_SSL_TRUSTSTORE_PASSWORD,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "Password of the registry trust store; never logged.")
                .define(
                        REGISTRY_SSL_KEYSTORE_PATH,
                        Type.STRING,
                        "",
                        Importance.LOW,
                        "Key store (PKCS12 or JKS) with this client's key and certificate, when the registry "
                                + "requires client certificates; empty sends none.")
                .define(
                        REGISTRY_SSL_KEYSTORE_PASSWORD,
                        Type.PASSWORD,
                        "",
                        Importance.LOW,
                        "Password of the registry key store and of its key; never logged.");
        KafkaAvroSerdeConfig.defineRequestLimits(definition);
        definition.define(
                REGISTRY_AUTO_REGISTER,
                Type.BOOLEAN,
                true,
                Importance.MEDIUM,
                "Whether the application registers its schemas under their subjects when they are "
                        + "missing (at start, and a writer's on first use), as Confluent's "
                        + "auto.register.schemas. Set false where only 'registry register' (a setup step "
                        + "with more rights) may change the registry: start then refuses missing subjects.");
    }

    /**
     * Builds the wire format a configuration asks for (one registry client per call: callers keep it).
     *
     * @param config the configuration, not null
     * @return the wire format
     * @throws ConfigException if registry framing is asked for without a URL, a URL is malformed,
     *                         both basic and bearer authentication are set, or a TLS store cannot be read
     */
    static WireFormat wireFormat(IngestConfig config) {
        WireFormat.Framing write = WireFormat.Framing.parse(config.getString(WIRE_FORMAT_WRITE));
        String urls = config.getString(REGISTRY_URL).trim();
        SchemaRegistryClient client = null;
        if (urls.isEmpty()) {
            if (write == WireFormat.Framing.REGISTRY) {
                throw new ConfigException(
                        REGISTRY_URL,
                        "",
                        "wire.format.write=registry (the default) needs the URL "
                                + "of a schema registry speaking Confluent's API (e.g. http://127.0.0.1:8081, or an Apicurio "
                                + "registry's /apis/ccompat/v6); `ingest-app devstack` prints the local one. Or set "
                                + "wire.format.write=single-object.");
            }
        } else {
            client = new SchemaRegistryClient(settings(config, urls));
        }
        return new WireFormat(
                write,
                config.getBoolean(WIRE_FORMAT_READ_SINGLE_OBJECT),
                client,
                config.getBoolean(REGISTRY_AUTO_REGISTER));
    }

    /**
     * @param config the configuration, not null
     * @param urls   its registry URLs, not blank
     * @return the registry client's settings (no client is built, nothing is contacted)
     * @throws ConfigException as {@link #wireFormat}
     */
    static RegistrySettings settings(IngestConfig config, String urls) {
        return RegistrySettings.fromOptions(
                new RegistrySettings.OptionNames(
                        REGISTRY_URL, REGISTRY_BASIC_AUTH_USER_INFO, REGISTRY_BEARER_AUTH_TOKEN),
                urls,
                config.getPassword(REGISTRY_BASIC_AUTH_USER_INFO).value(),
                config.getPassword(REGISTRY_BEARER_AUTH_TOKEN).value(),
                () -> TlsStores.context(
                        config,
                        REGISTRY_SSL_TRUSTSTORE_PATH,
                        REGISTRY_SSL_TRUSTSTORE_PASSWORD,
                        REGISTRY_SSL_KEYSTORE_PATH,
                        REGISTRY_SSL_KEYSTORE_PASSWORD,
                        "the schema registry"),
                Duration.ofMillis(config.getInt(REGISTRY_REQUEST_TIMEOUT_MS)),
                config.getInt(REGISTRY_RETRIES));
    }
}
