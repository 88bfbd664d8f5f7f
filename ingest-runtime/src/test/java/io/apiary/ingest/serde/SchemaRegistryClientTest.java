package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.apiary.schema.TelemetryReading;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Our registry client's and framing's own logic against a scripted HTTP server (answers given in
 * order): requests and headers, retries, failover, error mapping, the framing's checks. The real
 * registry is in {@code RegistryWireFormatIT}.
 */
class SchemaRegistryClientTest {

    private record Answer(int status, String body) {}

    private HttpServer server;
    private final Deque<Answer> answers = new ArrayDeque<>();
    private final List<String> requests = new ArrayList<>();
    private final List<String> authorizations = new ArrayList<>();

    @org.junit.jupiter.api.BeforeAll
    static void jdkServerLimitsFirst() throws ClassNotFoundException {
        // The JDK's HTTP server reads its limits once, when its first server is created: let the
        // application's endpoints set theirs first, as in the application (HttpEndpointsTest relies on them).
        Class.forName("io.apiary.ingest.service.HttpEndpoints", true, SchemaRegistryClientTest.class.getClassLoader());
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (this) {
                requests.add(exchange.getRequestMethod() + " "
                        + exchange.getRequestURI().getRawPath()
                        + (exchange.getRequestURI().getRawQuery() == null
                                ? ""
                                : "?" + exchange.getRequestURI().getRawQuery())
                        + (body.isEmpty() ? "" : " " + body));
                authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            }
            Answer answer;
            synchronized (answers) {
                answer = answers.isEmpty()
                        ? new Answer(500, "{\"error_code\":50001,\"message\":\"script ended\"}")
                        : answers.poll();
            }
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/apis/ccompat/v7");
    }

    private SchemaRegistryClient client(String basic, String bearer, URI... urls) {
        return new SchemaRegistryClient(new RegistrySettings(
                List.of(urls), basic, bearer, null, Duration.ofSeconds(2), Duration.ofMillis(1), 2));
    }

    private void answer(int status, String body) {
        answers.add(new Answer(status, body));
    }

    @Test
    void registers_under_the_subject_path_with_basic_authentication_and_caches_the_id() {
        answer(200, "{\"id\":7}");
        SchemaRegistryClient client = client("ann:s3cret", null, url());

        assertThat(client.register("hive.telemetry.v1-value", TelemetryReading.getClassSchema()))
                .isEqualTo(7);
        assertThat(client.register("hive.telemetry.v1-value", TelemetryReading.getClassSchema()))
                .isEqualTo(7);
        assertThat(client.schemaById(7)).isEqualTo(TelemetryReading.getClassSchema());

        assertThat(requests).hasSize(1);
        assertThat(requests.get(0))
                .startsWith("POST /apis/ccompat/v7/subjects/hive.telemetry.v1-value/versions {\"schema\":");
        assertThat(authorizations).containsExactly("Basic YW5uOnMzY3JldA==");
        assertThat(client.settings().toString()).doesNotContain("s3cret").contains("auth=basic");
    }

    @Test
    void sends_a_bearer_token_when_given_one() {
        answer(200, "[1,2]");
        assertThat(client(null, "tok-1", url()).versions("s-value")).containsExactly(1, 2);
        assertThat(authorizations).containsExactly("Bearer tok-1");
    }

    @Test
    void retries_a_registry_answering_5xx_and_then_succeeds() {
        answer(500, "{\"error_code\":50001,\"message\":\"Error while storing\"}");
        answer(503, "");
        answer(200, "{\"id\":3}");
        assertThat(client(null, null, url()).register("s-value", TelemetryReading.getClassSchema()))
                .isEqualTo(3);
        assertThat(requests).hasSize(3);
    }

    @Test
    void its_availability_shows_an_outage_from_a_failed_request_until_the_registry_answers_again() {
        SchemaRegistryClient client = client(null, null, url());
        for (int i = 0; i < 3; i++) {
            answer(503, "{\"error_code\":50301,\"message\":\"down\"}");
        }
        assertThatThrownBy(() -> client.schemaById(9)).isInstanceOf(SchemaRegistryException.class);
        assertThat(client.availability().outage()).hasValueSatisfying(outage -> {
            assertThat(outage.failures()).isEqualTo(3);
            assertThat(outage.lastError()).contains("fetch schema id 9", "HTTP 503");
        });

        answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
        assertThatThrownBy(() -> client.schemaById(9)).isInstanceOf(SchemaRegistryException.class);
        assertThat(client.availability().outage()).as("a 404 is an answer").isEmpty();
    }

