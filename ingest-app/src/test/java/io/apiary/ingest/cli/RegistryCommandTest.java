package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import com.sun.net.httpserver.HttpServer;
import io.apiary.schema.EntranceCount;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code registry register} against a fake registry whose last subject holds a version that does not fit. */
class RegistryCommandTest {

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void jdkServerLimitsFirst() throws ClassNotFoundException {
        Class.forName("io.apiary.ingest.service.HttpEndpoints", true, RegistryCommandTest.class.getClassLoader());
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath();
            requests.add(exchange.getRequestMethod() + " " + path);
            int status;
            String body;
            if (path.endsWith("/rows.agent_alerts.v1-key/versions")) {
                status = 200;
                body = "[1]";
            } else if (path.endsWith("/rows.agent_alerts.v1-key/versions/1")) {
                status = 200;
                body = "{\"subject\":\"rows.agent_alerts.v1-key\",\"version\":1,\"id\":4,\"schema\":"
                        + TextNode.valueOf(EntranceCount.getClassSchema().toString()) + "}";
            } else if (exchange.getRequestMethod().equals("GET") && path.endsWith("/versions")) {
                status = 404;
                body = "{\"error_code\":40401,\"message\":\"Subject not found\"}";
            } else {
                status = 200; // a change: registered, level set
                body = "{\"id\":1,\"compatibility\":\"FULL_TRANSITIVE\"}";
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
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

    @Test
    void register_changes_no_subject_when_a_later_one_holds_a_version_that_does_not_fit() {
        CliRun run = CliRun.of(
                "registry",
                "register",
                "--set",
                "schema.registry.url=http://127.0.0.1:" + server.getAddress().getPort() + "/apis/ccompat/v7");

        assertThat(run.exit()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).contains("rows.agent_alerts.v1-key").contains("does not fit");
        assertThat(requests).as("requests that change the registry").allMatch(r -> r.startsWith("GET "));
    }
}
