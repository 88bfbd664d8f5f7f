package io.apiary.ingest.bench;

import io.apiary.ingest.devstack.StackFiles;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The topology as a process of its own, {@code ingest-app run --component topology}, as a
 * Kubernetes pod runs it: its own JVM (so its heap is its own, and a SIGKILL ends it as a crash
 * would), configured by a settings file, serving {@code /health/ready} and {@code /metrics} on a
 * free port of 127.0.0.1, its output in a log file; killed if this JVM stops before {@link #close()}.
 * Not thread-safe.
 */
final class TopologyProcess implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final Path log;
    private final int port;
    /** Kills the child if this JVM stops first (Ctrl-C, SIGTERM), so that no topology outlives the bench. */
    private final Thread orphanGuard;

    private TopologyProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
        this.orphanGuard = new Thread(process::destroyForcibly, "apiary-bench-state-topology-kill");
        Runtime.getRuntime().addShutdownHook(orphanGuard);
    }

    /**
     * Writes {@code <folder>/<name>.properties} (owner-only: the settings may hold passwords) and
     * starts the topology with it, its standard output and error to {@code <folder>/<name>.log}.
     * The child's environment has no {@code APIARY_*} variable, so the file alone configures it,
     * its application log level is INFO (state transitions and restore lines), and
     * {@code MALLOC_ARENA_MAX=2} as in the topology's container.
     *
     * @param mainClass  the command line's main class ({@code io.apiary.ingest.cli.IngestApp}),
     *                   found on this JVM's class path, not null
     * @param settings   the settings; {@code http.host} and {@code http.port} are added, not null
     * @param folder     where the settings file and the log go, an existing folder
     * @param name       the files' base name, not null
     * @param jvmOptions options of the child JVM, e.g. {@code -Xmx768m}, not null
     * @return the started process (its HTTP port may not answer yet)
     * @throws IOException if the JVM cannot be started or the files not written
     */
    static TopologyProcess start(
            String mainClass, Map<String, String> settings, Path folder, String name, List<String> jvmOptions)
            throws IOException {
        int port = freePort();
        Properties properties = new Properties();
        properties.putAll(settings);
        properties.put("http.host", "127.0.0.1");
        properties.put("http.port", Integer.toString(port));
        StringWriter text = new StringWriter();
        properties.store(text, "ingest-app bench state: the topology under test");
        Path configFile;
        try {
            configFile = StackFiles.writeOwnerOnly(folder.resolve(name + ".properties"), text.toString());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                Objects.requireNonNull(mainClass, "mainClass"),
                "run",
                "--component",
                "topology",
                "--config",
                configFile.toString()));
        Path log = folder.resolve(name + ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(key -> key.startsWith("APIARY_"));
        builder.environment().put("APIARY_LOG_LEVEL", "INFO");
        // as the topology's container sets it (deploy/): glibc's arenas would fragment RocksDB's memory
        builder.environment().put("MALLOC_ARENA_MAX", "2");
        return new TopologyProcess(builder.start(), log, port);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** @return the child's process id */
    long pid() {
        return process.pid();
    }

    /** @return whether the process still runs */
    boolean isAlive() {
        return process.isAlive();
    }

    /** @return where its output goes */
    Path log() {
        return log;
    }

    /**
     * @return whether {@code /health/ready} answers 200: the topology is RUNNING (not starting,
     *     rebalancing or restoring); false when nothing answers
     */
    boolean ready() {
        HttpResponse<String> response = get("/health/ready");
        return response != null && response.statusCode() == 200;
    }

    /**
     * @return the child's meters now, or null when its HTTP port does not answer (yet)
     * @throws IllegalArgumentException if the answer is not Prometheus's text format
     */
    MetricsScrape metrics() {
        HttpResponse<String> response = get("/metrics");
        return response == null || response.statusCode() != 200 ? null : MetricsScrape.parse(response.body());
    }

    private HttpResponse<String> get(String path) {
        try {
            return HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .timeout(Duration.ofSeconds(30))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * The child's resident set size now and its peak so far, from {@code /proc/<pid>/status}
     * ({@code VmRSS}, {@code VmHWM}): heap, RocksDB's native memory and the rest of the JVM.
     *
     * @return the sizes, or null where there is no {@code /proc} (not Linux) or the process has ended
     */
    Resident resident() {
        long rss = -1;
        long peak = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = kibibytes(line);
                } else if (line.startsWith("VmHWM:")) {
                    peak = kibibytes(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null; // not Linux, or the process ended: no figure
        }
        return rss < 0 || peak < 0 ? null : new Resident(rss, peak);
    }

    /**
     * A process's resident memory.
     *
     * @param bytes     resident now, bytes
     * @param peakBytes the most it was resident since it started, bytes
     */
    record Resident(long bytes, long peakBytes) {}

    private static long kibibytes(String statusLine) {
        return Long.parseLong(statusLine.replaceAll("[^0-9]", "")) * 1024;
    }

    /**
     * Forces a full collection in the child ({@code jcmd <pid> GC.run}, the JDK's tool beside this
     * JVM), so that its heap used right after is what it keeps reachable.
     *
     * @return whether it was done; false where {@code jcmd} is missing (a JRE) or failed
     * @throws InterruptedException if interrupted while waiting for {@code jcmd}
     */
    boolean collectGarbage() throws InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return false;
        }
        try {
            Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(pid()), "GC.run")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!gc.waitFor(2, TimeUnit.MINUTES)) {
                gc.destroyForcibly();
                return false;
            }
            return gc.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Ends the process at once with SIGKILL, as a crash or an out-of-memory kill would: no close,
     * no commit, no checkpoint of its stores; waits until it has ended.
     *
     * @throws InterruptedException if interrupted while waiting
     * @throws IllegalStateException if it has not ended after 30 s
     */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the topology process " + pid() + " did not end 30 s after SIGKILL");
        }
    }

    /**
     * Stops the process with SIGTERM (it commits and closes its stores) and waits up to
     * {@code timeout}, then kills it if it still runs.
     *
     * @param timeout how long it may take to stop
     * @return whether it stopped by itself within the timeout
     * @throws InterruptedException if interrupted while waiting
     */
    boolean stop(Duration timeout) throws InterruptedException {
        process.destroy();
        boolean stopped = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!stopped) {
            kill();
        }
        return stopped;
    }

    /** @return the log so far, or a note that it cannot be read */
    String logText() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /**
     * Kills the process if it still runs; if interrupted while waiting for its end, keeps the
     * interrupt for the caller (the kill is sent).
     */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(orphanGuard);
        } catch (IllegalStateException e) {
            // this JVM is stopping: the hook kills the process
        }
        if (process.isAlive()) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
