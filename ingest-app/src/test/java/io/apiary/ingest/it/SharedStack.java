package io.apiary.ingest.it;

import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka broker, Cassandra node and schema registry shared by all integration tests of one test JVM: started
 * on the first {@link #get()} and stopped by a JVM shutdown hook at the end of the run.
 *
 * <p>Which servers, by system property {@value #PROPERTY}: {@code local} (child JVMs, see
 * {@link LocalStack}), {@code testcontainers} (Docker containers {@value
 * ContainerStack#KAFKA_IMAGE} and {@value ContainerStack#CASSANDRA_IMAGE}), or {@code auto}, the
 * default: Testcontainers when a Docker engine is reachable, else local.
 *
 * <p>Thread-safe.
 */
public final class SharedStack {

    /** System property choosing the servers: auto, local or testcontainers. */
    public static final String PROPERTY = "apiary.it.stack";

    private static final Logger LOG = LoggerFactory.getLogger(SharedStack.class);

    private static ItEndpoints endpoints; // guarded by SharedStack.class
    private static RuntimeException failure; // guarded by SharedStack.class

    private SharedStack() {}

    /**
     * Returns the shared servers, starting them on the first call (this blocks for a while:
     * about 15 s for the local stack on 2 cores).
     *
     * @return the endpoints; never null
     * @throws IllegalArgumentException if {@value #PROPERTY} has an unknown value
     * @throws IllegalStateException    if Testcontainers was asked for but Docker is unreachable
     * @throws RuntimeException         the start failure, also on later calls (no retry)
     */
    public static synchronized ItEndpoints get() {
        if (failure != null) {
            throw new IllegalStateException(
                    "The shared integration-test stack failed to start" + " earlier in this run: "
                            + failure.getMessage(),
                    failure);
        }
        if (endpoints == null) {
            try {
                endpoints = start();
            } catch (RuntimeException e) {
                failure = e;
                throw e;
            }
        }
        return endpoints;
    }

    private static ItEndpoints start() {
        String mode = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
        boolean containers;
        String why;
        switch (mode) {
            case "local":
                containers = false;
                why = PROPERTY + "=local";
                break;
            case "testcontainers":
                if (!ContainerStack.dockerAvailable()) {
                    throw new IllegalStateException(PROPERTY + "=testcontainers but no Docker"
                            + " engine is reachable: start Docker, or run with -D" + PROPERTY
                            + "=local (or auto)");
                }
                containers = true;
                why = PROPERTY + "=testcontainers";
                break;
            case "auto":
            case "":
                containers = ContainerStack.dockerAvailable();
                why = PROPERTY + "=auto and "
                        + (containers ? "a Docker engine is reachable" : "no Docker engine is reachable");
                break;
            default:
                throw new IllegalArgumentException(
                        "Unknown " + PROPERTY + "=" + mode + ": use auto, local or testcontainers");
        }
        LOG.info("Integration tests use the {} stack ({})", containers ? "Testcontainers" : "local", why);
        ItEndpoints started;
        AutoCloseable resource;
        if (containers) {
            ContainerStack stack = new ContainerStack();
            resource = stack;
            started = stack.start();
        } else {
            LocalStack stack = LocalStack.start(LocalStackOptions.defaults());
            resource = stack;
            started = new ItEndpoints(
                    "local",
                    stack.kafkaBootstrapServers(),
                    stack.cassandraContactPoint(),
                    stack.cassandraLocalDatacenter(),
                    stack,
                    stack.registry().map(r -> r.confluentApiUrl()).orElse(null));
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(resource), "apiary-it-shared-stack-close"));
        LOG.info("Integration tests share the {}", started);
        return started;
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            LOG.warn("Closing the shared integration-test stack failed", e);
        }
    }
}
