package io.apiary.ingest.serde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * A client of the REST API of Confluent Schema Registry (version 1 of its media type), which
 * Apicurio Registry also serves ({@code /apis/ccompat/v6} and {@code /v7}) and Karapace too.
 * Only the calls the pipeline needs: register and look up a schema under a subject, fetch a schema
 * by id, list a subject's versions, read and set a subject's compatibility level.
 *
 * <p>Why our own client: the registry-aware Avro serdes on Maven Central (Apicurio's) fetch
 * schemas through Apicurio's own API, so they cannot run against Confluent Schema Registry, and
 * Confluent's serdes are not on Maven Central. The wire format both write is the same (byte 0, a
 * 4-byte big-endian schema id, the Avro body), and that is what {@link AvroWireSerde} writes
 * with Avro's own encoders.
 *
 * <p>Schemas by id and ids by (subject, schema) are cached for the life of the client: an id
 * names one schema forever in this API. Requests that find the registry unavailable (no answer,
 * a timeout, 5xx) are tried again {@link RegistrySettings#retries()} times with a doubling
 * backoff, then on the next URL (the URL that answered last is tried first); registering is safe to retry (registering a schema that is
 * already there returns its id). A failed TLS handshake with an {@code https} URL (a certificate
 * the client does not trust, a host name it does not name) is such a failure too, never bad input,
 * and its message says which trust settings to check.
 *
 * <p>Thread-safe. Credentials never appear in messages or logs.
 */
public final class SchemaRegistryClient {

    /**
     * What Apicurio Registry 2.x (SQL storage) answers, with HTTP 500, to every look-up of a subject
     * that holds one schema twice, as two concurrent registrations of it can leave it (seen with
     * 2.1.5 in CI, when the topology and the sink started together).
     */
    static final String APICURIO_DUPLICATE = "Expected only one result but got multiple";

    private static final String APICURIO_DUPLICATE_HINT = " (Apicurio Registry holds one schema twice under this"
            + " subject, as concurrent registrations can leave it, and fails every look-up of the subject"
            + " while it does: a retry cannot undo it, the duplicate version must be removed in the registry;"
            + " to avoid it, register subjects one at a time with `ingest-app registry register` before"
            + " starting several instances, as deploy/'s registry Job does)";

    /**
     * The compatibility levels of Confluent's API ({@code PUT /config/{subject}}), which Apicurio
     * Registry's Confluent-compatible API accepts too.
     */
    public static final List<String> COMPATIBILITY_LEVELS = List.of(
            "NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE");

    /** The media type of Confluent's API, version 1. */
    public static final String MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RegistrySettings settings;
    private final HttpClient http;
    private final String authorization;
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<String, Integer> idsBySubjectAndSchema = new ConcurrentHashMap<>();
    private final RegistryAvailability availability;
    private volatile int preferredUrl; // the URL that answered last: tried first

    /**
     * Added to the longest a failing request takes, for how long an outage lasts without another failed
     * request ({@link RegistryAvailability}): a stream thread that stopped on the outage is replaced, rejoins
     * its group and reads the waiting record again within it.
     */
    private static final java.time.Duration THREAD_REPLACEMENT = java.time.Duration.ofMinutes(1);

    /**
     * @param settings where the registry is and how to authenticate, not null
     */
    public SchemaRegistryClient(RegistrySettings settings) {
        this.settings = Objects.requireNonNull(settings);
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(settings.requestTimeout())
                .version(HttpClient.Version.HTTP_1_1);
        if (settings.sslContext() != null) {
            builder.sslContext(settings.sslContext());
        }
        this.http = builder.build();
        if (settings.basicUserInfo() != null) {
            authorization = "Basic "
                    + Base64.getEncoder()
                            .encodeToString(settings.basicUserInfo().getBytes(StandardCharsets.UTF_8));
        } else if (settings.bearerToken() != null) {
            authorization = "Bearer " + settings.bearerToken();
        } else {
            authorization = null;
        }
        // the longest gap between two failed attempts of one waiting record: a timeout, the longest backoff
        java.time.Duration attemptGap = settings.requestTimeout()
                .plus(settings.retryBackoff().multipliedBy(1L << settings.retries()))
                .plus(THREAD_REPLACEMENT);
        this.availability = new RegistryAvailability(attemptGap, System::nanoTime);
    }

    /**
     * @return whether the registry serves this client's requests, as its last requests found it;
     *         shared by every user of this client
     */
    public RegistryAvailability availability() {
        return availability;
    }

    /** @return the settings (their text holds no credential) */
    public RegistrySettings settings() {
        return settings;
    }

    /**
     * Registers a schema under a subject, or finds it there.
     *
     * @param subject the subject, e.g. {@code hive.telemetry.v1-value}; not null
     * @param schema  an Avro schema, not null
     * @return its id in the registry
     * @throws SchemaRegistryException 409 if the subject's compatibility level refuses it (with
     *                                 {@code error_code} 409 from Confluent's registry, 0 from
     *                                 Apicurio Registry 2.x), 422 if the registry finds it invalid, or
     *                                 unavailable
     */
    public int register(String subject, Schema schema) {
        String key = subject + '\n' + schema.toString();
        Integer known = idsBySubjectAndSchema.get(key);
        if (known != null) {
            return known;
        }
        JsonNode answer = call(
                "POST",
                "/subjects/" + encode(subject) + "/versions",
                schemaBody(schema),
                "register a schema under subject " + subject);
        int id = answer.path("id").asInt(-1);
        if (id < 0) {
            throw new SchemaRegistryException(
                    "The registry's answer to registering under " + subject + " holds no id: " + answer, 200, 0, null);
        }
        idsBySubjectAndSchema.put(key, id);
        schemasById.putIfAbsent(id, schema);
        return id;
    }

    /**
     * Looks up the id of a schema under a subject without registering it: first by the text the
     * client registers ({@link Schema#toString()}), then, if the registry finds none, once more with
     * {@code ?normalize=true}. Confluent's registry parses the text before comparing, so the second
     * request finds nothing new there; Apicurio Registry 2.x compares the raw text and only matches a
     * version registered with other white space or another order of JSON attributes (by a gateway,
     * from a {@code .avsc} file) when asked to normalize. Neither matches a schema that differs in a
     * property or {@code doc}.
     *
     * @param subject the subject, not null
     * @param schema  the schema, not null
     * @return its id, or empty if the subject does not exist or does not hold the schema
     * @throws SchemaRegistryException if the registry is unavailable or refuses the request
     */
    public OptionalInt lookup(String subject, Schema schema) {
        String key = subject + '\n' + schema.toString();
        Integer known = idsBySubjectAndSchema.get(key);
        if (known != null) {
            return OptionalInt.of(known);
        }
        OptionalInt id = lookupOnce(subject, schema, "");
        if (id.isEmpty()) {
            id = lookupOnce(subject, schema, "?normalize=true");
        }
        if (id.isPresent()) {
            idsBySubjectAndSchema.put(key, id.getAsInt());
            schemasById.putIfAbsent(id.getAsInt(), schema);
        }
        return id;
    }

    private OptionalInt lookupOnce(String subject, Schema schema, String query) {
        try {
            JsonNode answer = call(
                    "POST",
                    "/subjects/" + encode(subject) + query,
                    schemaBody(schema),
                    "look up a schema under subject " + subject);
            int id = answer.path("id").asInt(-1);
            return id < 0 ? OptionalInt.empty() : OptionalInt.of(id);
        } catch (SchemaRegistryException e) {
            if (e.notFound()) {
                return OptionalInt.empty();
            }
            throw e;
        }
    }

    /**
     * @param id a schema id
     * @return the schema with that id (cached after the first call)
     * @throws SchemaRegistryException 404 if there is none, or unavailable; or if the registry's
     *                                 schema is not valid Avro
     */
    public Schema schemaById(int id) {
        Schema known = schemasById.get(id);
        if (known != null) {
            return known;
        }
        JsonNode answer = call("GET", "/schemas/ids/" + id, null, "fetch schema id " + id);
        Schema schema = parse(answer, "schema id " + id);
        Schema previous = schemasById.putIfAbsent(id, schema);
        return previous == null ? schema : previous;
    }

    /**
     * @param subject the subject, not null
     * @return the subject's versions in ascending order; empty if the subject does not exist
     * @throws SchemaRegistryException if the registry is unavailable or refuses the request
     */
    public List<Integer> versions(String subject) {
        try {
            JsonNode answer = call(
                    "GET",
                    "/subjects/" + encode(subject) + "/versions",
                    null,
                    "list the versions of subject " + subject);
            List<Integer> versions = new ArrayList<>();
            answer.forEach(v -> versions.add(v.asInt()));
            versions.sort(null);
            return versions;
        } catch (SchemaRegistryException e) {
            if (e.notFound()) {
                return List.of();
            }
            throw e;
        }
    }

    /**
     * One version of a subject.
     *
     * @param version the version number
     * @param id      its schema id
     * @param schema  its schema
     */
    public record SubjectVersion(int version, int id, Schema schema) {}

    /**
     * @param subject the subject, not null
     * @param version one of {@link #versions}, or -1 for the latest (the registry's own choice)
     * @return that version's number, id and schema
     * @throws SchemaRegistryException 404 if there is no such version, or unavailable
     */
    public SubjectVersion version(String subject, int version) {
        JsonNode answer = call(
                "GET",
                "/subjects/" + encode(subject) + "/versions/" + version,
                null,
                "fetch version " + version + " of subject " + subject);
        Schema schema = parse(answer, "version " + version + " of subject " + subject);
        int id = answer.path("id").asInt(-1);
        if (id >= 0) {
            schemasById.putIfAbsent(id, schema);
        }
        return new SubjectVersion(answer.path("version").asInt(version), id, schema); // -1 asks for the latest
    }

    /**
     * Deletes one version of a subject (Confluent's soft delete: {@code DELETE
     * /subjects/{subject}/versions/{version}}). Confluent Schema Registry keeps the schema's id
     * readable after it; Apicurio Registry 2.x does so only while another subject holds the same
     * schema.
     *
     * @param subject the subject, not null
     * @param version one of {@link #versions}
     * @return whether it deleted it; false if the subject holds no such version (any more)
     * @throws SchemaRegistryException if the registry refuses the request or is unavailable
     */
    public boolean deleteVersion(String subject, int version) {
        return deleteVersion(subject, version, false);
    }

    /**
     * Deletes one version of a subject, softly as {@link #deleteVersion(String, int)} does or, with
     * {@code permanent}, for good (Confluent's {@code ?permanent=true}, allowed there only after a
     * soft delete; Apicurio Registry 2.4 needs it to drop a version from the subject's list at all).
     *
     * @param subject   the subject, not null
     * @param version   one of {@link #versions}
     * @param permanent whether to delete it for good
     * @return whether it deleted it; false if the subject holds no such version (any more)
     * @throws SchemaRegistryException if the registry refuses the request or is unavailable
     */
    public boolean deleteVersion(String subject, int version, boolean permanent) {
        try {
            call(
                    "DELETE",
                    "/subjects/" + encode(subject) + "/versions/" + version + (permanent ? "?permanent=true" : ""),
                    null,
                    (permanent ? "permanently " : "") + "delete version " + version + " of subject " + subject);
            idsBySubjectAndSchema.keySet().removeIf(k -> k.startsWith(subject + '\n')); // ids by id stay
            return true;
        } catch (SchemaRegistryException e) {
            if (e.notFound()) {
                return false;
            }
            throw e;
        }
    }

    /**
     * @param subject the subject, not null
     * @return the subject's own compatibility level (e.g. {@code FULL_TRANSITIVE}), or empty when
     *         it has none of its own (the registry's global level applies; Confluent's registry
     *         answers 404 with 40408 then, while Apicurio Registry 2.x answers with its global level,
     *         which this then returns)
     * @throws SchemaRegistryException if the registry is unavailable or refuses the request
     */
    public Optional<String> compatibility(String subject) {
        try {
            JsonNode answer = call(
                    "GET", "/config/" + encode(subject), null, "read the compatibility level of subject " + subject);
            String level = answer.path("compatibilityLevel")
                    .asText(answer.path("compatibility").asText(""));
            return level.isEmpty() ? Optional.empty() : Optional.of(level);
        } catch (SchemaRegistryException e) {
            if (e.notFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Sets a subject's compatibility level. The subject need not exist yet.
     *
     * @param subject the subject, not null
     * @param level   one of {@link #COMPATIBILITY_LEVELS}; not null
     * @throws IllegalArgumentException if the level is not one of them, before any request (Confluent's
     *                                  registry answers 422 to an unknown level, Apicurio Registry 2.x a
     *                                  500 that would read as unavailable)
     * @throws SchemaRegistryException  if the registry refuses it or is unavailable
     */
    public void setCompatibility(String subject, String level) {
        if (!COMPATIBILITY_LEVELS.contains(Objects.requireNonNull(level))) {
            throw new IllegalArgumentException("Unknown compatibility level '" + level + "' for subject " + subject
                    + ": use one of " + COMPATIBILITY_LEVELS);
        }
        ObjectNode body = JSON.createObjectNode().put("compatibility", level);
        call("PUT", "/config/" + encode(subject), body.toString(), "set the compatibility level of subject " + subject);
    }

    private static String schemaBody(Schema schema) {
        return JSON.createObjectNode().put("schema", schema.toString()).toString();
    }

    /**
     * @param failure an I/O failure of a request
     * @return the TLS failure in it or its causes (a certificate not trusted, a host name it does not
     *         name, no common protocol), or null when it is no TLS failure
     */
    static javax.net.ssl.SSLException tlsFailure(IOException failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException tls) {
                return tls;
            }
        }
        return null;
    }

    private static Schema parse(JsonNode answer, String what) {
        String text = answer.path("schema").asText("");
        String type = answer.path("schemaType").asText("AVRO");
        if (!"AVRO".equals(type)) {
            throw new SchemaRegistryException(what + " is a " + type + " schema, not Avro", 200, 0, null);
        }
        try {
            return new Schema.Parser().setValidateDefaults(true).parse(text);
        } catch (SchemaParseException e) {
            throw new SchemaRegistryException(what + " is not a valid Avro schema: " + e.getMessage(), 200, 0, e);
        }
    }

    private static String encode(String pathSegment) {
        return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private JsonNode call(String method, String path, String body, String what) {
        SchemaRegistryException last = null;
        List<URI> urls = settings.urls();
        int first = preferredUrl;
        for (int u = 0; u < urls.size(); u++) {
            int index = (first + u) % urls.size();
            URI base = urls.get(index);
            long backoff = settings.retryBackoff().toMillis();
            for (int attempt = 0; attempt <= settings.retries(); attempt++) {
                try {
                    JsonNode answer = once(base, method, path, body, what);
                    preferredUrl = index;
                    availability.answered();
                    return answer;
                } catch (SchemaRegistryException e) {
                    if (!e.unavailable()) {
                        availability.answered();
                        throw e;
                    }
                    if (!Thread.currentThread().isInterrupted()) { // a shutdown, not the registry
                        availability.failed(e);
                    }
                    last = e;
                }
                if (attempt < settings.retries()) {
                    try {
                        Thread.sleep(backoff);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new SchemaRegistryException("Interrupted while trying to " + what, 0, 0, e);
                    }
                    backoff *= 2;
                }
            }
        }
        throw last;
    }

    private JsonNode once(URI base, String method, String path, String body, String what) {
        URI uri = URI.create(base + path);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(settings.requestTimeout())
                .header("Accept", MEDIA_TYPE + ", application/json");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", MEDIA_TYPE)
                    .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            javax.net.ssl.SSLException tls = tlsFailure(e);
            if (tls != null) {
                throw new SchemaRegistryException(
                        "Cannot " + what + ": the TLS handshake with the schema registry at " + base + " failed ("
                                + tls.getClass().getSimpleName() + ": " + tls.getMessage() + "). Trust the CA of the"
                                + " registry's certificate (schema.registry.ssl.truststore.path and .password; for the Kafka"
                                + " serdes schema.registry.ssl.truststore.location; without them the JVM's default"
                                + " trust store) and use a host name the certificate names",
                        0,
                        0,
                        e);
            }
            throw new SchemaRegistryException(
                    "Cannot " + what + ": schema registry at " + base
                            + " unreachable (" + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")",
                    0,
                    0,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaRegistryException("Interrupted while trying to " + what, 0, 0, e);
        }
        JsonNode json;
        boolean jsonBody = true;
        try {
            json = response.body().isBlank() ? JSON.nullNode() : JSON.readTree(response.body());
        } catch (IOException e) {
            json = JSON.nullNode();
            jsonBody = false;
        }
        int status = response.statusCode();
        if (status / 100 == 2 && jsonBody) {
            return json;
        }
        int errorCode = json.path("error_code").asInt(0);
        String message = json.path("message").asText("");
        if (message.isEmpty()) {
            String text = response.body();
            message = text.length() > 300 ? text.substring(0, 300) + "..." : text;
        }
        boolean misrouted = status / 100 == 2 || status / 100 == 3 || (status == 404 && errorCode / 100 != 404);
        throw new SchemaRegistryException(
                "Cannot " + what + ": schema registry at " + base + " answered HTTP " + status
                        + (errorCode != 0 ? " (error " + errorCode + ")" : "") + ": " + message
                        + (message.contains(APICURIO_DUPLICATE) ? APICURIO_DUPLICATE_HINT : "")
                        + (misrouted
                                ? " (not a schema registry's answer: check schema.registry.url, e.g. Apicurio's"
                                        + " needs /apis/ccompat/v7)"
                                : ""),
                status,
                errorCode,
                misrouted,
                null);
    }
}
