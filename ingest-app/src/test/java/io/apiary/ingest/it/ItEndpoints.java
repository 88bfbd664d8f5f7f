package io.apiary.ingest.it;

import io.apiary.ingest.devstack.LocalStack;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the integration tests' Kafka and Cassandra are, whichever way they were started (see
 * {@link SharedStack}). Immutable and thread-safe; the servers themselves are shared by all
 * integration tests of one JVM, so tests should use their own topics, keyspaces or tables.
 */
public final class ItEndpoints {

    private final String kind;
    private final String kafkaBootstrapServers;
    private final InetSocketAddress cassandraContactPoint;
    private final String cassandraLocalDatacenter;
    private final LocalStack localStack;
    private final String registryUrl;

    ItEndpoints(
            String kind,
            String kafkaBootstrapServers,
            InetSocketAddress cassandraContactPoint,
            String cassandraLocalDatacenter,
            LocalStack localStack,
            String registryUrl) {
        this.registryUrl = registryUrl;
        this.kind = Objects.requireNonNull(kind);
        this.kafkaBootstrapServers = Objects.requireNonNull(kafkaBootstrapServers);
        this.cassandraContactPoint = Objects.requireNonNull(cassandraContactPoint);
        this.cassandraLocalDatacenter = Objects.requireNonNull(cassandraLocalDatacenter);
        this.localStack = localStack;
    }

    /** @return {@code local} or {@code testcontainers} */
    public String kind() {
        return kind;
    }

    /** @return Kafka's bootstrap servers, {@code host:port}; never null */
    public String kafkaBootstrapServers() {
        return kafkaBootstrapServers;
    }

    /** @return Cassandra's CQL contact point; never null */
    public InetSocketAddress cassandraContactPoint() {
        return cassandraContactPoint;
    }

    /** @return Cassandra's contact point as {@code host:port}, the form of {@code cassandra.contact.points} */
    public String cassandraContactPointSetting() {
        return cassandraContactPoint.getHostString() + ":" + cassandraContactPoint.getPort();
    }

    /**
     * @return a new mutable map of the settings that point the application at these servers:
     *     Kafka's bootstrap servers, Cassandra's contact point and local data center, and the
     *     {@link #registrySettings() wire format's}
     */
    public java.util.Map<String, Object> clientSettings() {
        java.util.Map<String, Object> settings = new java.util.HashMap<>();
        settings.put(io.apiary.ingest.config.IngestConfig.KAFKA_BOOTSTRAP_SERVERS, kafkaBootstrapServers);
        settings.put(io.apiary.ingest.config.IngestConfig.CASSANDRA_CONTACT_POINTS, cassandraContactPointSetting());
        settings.put(io.apiary.ingest.config.IngestConfig.CASSANDRA_LOCAL_DATACENTER, cassandraLocalDatacenter);
        settings.putAll(registrySettings());
        return settings;
    }

    /**
     * @return a new mutable map of the wire format settings: the schema registry's URL (the
     *     default registry framing), or single-object encoding when the stack has no registry
     */
    public java.util.Map<String, String> registrySettings() {
        java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
        if (registryUrl != null) {
            settings.put(io.apiary.ingest.serde.RegistrySettings.REGISTRY_URL, registryUrl);
        } else {
            settings.put(io.apiary.ingest.serde.RegistrySettings.WIRE_FORMAT_WRITE, "single-object");
        }
        return settings;
    }

    /** @return the schema registry's Confluent-compatible URL, if the stack runs one */
    public Optional<String> registryUrl() {
        return Optional.ofNullable(registryUrl);
    }

    /** @return Cassandra's local data center, for the driver; never null */
    public String cassandraLocalDatacenter() {
        return cassandraLocalDatacenter;
    }

    /**
     * @return the local stack when the servers run as child JVMs, to stop and restart them
     *     (e.g. {@code localStack().get().cassandra().stop()}); empty with Testcontainers (a test
     *     that needs it calls {@link SharedStack#localStackOrSkip(String)}). A test that stops a
     *     server must start it again before it ends.
     */
    public Optional<LocalStack> localStack() {
        return Optional.ofNullable(localStack);
    }

    @Override
    public String toString() {
        return kind + " stack: Kafka at " + kafkaBootstrapServers + ", Cassandra at "
                + cassandraContactPoint.getHostString() + ":" + cassandraContactPoint.getPort()
                + " (" + cassandraLocalDatacenter + "), "
                + (registryUrl == null ? "no schema registry" : "schema registry at " + registryUrl);
    }
}
