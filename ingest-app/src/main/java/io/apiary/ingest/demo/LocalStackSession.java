package io.apiary.ingest.demo;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.StackFiles;
import io.apiary.ingest.service.ServiceSettings;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Helps a person use a running local stack from other commands: the settings that point the
 * application at it, a properties file holding them, and a wait until Ctrl-C. Thread-safe (stateless).
 */
public final class LocalStackSession {

    /** Name of the settings file written into the stack's work folder. */
    public static final String SETTINGS_FILE = "apiary-devstack.properties";

    private LocalStackSession() {}

    /**
     * Maximum event-time age on a local stack: 20 years, because what one replays there (the
     * UrBAN readings of 2021, other old CSV files) is history, not live gateway traffic.
     */
    public static final java.time.Duration REPLAY_MAX_AGE = java.time.Duration.ofDays(365 * 20);

    /**
     * The settings that point the application at a local stack: Kafka, Cassandra, its
     * datacenter, 4 partitions per topic, a state folder inside the stack's work folder, a
     * maximum event-time age of {@link #REPLAY_MAX_AGE} for replays of history, the stack's
     * schema registry (or, without one, the single-object wire format), and HTTP endpoints on
     * 127.0.0.1 at {@link LocalStack#appHttpPort()}, so that {@code run} against a second stack on
     * the same machine does not find 8080 taken. On a secured stack
     * ({@link LocalStack#security()}) also the SASL_SSL, TLS and credential settings of the
     * Kafka and Cassandra super users, and the trust store of the registry's HTTPS: these hold
     * passwords, never print them.
     *
     * @param stack a started stack
     * @return option name to value, in a stable order
     */
    public static Map<String, String> settings(LocalStack stack) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(IngestConfig.KAFKA_BOOTSTRAP_SERVERS, stack.kafkaBootstrapServers());
        settings.put(
                IngestConfig.CASSANDRA_CONTACT_POINTS,
                stack.cassandraContactPoint().getHostString() + ":"
                        + stack.cassandraContactPoint().getPort());
        settings.put(IngestConfig.CASSANDRA_LOCAL_DATACENTER, stack.cassandraLocalDatacenter());
        settings.put(IngestConfig.TOPIC_PARTITIONS, "4");
        settings.put(
                IngestConfig.TOPOLOGY_STATE_DIR,
                stack.workDir().resolve("topology-state").toString());
        settings.put(IngestConfig.VALIDATION_MAX_AGE_MS, Long.toString(REPLAY_MAX_AGE.toMillis()));
        settings.put(ServiceSettings.HTTP_HOST, "127.0.0.1"); // where the port was found free
        settings.put(ServiceSettings.HTTP_PORT, Integer.toString(stack.appHttpPort()));
        stack.security().ifPresent(security -> {
            // the super users: a settings file for a person's experiments, kept owner-only
            io.apiary.ingest.devstack.StackSecurity.Credentials kafka = security.kafkaAdmin();
            security.kafkaClientSettings(kafka).forEach((key, value) -> {
                if (!key.equals("bootstrap.servers")) {
                    settings.put("kafka." + key, value.toString());
                }
            });
            settings.put("cassandra.ssl.enabled", "true");
            settings.put(
                    "cassandra.ssl.truststore.path",
                    security.certificates().trustStore().toString());
            settings.put(
                    "cassandra.ssl.truststore.password", security.certificates().trustStorePassword());
            settings.put("cassandra.ssl.hostname.validation", "true");
            settings.put("cassandra.auth.username", security.cassandraAdmin().user());
            settings.put("cassandra.auth.password", security.cassandraAdmin().password());
        });
        if (stack.registry().isPresent()) {
            settings.put(
                    io.apiary.ingest.serde.RegistrySettings.REGISTRY_URL,
                    stack.registry().get().confluentApiUrl());
            stack.security()
                    .ifPresent(
                            security -> { // the registry serves HTTPS with the run's certificate
                                settings.put(
                                        io.apiary.ingest.serde.RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PATH,
                                        security.certificates().trustStore().toString());
                                settings.put(
                                        io.apiary.ingest.serde.RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PASSWORD,
                                        security.certificates().trustStorePassword());
                            });
        } else {
            settings.put(
                    io.apiary.ingest.serde.RegistrySettings.WIRE_FORMAT_WRITE,
                    io.apiary.ingest.serde.WireFormat.Framing.SINGLE_OBJECT.setting());
        }
        return settings;
    }

    /**
     * Writes {@link #settings} as a properties file into the stack's work folder, readable by its
     * owner only from its creation ({@link StackFiles#writeOwnerOnly}: it holds the super users'
     * passwords on a secured stack).
     *
     * @param stack a started stack
     * @return the file
     * @throws UncheckedIOException if it cannot be written
     */
    public static Path writeSettings(LocalStack stack) {
        StringBuilder text =
                new StringBuilder("# Settings of the local dev stack started by ingest-app; pass with --config.\n");
        for (Map.Entry<String, String> e : settings(stack).entrySet()) {
            text.append(e.getKey())
                    .append('=')
                    .append(e.getValue().replace("\\", "\\\\"))
                    .append('\n');
        }
        return StackFiles.writeOwnerOnly(stack.workDir().resolve(SETTINGS_FILE), text.toString());
    }

    /**
     * Prints how to point other commands at the stack.
     *
     * @param out      where to print
     * @param settings the settings file
     */
    public static void printUsage(PrintWriter out, Path settings) {
        printUsage(out, settings, false);
    }

    /**
     * Prints how to point other commands at the stack.
     *
     * @param out             where to print
     * @param settings        the settings file
     * @param pipelineRunning whether the pipeline already runs (the demo): then reading commands are shown instead of {@code run}
     */
    public static void printUsage(PrintWriter out, Path settings, boolean pipelineRunning) {
        out.println("Settings for other commands: " + settings);
        out.println("In another terminal, for example:");
        if (pipelineRunning) {
            out.println(
                    "  java -jar ingest-app/target/ingest-app.jar query telemetry --hive 3627 --from 2021-07-15T11:00"
                            + " --to 2021-07-15T12:00 --config " + settings);
            out.println(
                    "  java -jar ingest-app/target/ingest-app.jar report --hive 3629 --from 2021-08-01 --to 2021-08-07"
                            + " --config " + settings);
            out.println(
                    "  java -jar ingest-app/target/ingest-app.jar dump --topic hive.activity.hourly.v1 --max-records 5"
                            + " --config " + settings);
        } else {
            out.println("  java -jar ingest-app/target/ingest-app.jar run --config " + settings);
            out.println("  java -jar ingest-app/target/ingest-app.jar import-csv --config " + settings
                    + " --file FILE.csv --time-column ... --hive-column ... --sensor COLUMN=TYPE:UNIT");
            out.println("  java -jar ingest-app/target/ingest-app.jar import-counts --config " + settings
                    + " --file FILE.csv --time-column ... --hive-id ... --in-column ... --out-column ..."
                    + " --interval-seconds ... --await");
        }
        out.println("Press Ctrl-C to stop everything.");
        out.flush();
    }

    /**
     * Blocks until the JVM exits (Ctrl-C or SIGTERM run the shutdown hooks that stop the stack).
     *
     * @throws InterruptedException if the thread is interrupted
     */
    public static void awaitShutdown() throws InterruptedException {
        new CountDownLatch(1).await();
    }
}
