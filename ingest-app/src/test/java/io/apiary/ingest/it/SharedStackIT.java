package io.apiary.ingest.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shared servers of the integration tests answer, and are started once per JVM. */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class SharedStackIT {

    @Test
    void should_return_same_endpoints_when_called_twice() {
        assertThat(SharedStack.get()).isSameAs(SharedStack.get());
    }

    @Test
    void should_reach_kafka_and_cassandra_when_shared_stack_started() throws Exception {
        ItEndpoints endpoints = SharedStack.get();

        try (Admin admin = Admin.create(Map.<String, Object>of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, endpoints.kafkaBootstrapServers()))) {
            assertThat(admin.describeCluster().nodes().get(30, SECONDS)).isNotEmpty();
        }
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(endpoints.cassandraContactPoint())
                .withLocalDatacenter(endpoints.cassandraLocalDatacenter())
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .build())
                .build()) {
            assertThat(session.execute("SELECT release_version FROM system.local")
                            .one()
                            .getString("release_version"))
                    .startsWith("5.0");
        }
        if (endpoints.kind().equals("local")) {
            assertThat(endpoints.localStack()).isPresent();
        }
    }
}
