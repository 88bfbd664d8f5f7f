package io.apiary.ingest.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LocalStackSession;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import io.apiary.ingest.devstack.StackControl;
import io.apiary.ingest.pipeline.TopicProvisioner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code devstack}: a local Kafka broker and Cassandra node for development, kept running until
 * Ctrl-C, with the CQL applied, the topics created and a settings file for the other commands; and
 * {@code devstack stop|start|restart SERVER}, which act on one server of a running devstack from
 * another terminal ({@link StackControl}).
 */
@Command(
        name = "devstack",
        mixinStandardHelpOptions = true,
        description = {
            "Starts a local Kafka broker and Cassandra node and keeps them running until Ctrl-C: "
                    + "applies cql/, creates the topics and writes a settings file that run, import-csv, import-counts, "
                    + "schema apply and topics create take with --config.",
            "Needs JDK 17 and the build's dev stack (./mvnw -DskipTests package).",
            "From another terminal, 'devstack restart|stop|start SERVER --work-dir DIR' restarts, stops or starts "
                    + "one of its servers (kafka, cassandra, registry) on the same ports and data."
        },
        subcommands = {DevStackCommand.Restart.class, DevStackCommand.Stop.class, DevStackCommand.Start.class})
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
        StackControl.serve(stack); // its thread ends with the JVM; the stack's shutdown hook stops the servers
        out.printf(
                "To fail a server by hand: ingest-app devstack restart kafka|cassandra%s [--kill] --work-dir %s "
                        + "(or stop [--kill], then start)%n",
                withRegistry ? "|registry" : "", stack.workDir());
        LocalStackSession.printUsage(out, LocalStackSession.writeSettings(stack));
        LocalStackSession.awaitShutdown();
        return 0;
    }

    /** Which running devstack and which of its servers: shared by stop, start and restart. */
    static final class Target {
        @Parameters(
                index = "0",
                paramLabel = "SERVER",
                description = "kafka, cassandra or registry.",
                converter = ServerConverter.class)
        LocalStack.Server server;

        @Option(
                names = "--work-dir",
                paramLabel = "DIR",
                description =
                        "The running devstack's work folder (it prints it; also the folder of its settings " + "file).")
        Path workDir;

        @Option(
                names = {"-c", "--config"},
                paramLabel = "FILE",
                description = "The running devstack's settings file, instead of --work-dir (its folder is the work "
                        + "folder).")
        Path settingsFile;

        @Option(
                names = "--timeout",
                paramLabel = "SECONDS",
                defaultValue = "300",
                description = "How long to wait for the devstack's answer (a start waits until the server is ready); "
                        + "default ${DEFAULT-VALUE}.")
        long timeoutSeconds;

        /** @return the answer of the devstack, printed */
        Integer send(CommandSpec spec, StackControl.Action action, boolean kill) {
            if ((workDir == null) == (settingsFile == null)) {
                throw new picocli.CommandLine.ParameterException(
                        spec.commandLine(), "give the running devstack's --work-dir or its settings file (--config)");
            }
            if (timeoutSeconds < 1 || timeoutSeconds > 86_400) {
                throw new picocli.CommandLine.ParameterException(
                        spec.commandLine(), "--timeout must be 1 to 86400 seconds, was " + timeoutSeconds);
            }
            Path dir = workDir != null ? workDir : settingsFile.toAbsolutePath().getParent();
            String answer = StackControl.send(dir, action, server, kill, java.time.Duration.ofSeconds(timeoutSeconds));
            spec.commandLine().getOut().println(answer);
            return 0;
        }
    }

    /** Converts kafka, cassandra or registry. */
    static final class ServerConverter implements picocli.CommandLine.ITypeConverter<LocalStack.Server> {
        @Override
        public LocalStack.Server convert(String value) {
            try {
                return LocalStack.Server.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** What the three server commands share: the target, and sending one action to it. */
    abstract static class ServerAction implements Callable<Integer> {
        @Mixin
        Target target;

        @Spec
        CommandSpec spec;

        /** @return the action the command sends */
        abstract StackControl.Action action();

        /** @return whether to end the server with SIGKILL */
        boolean kill() {
            return false;
        }

        @Override
        public Integer call() {
            return target.send(spec, action(), kill());
        }
    }

    /** A server command that ends the server, with SIGTERM or, with {@code --kill}, SIGKILL. */
    abstract static class EndingAction extends ServerAction {
        @Option(names = "--kill", description = "End the server with SIGKILL, as a crash would, not SIGTERM.")
        boolean kill;

        @Override
        boolean kill() {
            return kill;
        }
    }

    /** {@code devstack restart SERVER [--kill]}. */
    @Command(
            name = "restart",
            mixinStandardHelpOptions = true,
            description = "Stops one server of a running devstack (SIGTERM, or SIGKILL with --kill) and starts it "
                    + "again on the same ports and data; returns once it is ready. Exit 1 if it is not.")
    static final class Restart extends EndingAction {
        @Override
        StackControl.Action action() {
            return StackControl.Action.RESTART;
        }
    }

    /** {@code devstack stop SERVER [--kill]}. */
    @Command(
            name = "stop",
            mixinStandardHelpOptions = true,
            description = "Stops one server of a running devstack (SIGTERM, or SIGKILL with --kill) and leaves it "
                    + "stopped until 'devstack start' (or Ctrl-C of the devstack); its ports and data are kept.")
    static final class Stop extends EndingAction {
        @Override
        StackControl.Action action() {
            return StackControl.Action.STOP;
        }
    }

    /** {@code devstack start SERVER}. */
    @Command(
            name = "start",
            mixinStandardHelpOptions = true,
            description = "Starts a stopped server of a running devstack again on its ports and data; returns once "
                    + "it is ready.")
    static final class Start extends ServerAction {
        @Override
        StackControl.Action action() {
            return StackControl.Action.START;
        }
    }
}
