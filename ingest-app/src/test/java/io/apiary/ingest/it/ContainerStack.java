package io.apiary.ingest.it;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.cassandra.CassandraContainer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * The Testcontainers flavour of the shared stack: Kafka, Cassandra and Apicurio Registry containers
 * of the local stack's releases on one Docker network, wired as {@link ContainerWiring} says.
 * Constructing one needs no Docker engine; {@link #start()} does. Not thread-safe: {@link
 * SharedStack} starts and closes it once.
 */
final class ContainerStack implements AutoCloseable {

    /** How long the registry may take to answer on its subject list after its container starts. */
    static final Duration REGISTRY_STARTUP = Duration.ofMinutes(3);

    private final ContainerWiring wiring;
    private final Network network = Network.newNetwork();
    private final KafkaContainer kafka;
    private final CassandraContainer cassandra;
    private final GenericContainer<?> registry;

    /** The stack of this build's versions ({@link ContainerWiring#load()}). */
    ContainerStack() {
        this(ContainerWiring.load());
    }

    /** @param wiring images, aliases and the registry's settings; never null */
    ContainerStack(ContainerWiring wiring) {
        this.wiring = wiring;
        kafka = new KafkaContainer(wiring.kafkaImage())
                .withNetwork(network)
                .withNetworkAliases(ContainerWiring.KAFKA_ALIAS);
        cassandra = new CassandraContainer(wiring.cassandraImage())
                .withNetwork(network)
                .withNetworkAliases(ContainerWiring.CASSANDRA_ALIAS);
        registry = new GenericContainer<>(DockerImageName.parse(wiring.registryImage()))
                .withNetwork(network)
                .withNetworkAliases(ContainerWiring.REGISTRY_ALIAS)
                .withExposedPorts(ContainerWiring.REGISTRY_PORT)
                .withEnv(wiring.registryEnv())
                .waitingFor(registryReady(wiring));
    }

    /**
     * @return the registry's readiness check: {@code GET} on {@link ContainerWiring#registryReadyPath()}
     *     at the port mapped to {@link ContainerWiring#REGISTRY_PORT} answers 200, within {@link
     *     #REGISTRY_STARTUP}
     */
    static WaitStrategy registryReady(ContainerWiring wiring) {
        return Wait.forHttp(wiring.registryReadyPath())
                .forPort(ContainerWiring.REGISTRY_PORT)
                .forStatusCode(200)
                .withStartupTimeout(REGISTRY_STARTUP);
    }

    /** @return whether a Docker engine answers; false on any error */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) { // a missing socket can surface as an Error from docker-java
            return false;
        }
    }

    /**
     * Starts the three containers in parallel and returns their endpoints, with the registry's URL
     * (so the tests use the default registry framing, as on the local stack).
     */
    ItEndpoints start() {
        Startables.deepStart(kafka, cassandra, registry).join();
        return endpoints(
                kafka.getBootstrapServers(),
                cassandra.getContactPoint(),
                cassandra.getLocalDatacenter(),
                registry.getHost(),
                registry.getMappedPort(ContainerWiring.REGISTRY_PORT));
    }

    /** @return the endpoints the tests get for containers reachable at these host addresses */
    ItEndpoints endpoints(
            String kafkaBootstrapServers,
            InetSocketAddress cassandraContactPoint,
            String cassandraLocalDatacenter,
            String registryHost,
            int registryMappedPort) {
        return new ItEndpoints(
                "testcontainers",
                kafkaBootstrapServers,
                cassandraContactPoint,
                cassandraLocalDatacenter,
                null,
                wiring.registryUrl(registryHost, registryMappedPort));
    }

    /** @return the Kafka container, not started until {@link #start()} */
    KafkaContainer kafka() {
        return kafka;
    }

    /** @return the Cassandra container, not started until {@link #start()} */
    CassandraContainer cassandra() {
        return cassandra;
    }

    /** @return the registry container, not started until {@link #start()} */
    GenericContainer<?> registry() {
        return registry;
    }

    /** @return the network the containers share, created on their start */
    Network network() {
        return network;
    }

    @Override
    public void close() {
        registry.stop();
        kafka.stop();
        cassandra.stop();
        network.close();
    }
}
