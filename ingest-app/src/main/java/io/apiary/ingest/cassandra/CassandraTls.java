package io.apiary.ingest.cassandra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OperationsOptions;
import org.apache.kafka.common.config.ConfigException;

/**
 * The TLS context of the Cassandra connections, from the JDK's own key store support:
 * {@value OperationsOptions#CASSANDRA_SSL_TRUSTSTORE_PATH} (else the JVM's default trust
 * store) and, for client certificates, {@value OperationsOptions#CASSANDRA_SSL_KEYSTORE_PATH}.
 * Stores may be PKCS12 or JKS (the JDK detects which). Thread-safe (stateless).
 */
public final class CassandraTls {

    private CassandraTls() {
    }

    /**
     * @param config the configuration, not null
     * @return a TLS context for the driver
     * @throws ConfigException naming the option whose store is missing, unreadable, or whose
     *                         password is wrong; the password itself is never in the message
     */
    public static SSLContext context(IngestConfig config) {
        String trustPath = config.getString(OperationsOptions.CASSANDRA_SSL_TRUSTSTORE_PATH);
        String keyPath = config.getString(OperationsOptions.CASSANDRA_SSL_KEYSTORE_PATH);
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trustPath.isBlank() ? null : load(OperationsOptions.CASSANDRA_SSL_TRUSTSTORE_PATH, trustPath,
                    password(config, OperationsOptions.CASSANDRA_SSL_TRUSTSTORE_PASSWORD)));
            KeyManagerFactory keys = null;
            if (!keyPath.isBlank()) {
                char[] keyPassword = password(config, OperationsOptions.CASSANDRA_SSL_KEYSTORE_PASSWORD);
                if (keyPassword == null) {
                    throw new ConfigException(OperationsOptions.CASSANDRA_SSL_KEYSTORE_PASSWORD, "[hidden]",
                            "a key store (" + OperationsOptions.CASSANDRA_SSL_KEYSTORE_PATH + ") needs the password of "
                                    + "its key; set it, e.g. from a Secret as APIARY_CASSANDRA_SSL_KEYSTORE_PASSWORD");
                }
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(load(OperationsOptions.CASSANDRA_SSL_KEYSTORE_PATH, keyPath, keyPassword), keyPassword);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new ConfigException("Cannot set up TLS to Cassandra: " + e.getMessage());
        }
    }

    /**
     * Checks the TLS settings, when TLS is enabled, by building the context: a command can then
     * refuse them before it starts anything.
     *
     * @param config the configuration, not null
     * @throws ConfigException as {@link #context}
     */
    public static void check(IngestConfig config) {
        if (config.getBoolean(OperationsOptions.CASSANDRA_SSL_ENABLED)) {
            context(config);
        }
    }

    private static char[] password(IngestConfig config, String option) {
        String value = config.getPassword(option).value();
        return value.isEmpty() ? null : value.toCharArray();
    }

    private static KeyStore load(String option, String path, char[] password) {
        Path file = Path.of(path);
        if (!Files.isReadable(file)) {
            throw new ConfigException(option, path, "no such file, or not readable");
        }
        try {
            return KeyStore.getInstance(file.toFile(), password);
        } catch (IOException | GeneralSecurityException e) {
            throw new ConfigException(option, path, "cannot read the store (not PKCS12 or JKS, or a wrong "
                    + "password): " + e.getClass().getSimpleName());
        }
    }
}
