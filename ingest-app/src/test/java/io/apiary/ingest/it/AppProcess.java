package io.apiary.ingest.it;

import io.apiary.ingest.cli.IngestApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code ingest-app run} as a child JVM, as Kubernetes runs it: configured by a properties file,
 * serving its HTTP endpoints on a free port of 127.0.0.1, stopped with SIGTERM; or any other
 * command ({@link #command}). Its output goes to a log file. Not thread-safe.
 */
public final class AppProcess implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path log;
    private final int httpPort;

    private AppProcess(Process process, Path log, int httpPort) {
        this.process = process;
        this.log = log;
        this.httpPort = httpPort;
    }

    /**
     * Writes the settings to {@code <log>.properties} and starts {@code run}.
     *
     * @param component {@code all}, {@code topology} or {@code sink}
     * @param settings  the settings file's content; {@code http.port} and {@code http.host} are added
     * @param log       where stdout and stderr go
     * @param jvmArgs   extra JVM options, e.g. {@code -Xmx512m}
     * @return the started process (its HTTP port may not answer yet)
     * @throws IOException if the file cannot be written or the JVM not started
     */
    public static AppProcess start(String component, Map<String, ?> settings, Path log, String... jvmArgs)
            throws IOException {
        return start(component, settings, Map.of(), log, jvmArgs);
    }

    /**
     * Writes the settings to {@code <log>.properties} and starts {@code run} with more
     * environment variables, e.g. {@code APIARY_*} secrets as a Deployment's {@code secretKeyRef}
     * gives them.
     *
     * @param component {@code all}, {@code topology} or {@code sink}
     * @param settings  the settings file's content; {@code http.port} and {@code http.host} are added
     * @param env       variables added to this JVM's environment, not null
     * @param log       where stdout and stderr go
     * @param jvmArgs   extra JVM options, e.g. {@code -Xmx512m}
     * @return the started process (its HTTP port may not answer yet)
     * @throws IOException if the file cannot be written or the JVM not started
     */
    public static AppProcess start(
            String component, Map<String, ?> settings, Map<String, String> env, Path log, String... jvmArgs)
            throws IOException {
        int port = freePort();
        StringBuilder text = new StringBuilder();
        settings.forEach(
                (key, value) -> text.append(key).append('=').append(value).append('\n'));
        text.append("http.host=127.0.0.1\nhttp.port=").append(port).append('\n');
        Path configFile = log.resolveSibling(log.getFileName() + ".properties");
        Files.writeString(configFile, text);
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(jvmArgs));
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                IngestApp.class.getName(),
                "run",
                "--component",
                component,
                "--config",
                configFile.toString()));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        return new AppProcess(builder.start(), log, port);
    }

    /**
     * Starts any {@code ingest-app} command as a child JVM, e.g. {@code table copy ...}.
     *
     * @param log  where stdout and stderr go
     * @param args the command line
     * @return the started process (its port is 0: it serves no HTTP)
     * @throws IOException if the JVM cannot be started
     */
    public static AppProcess command(Path log, String... args) throws IOException {
        return command(Map.of(), log, args);
    }

    /**
     * Starts any {@code ingest-app} command as a child JVM with more environment variables.
     *
     * @param env  variables added to this JVM's environment, not null
     * @param log  where stdout and stderr go
     * @param args the command line
     * @return the started process (its port is 0: it serves no HTTP)
     * @throws IOException if the JVM cannot be started
     */
    public static AppProcess command(Map<String, String> env, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                IngestApp.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        return new AppProcess(builder.start(), log, 0);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * @param path e.g. {@code /health/ready}
     * @return the response; status 0 and the error as body when nothing answers
     */
    public HttpResponse<String> get(String path) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return new Unanswered(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** @return the HTTP status of {@code path}, 0 when nothing answers */
    public int status(String path) {
        return get(path).statusCode();
    }

    /**
     * @param name a Prometheus metric name, e.g. {@code apiary_sink_rows_written_total}
     * @return the sum of its samples over all label values on {@code /metrics}; 0 when absent or
     *         when nothing answers
     */
    public double metric(String name) {
        HttpResponse<String> metrics = get("/metrics");
        if (metrics.statusCode() != 200) {
            return 0;
        }
        double sum = 0;
        for (String line : metrics.body().split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** Sends SIGTERM, as Kubernetes does to stop a pod. */
    public void sigterm() {
        process.destroy();
    }

    /**
     * Sends a signal with {@code kill}, e.g. {@code STOP} to pause the JVM (no thread runs, no
     * heartbeat, no timer) and {@code CONT} to resume it.
     *
     * @param name the signal's name without {@code SIG}
     * @throws IOException          if {@code kill} cannot be run or fails
     * @throws InterruptedException if interrupted while it runs
     */
    public void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed: "
                    + new String(kill.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /**
     * @param timeout how long to wait
     * @return true if the process ended within it
     * @throws InterruptedException if interrupted
     */
    public boolean waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** @return the exit code; the process must have ended */
    public int exitValue() {
        return process.exitValue();
    }

    /** @return whether the process still runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return the log so far */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param chars how many characters at most
     * @return the end of the log so far
     */
    public String logTail(int chars) {
        String log = log();
        return log.substring(Math.max(0, log.length() - chars));
    }

    /**
     * Waits until a condition holds, asking it every 200 ms (an exception counts as not yet); fails
     * naming what was awaited, with the end of each process's log, when it does not hold within the
     * timeout.
     *
     * @param what      what is awaited, for the failure message
     * @param timeout   how long at most
     * @param condition the condition
     * @param processes the processes whose logs explain a failure
     * @throws AssertionError if the condition did not hold in time
     */
    public static void await(
            String what, Duration timeout, java.util.concurrent.Callable<Boolean> condition, AppProcess... processes) {
        try {
            org.awaitility.Awaitility.await(what)
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            StringBuilder message = new StringBuilder(
                    "Not within " + timeout.toSeconds() + " s: " + what + " (" + e.getMessage() + ")");
            for (AppProcess process : processes) {
                message.append(String.format(
                        "%n--- end of %s (%s):%n%s",
                        process.log.getFileName(), process.isAlive() ? "running" : "exited", process.logTail(3_000)));
            }
            throw new AssertionError(message.toString(), e);
        }
    }

    /** Kills the process if it still runs (SIGKILL). */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A response for a request nothing answered. */
    private record Unanswered(String error) implements HttpResponse<String> {
        @Override
        public int statusCode() {
            return 0;
        }

        @Override
        public HttpRequest request() {
            return null;
        }

        @Override
        public java.util.Optional<HttpResponse<String>> previousResponse() {
            return java.util.Optional.empty();
        }

        @Override
        public java.net.http.HttpHeaders headers() {
            return java.net.http.HttpHeaders.of(Map.of(), (a, b) -> true);
        }

        @Override
        public String body() {
            return error;
        }

        @Override
        public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
            return java.util.Optional.empty();
        }

        @Override
        public URI uri() {
            return null;
        }

        @Override
        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }
}
