package io.apiary.ingest.devstack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dev stack's Cassandra node: a single node (SimpleSnitch, data center
 * {@value #LOCAL_DATACENTER}) in a child JVM, listening on 127.0.0.1 only. Files live in
 * {@code <work folder>/cassandra}: {@code conf/} (cassandra.yaml, logback.xml), {@code data/},
 * {@code commitlog/}, {@code logs/system.log} and {@code stdout.log}.
 *
 * <p>Thread-safety: all methods may be called from any thread. {@link #start()} calls are
 * serialized; {@link #stop()} may be called while a start is in progress, which then fails.
 */
public final class CassandraNode {

    /** The node's data center: SimpleSnitch always reports this one. */
    public static final String LOCAL_DATACENTER = "datacenter1";

    private static final Logger LOG = LoggerFactory.getLogger(CassandraNode.class);
    private static final String MAIN_CLASS = "org.apache.cassandra.service.CassandraDaemon";

    private final ServerRuntime runtime;
    private final LocalStackOptions options;
    private final Path dir;
    private final Path watchdogDir;
    private final int cqlPort;
    private final int storagePort;
    private final int sslStoragePort;
    private final int jmxPort;
    private final String version;
    private final ServerProcess process;
    private volatile Duration startupTime = Duration.ZERO;
    private volatile boolean startFailed;

    CassandraNode(ServerRuntime runtime, LocalStackOptions options, Path workDir,
                  Path watchdogDir, int cqlPort, int storagePort, int sslStoragePort, int jmxPort) {
        this.runtime = runtime;
        this.options = options;
        this.dir = workDir.resolve("cassandra");
        this.watchdogDir = watchdogDir;
        this.cqlPort = cqlPort;
        this.storagePort = storagePort;
        this.sslStoragePort = sslStoragePort;
        this.jmxPort = jmxPort;
        this.version = ServerRuntime.versionOf(runtime.cassandraClasspath(), "cassandra-all");
        this.process = new ServerProcess("Cassandra " + version + " node", workDir,
                dir.resolve("logs/system.log"), dir.resolve("stdout.log"), options.stopTimeout());
    }

    /**
     * Starts the node and blocks until its CQL port accepts connections. Restarts reuse the
     * same ports and data. Does nothing if the node is already running.
     *
     * @throws LocalStackException if it does not become ready within the start timeout or its
     *                             process exits; the process is stopped before this is thrown
     */
    public synchronized void start() {
        if (process.isRunning()) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            prepare();
            process.launch(command(), dir);
            process.awaitReady(this::acceptsCql, options.startTimeout());
        } catch (LocalStackException e) {
            startFailed = true;
            process.stop();
            throw e;
        } catch (RuntimeException e) {
            startFailed = true;
            process.stop();
            throw process.failure("unexpected error " + e);
        }
        startupTime = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("Cassandra {} node ready at 127.0.0.1:{} (CQL) in {} (pid {})", version, cqlPort,
                ServerProcess.seconds(startupTime), process.pid());
    }

    /**
     * Stops the node: SIGTERM (Cassandra drains and flushes), then after the stop timeout
     * SIGKILL of it and its descendants. Blocks until the process has ended. Does nothing if it
     * is not running. Data is kept, so {@link #start()} can start it again.
     */
    public void stop() {
        process.stop();
    }

    /** @return whether the node's process is alive (it may still be starting) */
    public boolean isRunning() {
        return process.isRunning();
    }

    /**
     * @return the pid of the current or last node process
     * @throws IllegalStateException if it was never launched
     */
    public long pid() {
        return process.pid();
    }

    /** @return the node's main log, {@code <work>/cassandra/logs/system.log}; may not exist yet */
    public Path logFile() {
        return process.logFile();
    }

    /** @return how long the last successful start took, from the call to ready; zero before */
    public Duration startupTime() {
        return startupTime;
    }

    /** @return the CQL (native transport) address, 127.0.0.1 and the CQL port; never null */
    public InetSocketAddress contactPoint() {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), cqlPort);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("127.0.0.1 is always a valid address", e);
        }
    }

    /** @return the node's data center, {@value #LOCAL_DATACENTER} */
    public String localDatacenter() {
        return LOCAL_DATACENTER;
    }

    /** @return the CQL (native transport) port on 127.0.0.1 */
    public int cqlPort() {
        return cqlPort;
    }

    /** @return the local JMX port, for {@code nodetool -h 127.0.0.1 -p PORT} */
    public int jmxPort() {
        return jmxPort;
    }

    /** @return the Cassandra version run, from the cassandra-all jar's name, e.g. {@code 5.0.7} */
    public String version() {
        return version;
    }

    /** @return the node's folder, {@code <work>/cassandra} */
    public Path directory() {
        return dir;
    }

    /** @return whether a start of this node has failed (its work folder is then kept) */
    boolean startFailed() {
        return startFailed;
    }

    private boolean acceptsCql() {
        try (Socket s = new Socket()) {
            s.connect(contactPoint(), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void prepare() {
        Path conf = dir.resolve("conf");
        if (Files.exists(conf.resolve("cassandra.yaml"))) {
            return;
        }
        for (String sub : List.of("logs", "tmp", "home", "data", "commitlog", "saved_caches",
                "hints", "cdc_raw")) {
            StackFiles.mkdirs(dir.resolve(sub));
        }
        StackFiles.write(conf.resolve("cassandra.yaml"), StackFiles.render(
                "cassandra.yaml.template", Map.of("DIR", dir.toString(),
                        "CQL_PORT", Integer.toString(cqlPort),
                        "STORAGE_PORT", Integer.toString(storagePort),
                        "SSL_STORAGE_PORT", Integer.toString(sslStoragePort))));
        StackFiles.write(conf.resolve("logback.xml"), StackFiles.render(
                "cassandra-logback.xml.template",
                Map.of("LOG_DIR", StackFiles.xml(dir.resolve("logs").toString()))));
        StackFiles.write(conf.resolve("jdk17.args"), StackFiles.resource("cassandra-jdk17.args"));
    }

    private List<String> command() {
        Path conf = dir.resolve("conf");
        List<String> jvm = new ArrayList<>(List.of(
                "@" + conf.resolve("jdk17.args"),
                "-Xms" + options.cassandraInitialHeap(), "-Xmx" + options.cassandraMaxHeap(),
                "-Xss256k", "-XX:+UseG1GC", "-XX:+ParallelRefProcEnabled",
                "-XX:+PerfDisableSharedMem", "-XX:+ExitOnOutOfMemoryError",
                "-Djava.net.preferIPv4Stack=true",
                "-Djava.awt.headless=true",
                "-Dcassandra-foreground=yes",
                "-Dcassandra.config=" + conf.resolve("cassandra.yaml").toUri(),
                "-Dcassandra.storagedir=" + dir,
                "-Dcassandra.logdir=" + dir.resolve("logs"),
                "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-Djna.tmpdir=" + dir.resolve("tmp"),
                "-Duser.home=" + dir.resolve("home"),
                "-Dcassandra.ring_delay_ms=100",
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                "-Dcassandra.jmx.local.port=" + jmxPort,
                "-Dlogback.configurationFile=" + conf.resolve("logback.xml")));
        jvm.addAll(options.cassandraJvmOptions());
        List<Path> classpath = new ArrayList<>();
        classpath.add(conf); // logback.xml first
        classpath.addAll(runtime.cassandraClasspath());
        return ServerProcess.javaCommand(runtime.java(), jvm, watchdogDir, classpath, MAIN_CLASS,
                List.of());
    }
}
