package io.apiary.ingest.devstack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dev stack's Cassandra node: a single node (SimpleSnitch, data center
 * {@value #LOCAL_DATACENTER}) in a child JVM, listening on 127.0.0.1 only. Files live in
 * {@code <work folder>/cassandra}: {@code conf/} (cassandra.yaml, logback.xml), {@code data/},
 * {@code commitlog/}, {@code logs/system.log} (the {@link #logFile()}) and {@code stdout.log}.
 *
 * <p>The node is ready once its CQL port accepts connections. On {@link #stop()}'s SIGTERM
 * Cassandra drains and flushes. {@link #version()} comes from the {@code cassandra-all} jar's name.
 *
 * <p>Thread-safety: all methods may be called from any thread. {@link #start()} calls are
 * serialized; {@link #stop()} may be called while a start is in progress, which then fails.
 */
public final class CassandraNode extends ManagedServer {

    /** The node's data center: SimpleSnitch always reports this one. */
    public static final String LOCAL_DATACENTER = "datacenter1";

    private static final Logger LOG = LoggerFactory.getLogger(CassandraNode.class);
    private static final String MAIN_CLASS = "org.apache.cassandra.service.CassandraDaemon";

    private final int cqlPort;
    private final int storagePort;
    private final int sslStoragePort;
    private final int jmxPort;

    CassandraNode(ServerRuntime runtime, LocalStackOptions options, Path workDir,
                  Path watchdogDir, int cqlPort, int storagePort, int sslStoragePort, int jmxPort) {
        super(runtime, options, workDir, watchdogDir, "cassandra", "logs/system.log", "Cassandra",
                ServerRuntime.versionOf(runtime.cassandraClasspath(), "cassandra-all"), "node");
        this.cqlPort = cqlPort;
        this.storagePort = storagePort;
        this.sslStoragePort = sslStoragePort;
        this.jmxPort = jmxPort;
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

    @Override
    void prepare() {
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

    @Override
    List<String> command() {
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

    @Override
    void awaitReady(long startNanos) {
        // the whole start timeout: prepare() only writes a few files
        process.awaitReady(this::acceptsCql, options.startTimeout());
    }

    @Override
    void logReady() {
        LOG.info("Cassandra {} node ready at 127.0.0.1:{} (CQL) in {} (pid {})", version, cqlPort,
                ServerProcess.seconds(startupTime()), process.pid());
    }

    private boolean acceptsCql() {
        try (Socket s = new Socket()) {
            s.connect(contactPoint(), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
