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
 * A Cassandra node (SimpleSnitch, data center {@value #LOCAL_DATACENTER}) in a child JVM,
 * listening on 127.0.0.1 only: the dev stack's single node, or one node of a
 * {@link CassandraCluster}. Files live in its folder of the work folder ({@code cassandra} for the
 * dev stack, {@code cassandra-N} in a cluster): {@code conf/} (cassandra.yaml, logback.xml),
 * {@code data/}, {@code commitlog/}, {@code logs/system.log} (the {@link #logFile()}) and
 * {@code stdout.log}.
 *
 * <p>Seeds: a node without a seed address (the dev stack's, a cluster's first) is its own seed,
 * {@code seeds: "127.0.0.1:<its storage port>"}. A node given the storage address of another
 * node names that one as its only seed and joins with {@code auto_bootstrap: false}: meant for a
 * new, empty test cluster, where there is nothing to stream (it would lose data in a cluster that
 * holds some).
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

    private final String role;
    private final InetSocketAddress seed;
    private final int cqlPort;
    private final int storagePort;
    private final int sslStoragePort;
    private final int jmxPort;
    private final StackSecurity security; // null: no TLS, no authentication

    /** The dev stack's single node: folder {@code cassandra}, its own seed. */
    CassandraNode(
            ServerRuntime runtime,
            LocalStackOptions options,
            Path workDir,
            Path watchdogDir,
            int cqlPort,
            int storagePort,
            int sslStoragePort,
            int jmxPort,
            StackSecurity security) {
        this(
                runtime,
                options,
                workDir,
                watchdogDir,
                "cassandra",
                "node",
                null,
                cqlPort,
                storagePort,
                sslStoragePort,
                jmxPort,
                security);
    }

    /**
     * @param folder the node's folder in the work folder, e.g. {@code cassandra-2}
     * @param role   how messages name the node, after its version, e.g. {@code node 2}
     * @param seed   the {@link #storageAddress()} of the node to join (without bootstrap), or
     *               null for a node that is its own seed
     * @param security the stack's security (client TLS and PasswordAuthenticator), or null for none
     */
    CassandraNode(
            ServerRuntime runtime,
            LocalStackOptions options,
            Path workDir,
            Path watchdogDir,
            String folder,
            String role,
            InetSocketAddress seed,
            int cqlPort,
            int storagePort,
            int sslStoragePort,
            int jmxPort,
            StackSecurity security) {
        super(
                runtime,
                options,
                workDir,
                watchdogDir,
                folder,
                "logs/system.log",
                "Cassandra",
                ServerRuntime.versionOf(runtime.cassandraClasspath(), "cassandra-all"),
                role);
        this.role = role;
        this.seed = seed;
        this.cqlPort = cqlPort;
        this.storagePort = storagePort;
        this.sslStoragePort = sslStoragePort;
        this.jmxPort = jmxPort;
        this.security = security;
    }

    /** @return the CQL (native transport) address, 127.0.0.1 and the CQL port; never null */
    public InetSocketAddress contactPoint() {
        return loopback(cqlPort);
    }

    /**
     * @return the address other nodes gossip with, 127.0.0.1 and the storage port: what a
     *     joining node names as its seed; never null
     */
    public InetSocketAddress storageAddress() {
        return loopback(storagePort);
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
        for (String sub : List.of("logs", "tmp", "home", "data", "commitlog", "saved_caches", "hints", "cdc_raw")) {
            StackFiles.mkdirs(dir.resolve(sub));
        }
        StackFiles.writeOwnerOnly( // holds the key store's password when secured
                conf.resolve("cassandra.yaml"),
                StackFiles.render(
                        "cassandra.yaml.template",
                        Map.of(
                                "DIR",
                                dir.toString(),
                                "CQL_PORT",
                                Integer.toString(cqlPort),
                                "STORAGE_PORT",
                                Integer.toString(storagePort),
                                "SSL_STORAGE_PORT",
                                Integer.toString(sslStoragePort),
                                "SEEDS",
                                hostPort(seed == null ? storageAddress() : seed),
                                // a seed never bootstraps: true changes nothing for a node that is its own
                                "AUTO_BOOTSTRAP",
                                Boolean.toString(seed == null),
                                "SECURITY",
                                securityYaml())));
        StackFiles.write(
                conf.resolve("logback.xml"),
                StackFiles.render(
                        "cassandra-logback.xml.template",
                        Map.of("LOG_DIR", StackFiles.xml(dir.resolve("logs").toString()))));
        StackFiles.write(conf.resolve("jdk17.args"), StackFiles.resource("cassandra-jdk17.args"));
    }

    @Override
    List<String> command() {
        Path conf = dir.resolve("conf");
        List<String> jvm = new ArrayList<>(List.of(
                "@" + conf.resolve("jdk17.args"),
                "-Xms" + options.cassandraInitialHeap(),
                "-Xmx" + options.cassandraMaxHeap(),
                "-Xss256k",
                "-XX:+UseG1GC",
                "-XX:+ParallelRefProcEnabled",
                "-XX:+PerfDisableSharedMem",
                "-XX:+ExitOnOutOfMemoryError",
                // every collection and its pause in logs/gc.log, as Cassandra's own jvm-server.options
                // log them: the pauses are where a write's tail latency often comes from
                "-Xlog:gc:file=" + dir.resolve("logs").resolve("gc.log") + ":time,uptime:filecount=2,filesize=10m",
                "-Djava.net.preferIPv4Stack=true",
                "-Djava.awt.headless=true",
                "-Dcassandra-foreground=yes",
                "-Dcassandra.config=" + conf.resolve("cassandra.yaml").toUri(),
                "-Dcassandra.storagedir=" + dir,
                "-Dcassandra.logdir=" + dir.resolve("logs"),
                "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-Djna.tmpdir=" + dir.resolve("tmp"),
                "-Duser.home=" + dir.resolve("home"),
                // A joining node's gossip shadow round waits up to the ring delay for the seed's
                // answer: 100 ms is too short on a loaded 2-core machine ("Unable to gossip with
                // any peers"). Without bootstrap the delay is not slept, only waited on.
                "-Dcassandra.ring_delay_ms=" + (seed == null ? 100 : 30_000),
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                "-Dcassandra.jmx.local.port=" + jmxPort,
                "-Dlogback.configurationFile=" + conf.resolve("logback.xml")));
        if (security != null) {
            // the default superuser (cassandra/cassandra) at once, not 10 s after CQL opens
            jvm.add("-Dcassandra.superuser_setup_delay_ms=0");
        }
        jvm.addAll(options.cassandraJvmOptions());
        List<Path> classpath = new ArrayList<>();
        classpath.add(conf); // logback.xml first
        classpath.addAll(runtime.cassandraClasspath());
        return ServerProcess.javaCommand(runtime.java(), jvm, watchdogDir, classpath, MAIN_CLASS, List.of());
    }

    @Override
    void awaitReady(long startNanos) {
        // the whole start timeout: prepare() only writes a few files
        process.awaitReady(this::acceptsCql, options.startTimeout());
    }

    @Override
    void logReady() {
        LOG.info(
                "Cassandra {} {} ready at 127.0.0.1:{} (CQL) in {} (pid {})",
                version,
                role,
                cqlPort,
                ServerProcess.seconds(startupTime()),
                process.pid());
    }

    /** @return the authenticator, authorizer and, when secured, client_encryption_options lines */
    private String securityYaml() {
        if (security == null) {
            return "authenticator: AllowAllAuthenticator\nauthorizer: AllowAllAuthorizer";
        }
        StackCertificates certs = security.certificates();
        return String.join(
                "\n",
                "authenticator: PasswordAuthenticator",
                "authorizer: CassandraAuthorizer",
                "role_manager: CassandraRoleManager",
                "client_encryption_options:",
                "  enabled: true",
                "  optional: false",
                "  keystore: " + certs.serverKeyStore(),
                "  keystore_password: " + certs.serverKeyStorePassword(),
                "  store_type: PKCS12",
                "  require_client_auth: false");
    }

    private static InetSocketAddress loopback(int port) {
        try {
            return new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("127.0.0.1 is always a valid address", e);
        }
    }

    /** @return {@code 127.0.0.1:PORT}, the form of cassandra.yaml's seeds */
    private static String hostPort(InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
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
