package io.apiary.ingest.devstack;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The security of a secured local stack ({@link LocalStackOptions#secure()}): the run's
 * certificates ({@link StackCertificates}), Kafka's SASL_SSL listener with SCRAM-SHA-512 users and
 * {@code StandardAuthorizer}, Cassandra's client TLS ({@code optional: false}) with {@code
 * PasswordAuthenticator} and {@code CassandraAuthorizer}, and the schema registry's HTTPS (the
 * same server certificate; {@link RegistryServer}).
 *
 * <p><b>Users.</b> Kafka: the super user {@value #KAFKA_ADMIN} (created when the storage is
 * formatted, {@code --add-scram}; also the broker's own inter-broker user); more with {@link
 * #createKafkaUser}, which have no ACL until given one. Cassandra: the superuser role {@value
 * #CASSANDRA_ADMIN}, made from the default {@code cassandra} role once the node is up, which is
 * then dropped (so {@code cassandra/cassandra} no longer logs in); more with {@link
 * #createCassandraRole}, which have no permission until granted one. Every password is random
 * per run ({@link StackCertificates#randomSecret()}) and never logged: {@link #toString()} and
 * {@link Credentials#toString()} mask them.
 *
 * <p>Thread-safe.
 */
public final class StackSecurity {

    /** Kafka's super user (SCRAM-SHA-512), also the broker's inter-broker identity. */
    public static final String KAFKA_ADMIN = "admin";

    /** Cassandra's superuser role replacing the default {@code cassandra} role. */
    public static final String CASSANDRA_ADMIN = "apiary_admin";

    /** The SASL mechanism of Kafka's SASL_SSL listener. */
    public static final String SASL_MECHANISM = "SCRAM-SHA-512";

    private static final Logger LOG = LoggerFactory.getLogger(StackSecurity.class);

    private final StackCertificates certificates;
    private final String kafkaAdminPassword = StackCertificates.randomSecret();
    private final String cassandraAdminPassword = StackCertificates.randomSecret();
    private volatile String kafkaBootstrapServers; // set once the broker's port is known

    private StackSecurity(StackCertificates certificates) {
        this.certificates = certificates;
    }

    /** A user name and its password; {@link #toString()} masks the password. */
    public record Credentials(String user, String password) {
        /**
         * @param user     the user (Kafka) or role (Cassandra) name, not null
         * @param password its password, not null
         */
        public Credentials {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(password, "password");
        }

        /** @return the user and a masked password */
        @Override
        public String toString() {
            return "Credentials[user=" + user + ", password=****]";
        }

        /** @return Kafka's {@code sasl.jaas.config} for these credentials with SCRAM */
        public String kafkaJaasConfig() {
            return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                    + "\" password=\"" + password + "\";";
        }
    }

    /**
     * Makes the run's certificates in {@code <workDir>/tls} with the {@code keytool} beside {@code
     * java}.
     *
     * @throws LocalStackException if keytool fails
     */
    static StackSecurity create(Path java, Path workDir) {
        return new StackSecurity(StackCertificates.create(java, workDir.resolve("tls"), "Apiary devstack CA"));
    }

    void kafkaBootstrapServers(String servers) {
        this.kafkaBootstrapServers = servers;
    }

    /** @return the run's CA, server key store and trust store; never null */
    public StackCertificates certificates() {
        return certificates;
    }

    /** @return Kafka's super user and its password; never null */
    public Credentials kafkaAdmin() {
        return new Credentials(KAFKA_ADMIN, kafkaAdminPassword);
    }

    /** @return Cassandra's superuser role and its password; never null */
    public Credentials cassandraAdmin() {
        return new Credentials(CASSANDRA_ADMIN, cassandraAdminPassword);
    }

    /**
     * The settings of a Kafka client (admin, producer or consumer) of the SASL_SSL listener with
     * these credentials: {@code bootstrap.servers}, {@code security.protocol}, {@code
     * sasl.mechanism}, {@code sasl.jaas.config} and the PKCS12 trust store. A mutable copy.
     *
     * @param credentials whose; not null
     * @return client settings; never null
     */
    public Map<String, Object> kafkaClientSettings(Credentials credentials) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrapServers);
        settings.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
        settings.put(SaslConfigs.SASL_MECHANISM, SASL_MECHANISM);
        settings.put(SaslConfigs.SASL_JAAS_CONFIG, credentials.kafkaJaasConfig());
        settings.put(
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
                certificates.trustStore().toString());
        settings.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        settings.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, certificates.trustStorePassword());
        return settings;
    }

    /**
     * Creates (or gives a new password to) a SCRAM-SHA-512 Kafka user, as the super user. The user
     * has no ACL: grant what it needs with an admin client of {@link #kafkaClientSettings}({@link
     * #kafkaAdmin()}).
     *
     * @param name the user name, not null
     * @return its credentials, with a random password; never null
     * @throws LocalStackException if the broker does not accept it within 30 s
     */
    public Credentials createKafkaUser(String name) {
        Credentials credentials = new Credentials(name, StackCertificates.randomSecret());
        try (Admin admin = Admin.create(kafkaClientSettings(kafkaAdmin()))) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            name, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), credentials.password())))
                    .all()
                    .get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new LocalStackException("Cannot create the Kafka user " + name + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalStackException("Interrupted while creating the Kafka user " + name, e);
        }
        LOG.info("Created the Kafka SCRAM-SHA-512 user {} (no ACL yet)", name);
        return credentials;
    }

    /**
     * Opens a CQL session over TLS (trusting only the run's CA) with these credentials; 30 s
     * request timeout, so that role changes (slow: password hashing) do not time out.
     *
     * @param contactPoint the node, not null
     * @param datacenter   its data center, not null
     * @param credentials  whose, not null
     * @return an open session, to be closed by the caller
     * @throws com.datastax.oss.driver.api.core.AllNodesFailedException if the node refuses it
     */
    public CqlSession openCassandraSession(InetSocketAddress contactPoint, String datacenter, Credentials credentials) {
        return CqlSession.builder()
                .addContactPoint(contactPoint)
                .withLocalDatacenter(datacenter)
                .withAuthCredentials(credentials.user(), credentials.password())
                .withSslContext(certificates.clientSslContext())
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
                        .build())
                .build();
    }

    /**
     * Creates a Cassandra login role with a random password and no permission, as the superuser:
     * grant it what it needs (e.g. {@code GRANT SELECT, MODIFY ON KEYSPACE ks TO name}).
     *
     * @param session a session of {@link #cassandraAdmin()}, not null
     * @param name    the role, a lower-case CQL identifier, not null
     * @return its credentials; never null
     */
    public Credentials createCassandraRole(CqlSession session, String name) {
        if (!name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("a role name must be a lower-case identifier, got " + name);
        }
        Credentials credentials = new Credentials(name, StackCertificates.randomSecret());
        // CQL takes no bind marker in role options; the password is base64url, safe in quotes
        session.execute("CREATE ROLE " + name + " WITH PASSWORD = '" + credentials.password() + "' AND LOGIN = true");
        LOG.info("Created the Cassandra role {} (no permission yet)", name);
        return credentials;
    }

    /**
     * Replaces the default superuser: waits until {@code cassandra/cassandra} logs in (the node
     * creates it after {@code cassandra.superuser_setup_delay_ms}), creates {@value
     * #CASSANDRA_ADMIN} as a superuser with a random password, and drops {@code cassandra} as
     * {@value #CASSANDRA_ADMIN}.
     *
     * @throws LocalStackException if it cannot within {@code timeout}
     */
    void replaceCassandraSuperuser(InetSocketAddress contactPoint, String datacenter, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try (CqlSession session =
                    openCassandraSession(contactPoint, datacenter, new Credentials("cassandra", "cassandra"))) {
                session.execute("CREATE ROLE IF NOT EXISTS " + CASSANDRA_ADMIN + " WITH PASSWORD = '"
                        + cassandraAdminPassword + "' AND LOGIN = true AND SUPERUSER = true");
                last = null;
                break;
            } catch (com.datastax.oss.driver.api.core.servererrors.SyntaxError
                    | com.datastax.oss.driver.api.core.servererrors.InvalidQueryException e) {
                throw new LocalStackException(
                        "Cassandra refused to create the role " + CASSANDRA_ADMIN + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                last = e; // the default role is not there yet
                LOG.debug("Cassandra's default superuser does not log in yet: {}", e.toString());
                try {
                    Thread.sleep(500);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new LocalStackException("Interrupted while setting up Cassandra's roles", ie);
                }
            }
        }
        if (last != null) {
            throw new LocalStackException(
                    "Cassandra's default superuser did not log in within " + timeout.toSeconds() + " s: " + last, last);
        }
        try (CqlSession session = openCassandraSession(contactPoint, datacenter, cassandraAdmin())) {
            session.execute("DROP ROLE IF EXISTS cassandra");
        }
        LOG.info("Cassandra's default superuser cassandra is dropped; its superuser is {}", CASSANDRA_ADMIN);
    }

    /** @return the certificates' folder, never a password */
    @Override
    public String toString() {
        return "StackSecurity[Kafka SASL_SSL " + SASL_MECHANISM + " (super user " + KAFKA_ADMIN
                + "), Cassandra TLS + PasswordAuthenticator (superuser " + CASSANDRA_ADMIN + "), "
                + certificates + "]";
    }
}
