package io.apiary.ingest.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka broker (KRaft) and a real Cassandra node, and when asked ({@link
 * LocalStackOptions#registry()}) a schema registry ({@link RegistryServer}), each in a child JVM on
 * free loopback ports, for the {@code demo} command and the integration tests. No Docker needed.
 *
 * <p><b>Classpaths.</b> The servers' jars are listed in {@code kafka-server/classpath.txt} and
 * {@code cassandra-server/classpath.txt} (and {@code registry-server/classpath.txt}, naming the
 * registry's runner jar) (written by the build) in the folder given by
 * {@link LocalStackOptions#devstackDir()}, else the system property {@code apiary.devstack.dir},
 * else the environment variable {@code APIARY_DEVSTACK_DIR}, else {@code devstack} beside the
 * application's classes folder or jar ({@code ingest-app/target/devstack}).
 *
 * <p><b>Java.</b> Cassandra 5.0 needs Java 17: the servers run on {@link
 * LocalStackOptions#javaHome()}, else this JVM if it is a Java 17, else {@code
 * APIARY_DEVSTACK_JAVA_HOME}, else a Java 17 found under {@code /usr/lib/jvm}.
 *
 * <p><b>No orphans.</b> {@link #close()} stops every server; a shutdown hook does the same when
 * the JVM exits; and each server runs under {@link ParentWatchdog}, which ends it within about a
 * second of this JVM's death, even after {@code kill -9}.
 *
 * <p>Thread-safe. Typical use: {@code try (LocalStack stack =
 * LocalStack.start(LocalStackOptions.defaults())) { ... stack.kafkaBootstrapServers() ... }}.
 */
public final class LocalStack implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalStack.class);
    private static final String WATCHDOG_CLASS = "/io/apiary/ingest/devstack/ParentWatchdog.class";

    private final LocalStackOptions options;
    private final Path workDir;
    private final KafkaBroker kafka;
    private final CassandraNode cassandra;
    private final RegistryServer registry; // null without one
    private final StackSecurity security; // null unless secured
    private final int appHttpPort;
    private final List<ManagedServer> servers;
    private final Thread shutdownHook;
    private boolean closed; // guarded by this
    private boolean startFailed; // guarded by this: keep the work folder

    /** Use {@link #start}; package-private for tests of a stack whose servers are not started. */
    LocalStack(
            LocalStackOptions options,
            Path workDir,
            KafkaBroker kafka,
            CassandraNode cassandra,
            RegistryServer registry,
            StackSecurity security,
            int appHttpPort) {
        this.options = options;
        this.workDir = workDir;
        this.kafka = kafka;
        this.cassandra = cassandra;
        this.registry = registry;
        this.security = security;
        this.appHttpPort = appHttpPort;
        this.servers = registry == null ? List.of(kafka, cassandra) : List.of(kafka, cassandra, registry);
        this.shutdownHook = new Thread(this::closeOnExit, "apiary-devstack-shutdown");
    }

    /**
     * Starts Kafka and Cassandra (and the registry, if asked) in parallel and returns once all
     * are ready.
     *
     * @param options how to start; not null
     * @return the running stack, to be closed by the caller
     * @throws LocalStackException if Java or the server classpaths cannot be found, the work
     *                             folder cannot be prepared, a server does not start in time, or
     *                             a secured stack's Cassandra roles cannot be set up; whatever had
     *                             started is stopped and the work folder is kept
     */
    public static LocalStack start(LocalStackOptions options) {
        Objects.requireNonNull(options, "options");
        long t0 = System.nanoTime();
        ServerRuntime runtime = ServerRuntime.resolve(options);
        Path workDir = createWorkDir(options);
        Path watchdogDir = installWatchdog(workDir);
        StackSecurity security = options.secure() ? createSecurity(runtime, workDir) : null;
        int[] ports = StackFiles.freePorts(8); // the last for the application's HTTP endpoints
        KafkaBroker kafka = new KafkaBroker(runtime, options, workDir, watchdogDir, ports[0], ports[1], security);
        CassandraNode cassandra = new CassandraNode(
                runtime, options, workDir, watchdogDir, ports[2], ports[3], ports[4], ports[5], security);
        RegistryServer registry = options.registry()
                ? new RegistryServer(runtime, options, workDir, watchdogDir, ports[6], security)
                : null;
        LocalStack stack = new LocalStack(options, workDir, kafka, cassandra, registry, security, ports[7]);
        LOG.info(
                "Starting Kafka {}{} Cassandra {}{} with {} in {}",
                kafka.version(),
                registry == null ? " and" : ",",
                cassandra.version(),
                registry == null ? "" : " and Apicurio Registry " + registry.version(),
                runtime.javaSource(),
                workDir);
        Runtime.getRuntime().addShutdownHook(stack.shutdownHook);
        stack.startAll();
        if (security != null) {
            stack.secureCassandra();
        }
        LOG.info(
                "Local stack ready in {}: Kafka at {}, Cassandra at 127.0.0.1:{}{} (work folder {}){}",
                ServerProcess.seconds(Duration.ofNanos(System.nanoTime() - t0)),
                kafka.bootstrapServers(),
                cassandra.cqlPort(),
                registry == null ? "" : ", schema registry at " + registry.confluentApiUrl(),
                workDir,
                security == null
                        ? ""
                        : "; secured: Kafka SASL_SSL SCRAM-SHA-512 with ACLs, Cassandra TLS with"
                                + " PasswordAuthenticator"
                                + (registry == null ? "" : ", the schema registry HTTPS only")
                                + ", the run's CA in " + security.certificates().trustStore());
        return stack;
    }

    private static StackSecurity createSecurity(ServerRuntime runtime, Path workDir) {
        try {
            long t0 = System.nanoTime();
            StackSecurity security = StackSecurity.create(runtime.java(), workDir);
            LOG.info(
                    "Made the run's CA and server certificate in {} in {}",
                    security.certificates().dir(),
                    ServerProcess.seconds(Duration.ofNanos(System.nanoTime() - t0)));
            return security;
        } catch (RuntimeException e) {
            throw new LocalStackException(
                    "Cannot make the secured stack's certificates (work folder kept for inspection: " + workDir + "): "
                            + e.getMessage(),
                    workDir,
                    e);
        }
    }

    /** Replaces Cassandra's default superuser; on failure stops the stack, keeping its folder. */
    void secureCassandra() {
        try {
            security.replaceCassandraSuperuser(
                    cassandra.contactPoint(), cassandra.localDatacenter(), options.startTimeout());
        } catch (RuntimeException e) {
            abortStart();
            throw new LocalStackException(
                    "Cassandra's roles could not be set up: " + e.getMessage() + ". Work folder (kept for inspection): "
                            + workDir,
                    workDir,
                    e);
        }
    }

    /**
     * Starts a stack with {@link LocalStackOptions#defaults()}.
     *
     * @return the running stack, to be closed by the caller
     * @throws LocalStackException as {@link #start(LocalStackOptions)}
     */
    public static LocalStack start() {
        return start(LocalStackOptions.defaults());
    }

    /** @return Kafka's bootstrap servers, {@code 127.0.0.1:PORT}; never null */
    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** @return Cassandra's CQL contact point on 127.0.0.1; never null */
    public InetSocketAddress cassandraContactPoint() {
        return cassandra.contactPoint();
    }

    /** @return Cassandra's data center for the driver's load balancing, {@code datacenter1} */
    public String cassandraLocalDatacenter() {
        return cassandra.localDatacenter();
    }

    /**
     * @return the schema registry, when the stack was started with one ({@link
     *     LocalStackOptions#registry()}); to stop, restart or inspect it
     */
    public java.util.Optional<RegistryServer> registry() {
        return java.util.Optional.ofNullable(registry);
    }

    /**
     * @return the stack's security (certificates, users, client settings) when it was started
     *     secured ({@link LocalStackOptions#secure()}); empty otherwise
     */
    public java.util.Optional<StackSecurity> security() {
        return java.util.Optional.ofNullable(security);
    }

    /**
     * A loopback port for the HTTP endpoints ({@code http.port}) of an application run against this
     * stack, picked free together with the servers' ports when the stack started, so that two stacks
     * on one machine give their applications different ports. Nothing listens on it until such an
     * application starts; another process may still take it first.
     *
     * @return the port, 1 to 65535
     */
    public int appHttpPort() {
        return appHttpPort;
    }

    /** @return the work folder holding the servers' configuration, data and logs */
    public Path workDir() {
        return workDir;
    }

    /** @return the Kafka broker, to stop, restart or inspect it; never null */
    public KafkaBroker kafka() {
        return kafka;
    }

    /** @return the Cassandra node, to stop, restart or inspect it; never null */
    public CassandraNode cassandra() {
        return cassandra;
    }

    /** A server of the stack, as {@link #stop}, {@link #start(Server)} and {@link #restart} name it. */
    public enum Server {
        /** The Kafka broker (KRaft, broker and controller in one JVM). */
        KAFKA,
        /** The Cassandra node. */
        CASSANDRA,
        /** The schema registry, when the stack has one ({@link LocalStackOptions#registry()}). */
        REGISTRY;

        /**
         * @param name {@code kafka}, {@code cassandra} or {@code registry}, any case
         * @return the server
         * @throws IllegalArgumentException naming the servers for any other name
         */
        public static Server parse(String name) {
            for (Server server : values()) {
                if (server.label().equalsIgnoreCase(name.trim())) {
                    return server;
                }
            }
            throw new IllegalArgumentException(
                    "no server '" + name + "' in the local stack: kafka, cassandra or registry");
        }

        /** @return the server's name in lower case, as commands take it */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Stops one server and leaves it stopped; its ports stay reserved for it and its data is kept.
     * Thread-safe; blocks until the process has ended.
     *
     * @param server the server, not null
     * @param kill   true for SIGKILL (as a crash: no shutdown, no flush), false for SIGTERM (then SIGKILL
     *               after the stop timeout)
     * @throws IllegalStateException if the stack has no such server (a registry left out) or is closed
     */
    public void stop(Server server, boolean kill) {
        ManagedServer managed = managed(server);
        if (kill) {
            managed.kill();
        } else {
            managed.stop();
        }
    }

    /**
     * Starts one server again on its ports, with its data, and blocks until it is ready. Does nothing if
     * it runs. Thread-safe.
     *
     * @param server the server, not null
     * @return how long the start took, launch to ready (zero when it was running)
     * @throws IllegalStateException if the stack has no such server or is closed
     * @throws LocalStackException   if it is not ready within the start timeout, with the tail of its log;
     *                               the work folder is then kept when the stack closes
     */
    public Duration start(Server server) {
        ManagedServer managed = managed(server);
        if (managed.isRunning()) {
            return Duration.ZERO;
        }
        managed.start();
        return managed.startupTime();
    }

    /**
     * Stops one server (SIGTERM, or SIGKILL with {@code kill}) and starts it again on the same ports with
     * the same data, blocking until it is ready: a broker or node failing and coming back, for tests and for
     * trying failures by hand ({@code ingest-app devstack restart}). Thread-safe.
     *
     * @param server the server, not null
     * @param kill   true to end it with SIGKILL
     * @return how long the start took, launch to ready
     * @throws IllegalStateException as {@link #stop}
     * @throws LocalStackException   as {@link #start(Server)}
     */
    public Duration restart(Server server, boolean kill) {
        return managed(server).restart(kill);
    }

    /**
     * @param server a server
     * @return whether its process is alive (it may still be starting)
     * @throws IllegalStateException if the stack has no such server
     */
    public boolean isRunning(Server server) {
        return managed(server).isRunning();
    }

    private ManagedServer managed(Server server) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the local stack in " + workDir + " is stopped");
            }
        }
        return switch (server) {
            case KAFKA -> kafka;
            case CASSANDRA -> cassandra;
            case REGISTRY ->
                registry()
                        .orElseThrow(() -> new IllegalStateException(
                                "the local stack in " + workDir + " has no schema registry (started without one)"));
        };
    }

    /** @return how long Kafka's last successful start took (format included on the first) */
    public Duration kafkaStartupTime() {
        return kafka.startupTime();
    }

    /** @return how long Cassandra's last successful start took */
    public Duration cassandraStartupTime() {
        return cassandra.startupTime();
    }

    /** @return the options this stack was started with */
    public LocalStackOptions options() {
        return options;
    }

    /**
     * Stops every server (in parallel: SIGTERM, then SIGKILL after the stop timeout), removes the
     * shutdown hook and deletes the work folder, unless {@link LocalStackOptions#keepWorkDir()}
     * or the stack's start failed (a server's start, or setting up a secured stack's Cassandra
     * roles), or a server's later restart failed. Blocks until done; calling it again does
     * nothing. Never throws: a folder that cannot be deleted is logged.
     */
    @Override
    public void close() {
        if (!shutDown()) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down
        }
    }

    private synchronized boolean shutDown() {
        if (closed) {
            return false;
        }
        closed = true;
        stopAll();
        if (options.keepWorkDir() || startFailed || servers.stream().anyMatch(ManagedServer::startFailed)) {
            LOG.info("Local stack stopped; its work folder is kept: {}", workDir);
        } else {
            try {
                StackFiles.deleteRecursively(workDir);
                LOG.info("Local stack stopped; deleted {}", workDir);
            } catch (UncheckedIOException e) {
                LOG.warn(
                        "Local stack stopped, but its work folder {} could not be deleted: {}",
                        workDir,
                        e.getCause().toString());
            }
        }
        return true;
    }

    /** Stops every server after a failed start, keeping the work folder (its logs tell why). */
    private void abortStart() {
        synchronized (this) {
            startFailed = true;
        }
        close();
    }

    private void closeOnExit() {
        shutDown();
    }

    private void startAll() {
        // in order of occurrence: the first is the cause, later ones are often consequences
        Queue<RuntimeException> failures = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> starts = servers.stream()
                .map(server -> CompletableFuture.runAsync(
                        () -> startOrStopOthers(server, failures),
                        daemonExecutor(server.dir.getFileName().toString())))
                .toList();
        for (CompletableFuture<Void> f : starts) {
            try {
                f.join();
            } catch (CompletionException e) {
                if (!(e.getCause() instanceof RuntimeException)) {
                    failures.add(e); // an Error: not recorded by startOrStopOthers
                }
            }
        }
        if (failures.isEmpty()) {
            return;
        }
        // A server may have launched after another's failure stopped it: stop them all again.
        abortStart();
        RuntimeException cause = failures.peek();
        LocalStackException first = cause instanceof LocalStackException
                ? (LocalStackException) cause
                : new LocalStackException(
                        "The local stack failed to start: " + cause + ". Work folder (kept for inspection): " + workDir,
                        workDir,
                        cause);
        failures.stream().filter(f -> f != first && f != cause).forEach(first::addSuppressed);
        LOG.error("The local stack failed to start; its work folder is kept: {}", workDir);
        throw first;
    }

    private void startOrStopOthers(ManagedServer server, Queue<RuntimeException> failures) {
        try {
            server.start();
        } catch (RuntimeException e) {
            failures.add(e);
            // don't wait for the other servers to finish starting in vain
            servers.stream().filter(other -> other != server).forEach(ManagedServer::stop);
            throw e;
        }
    }

    private void stopAll() {
        List<CompletableFuture<Void>> stops = servers.stream()
                .map(server ->
                        CompletableFuture.runAsync(server::stop, daemonExecutor(server.dir.getFileName() + "-stop")))
                .toList();
        stops.forEach(CompletableFuture::join);
    }

    /** @return an executor running each task in a new daemon thread {@code apiary-devstack-NAME} */
    static java.util.concurrent.Executor daemonExecutor(String name) {
        return task -> {
            Thread t = new Thread(task, "apiary-devstack-" + name);
            t.setDaemon(true);
            t.start();
        };
    }

    /**
     * Copies {@link ParentWatchdog}'s class file into {@code <workDir>/watchdog}.
     *
     * @return the folder to put first on each server's classpath
     * @throws LocalStackException if it cannot be copied (the work folder is kept)
     */
    static Path installWatchdog(Path workDir) {
        Path watchdogDir = workDir.resolve("watchdog");
        try {
            StackFiles.write(
                    watchdogDir.resolve(WATCHDOG_CLASS.substring(1)), StackFiles.resourceBytes(WATCHDOG_CLASS));
        } catch (RuntimeException e) {
            throw new LocalStackException(
                    "Cannot copy the server watchdog into the work folder " + workDir + " (kept for inspection): "
                            + e.getMessage(),
                    workDir,
                    e);
        }
        return watchdogDir;
    }

    /**
     * @return the work folder of {@code options}, created if missing, or a fresh temporary one
     * @throws LocalStackException if it cannot be created or is not empty
     */
    static Path createWorkDir(LocalStackOptions options) {
        try {
            if (options.workDir().isEmpty()) {
                return Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "apiary-devstack-");
            }
            Path dir = options.workDir().get();
            if (Files.isDirectory(dir)) {
                try (Stream<Path> entries = Files.list(dir)) {
                    if (entries.findAny().isPresent()) {
                        throw new LocalStackException("The work folder " + dir + " is not empty:"
                                + " give an empty or new folder (the stack deletes it when it stops,"
                                + " unless told to keep it: --keep-work-dir), or none for a fresh temporary folder");
                    }
                }
                return dir;
            }
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new LocalStackException(
                    "Cannot create the dev stack's work folder ("
                            + options.workDir().map(Path::toString).orElse("under java.io.tmpdir")
                            + "): " + e,
                    e);
        }
    }
}
