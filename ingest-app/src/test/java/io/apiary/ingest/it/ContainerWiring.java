package io.apiary.ingest.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * What the container stack runs, as plain data: the images (the local stack's releases, from the
 * build), the network aliases, the registry's port, environment and readiness path, and the URL the
 * tests get. {@link ContainerStack} builds its containers from it; a unit test checks it without a
 * Docker engine (Testcontainers resolves an image, and so needs Docker, as soon as it is asked for
 * its name).
 *
 * <p>Registry images: Apicurio Registry publishes its in-memory server as {@code
 * apicurio/apicurio-registry-mem} up to 2.x and as {@code apicurio/apicurio-registry} (in-memory by
 * default) from 3.0, whose Confluent-compatible API moved from {@code /apis/ccompat/v6} to {@code
 * /apis/ccompat/v7}.
 *
 * @param kafkaVersion     Apache Kafka's release, e.g. {@code 4.4.0}; never null
 * @param cassandraVersion Apache Cassandra's release, e.g. {@code 5.0.7}; never null
 * @param registryVersion  Apicurio Registry's release, e.g. {@code 2.1.5.Final}, major 2 or later;
 *                         never null
 */
record ContainerWiring(String kafkaVersion, String cassandraVersion, String registryVersion) {

    /** The class-path resource holding the versions, filtered by the build from its properties. */
    static final String RESOURCE = "container-stack.properties";

    /** Network alias of the Kafka container on the stack's Docker network. */
    static final String KAFKA_ALIAS = "kafka";
    /** Network alias of the Cassandra container. */
    static final String CASSANDRA_ALIAS = "cassandra";
    /** Network alias of the schema registry container. */
    static final String REGISTRY_ALIAS = "registry";
    /** The registry's HTTP port inside its container (Quarkus's default, set explicitly). */
    static final int REGISTRY_PORT = 8080;

    /**
     * @throws IllegalArgumentException if a version is blank, or the registry's major version is
     *                                  below 2 (no in-memory image of it is known here)
     */
    ContainerWiring {
        requireVersion("Kafka", kafkaVersion);
        requireVersion("Cassandra", cassandraVersion);
        requireVersion("Apicurio Registry", registryVersion);
        if (major(registryVersion) < 2) {
            throw new IllegalArgumentException("Apicurio Registry " + registryVersion
                    + " has no known in-memory image: the container stack runs 2.x or later");
        }
    }

    /**
     * Reads the versions the build wrote into {@value #RESOURCE}.
     *
     * @return the wiring of this build; never null
     * @throws IllegalStateException if the resource is missing or was not filtered (run the tests
     *                               through Maven, which filters it)
     */
    static ContainerWiring load() {
        Properties versions = new Properties();
        try (InputStream in = ContainerWiring.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("No " + RESOURCE + " beside " + ContainerWiring.class.getName()
                        + " on the test class path: build the tests with Maven (it writes it from the poms)");
            }
            versions.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + RESOURCE, e);
        }
        return new ContainerWiring(
                filtered(versions, "kafka.version"),
                filtered(versions, "cassandra.version"),
                filtered(versions, "apicurio.version"));
    }

    /** @return the Kafka image, {@code apache/kafka:VERSION} */
    String kafkaImage() {
        return "apache/kafka:" + kafkaVersion;
    }

    /** @return the Cassandra image, {@code cassandra:VERSION} */
    String cassandraImage() {
        return "cassandra:" + cassandraVersion;
    }

    /** @return the registry's in-memory image for its major version (see the class comment) */
    String registryImage() {
        return (registryMajor() >= 3 ? "apicurio/apicurio-registry:" : "apicurio/apicurio-registry-mem:")
                + registryVersion;
    }

    /** @return the path of the registry's Confluent-compatible API, e.g. {@code /apis/ccompat/v6} */
    String registryConfluentApiPath() {
        return registryMajor() >= 3 ? "/apis/ccompat/v7" : "/apis/ccompat/v6"; // 2.x serves v6 in every release
    }

    /** @return the path whose answer 200 means the registry is ready: its subject list */
    String registryReadyPath() {
        return registryConfluentApiPath() + "/subjects";
    }

    /** @return the registry container's environment: its HTTP port */
    Map<String, String> registryEnv() {
        return Map.of("QUARKUS_HTTP_PORT", Integer.toString(REGISTRY_PORT));
    }

    /**
     * @param host       the Docker host's address, as Testcontainers reports it
     * @param mappedPort the host port mapped to {@link #REGISTRY_PORT}
     * @return the registry's Confluent-compatible URL as seen from the tests, e.g. {@code
     *     http://localhost:32768/apis/ccompat/v6}
     */
    String registryUrl(String host, int mappedPort) {
        return "http://" + Objects.requireNonNull(host) + ":" + mappedPort + registryConfluentApiPath();
    }

    private int registryMajor() {
        return major(registryVersion);
    }

    private static int major(String version) {
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "Apicurio Registry version " + version + " does not start with a" + " major version number");
        }
    }

    private static void requireVersion(String server, String version) {
        if (version == null || version.isBlank()) {
            throw new IllegalArgumentException("No " + server + " version for the container stack");
        }
    }

    private static String filtered(Properties versions, String key) {
        String value = versions.getProperty(key);
        if (value == null || value.contains("${")) {
            throw new IllegalStateException(RESOURCE + " has " + key + "=" + value
                    + ": it was not filtered by the build; run the tests through Maven");
        }
        return value.trim();
    }
}
