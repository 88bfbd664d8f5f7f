package io.apiary.ingest.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.serde.SchemaRegistryClient;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/**
 * A stand-in for a schema registry in unit tests of our own reading logic: the JDK's HTTP server
 * on 127.0.0.1 answering the one call of Confluent's API that reading a registry-framed record
 * makes, {@code GET /schemas/ids/{id}}, from schemas given to {@link #add}; any other request, and
 * an unknown id, answers 404 with error code 40403. The real registry is the integration tests'
 * ({@code RegistryWireFormatIT}, {@code ExtraTableIT}).
 *
 * <p>Thread-safe. Close it to stop the server.
 */
public final class SchemaIdServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();
    private final AtomicInteger nextId = new AtomicInteger(100);

    private SchemaIdServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Starts a server on a free port of 127.0.0.1. The JDK's HTTP server reads its limits once,
     * when its first server is created, so the application's endpoints class is loaded first, as
     * in the application.
     *
     * @return the running server
     * @throws UncheckedIOException if it cannot bind
     */
    public static SchemaIdServer start() {
        try {
            Class.forName("io.apiary.ingest.service.HttpEndpoints", true, SchemaIdServer.class.getClassLoader());
            HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            SchemaIdServer server = new SchemaIdServer(http);
            http.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                String path = exchange.getRequestURI().getRawPath();
                String prefix = "/schemas/ids/";
                Schema schema = null;
                if (exchange.getRequestMethod().equals("GET") && path.startsWith(prefix)) {
                    try {
                        schema = server.schemas.get(Integer.parseInt(path.substring(prefix.length())));
                    } catch (NumberFormatException e) {
                        schema = null;
                    }
                }
                int status = schema == null ? 404 : 200;
                byte[] body = (schema == null
                                ? "{\"error_code\":40403,\"message\":\"Schema not found\"}"
                                : JSON.writeValueAsString(Map.of("schema", schema.toString())))
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", SchemaRegistryClient.MEDIA_TYPE);
                exchange.sendResponseHeaders(status, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            http.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Serves a schema under a new id, as a registry does once a producer registered it.
     *
     * @param schema the writer schema, not null
     * @return its id
     */
    public int add(Schema schema) {
        int id = nextId.getAndIncrement();
        schemas.put(id, schema);
        return id;
    }

    /** @return a client of this server: 2 s per request, one retry after 1 ms */
    public SchemaRegistryClient client() {
        return new SchemaRegistryClient(new RegistrySettings(
                List.of(java.net.URI.create(
                        "http://127.0.0.1:" + server.getAddress().getPort())),
                null,
                null,
                null,
                Duration.ofSeconds(2),
                Duration.ofMillis(1),
                1));
    }

    /** Stops the server at once. */
    @Override
    public void close() {
        server.stop(0);
    }
}
