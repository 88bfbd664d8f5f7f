package io.apiary.ingest.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.devstack.LocalStack;
import io.apiary.ingest.devstack.LocalStackOptions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code cassandra.auth.*} reach the driver: a Cassandra node of its own with
 * PasswordAuthenticator (and its default superuser) accepts the configured credentials and
 * refuses a session without them or with a wrong password.
 */
class CassandraAuthIT {

    private static LocalStack stack;

    @BeforeAll
    static void startStack() {
        stack = LocalStack.start(LocalStackOptions.builder()
                .registry(false)
                .addCassandraJvmOption("-Dcassandra.config.allow_system_properties=true")
                .addCassandraJvmOption("-Dcassandra.settings.authenticator=PasswordAuthenticator")
                .build());
    }

    @AfterAll
    static void stopStack() {
        if (stack != null) {
            stack.close();
        }
    }

    private static IngestConfig config(Map<String, String> env) {
        return ConfigLoader.load(
                null,
                env,
                Map.of(
                        IngestConfig.CASSANDRA_CONTACT_POINTS,
                        stack.cassandraContactPoint().getHostString() + ":"
                                + stack.cassandraContactPoint().getPort(),
                        IngestConfig.CASSANDRA_LOCAL_DATACENTER,
                        stack.cassandraLocalDatacenter()));
    }

    @Test
    void should_connect_with_the_configured_credentials_and_be_refused_without_them() {
        // the node creates its default superuser (cassandra/cassandra) a few seconds after it opens CQL
        IngestConfig withCredentials = config(
                Map.of("APIARY_CASSANDRA_AUTH_USERNAME", "cassandra", "APIARY_CASSANDRA_AUTH_PASSWORD", "cassandra"));
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(2))
                .ignoreExceptions()
                .untilAsserted(() -> {
                    try (CqlSession session = CassandraSessions.open(withCredentials)) {
                        assertThat(session.execute("SELECT release_version FROM system.local")
                                        .one()
                                        .getString(0))
                                .startsWith("5.");
                    }
                });

        assertThatThrownBy(() -> CassandraSessions.open(config(Map.of())).close())
                .isInstanceOf(AllNodesFailedException.class)
                .hasMessageContaining("requires authentication");
        assertThatThrownBy(() -> CassandraSessions.open(config(Map.of(
                                "APIARY_CASSANDRA_AUTH_USERNAME",
                                "cassandra",
                                "APIARY_CASSANDRA_AUTH_PASSWORD",
                                "not-the-password")))
                        .close())
                .isInstanceOf(AllNodesFailedException.class)
                .hasMessageContaining("Provided username cassandra")
                .hasMessageNotContaining("not-the-password");
        assertThat(withCredentials.describe())
                .containsEntry(CassandraSecurityOptions.CASSANDRA_AUTH_PASSWORD, "[hidden]");
    }
}
