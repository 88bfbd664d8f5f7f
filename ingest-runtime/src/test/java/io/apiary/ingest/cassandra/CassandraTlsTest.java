package io.apiary.ingest.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassandraTlsTest {

    private static final String PASSWORD = "s3cret-store-pass";

    @TempDir
    static Path dir;

    private static Path keyStore;

    /** A PKCS12 store with a self-signed key pair, made by the JDK's keytool. */
    @BeforeAll
    static void makeStore() throws Exception {
        keyStore = dir.resolve("client.p12");
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        "client",
                        "-keyalg",
                        "EC",
                        "-dname",
                        "CN=apiary-test",
                        "-validity",
                        "2",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        keyStore.toString(),
                        "-storepass",
                        PASSWORD)
                .redirectErrorStream(true)
                .start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0)
                .as(
                        "keytool: %s",
                        new String(keytool.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
                .isTrue();
    }

    private static IngestConfig config(Map<String, String> env) {
        return ConfigLoader.load(null, env, Map.of(CassandraSecurityOptions.CASSANDRA_SSL_ENABLED, "true"));
    }

    @Test
    void should_build_a_tls_context_from_a_trust_store_and_a_key_store_named_by_environment_variables() {
        IngestConfig config = config(Map.of(
                "APIARY_CASSANDRA_SSL_TRUSTSTORE_PATH",
                keyStore.toString(),
                "APIARY_CASSANDRA_SSL_TRUSTSTORE_PASSWORD",
                PASSWORD,
                "APIARY_CASSANDRA_SSL_KEYSTORE_PATH",
                keyStore.toString(),
                "APIARY_CASSANDRA_SSL_KEYSTORE_PASSWORD",
                PASSWORD));

        SSLContext context = CassandraTls.context(config);

        assertThat(context.getProtocol()).isEqualTo("TLS");
        assertThat(context.createSSLEngine().getSupportedProtocols()).contains("TLSv1.3");
    }

    @Test
    void should_trust_the_jvm_defaults_when_no_trust_store_is_given() {
        assertThat(CassandraTls.context(config(Map.of()))).isNotNull();
    }

    @Test
    void should_name_the_option_but_never_the_password_when_the_password_is_wrong() {
        IngestConfig config = config(Map.of(
                "APIARY_CASSANDRA_SSL_TRUSTSTORE_PATH",
                keyStore.toString(),
                "APIARY_CASSANDRA_SSL_TRUSTSTORE_PASSWORD",
                "wrong-pass-123"));

        assertThatThrownBy(() -> CassandraTls.context(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(CassandraSecurityOptions.CASSANDRA_SSL_TRUSTSTORE_PATH)
                .hasMessageContaining("wrong password")
                .hasMessageNotContaining("wrong-pass-123");
    }

    @Test
    void should_name_the_option_when_a_store_does_not_exist() {
        IngestConfig config = config(Map.of(
                "APIARY_CASSANDRA_SSL_KEYSTORE_PATH",
                dir.resolve("none.p12").toString(),
                "APIARY_CASSANDRA_SSL_KEYSTORE_PASSWORD",
                PASSWORD));

        assertThatThrownBy(() -> CassandraTls.context(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(CassandraSecurityOptions.CASSANDRA_SSL_KEYSTORE_PATH)
                .hasMessageContaining("no such file");
    }

    @Test
    void should_ask_for_the_key_password_when_a_key_store_has_none() {
        IngestConfig config = config(Map.of("APIARY_CASSANDRA_SSL_KEYSTORE_PATH", keyStore.toString()));

        assertThatThrownBy(() -> CassandraTls.check(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(CassandraSecurityOptions.CASSANDRA_SSL_KEYSTORE_PASSWORD)
                .hasMessageContaining("needs the password of its key");
    }

    @Test
    void should_mask_the_cassandra_passwords_when_describing_the_configuration() {
        IngestConfig config = config(Map.of(
                "APIARY_CASSANDRA_AUTH_USERNAME",
                "apiary",
                "APIARY_CASSANDRA_AUTH_PASSWORD",
                "cass-pass-456",
                "APIARY_CASSANDRA_SSL_KEYSTORE_PASSWORD",
                PASSWORD));

        assertThat(config.describe())
                .containsEntry(CassandraSecurityOptions.CASSANDRA_AUTH_USERNAME, "apiary")
                .containsEntry(CassandraSecurityOptions.CASSANDRA_AUTH_PASSWORD, "[hidden]");
        assertThat(config.describe().toString()).doesNotContain("cass-pass-456", PASSWORD);
    }
}
