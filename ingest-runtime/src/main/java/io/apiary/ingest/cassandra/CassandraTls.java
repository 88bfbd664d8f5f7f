package io.apiary.ingest.cassandra;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.TlsStores;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.config.ConfigException;

/**
 * The TLS context of the Cassandra connections, from the JDK's own key store support:
 * {@value CassandraSecurityOptions#CASSANDRA_SSL_TRUSTSTORE_PATH} (else the JVM's default trust
 * store) and, for client certificates, {@value CassandraSecurityOptions#CASSANDRA_SSL_KEYSTORE_PATH}.
 * Stores may be PKCS12 or JKS (the JDK detects which). Thread-safe (stateless).
 */
public final class CassandraTls {

    private CassandraTls() {}

    /**
     * @param config the configuration, not null
     * @return a TLS context for the driver
     * @throws ConfigException naming the option whose store is missing, unreadable, or whose
     *                         password is wrong; the password itself is never in the message
     */
    public static SSLContext context(IngestConfig config) {
        return TlsStores.context(
                config,
                CassandraSecurityOptions.CASSANDRA_SSL_TRUSTSTORE_PATH,
                CassandraSecurityOptions.CASSANDRA_SSL_TRUSTSTORE_PASSWORD,
                CassandraSecurityOptions.CASSANDRA_SSL_KEYSTORE_PATH,
                CassandraSecurityOptions.CASSANDRA_SSL_KEYSTORE_PASSWORD,
                "Cassandra");
    }

    /**
     * Checks the TLS settings, when TLS is enabled, by building the context: a command can then
     * refuse them before it starts anything.
     *
     * @param config the configuration, not null
     * @throws ConfigException as {@link #context}
     */
    public static void check(IngestConfig config) {
        if (config.getBoolean(CassandraSecurityOptions.CASSANDRA_SSL_ENABLED)) {
            context(config);
        }
    }
}
