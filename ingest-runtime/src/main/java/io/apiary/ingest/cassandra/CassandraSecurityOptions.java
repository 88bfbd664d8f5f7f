package io.apiary.ingest.cassandra;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The options of Cassandra authentication (PasswordAuthenticator) and TLS; they override the same settings of the driver's {@code application.conf}. They are part of {@link IngestConfig#definition()} (one definition, one reference), loaded as an
 * {@link OptionGroup} service. Thread-safe (constants only).
 */
public final class CassandraSecurityOptions implements OptionGroup {

    /** Option name: {@value}. */
    public static final String CASSANDRA_AUTH_USERNAME = "cassandra.auth.username";

    /** Option name: {@value}. */
    public static final String CASSANDRA_AUTH_PASSWORD = "cassandra.auth.password";

    /** Option name: {@value}. */
    public static final String CASSANDRA_SSL_ENABLED = "cassandra.ssl.enabled";

    /** Option name: {@value}. */
    public static final String CASSANDRA_SSL_TRUSTSTORE_PATH = "cassandra.ssl.truststore.path";

    /** Option name: {@value}. */
    public static final String CASSANDRA_SSL_TRUSTSTORE_PASSWORD = "cassandra.ssl.truststore.password";

    /** Option name: {@value}. */
    public static final String CASSANDRA_SSL_KEYSTORE_PATH = "cassandra.ssl.keystore.path";

    /** Option name: {@value}. */
    public static final String CASSANDRA_SSL_KEYSTORE_PASSWORD = "cassandra.ssl.keystore.password";

    /** Option name: {@value}. */
    public static final String CASSANDRA_SSL_HOSTNAME_VALIDATION = "cassandra.ssl.hostname.validation";

    /** For the service loader. */
    public CassandraSecurityOptions() {}

    @Override
    public void define(ConfigDef definition) {
        definition
                .define(
                        CASSANDRA_AUTH_USERNAME,
                        Type.STRING,
                        "",
                        Importance.MEDIUM,
                        "User name for Cassandra's PasswordAuthenticator; empty (the default) connects without "
                                + "credentials, or with those of cassandra.driver.config.file.")
                .define(
                        CASSANDRA_AUTH_PASSWORD,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "Password of cassandra.auth.username; set it from a Secret, e.g. the environment "
                                + "variable APIARY_CASSANDRA_AUTH_PASSWORD. Never logged.")
                .define(
                        CASSANDRA_SSL_ENABLED,
                        Type.BOOLEAN,
                        false,
                        Importance.MEDIUM,
                        "Connect to Cassandra over TLS (client_encryption_options), trusting "
                                + "cassandra.ssl.truststore.path, or the JVM's default trust store when empty.")
                .define(
                        CASSANDRA_SSL_TRUSTSTORE_PATH,
                        Type.STRING,
                        "",
                        Importance.MEDIUM,
                        "Trust store (PKCS12 or JKS) with the certificates that sign the Cassandra nodes' "
                                + "certificates; empty uses the JVM's default.")
                .define(
                        CASSANDRA_SSL_TRUSTSTORE_PASSWORD,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "Password of the trust store; never logged.")
                .define(
                        CASSANDRA_SSL_KEYSTORE_PATH,
                        Type.STRING,
                        "",
                        Importance.LOW,
                        "Key store (PKCS12 or JKS) with this client's key and certificate, when the nodes "
                                + "require client certificates (require_client_auth); empty sends none.")
                .define(
                        CASSANDRA_SSL_KEYSTORE_PASSWORD,
                        Type.PASSWORD,
                        "",
                        Importance.LOW,
                        "Password of the key store and of its key; never logged.")
                .define(
                        CASSANDRA_SSL_HOSTNAME_VALIDATION,
                        Type.BOOLEAN,
                        true,
                        Importance.LOW,
                        "Check that each node's certificate names the address the driver connects to.");
    }
}