    @Test
    void gives_up_after_its_retries_with_an_unavailable_error_that_names_the_request() {
        for (int i = 0; i < 3; i++) {
            answer(500, "{\"error_code\":50001,\"message\":\"down\"}");
        }
        assertThatThrownBy(() -> client(null, null, url()).schemaById(9))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("fetch schema id 9")
                .hasMessageContaining("HTTP 500")
                .satisfies(e ->
                        assertThat(((SchemaRegistryException) e).unavailable()).isTrue());
        assertThat(requests).hasSize(3);
    }

    @Test
    void says_what_to_do_when_apicurio_holds_a_schema_twice_under_a_subject() {
        for (int i = 0; i < 3; i++) {
            answer(
                    500,
                    "{\"error_code\":500,\"message\":\"io.apicurio.registry.storage.impl.sql.jdb.RuntimeSqlException:"
                            + " SQL error: Expected only one result but got multiple.\"}");
        }
        assertThatThrownBy(() -> client(null, null, url()).lookup("s-value", TelemetryReading.getClassSchema()))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("HTTP 500")
                .hasMessageContaining("holds one schema twice under this subject")
                .hasMessageContaining("ingest-app registry register");
    }

    @Test
    void moves_to_the_next_url_when_one_is_unreachable() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        answer(200, "{\"schema\":\"\\\"string\\\"\"}");
        SchemaRegistryClient client = client(null, null, URI.create("http://127.0.0.1:" + closed), url());
        assertThat(client.schemaById(4).getType()).isEqualTo(org.apache.avro.Schema.Type.STRING);
    }

    @Test
    void a_failed_tls_handshake_is_unavailable_with_a_message_naming_the_trust_settings() throws Exception {
        // an https URL of a server answering plain text: the JDK's client fails the handshake
        try (ServerSocket plain = new ServerSocket(0, 10, java.net.InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> {
                while (!plain.isClosed()) {
                    try (java.net.Socket s = plain.accept()) {
                        s.getOutputStream()
                                .write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                                        .getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        return; // closed
                    }
                }
            });
            answering.setDaemon(true);
            answering.start();
            URI https = URI.create("https://127.0.0.1:" + plain.getLocalPort() + "/apis/ccompat/v7");
            assertThatThrownBy(() -> client(null, null, https).schemaById(3))
                    .isInstanceOf(SchemaRegistryException.class)
                    .hasMessageContaining("Cannot fetch schema id 3: the TLS handshake with the schema registry at "
                            + https + " failed (SSLException: Unrecognized SSL message, plaintext connection?)")
                    .hasMessageContaining("schema.registry.ssl.truststore.path")
                    .satisfies(e -> assertThat(((SchemaRegistryException) e).unavailable())
                            .isTrue());
        }
        assertThat(SchemaRegistryClient.tlsFailure(new IOException("closed"))).isNull();
    }

    /** The answers to register() on a subject whose one version holds the Java flavour with id 5, until the DELETE. */
    private SchemaSubjects.Subject javaFlavouredSubject(int supersededId) {
        String java = com.fasterxml.jackson.databind.node.TextNode.valueOf(
                        TelemetryReading.getClassSchema().toString())
                .toString();
        answer(200, "[1]"); // versions
        answer(200, "{\"subject\":\"t-value\",\"version\":1,\"id\":5,\"schema\":" + java + "}");
        answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");
        answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}"); // lookup of the published text
        answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}"); // the same, normalized
        answer(200, "{\"id\":6}"); // registered
        answer(200, "{\"id\":" + supersededId + "}"); // under t-value-superseded
        return SchemaSubjects.Subject.ofSchema("t", false, TelemetryReading.getClassSchema());
    }

    @Test
    void a_java_flavoured_version_is_deleted_once_the_superseded_subject_holds_its_id() {
        SchemaSubjects.Subject subject = javaFlavouredSubject(5);
        answer(200, "1"); // deleted
        answer(200, "[2]"); // gone from the subject's versions
        answer(200, "{\"id\":6}"); // lookup
        answer(200, "[2]");
        answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");

        assertThat(SchemaSubjects.register(client(null, null, url()), subject))
                .isEqualTo(new SchemaSubjects.Outcome("t-value", 6, -1, 1, 1, 1, "FULL_TRANSITIVE"));
        assertThat(requests)
                .extracting(r -> r.split(" ")[0] + " " + r.split(" ")[1])
                .contains(
                        "POST /apis/ccompat/v7/subjects/t-value-superseded/versions",
                        "DELETE /apis/ccompat/v7/subjects/t-value/versions/1");
    }

    @Test
    void a_java_flavoured_version_still_listed_after_a_permanent_delete_counts_as_left_not_superseded() {
        SchemaSubjects.Subject subject = javaFlavouredSubject(5);
        answer(200, "1"); // delete answered (Apicurio Registry 2.4 only disables the version)
        answer(200, "[1,2]"); // still listed
        answer(200, "1"); // permanent delete answered
        answer(200, "[1,2]"); // still listed: left
        answer(200, "{\"id\":6}"); // lookup
        answer(200, "[1,2]");
        answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");

        assertThat(SchemaSubjects.register(client(null, null, url()), subject))
                .isEqualTo(new SchemaSubjects.Outcome("t-value", 6, 5, 2, 1, 0, "FULL_TRANSITIVE"));
    }

    @Test
    void a_migration_that_stopped_after_registering_the_published_text_is_finished_by_the_next_run() {
        String java = com.fasterxml.jackson.databind.node.TextNode.valueOf(
                        TelemetryReading.getClassSchema().toString())
                .toString();
        String published = com.fasterxml.jackson.databind.node.TextNode.valueOf(
                        PublishedSchemas.of(TelemetryReading.getClassSchema()).toString())
                .toString();
        answer(200, "[1,2]"); // versions
        answer(200, "{\"subject\":\"t-value\",\"version\":1,\"id\":5,\"schema\":" + java + "}");
        answer(200, "{\"subject\":\"t-value\",\"version\":2,\"id\":6,\"schema\":" + published + "}");
        answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");
        answer(200, "{\"id\":6}"); // lookup of the published text: there
        answer(200, "{\"id\":5}"); // the old text under t-value-superseded keeps its id
        answer(200, "1"); // deleted
        answer(200, "[2]"); // gone
        answer(200, "{\"id\":6}"); // lookup
        answer(200, "[2]");
        answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");

        assertThat(SchemaSubjects.register(
                        client(null, null, url()),
                        SchemaSubjects.Subject.ofSchema("t", false, TelemetryReading.getClassSchema())))
                .isEqualTo(new SchemaSubjects.Outcome("t-value", 6, -1, 1, 0, 1, "FULL_TRANSITIVE"));
        assertThat(requests)
                .extracting(r -> r.split(" ")[0] + " " + r.split(" ")[1])
                .contains("DELETE /apis/ccompat/v7/subjects/t-value/versions/1");
    }

    @Test
    void a_java_flavoured_version_stays_when_the_registry_gives_the_superseded_subject_another_id() {
        SchemaSubjects.Subject subject = javaFlavouredSubject(9);
        answer(200, "[1,2]"); // (the lookup of the published text answered from the client's cache)
        answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");

        assertThat(SchemaSubjects.register(client(null, null, url()), subject))
                .isEqualTo(new SchemaSubjects.Outcome("t-value", 6, 5, 2, 1, 0, "FULL_TRANSITIVE"));
        assertThat(requests).noneMatch(r -> r.startsWith("DELETE"));
    }

    @Test
    void registering_a_new_subject_another_process_creates_at_the_same_moment_goes_on_as_on_an_existing_one() {
        String schema = com.fasterxml.jackson.databind.node.TextNode.valueOf(
                        TelemetryReading.getClassSchema().toString())
                .toString();
        answer(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}"); // versions: a new subject
        // the other process created it first: Apicurio Registry's answer to the second creation
        answer(
                409,
                "{\"error_code\":409,\"message\":\"An artifact with ID 'race-value' in group 'null' already"
                        + " exists.\"}");
        answer(200, "[1]"); // versions again: there now
        answer(200, "{\"subject\":\"race-value\",\"version\":1,\"id\":5,\"schema\":" + schema + "}");
        answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");
        answer(200, "{\"subject\":\"race-value\",\"version\":1,\"id\":5,\"schema\":" + schema + "}"); // lookup
        answer(200, "[1]");
        answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");
        SchemaSubjects.Subject subject =
                SchemaSubjects.Subject.ofSchema("race", false, TelemetryReading.getClassSchema());

        assertThat(SchemaSubjects.register(client(null, null, url()), subject))
                .isEqualTo(new SchemaSubjects.Outcome("race-value", 5, -1, 1, 0, 0, "FULL_TRANSITIVE"));
        assertThat(requests)
                .extracting(r -> r.split(" ")[0] + " " + r.split(" ")[1])
                .containsExactly(
                        "GET /apis/ccompat/v7/subjects/race-value/versions",
                        "POST /apis/ccompat/v7/subjects/race-value/versions",
                        "GET /apis/ccompat/v7/subjects/race-value/versions",
                        "GET /apis/ccompat/v7/subjects/race-value/versions/1",
                        "GET /apis/ccompat/v7/config/race-value",
                        "POST /apis/ccompat/v7/subjects/race-value",
                        "GET /apis/ccompat/v7/subjects/race-value/versions",
                        "GET /apis/ccompat/v7/config/race-value");

        // refused while the subject is still not there: the refusal stands
        answers.clear();
        answer(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
        answer(422, "{\"error_code\":42201,\"message\":\"Invalid schema\"}");
        answer(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
        assertThatThrownBy(() -> SchemaSubjects.register(client(null, null, url()), subject))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("HTTP 422");
    }

    @Test
    void answers_that_are_not_a_registrys_read_as_unavailable_never_as_a_bad_record() {
        // a proxy's bare 404, a redirect, a login page: each tried 3 times (2 retries)
        for (int i = 0; i < 3; i++) {
            answer(404, "<html>Not Found</html>");
        }
        for (int i = 0; i < 3; i++) {
            answer(302, "");
        }
        for (int i = 0; i < 3; i++) {
            answer(200, "<html><body>Sign in</body></html>");
        }
        SchemaRegistryClient client = client(null, null, url());

        for (int status : new int[] {404, 302, 200}) {
            assertThatThrownBy(() -> client.schemaById(1))
                    .isInstanceOf(SchemaRegistryException.class)
                    .hasMessageContaining("HTTP " + status)
                    .hasMessageContaining("check schema.registry.url")
                    .satisfies(e -> {
                        SchemaRegistryException r = (SchemaRegistryException) e;
                        assertThat(r.misrouted()).isTrue();
                        assertThat(r.unavailable()).as("never dead-lettered").isTrue();
                        assertThat(r.serverUnavailable())
                                .as("a start stops with the reason")
                                .isFalse();
                        assertThat(r.notFound()).isFalse();
                    });
        }
        assertThat(client.availability().outage()).isPresent();
        // a registry's own 404 stays an answer about the record
        answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
        assertThatThrownBy(() -> client.schemaById(2))
                .isInstanceOf(SchemaRegistryException.class)
                .satisfies(e ->
                        assertThat(((SchemaRegistryException) e).unavailable()).isFalse());
    }

    @Test
    void a_4xx_is_not_retried_and_404s_read_as_absent() {
        answer(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
        answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
        answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}"); // normalized
        answer(409, "{\"error_code\":409,\"message\":\"incompatible\"}");
        SchemaRegistryClient client = client(null, null, url());
        assertThat(client.versions("a-value")).isEmpty();
        assertThat(client.lookup("a-value", TelemetryReading.getClassSchema())).isEmpty();
        assertThatThrownBy(() -> client.register("a-value", TelemetryReading.getClassSchema()))
                .isInstanceOf(SchemaRegistryException.class)
                .satisfies(
                        e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(409))
                .satisfies(e ->
                        assertThat(((SchemaRegistryException) e).unavailable()).isFalse());
        assertThat(requests).hasSize(4);
    }

    @Test
    void a_lookup_the_registry_finds_nothing_for_is_asked_again_normalized_and_its_answer_cached() {
        // Apicurio Registry 2.x compares raw text: only the normalized look-up finds a version registered as
        // pretty-printed .avsc text
        answer(404, "{\"error_code\":40401,\"message\":\"No artifact with ID 'a-value' was found.\"}");
        answer(200, "{\"subject\":\"a-value\",\"version\":1,\"id\":12}");
        SchemaRegistryClient client = client(null, null, url());

        assertThat(client.lookup("a-value", TelemetryReading.getClassSchema())).hasValue(12);
        assertThat(client.lookup("a-value", TelemetryReading.getClassSchema())).hasValue(12);

        assertThat(requests)
                .extracting(r -> r.split(" ")[0] + " " + r.split(" ")[1])
                .containsExactly(
                        "POST /apis/ccompat/v7/subjects/a-value",
                        "POST /apis/ccompat/v7/subjects/a-value?normalize=true");
    }

    @Test
    void a_lookup_found_by_text_is_not_asked_again() {
        answer(200, "{\"subject\":\"a-value\",\"version\":1,\"id\":3}");

        assertThat(client(null, null, url()).lookup("a-value", TelemetryReading.getClassSchema()))
                .hasValue(3);
        assertThat(requests).hasSize(1);
    }

    @Test
    void an_unknown_compatibility_level_is_refused_before_any_request() {
        SchemaRegistryClient client = client(null, null, url());

        assertThatThrownBy(() -> client.setCompatibility("a-value", "FULL-TRANSITIVE"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'FULL-TRANSITIVE'")
                .hasMessageContaining("a-value")
                .hasMessageContaining("FULL_TRANSITIVE");
        assertThat(requests).isEmpty();
    }

    @Test
    void a_registry_schema_that_is_not_avro_is_refused_with_its_type() {
        answer(200, "{\"schemaType\":\"PROTOBUF\",\"schema\":\"syntax = \\\"proto3\\\";\"}");
        assertThatThrownBy(() -> client(null, null, url()).schemaById(5)).hasMessageContaining("PROTOBUF");
    }

    @Test
    void the_framing_reads_by_id_refuses_bad_headers_and_writes_the_registered_id() {
        answer(200, "{\"id\":258}"); // registering on first write
        answer(
                200,
                "{\"schema\":"
                        + com.fasterxml.jackson.databind.node.TextNode.valueOf(
                                TelemetryReading.getClassSchema().toString())
                        + "}");
        WireFormat format = WireFormat.registry(client(null, null, url()));
        AvroWireSerde<TelemetryReading> serde = format.serde(TelemetryReading.class, false);
        TelemetryReading reading =
                (TelemetryReading) RandomRecords.of(TelemetryReading.getClassSchema(), new java.util.Random(1));

        byte[] bytes = serde.encode("hive.telemetry.v1", reading);
        assertThat(java.util.Arrays.copyOf(bytes, 5)).containsExactly(0, 0, 0, 1, 2);
        SchemaRegistryClient fresh = client(null, null, url()); // a reader without the writer's cache
        assertThat(WireFormat.registry(fresh)
                        .serde(TelemetryReading.class, false)
                        .decode(bytes))
                .isEqualTo(reading);
        assertThat(requests.get(1)).isEqualTo("GET /apis/ccompat/v7/schemas/ids/258");

        assertThatThrownBy(() -> serde.decode(new byte[] {0, 1}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("at least 5 bytes");
        assertThatThrownBy(() -> serde.decode(new byte[] {0x7b, 0x22}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("starting 0x7B");
        assertThatThrownBy(() -> serde.decode(new byte[0]))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("payload of 0 bytes");
        assertThatThrownBy(() -> WireFormat.singleObject()
                        .serde(TelemetryReading.class, false)
                        .decode(bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("no schema registry is configured");
    }

    private KafkaAvroSerializer<Object> latestVersionSerializer() {
        KafkaAvroSerializer<Object> serializer = new KafkaAvroSerializer<>();
        serializer.configure(
                java.util.Map.of(
                        "schema.registry.url", url().toString(),
                        "auto.register.schemas", "false",
                        "use.latest.version", "true"),
                false);
        return serializer;
    }

    private void answerLatestVersion(int id, String schemaText) {
        answer(
                200,
                "{\"subject\":\"t-value\",\"version\":2,\"id\":" + id + ",\"schema\":"
                        + com.fasterxml.jackson.databind.node.TextNode.valueOf(schemaText) + "}");
    }

    private static TelemetryReading reading() { // built without reflection, which Avro checks
        return new TelemetryReading(
                "3627",
                "gw-17",
                io.apiary.schema.SensorType.LIGHT,
                "default",
                java.time.Instant.parse("2024-05-01T12:00:00Z"),
                12000.0,
                "lx",
                5L);
    }

    @Test
    void use_latest_version_writes_the_latest_id_when_it_encodes_as_the_record_class() throws IOException {
        String published; // the .avsc text, without the generated class's avro.java.string properties
        try (var in = getClass().getClassLoader().getResourceAsStream("schemas/TelemetryReading.avsc")) {
            published = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        answerLatestVersion(258, published);
        answer(200, "{\"schema\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(published) + "}");
        TelemetryReading reading = reading();

        byte[] bytes = latestVersionSerializer().serialize("t", reading);

        assertThat(java.util.Arrays.copyOf(bytes, 5)).containsExactly(0, 0, 0, 1, 2);
        assertThat(requests).containsExactly("GET /apis/ccompat/v7/subjects/t-value/versions/-1");
        assertThat(WireFormat.registry(client(null, null, url()))
                        .serde(TelemetryReading.class, false)
                        .decode(bytes))
                .isEqualTo(reading);
    }

    @Test
    void use_latest_version_refuses_a_latest_version_that_encodes_otherwise() {
        answerLatestVersion(7, io.apiary.schema.EntranceCount.getClassSchema().toString());
        TelemetryReading reading = reading();

        assertThatThrownBy(() -> latestVersionSerializer().serialize("t", reading))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("latest version (2, id 7) of subject t-value")
                .hasMessageContaining("use.latest.version=false");
    }

    @Test
    void use_latest_version_refuses_a_subject_without_versions() {
        answer(404, "{\"error_code\":40402,\"message\":\"No version 'latest' found\"}");
        TelemetryReading reading = reading();

        assertThatThrownBy(() -> latestVersionSerializer().serialize("t", reading))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Subject t-value has no version");
    }

    @Test
    void use_latest_version_asks_the_registry_for_its_latest_not_the_highest_listed_version() {
        // Apicurio Registry 2.4 keeps a version its soft delete disabled in the list of versions: the list
        // says [1,2], its latest is 1
        answer(
                200,
                "{\"subject\":\"t-value\",\"version\":1,\"id\":258,\"schema\":"
                        + com.fasterxml.jackson.databind.node.TextNode.valueOf(
                                TelemetryReading.getClassSchema().toString())
                        + "}");

        byte[] bytes = latestVersionSerializer().serialize("t", reading());

        assertThat(java.util.Arrays.copyOf(bytes, 5)).containsExactly(0, 0, 0, 1, 2);
        assertThat(requests).containsExactly("GET /apis/ccompat/v7/subjects/t-value/versions/-1");
    }

    @Test
    void a_length_beyond_the_largest_array_is_a_corrupt_body_not_an_unchecked_error() {
        answer(
                200,
                "{\"schema\":"
                        + com.fasterxml.jackson.databind.node.TextNode.valueOf(
                                TelemetryReading.getClassSchema().toString())
                        + "}");
        AvroWireSerde<TelemetryReading> serde =
                WireFormat.registry(client(null, null, url())).serde(TelemetryReading.class, false);
        // schema id 1, then hive_id's length as the varint FE FF FF FF 0F: 2^31 - 1 bytes, above Avro's limit
        byte[] bytes = {0, 0, 0, 0, 1, (byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F, 'a'};

        assertThatThrownBy(() -> serde.decode(bytes))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Corrupt Avro body");
    }

    @Test
    void settings_refuse_what_cannot_work() {
        assertThatThrownBy(() -> RegistrySettings.of("ftp://x")).hasMessageContaining("http or https");
        assertThatThrownBy(() -> RegistrySettings.of(" , ")).hasMessageContaining("at least one URL");
        assertThatThrownBy(() -> new RegistrySettings(
                        List.of(url()), "a:b", "t", null, Duration.ofSeconds(1), Duration.ofMillis(1), 0))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> new WireFormat(WireFormat.Framing.REGISTRY, true, null, true))
                .hasMessageContaining("needs a schema registry URL");
        assertThat(RegistrySettings.parseUrls("http://a:1/, http://b:2"))
                .containsExactly(URI.create("http://a:1"), URI.create("http://b:2"));
        assertThat(WireFormat.Framing.parse("Single-Object")).isEqualTo(WireFormat.Framing.SINGLE_OBJECT);
        assertThatThrownBy(() -> WireFormat.Framing.parse("json")).hasMessageContaining("registry or single-object");
    }
}
