package io.apiary.ingest.serde;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * Where a schema registry speaking Confluent's REST API is, and how to authenticate to it; and the
 * options of the topics' wire format and of that registry ({@link #define}, {@link #from}). Option
 * names follow Confluent's serdes ({@code schema.registry.url}, {@code
 * schema.registry.basic.auth.user.info}, {@code auto.register.schemas} as {@code
 * schema.registry.auto.register}) so platform teams find them where they expect. Immutable and
 * thread-safe.
 *
 * @param urls            base URLs, tried in order (the next one when one cannot be reached); not
 *                        empty, e.g. {@code http://127.0.0.1:8081} (Confluent) or
 *                        {@code http://127.0.0.1:8081/apis/ccompat/v6} (Apicurio)
 * @param basicUserInfo   {@code user:password} for HTTP basic authentication, or null
 * @param bearerToken     a token for {@code Authorization: Bearer}, or null (not with basic)
 * @param sslContext      the TLS context for {@code https} URLs, or null for the JVM's default
 * @param requestTimeout  how long one HTTP request may take, positive
 * @param retryBackoff    pause before the first retry of a request that found the registry
 *                        unavailable; doubled per retry, positive
 * @param retries         how many times such a request is tried again, 0 to {@link #MAX_RETRIES}
 */
public record RegistrySettings(
        List<URI> urls,
        String basicUserInfo,
        String bearerToken,
        SSLContext sslContext,
        Duration requestTimeout,
        Duration retryBackoff,
        int retries) {

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

    /**
     * The most retries of one request: 8. The pause doubles from {@link #retryBackoff()} (200 ms from the
     * configuration), so 8 retries pause 51 s in all and, with the default 10 s request timeout, hold a
     * stream thread's serde at most about 2.5 min, below Kafka's default {@code max.poll.interval.ms} of
     * 5 min; 20 retries paused 58 hours.
     */
    public static final int MAX_RETRIES = 8;

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if there is no URL, a URL is not http(s), both kinds of authentication
     *                                  are given, the timeout or backoff is not positive, or the retries are
     *                                  outside [0, {@link #MAX_RETRIES}]
     */
    public RegistrySettings {
        urls = List.copyOf(urls);
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("a schema registry needs at least one URL");
        }
        for (URI url : urls) {
            if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
                throw new IllegalArgumentException("schema registry URL must be http or https: " + url);
            }
        }
        if (basicUserInfo != null && bearerToken != null) {
            throw new IllegalArgumentException(
                    "choose basic or bearer authentication for the schema registry, not both");
        }
        if (basicUserInfo != null && basicUserInfo.indexOf(':') < 0) {
            throw new IllegalArgumentException("basic authentication user info must be user:password");
        }
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(retryBackoff, "retryBackoff");
        if (requestTimeout.isNegative()
                || requestTimeout.isZero()
                || retryBackoff.isNegative()
                || retryBackoff.isZero()
                || retries < 0
                || retries > MAX_RETRIES) {
            throw new IllegalArgumentException(
                    "timeouts and backoff must be positive, retries (schema.registry.retries) " + "in [0, "
                            + MAX_RETRIES + "]; were " + requestTimeout + ", " + retryBackoff + ", " + retries);
        }
    }

    /**
     * @param urls comma-separated base URLs, not blank
     * @return settings without authentication or TLS context, 10 s per request, 3 retries from 200 ms
     */
    public static RegistrySettings of(String urls) {
        return new RegistrySettings(
                parseUrls(urls), null, null, null, Duration.ofSeconds(10), Duration.ofMillis(200), 3);
    }

    /**
     * @param urls comma-separated base URLs; blanks around commas are ignored
     * @return the URLs, without a trailing slash
     * @throws IllegalArgumentException if one is not an absolute URI
     */
    public static List<URI> parseUrls(String urls) {
        return java.util.Arrays.stream(urls.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .map(s -> s.endsWith("/") ? s.substring(0, s.length() - 1) : s)
                .map(URI::create)
                .toList();
    }

    /**
     * The names of the options settings come from, for messages.
     *
     * @param url         the option of the URLs, e.g. {@code schema.registry.url}
     * @param userInfo    the option of the basic-auth {@code user:password}
     * @param bearerToken the option of the bearer token
     */
    public record OptionNames(String url, String userInfo, String bearerToken) {}

    /**
     * Settings from configured values, each refusal naming its option (no secret in a message).
     *
     * @param options  the options' names, not null
     * @param urls     comma-separated base URLs, not blank
     * @param userInfo {@code user:password}, or empty for none
     * @param token    a bearer token, or empty for none
     * @param tls      the TLS context, asked only when a URL is {@code https}; not null
     * @param timeout  how long one request may take, positive
     * @param retries  0 to {@link #MAX_RETRIES}
     * @return the settings (nothing is contacted)
     * @throws ConfigException if a URL is not http(s) with a host or holds credentials, both kinds of
     *                         authentication are given, or the user info has no colon; or as {@code tls}
     */
    public static RegistrySettings fromOptions(
            OptionNames options,
            String urls,
            String userInfo,
            String token,
            Supplier<SSLContext> tls,
            Duration timeout,
            int retries) {
        if (!userInfo.isEmpty() && !token.isEmpty()) {
            throw new ConfigException(
                    options.bearerToken(),
                    "[hidden]",
                    "choose basic or bearer authentication for the schema registry, not both");
        }
        if (!userInfo.isEmpty() && userInfo.indexOf(':') < 0) {
            throw new ConfigException(options.userInfo(), "[hidden]", "must be user:password");
        }
        List<URI> parsed;
        try {
            parsed = parseUrls(urls);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(options.url(), urls, e.getMessage());
        }
        if (parsed.isEmpty()) {
            throw new ConfigException(options.url(), urls, "needs at least one registry URL");
        }
        for (URI url : parsed) {
            if (url.getRawUserInfo() != null) {
                throw new ConfigException(
                        options.url(),
                        "[hidden]",
                        "a registry URL must not hold credentials" + " (user:password@): set " + options.userInfo());
            }
            if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
                throw new ConfigException(options.url(), urls, "not an http or https URL with a host: " + url);
            }
        }
        boolean https = parsed.stream().anyMatch(u -> "https".equals(u.getScheme()));
        return new RegistrySettings(
                parsed,
                userInfo.isEmpty() ? null : userInfo,
                token.isEmpty() ? null : token,
                https ? tls.get() : null,
                timeout,
                Duration.ofMillis(200),
                retries);
    }

    /**
     * The registry's settings of a configuration defined with {@link #define} (no client is built,
     * nothing is contacted).
     *
     * @param config the configuration, not null; its {@value #REGISTRY_URL} not blank
     * @param tls    the TLS context of the {@code schema.registry.ssl.*} stores, asked only when a URL
     *               is {@code https}; not null
     * @return the settings
     * @throws ConfigException naming the option: as {@link #fromOptions}
     */
    public static RegistrySettings from(AbstractConfig config, Supplier<SSLContext> tls) {
        return fromOptions(
                new OptionNames(REGISTRY_URL, REGISTRY_BASIC_AUTH_USER_INFO, REGISTRY_BEARER_AUTH_TOKEN),
                config.getString(REGISTRY_URL).trim(),
                config.getPassword(REGISTRY_BASIC_AUTH_USER_INFO).value(),
                config.getPassword(REGISTRY_BEARER_AUTH_TOKEN).value(),
                tls,
                Duration.ofMillis(config.getInt(REGISTRY_REQUEST_TIMEOUT_MS)),
                config.getInt(REGISTRY_RETRIES));
    }

    /**
     * Refuses {@code user:password@} in registry URLs, before the settings are ever logged; the
     * refusal does not repeat the value.
     */
    private static final ConfigDef.Validator NO_CREDENTIALS_IN_URL = ConfigDef.LambdaValidator.with(
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
     * Adds the options of the wire format and the registry ({@code wire.format.*},
     * {@code schema.registry.*}) to a definition. Part of the application's one definition
     * ({@code IngestConfig.definition()}), which calls this: the configuration layer sits above this
     * package, so these options are no {@code OptionGroup}.
     *
     * @param definition the application's definition while it is built, not null; called once
     * @throws ConfigException if one of these names is already defined
     */
    public static void define(ConfigDef definition) {
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

    /** No credential in the text. */
    @Override
    public String toString() {
        return "RegistrySettings[urls=" + urls + ", auth="
                + (basicUserInfo != null ? "basic" : bearerToken != null ? "bearer" : "none") + "]";
    }
}
