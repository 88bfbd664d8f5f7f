package io.apiary.ingest.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LocalStackSession;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import io.apiary.ingest.pipeline.TopicProvisioner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code devstack}: a local Kafka broker and Cassandra node for development, kept running until
 * Ctrl-C, with the CQL applied, the topics created and a settings file for the other commands.
 */
@Command(
        name = "devstack",
        mixinStandardHelpOptions = true,
        description = {
            "Starts a local Kafka broker and Cassandra node and keeps them running until Ctrl-C: "
                    + "applies cql/, creates the topics and writes a settings file that run, import-csv, import-counts, "
                    + "schema apply and topics create take with --config.",
            "Needs JDK 17 and the build's dev stack (./mvnw -DskipTests package)."
        })
public final class DevStackCommand implements Callable<Integer> {

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Working folder for the servers' data and logs, empty or new (default: a new temporary "
                    + "folder). Deleted when the stack stops unless --keep-work-dir.")
    Path workDir;

    @Option(names = "--keep-work-dir", description = "Keep the working folder (data and server logs) afterwards.")
    boolean keepWorkDir;

    @Option(
            names = "--registry",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Start a schema registry too (Apicurio Registry, Confluent-compatible API on 127.0.0.1; the "
                    + "default; HTTPS only with --secure) and print its URL. --no-registry leaves it out: the settings "
                    + "file then sets wire.format.write=single-object.")
    boolean registry;

    @Option(
            names = "--secure",
            description = "Secure the servers as the prod overlay expects them: Kafka on a SASL_SSL listener only "
                    + "(SCRAM-SHA-512, StandardAuthorizer with ACLs), Cassandra with client TLS required and "
                    + "PasswordAuthenticator, the schema registry on HTTPS only (no plain HTTP port), certificates of "
                    + "a CA made for the run (in <work folder>/tls), random passwords. The settings file then holds "
                    + "the super users' credentials and the trust store's password (owner-only); nothing prints "
                    + "them.")
    boolean secure;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        boolean withRegistry = registry;
        out.println(
                secure
                        ? "Starting a secured Kafka broker and Cassandra node"
                                + (withRegistry ? " and a schema registry" : "")
                                + " (SASL_SSL, TLS, passwords made for the run)..."
                        : withRegistry
                                ? "Starting a Kafka broker, a Cassandra node and a schema registry..."
                                : "Starting a Kafka broker and a Cassandra node...");
        out.flush();
        LocalStackOptions.Builder options = LocalStackOptions.builder()
                .keepWorkDir(keepWorkDir)
                .registry(withRegistry)
                .secure(secure);
        if (workDir != null) {
            options.workDir(workDir);
        }
        LocalStack stack = LocalStack.start(options.build());
        IngestConfig config = ConfigLoader.load(null, Map.of(), LocalStackSession.settings(stack));
        try (CqlSession session = CassandraSessions.open(config);
                Admin admin = Admin.create(config.kafkaClientSettings())) {
            SchemaApplier.apply(
                    session,
                    SchemaApplier.load(
                            null, config.getString(IngestConfig.CASSANDRA_KEYSPACE), SchemaApplier.DEV_REPLICATION));
            TopicProvisioner.createMissing(admin, config);
        }
        out.printf(
                "Kafka is at %s and Cassandra at %s (datacenter %s); work folder %s%n",
                stack.kafkaBootstrapServers(),
                config.getList(IngestConfig.CASSANDRA_CONTACT_POINTS).get(0),
                stack.cassandraLocalDatacenter(),
                stack.workDir());
        stack.security()
                .ifPresent(s -> out.printf(
                        "Secured: Kafka SASL_SSL with SCRAM-SHA-512 (super user %s) and ACLs, Cassandra TLS with "
                                + "PasswordAuthenticator (superuser %s)%s; trust store %s; passwords in the settings file "
                                + "below (owner-only), printed nowhere%n",
                        s.kafkaAdmin().user(),
                        s.cassandraAdmin().user(),
                        stack.registry().isPresent() ? ", the schema registry HTTPS only" : "",
                        s.certificates().trustStore()));
        stack.registry()
                .ifPresent(r -> out.printf(
                        "The schema registry (Apicurio Registry %s) is at %s: Confluent "
                                + "Schema Registry's REST API, for registry-aware clients' schema.registry.url%n",
                        r.version(), r.confluentApiUrl()));
        LocalStackSession.printUsage(out, LocalStackSession.writeSettings(stack));
        LocalStackSession.awaitShutdown();
        return 0;
    }
}
