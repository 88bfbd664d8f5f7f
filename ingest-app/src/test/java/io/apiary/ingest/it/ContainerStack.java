package io.apiary.ingest.it;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.cassandra.CassandraContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;

/** The Testcontainers flavour of the shared stack: the same server versions as the local one. */
final class ContainerStack implements AutoCloseable {

    /** Kafka image: the broker version of the local stack. */
    static final String KAFKA_IMAGE = "apache/kafka:4.4.0";
    /** Cassandra image: the node version of the local stack. */
    static final String CASSANDRA_IMAGE = "cassandra:5.0.7";

    private final KafkaContainer kafka = new KafkaContainer(KAFKA_IMAGE);
    private final CassandraContainer cassandra = new CassandraContainer(CASSANDRA_IMAGE);

    /** @return whether a Docker engine answers; false on any error */
    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) { // a missing socket can surface as an Error from docker-java
            return false;
        }
    }

    /** Starts both containers in parallel and returns their endpoints. */
    ItEndpoints start() {
        Startables.deepStart(kafka, cassandra).join();
        return new ItEndpoints(
                "testcontainers",
                kafka.getBootstrapServers(),
                cassandra.getContactPoint(),
                cassandra.getLocalDatacenter(),
                null,
                null);
    }

    @Override
    public void close() {
        kafka.stop();
        cassandra.stop();
    }
}
