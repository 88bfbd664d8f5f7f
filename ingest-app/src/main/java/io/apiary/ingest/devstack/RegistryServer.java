package io.apiary.ingest.devstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dev stack's schema registry: Apicurio Registry 2.4 (a Quarkus application built by the
 * {@code devstack/registry-server} module) in a child JVM, serving HTTP on 127.0.0.1 only, with
 * Confluent Schema Registry's REST API at {@link #confluentApiUrl()}. Its storage is an embedded
 * H2 database in files of its folder, so schemas and their ids survive a restart. Files live in
 * {@code <work folder>/registry}: {@code data/} (the database), {@code logs/registry.log} (the
 * {@link #logFile()}), {@code tmp/} and {@code stdout.log}.
 *
 * <p>Network: Quarkus's HTTP server is the only listener (bound to {@code quarkus.http.host} =
 * 127.0.0.1); this release has no separate management interface, no TLS port without
 * certificates, H2 runs embedded, without its TCP server, and the transaction manager's process
 * id is a UUID rather than its default, a socket of its own. Authentication is off, as for the
 * stack's other servers: the stack is for one machine, and on it anyone can use the port's other
 * APIs too (Apicurio's own {@code /apis/registry/v2}, its web UI at {@code /ui}, an export of all
 * data at {@code /apis/registry/v2/admin/export}).
 *
 * <p>On a secured stack (a {@link StackSecurity}) it serves HTTPS only, with the run's server
 * certificate ({@link StackCertificates#serverKeyStore()}, SAN {@code localhost} and {@code
 * 127.0.0.1}): Quarkus's {@code quarkus.http.ssl-port} on 127.0.0.1 and {@code
 * quarkus.http.insecure-requests=disabled}, so no plain HTTP port is opened at all; {@link #url()}
 * is then {@code https://127.0.0.1:PORT}, which clients reach trusting the run's CA ({@link
 * StackCertificates#trustStore()}). The key store's password is in {@code config/application.properties}
 * of the registry's folder (Quarkus reads that file from its working folder), written owner-only
 * from its creation ({@link StackFiles#writeOwnerOnly}), never on a command line; Quarkus does not
 * log it. Still no authentication: TLS here proves the clients' TLS settings, not who may write.
 *
 * <p>Known limits of this release, not of Confluent's registry: concurrent registrations can
 * fail with HTTP 500 (an H2 lock or unique-key race; register one schema at a time), a refused
 * incompatible schema answers 409 with {@code error_code} 0, look-ups and registrations compare
 * the schema's raw text unless asked with {@code ?normalize=true}, and the default compatibility
 * is {@code NONE} (set it per subject). The full list is in {@code docs/gateway-developers.md},
 * "Wire format and schema registry".
 *
 * <p>Ready once {@code GET /apis/ccompat/v7/subjects} answers 200 (the database is initialised
 * and the REST resources are up). {@link #version()} comes from the name of the
 * {@code apicurio-registry-app} jar in the runner's {@code lib/} folder.
 *
 * <p>Thread-safety: all methods may be called from any thread. {@link #start()} calls are
 * serialized; {@link #stop()} may be called while a start is in progress, which then fails.
 */
public final class RegistryServer extends ManagedServer {

    /** The path of the Confluent-compatible API below the server's root URL. */
    public static final String CONFLUENT_API_PATH = "/apis/ccompat/v7";

    private static final Logger LOG = LoggerFactory.getLogger(RegistryServer.class);
    private static final String MAIN_CLASS = "io.apicurio.registry.RegistryQuarkusMain";
    private static final Pattern APP_JAR = Pattern.compile("io\\.apicurio\\.apicurio-registry-app-(.+)\\.jar");

    /** Quarkus's settings file in the registry's working folder (its own folder), holding the key store's password. */
    static final String SECRET_SETTINGS = "config/application.properties";

    private final int port;
    private final StackSecurity security; // null unless the stack is secured

    /**
     * @param security the stack's security, or null: with one, the registry serves HTTPS only
     */
    RegistryServer(
            ServerRuntime runtime,
            LocalStackOptions options,
            Path workDir,
            Path watchdogDir,
            int port,
            StackSecurity security) {
        super(
                runtime,
                options,
                workDir,
                watchdogDir,
                "registry",
                "logs/registry.log",
                "Apicurio Registry",
                versionOf(runtime.registryClasspath()),
                "schema registry");
        this.port = port;
        this.security = security;
    }

    /**
     * @return the server's root URL, {@code http://127.0.0.1:PORT}, or {@code https://127.0.0.1:PORT}
     *     on a secured stack; never null
     */
    public String url() {
        return (secure() ? "https" : "http") + "://127.0.0.1:" + port;
    }

    /** @return whether it serves HTTPS only, with the run's certificate (a secured stack) */
    public boolean secure() {
        return security != null;
    }

    /**
     * @return the base URL of the Confluent-compatible REST API, what Confluent's serializers and
     *     other registry-aware clients take as their schema registry URL, e.g.
     *     {@code http://127.0.0.1:PORT/apis/ccompat/v7}; never null
     */
    public String confluentApiUrl() {
        return url() + CONFLUENT_API_PATH;
    }

    /** @return the port on 127.0.0.1: HTTP, or HTTPS on a secured stack */
    public int port() {
        return port;
    }

    @Override
    void prepare() {
        StackFiles.mkdirs(dir.resolve("logs"));
        StackFiles.mkdirs(dir.resolve("data"));
        StackFiles.mkdirs(dir.resolve("tmp"));
        if (secure()) {
            StackCertificates certificates = security.certificates();
            StackFiles.writeOwnerOnly( // the key store's password: owner-only from its creation
                    dir.resolve(SECRET_SETTINGS),
                    "# The registry's TLS key store (written by the dev stack; owner-only: it holds a password)\n"
                            + "quarkus.http.ssl.certificate.key-store-file="
                            + certificates
                                    .serverKeyStore()
                                    .toAbsolutePath()
                                    .toString()
                                    .replace("\\", "\\\\")
                            + "\nquarkus.http.ssl.certificate.key-store-file-type=PKCS12\n"
                            + "quarkus.http.ssl.certificate.key-store-password="
                            + certificates.serverKeyStorePassword() + "\n");
        }
    }

    @Override
    List<String> command() {
        List<String> jvm = new ArrayList<>(List.of(
                "-Xms64m",
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.awt.headless=true",
                "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.datasource.jdbc.url=jdbc:h2:file:" + dir.resolve("data/registry"),
                // Narayana's default process id opens a loopback socket of its own: use a UUID instead
                "-DCoreEnvironmentBean.processImplementationClassName="
                        + "com.arjuna.ats.internal.arjuna.utils.UuidProcessId",
                // the log once, in a file kept to 4 x 10 MB (each refused request logs stack traces)
                "-Dquarkus.log.console.enable=false",
                "-Dquarkus.log.file.enable=true",
                "-Dquarkus.log.file.path=" + dir.resolve("logs/registry.log"),
                "-Dquarkus.log.file.rotation.max-file-size=10M",
                "-Dquarkus.log.file.rotation.max-backup-index=3"));
        if (secure()) {
            // HTTPS only: no plain HTTP port is opened (the key store comes from SECRET_SETTINGS; without it
            // Quarkus refuses to start rather than serve HTTP)
            jvm.add("-Dquarkus.http.ssl-port=" + port);
            jvm.add("-Dquarkus.http.insecure-requests=disabled");
        } else {
            jvm.add("-Dquarkus.http.port=" + port);
        }
        return ServerProcess.javaCommand(
                runtime.java(), jvm, watchdogDir, runtime.registryClasspath(), MAIN_CLASS, List.of());
    }

    @Override
    void awaitReady(long startNanos) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        if (secure()) {
            builder.sslContext(security.certificates().clientSslContext()); // trusting the run's CA only
        }
        HttpClient client = builder.build();
        HttpRequest probe = HttpRequest.newBuilder(URI.create(confluentApiUrl() + "/subjects"))
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build();
        process.awaitReady(
                () -> client.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200,
                startTimeLeft(startNanos));
    }

    @Override
    void logReady() {
        LOG.info(
                "Apicurio Registry {} ready at {} in {} (pid {})",
                version,
                confluentApiUrl(),
                ServerProcess.seconds(startupTime()),
                process.pid());
    }

    /** @return the version in the name of the registry's application jar beside the runner, or a placeholder */
    static String versionOf(List<Path> classpath) {
        for (Path runner : classpath) {
            Path lib = runner.toAbsolutePath().getParent().resolve("lib");
            if (!Files.isDirectory(lib)) {
                continue;
            }
            try (Stream<Path> jars = Files.list(lib)) {
                for (Path jar : (Iterable<Path>) jars::iterator) {
                    Matcher m = APP_JAR.matcher(jar.getFileName().toString());
                    if (m.matches()) {
                        return m.group(1);
                    }
                }
            } catch (IOException e) {
                LOG.debug("Cannot list {}", lib, e);
            }
        }
        return "(unknown version)";
    }
}
