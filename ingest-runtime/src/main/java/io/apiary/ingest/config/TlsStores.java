package io.apiary.ingest.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.config.ConfigException;

/**
 * A TLS context from a trust store and an optional key store named by settings, with the JDK's
 * own key store support (PKCS12 or JKS, detected). Shared by the Cassandra and schema registry
 * connections. Stateless and thread-safe.
 */
public final class TlsStores {

    private TlsStores() {}

    /**
     * @param config        the configuration, not null
     * @param trustPath     option naming the trust store (empty: the JVM's default)
     * @param trustPassword option holding its password (may be empty)
     * @param keyPath       option naming the key store (empty: no client certificate)
     * @param keyPassword   option holding the password of the key store and its key
     * @param server        what the context is for, e.g. {@code Cassandra}, for messages
     * @return the TLS context
     * @throws ConfigException naming the option whose store is missing, unreadable, or whose
     *                         password is wrong; the password itself is never in the message
     */
    public static SSLContext context(
            IngestConfig config,
            String trustPath,
            String trustPassword,
            String keyPath,
            String keyPassword,
            String server) {
        String trustFile = config.getString(trustPath);
        String keyFile = config.getString(keyPath);
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trustFile.isBlank() ? null : load(trustPath, trustFile, password(config, trustPassword)));
            KeyManagerFactory keys = null;
            if (!keyFile.isBlank()) {
                char[] password = password(config, keyPassword);
                if (password == null) {
                    throw new ConfigException(
                            keyPassword,
                            "[hidden]",
                            "a key store (" + keyPath + ") needs the "
                                    + "password of its key; set it, e.g. from a Secret as APIARY_"
                                    + keyPassword
                                            .toUpperCase(java.util.Locale.ROOT)
                                            .replace('.', '_'));
                }
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(load(keyPath, keyFile, password), password);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new ConfigException("Cannot set up TLS to " + server + ": " + e.getMessage());
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
            throw new ConfigException(
                    option,
                    path,
                    "cannot read the store (not PKCS12 or JKS, or a wrong " + "password): "
                            + e.getClass().getSimpleName());
        }
    }
}
