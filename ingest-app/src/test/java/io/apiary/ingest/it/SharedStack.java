package io.apiary.ingest.it;

import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import java.util.Locale;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka broker, Cassandra node and schema registry shared by all integration tests of one test JVM: started
 * on the first {@link #get()} and stopped by a JVM shutdown hook at the end of the run.
 *
 * <p>Which servers, by system property {@value #PROPERTY}: {@code auto} (the default) or {@code local},
 * child JVMs (see {@link LocalStack}; they need only a Java 17, the build fetches the servers); or
 * {@code testcontainers}, opt-in: Docker containers of the same releases, the registry included (see
 * {@link ContainerStack}). A test that needs the local stack's processes asks {@link
 * #localStackOrSkip(String)}.
 *
 * <p>Thread-safe.
 */
public final class SharedStack {

    /** System property choosing the servers: auto, local or testcontainers. */
    public static final String PROPERTY = "apiary.it.stack";

    private static final String LOCAL = "local";
    private static final String TESTCONTAINERS = "testcontainers";
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
     * @throws IllegalStateException    if Testcontainers was asked for but no Docker engine is reachable
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

    /**
     * Returns the stack a value of {@value #PROPERTY} asks for.
     *
     * @param property the property's value; null or blank means {@code auto}
     * @return {@code local} or {@code testcontainers}, as {@link ItEndpoints#kind()} names them
     * @throws IllegalArgumentException if the value is none of auto, local and testcontainers
     */
    static String kindFor(String property) {
        String mode = property == null ? "" : property.trim().toLowerCase(Locale.ROOT);
        switch (mode) {
            case "":
            case "auto":
            case "local":
                return LOCAL;
            case TESTCONTAINERS:
                return TESTCONTAINERS;
            default:
                throw new IllegalArgumentException(
                        "Unknown " + PROPERTY + "=" + property + ": use auto, local or testcontainers");
        }
    }

    /**
     * Returns the shared local stack, to stop, restart or inspect its server processes, or skips the
     * calling test (a JUnit assumption) when the shared stack runs in containers.
     *
     * @param why what the test does with the processes, for the skip message; never null
     * @return the local stack; never null
     * @throws org.opentest4j.TestAbortedException on the testcontainers stack
     */
    public static LocalStack localStackOrSkip(String why) {
        return get().localStack()
                .orElseThrow(() -> new TestAbortedException("Skipped on the testcontainers stack: this test needs"
                        + " the local stack's server processes to " + why + " (-D" + PROPERTY + "=local)"));
    }

    private static ItEndpoints start() {
        String property = System.getProperty(PROPERTY, "auto");
        boolean containers = kindFor(property).equals(TESTCONTAINERS);
        if (containers && !ContainerStack.dockerAvailable()) {
            throw new IllegalStateException(PROPERTY + "=testcontainers but no Docker engine is reachable:"
                    + " start Docker, or run with -D" + PROPERTY + "=local (the default)");
        }
        String why = PROPERTY + "=" + property;
        LOG.info("Integration tests use the {} stack ({})", containers ? "Testcontainers" : "local", why);
        ItEndpoints started;
        AutoCloseable resource;
        if (containers) {
            ContainerStack stack = new ContainerStack();
            resource = stack;
            try {
                started = stack.start();
            } catch (RuntimeException e) {
                closeQuietly(stack); // containers that did start
                throw e;
            }
        } else {
            LocalStack stack = LocalStack.start(LocalStackOptions.defaults());
            resource = stack;
            started = new ItEndpoints(
                    LOCAL,
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
