package io.apiary.ingest.service;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoints of {@code run}, on the JDK's own HTTP server:
 *
 * <ul>
 *   <li>{@code GET /health/live}: 200 when the liveness check ({@link PipelineHealth#liveness()})
 *       is up, else 503; the body is the {@link HealthReport} as JSON;</li>
 *   <li>{@code GET /health/ready}: the same for readiness ({@link PipelineHealth#readiness()});</li>
 *   <li>{@code GET /metrics}: every meter of the registry in Prometheus' text format 0.0.4
 *       (the application's, the sink's Kafka clients', Kafka Streams', the Cassandra driver's
 *       and the JVM's).</li>
 * </ul>
 * Other paths answer 404 and other methods 405. {@value #THREADS} handler threads, and a client
 * that does not send its request within {@value #REQUEST_TIMEOUT_SECONDS} s is dropped (the JDK
 * server's {@code sun.net.httpserver.maxReqTime}), so slow or half-open clients cannot starve
 * the probes for long. Thread-safe; {@link #close()} stops the server.
 */
public final class HttpEndpoints implements AutoCloseable {

    /** Liveness path. */
    public static final String LIVE = "/health/live";
    /** Readiness path. */
    public static final String READY = "/health/ready";
    /** Prometheus scrape path. */
    public static final String METRICS = "/metrics";

    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoints.class);
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    /** Handler threads: the JDK server reads each request on one, so a few slow clients cannot take them all. */
    static final int THREADS = 4;
    /** Seconds a client may take to send its request, and the server its response, before it is dropped. */
    static final int REQUEST_TIMEOUT_SECONDS = 10;

    static {
        // The JDK server's own limits (read once, when its first server is created); unset they are
        // infinite, and two half-open connections would block every probe.
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", Integer.toString(REQUEST_TIMEOUT_SECONDS));
        }
        if (System.getProperty("sun.net.httpserver.maxRspTime") == null) {
            System.setProperty("sun.net.httpserver.maxRspTime", Integer.toString(3 * REQUEST_TIMEOUT_SECONDS));
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;

    private HttpEndpoints(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving.
     *
     * @param host     address to listen on, e.g. {@code 0.0.0.0}, not null
     * @param port     port, 0 for any free one
     * @param liveness  the liveness check, called on each request, not null
     * @param readiness the readiness check, called on each request, not null
     * @param registry  the registry scraped by {@code /metrics}, not null
     * @return the running endpoints
     * @throws IOException if the port cannot be bound (e.g. in use)
     */
    public static HttpEndpoints start(
            String host,
            int port,
            Supplier<HealthReport> liveness,
            Supplier<HealthReport> readiness,
            PrometheusMeterRegistry registry)
            throws IOException {
        Objects.requireNonNull(liveness);
        Objects.requireNonNull(readiness);
        Objects.requireNonNull(registry);
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
        server.createContext(LIVE, exchange -> respondHealth(exchange, liveness));
        server.createContext(READY, exchange -> respondHealth(exchange, readiness));
        server.createContext(METRICS, exchange -> {
            if (acceptable(exchange, METRICS)) {
                respond(exchange, 200, PROMETHEUS_TEXT, registry.scrape());
            }
        });
        server.createContext("/", exchange -> {
            if (acceptable(exchange, "/")) {
                respond(
                        exchange,
                        404,
                        "text/plain; charset=utf-8",
                        "Not found. Endpoints: " + LIVE + ", " + READY + ", " + METRICS + "\n");
            }
        });
        ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
            Thread thread = new Thread(r, "apiary-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.start();
        HttpEndpoints endpoints = new HttpEndpoints(server, executor);
        LOG.info("HTTP endpoints {}, {} and {} on {}:{}", LIVE, READY, METRICS, host, endpoints.port());
        return endpoints;
    }

    /** @return the port served (the chosen one when started with 0) */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops serving at once. Idempotent. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static void respondHealth(HttpExchange exchange, Supplier<HealthReport> check) throws IOException {
        if (acceptable(exchange, exchange.getHttpContext().getPath())) {
            HealthReport report = check.get();
            respond(exchange, report.up() ? 200 : 503, "application/json", report.toJson() + "\n");
        }
    }

    /** Answers 404 for a longer path than the context's and 405 for methods other than GET and HEAD. */
    private static boolean acceptable(HttpExchange exchange, String path) throws IOException {
        String method = exchange.getRequestMethod();
        if (!"/".equals(path) && !exchange.getRequestURI().getPath().equals(path)) {
            respond(exchange, 404, "text/plain; charset=utf-8", "Not found\n");
            return false;
        }
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            exchange.getResponseHeaders().add("Allow", "GET, HEAD");
            respond(exchange, 405, "text/plain; charset=utf-8", "Method not allowed\n");
            return false;
        }
        return true;
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        try (exchange) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Answering {} {} failed: {}", exchange.getRequestMethod(), exchange.getRequestURI(), e.toString());
            throw e;
        }
    }
}
