package io.apiary.ingest.devstack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dev stack's Kafka broker: one KRaft node (broker and controller) in a child JVM, listening
 * on 127.0.0.1 only. Files live in {@code <work folder>/kafka}: {@code server.properties}
 * (owner-only from its creation, {@link StackFiles#writeOwnerOnly}: it holds passwords on a
 * secured stack), {@code kraft-logs/} (data), {@code logs/server.log} (the {@link #logFile()}) and
 * {@code stdout.log}. On a secured stack the storage format tool takes its arguments (the super
 * user's password among them) from an owner-only {@code format.args}, deleted as soon as the tool
 * ends, whether it succeeded or not.
 *
 * <p>{@link #start()} formats the storage on the first start; the broker is ready once an admin
 * client can describe the cluster. {@link #version()} comes from the {@code kafka_2.13} jar's name.
 *
 * <p>Thread-safety: all methods may be called from any thread. {@link #start()} calls are
 * serialized; {@link #stop()} may be called while a start is in progress, which then fails.
 */
public final class KafkaBroker extends ManagedServer {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaBroker.class);
    private static final String MAIN_CLASS = "kafka.Kafka";
    private static final String STORAGE_TOOL = "kafka.tools.StorageTool";
    /** The storage tool's {@code @argfile} on a secured stack, in the broker's folder while it runs. */
    static final String FORMAT_ARGS = "format.args";

    private final int brokerPort;
    private final int controllerPort;
    private final StackSecurity security; // null: PLAINTEXT without authorization

    KafkaBroker(
            ServerRuntime runtime,
            LocalStackOptions options,
            Path workDir,
            Path watchdogDir,
            int brokerPort,
            int controllerPort,
            StackSecurity security) {
        super(
                runtime,
                options,
                workDir,
                watchdogDir,
                "kafka",
                "logs/server.log",
                "Kafka",
                ServerRuntime.versionOf(runtime.kafkaClasspath(), "kafka_2.13"),
                "broker");
        this.brokerPort = brokerPort;
        this.controllerPort = controllerPort;
        this.security = security;
        if (security != null) {
            security.kafkaBootstrapServers(bootstrapServers());
        }
    }

    /** @return the bootstrap servers, {@code 127.0.0.1:PORT}; never null */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /** @return the broker port on 127.0.0.1: PLAINTEXT, or SASL_SSL on a secured stack */
    public int port() {
        return brokerPort;
    }

    /** @return the KRaft controller port on 127.0.0.1 */
    public int controllerPort() {
        return controllerPort;
    }

    @Override
    void prepare() {
        Path properties = dir.resolve("server.properties");
        if (!Files.exists(properties)) {
            StackFiles.mkdirs(dir.resolve("logs"));
            StackFiles.mkdirs(dir.resolve("tmp"));
            Map<String, String> values = new java.util.HashMap<>(Map.of(
                    "DIR",
                    dir.toString(),
                    "BROKER_PORT",
                    Integer.toString(brokerPort),
                    "CONTROLLER_PORT",
                    Integer.toString(controllerPort)));
            if (security != null) {
                StackCertificates certs = security.certificates();
                values.put("ADMIN_USER", StackSecurity.KAFKA_ADMIN);
                values.put("ADMIN_PASSWORD", security.kafkaAdmin().password());
                values.put("KEYSTORE", certs.serverKeyStore().toString());
                values.put("KEYSTORE_PASSWORD", certs.serverKeyStorePassword());
                values.put("TRUSTSTORE", certs.trustStore().toString());
                values.put("TRUSTSTORE_PASSWORD", certs.trustStorePassword());
            }
            // holds passwords on a secured stack
            StackFiles.writeOwnerOnly(
                    properties,
                    StackFiles.render(
                            security == null
                                    ? "kafka-server.properties.template"
                                    : "kafka-server-secure.properties.template",
                            values));
            StackFiles.write(
                    dir.resolve("log4j2.xml"),
                    StackFiles.render(
                            "kafka-log4j2.xml.template",
                            Map.of("LOG_DIR", StackFiles.xml(dir.resolve("logs").toString()))));
            StackFiles.write(dir.resolve("log4j2-tool.xml"), StackFiles.resource("kafka-tool-log4j2.xml"));
        }
        if (!Files.exists(dir.resolve("kraft-logs/meta.properties"))) {
            String clusterId = Uuid.randomUuid().toString();
            // a short-lived tool: C1 only and the serial collector start it faster
            List<String> jvm = List.of(
                    "-Xms64m",
                    "-Xmx256m",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-Djava.awt.headless=true",
                    "-Dlog4j2.configurationFile=" + dir.resolve("log4j2-tool.xml"));
            List<String> args =
                    new ArrayList<>(List.of("format", "-t", clusterId, "-c", properties.toString(), "--standalone"));
            if (security != null) {
                // the super user exists before the broker starts: it is also the inter-broker user
                args.add("--add-scram");
                args.add("SCRAM-SHA-512=[name=" + StackSecurity.KAFKA_ADMIN + ",password="
                        + security.kafkaAdmin().password() + "]");
            }
            List<String> cmd = ServerProcess.javaCommand(
                    runtime.java(), jvm, watchdogDir, runtime.kafkaClasspath(), STORAGE_TOOL, args);
            Path argFile = null;
            if (security != null) {
                // the main class and its arguments go to a file of the owner's only (java's
                // @argfile), so that the password is on no command line; deleted once the tool ends
                int main = cmd.indexOf(ParentWatchdog.class.getName());
                argFile = StackFiles.writeOwnerOnly(
                        dir.resolve(FORMAT_ARGS),
                        cmd.subList(main, cmd.size()).stream()
                                        .map(a -> "'" + a + "'")
                                        .collect(java.util.stream.Collectors.joining("\n"))
                                + "\n");
                List<String> withFile = new ArrayList<>(cmd.subList(0, main));
                withFile.add("@" + argFile);
                cmd = withFile;
            }
            try {
                ServerProcess.runTool(
                        "Kafka " + version + " storage format (" + STORAGE_TOOL + ")",
                        cmd,
                        dir,
                        dir.resolve("format.log"),
                        options.startTimeout(),
                        dir.getParent());
            } finally {
                if (argFile != null) {
                    deleteArgFile(argFile);
                }
            }
            LOG.debug("Formatted Kafka storage in {} with cluster id {}", dir, clusterId);
        }
    }

    /** Deletes the storage tool's argument file (it holds the super user's password). */
    private static void deleteArgFile(Path argFile) {
        try {
            Files.deleteIfExists(argFile);
        } catch (IOException e) {
            // the format's own outcome matters more; the file stays owner-only in the work folder
            LOG.warn("Cannot delete {}, which holds Kafka's super user password: {}", argFile, e.toString());
        }
    }

    @Override
    List<String> command() {
        List<String> jvm = new ArrayList<>(List.of(
                "-Xms" + options.kafkaInitialHeap(),
                "-Xmx" + options.kafkaMaxHeap(),
                "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=20",
                "-XX:InitiatingHeapOccupancyPercent=35",
                "-XX:+ExplicitGCInvokesConcurrent",
                "-Djava.awt.headless=true",
                "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-Dkafka.logs.dir=" + dir.resolve("logs"),
                "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.xml")));
        jvm.addAll(options.kafkaJvmOptions());
        return ServerProcess.javaCommand(
                runtime.java(),
                jvm,
                watchdogDir,
                runtime.kafkaClasspath(),
                MAIN_CLASS,
                List.of(dir.resolve("server.properties").toString()));
    }

    @Override
    void awaitReady(long startNanos) {
        try (AdminProbe probe = new AdminProbe(
                brokerPort, security == null ? Map.of() : security.kafkaClientSettings(security.kafkaAdmin()))) {
            process.awaitReady(probe, startTimeLeft(startNanos));
        }
    }

    @Override
    void logReady() {
        LOG.info(
                "Kafka {} broker ready at {} in {} (pid {})",
                version,
                bootstrapServers(),
                ServerProcess.seconds(startupTime()),
                process.pid());
    }

    /** Ready = the port accepts connections and an admin client can describe the cluster. */
    private static final class AdminProbe implements ServerProcess.Probe, AutoCloseable {
        private final int port;
        private final Map<String, Object> clientSecurity;
        private Admin admin;

        AdminProbe(int port, Map<String, Object> clientSecurity) {
            this.port = port;
            this.clientSecurity = clientSecurity;
        }

        @Override
        public boolean ready() throws Exception {
            if (admin == null) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                } catch (IOException e) {
                    return false; // not listening yet: don't start a noisy admin client
                }
                Properties p = new Properties();
                p.putAll(clientSecurity);
                p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port);
                p.put(AdminClientConfig.CLIENT_ID_CONFIG, "apiary-devstack-readiness");
                p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
                p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
                admin = Admin.create(p);
            }
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        }

        @Override
        public void close() {
            if (admin != null) {
                try {
                    admin.close(Duration.ofSeconds(2));
                } catch (RuntimeException e) {
                    LOG.debug("Closing the readiness admin client failed", e);
                }
            }
        }
    }
}
