package io.apiary.ingest.serde;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;

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

    /** No credential in the text. */
    @Override
    public String toString() {
        return "RegistrySettings[urls=" + urls + ", auth="
                + (basicUserInfo != null ? "basic" : bearerToken != null ? "bearer" : "none") + "]";
    }
}
