package io.apiary.ingest.serde;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.config.ConfigException;

/**
 * Where a schema registry speaking Confluent's REST API is, and how to authenticate to it.
 * Immutable and thread-safe.
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

    /** No credential in the text. */
    @Override
    public String toString() {
        return "RegistrySettings[urls=" + urls + ", auth="
                + (basicUserInfo != null ? "basic" : bearerToken != null ? "bearer" : "none") + "]";
    }
}
