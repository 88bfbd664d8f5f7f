package io.apiary.ingest.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.metrics.MetricNames;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpEndpointsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicReference<HealthReport> ready = new AtomicReference<>(report(true));
    private final HttpClient client = HttpClient.newHttpClient();
    private HttpEndpoints endpoints;

    private static HealthReport report(boolean up) {
        return new HealthReport(List.of(
                new ComponentHealth("sink", up, up ? "1 Cassandra node(s) connected" : "no Cassandra node connected")));
    }

    @BeforeEach
    void start() throws IOException {
        endpoints = HttpEndpoints.start("127.0.0.1", 0, () -> report(true), ready::get, registry);
    }

    @AfterEach
    void stop() {
        endpoints.close();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + path))
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void should_answer_200_with_the_report_when_ready_and_503_when_not() throws Exception {
        HttpResponse<String> up = send("GET", HttpEndpoints.READY);
        ready.set(report(false));
        HttpResponse<String> down = send("GET", HttpEndpoints.READY);

        assertThat(up.statusCode()).isEqualTo(200);
        assertThat(up.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(up.body()).startsWith("{\"status\":\"UP\"");
        assertThat(down.statusCode()).isEqualTo(503);
        assertThat(down.body()).contains("\"status\":\"DOWN\"", "no Cassandra node connected");
    }

    @Test
    void should_answer_liveness_independently_of_readiness() throws Exception {
        ready.set(report(false));

        assertThat(send("GET", HttpEndpoints.LIVE).statusCode()).isEqualTo(200);
    }

    @Test
    void should_serve_every_meter_in_prometheus_text_format() throws Exception {
        registry.counter(MetricNames.SINK_ROWS_WRITTEN, "table", "hive_telemetry_v2")
                .increment(42);

        HttpResponse<String> metrics = send("GET", HttpEndpoints.METRICS);

        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(metrics.body()).contains("apiary_sink_rows_written_total{table=\"hive_telemetry_v2\"} 42.0");
    }

    @Test
    void should_answer_404_for_unknown_paths_and_405_for_methods_other_than_get_and_head() throws Exception {
        assertThat(send("GET", "/nothing").statusCode()).isEqualTo(404);
        assertThat(send("GET", HttpEndpoints.READY + "/more").statusCode()).isEqualTo(404);
        HttpResponse<String> post = send("POST", HttpEndpoints.METRICS);
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }

    @Test
    void should_answer_head_with_the_status_and_no_body() throws Exception {
        ready.set(report(false));

        HttpResponse<String> head = send("HEAD", HttpEndpoints.READY);

        assertThat(head.statusCode()).isEqualTo(503);
        assertThat(head.body()).isEmpty();
    }

    @Test
    void should_still_answer_probes_when_clients_hold_every_handler_thread_with_unfinished_requests() throws Exception {
        java.util.List<java.net.Socket> halfOpen = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < HttpEndpoints.THREADS + 1; i++) {
                java.net.Socket socket = new java.net.Socket("127.0.0.1", endpoints.port());
                socket.getOutputStream().write("GET /health/ready HTTP/1.1\r\nHost: x\r\n".getBytes());
                halfOpen.add(socket);
            }
            // the JDK server drops them after its request timeout; the probe then gets through
            HttpResponse<String> live = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + HttpEndpoints.LIVE))
                            .timeout(java.time.Duration.ofSeconds(3L * HttpEndpoints.REQUEST_TIMEOUT_SECONDS))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(live.statusCode()).isEqualTo(200);
        } finally {
            for (java.net.Socket socket : halfOpen) {
                socket.close();
            }
        }
    }

    @Test
    void should_fail_to_start_when_the_port_is_taken() {
        assertThatThrownBy(() ->
                        HttpEndpoints.start("127.0.0.1", endpoints.port(), () -> report(true), ready::get, registry))
                .isInstanceOf(IOException.class);
    }
}
