package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's certificates made with the JDK's real keytool, and a secured Cassandra node's
 * configuration written from them.
 */
class StackCertificatesTest {

    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    @TempDir
    static Path work;

    private static StackSecurity security;

    @BeforeAll
    static void makeCertificates() {
        security = StackSecurity.create(JAVA, work);
    }

    @Test
    void should_sign_a_server_certificate_for_localhost_and_127_0_0_1_with_a_ca_of_the_run() throws Exception {
        StackCertificates certs = security.certificates();
        KeyStore server = load(certs.serverKeyStore(), certs.serverKeyStorePassword());
        Certificate[] chain = server.getCertificateChain("server");
        assertThat(chain).hasSize(2);
        X509Certificate leaf = (X509Certificate) chain[0];
        X509Certificate ca = (X509Certificate) chain[1];
        assertThat(leaf.getSubjectX500Principal().getName()).isEqualTo("CN=localhost");
        assertThat(leaf.getIssuerX500Principal()).isEqualTo(ca.getSubjectX500Principal());
        leaf.verify(ca.getPublicKey()); // throws unless the CA signed it
        assertThat(leaf.getSubjectAlternativeNames().stream()
                        .map(san -> san.get(1).toString())
                        .collect(Collectors.toList()))
                .containsExactlyInAnyOrder("localhost", "127.0.0.1");
        assertThat(leaf.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1"); // serverAuth
        assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0); // a CA
        assertThat(server.isKeyEntry("server")).isTrue();

        KeyStore trust = load(certs.trustStore(), certs.trustStorePassword());
        List<String> aliases = Collections.list(trust.aliases());
        assertThat(aliases).containsExactly("ca");
        assertThat(trust.getCertificate("ca")).isEqualTo(ca);
        assertThat(trust.isKeyEntry("ca")).isFalse();
    }

    @Test
    void should_make_distinct_random_passwords_that_neither_files_nor_descriptions_show() throws Exception {
        StackCertificates certs = security.certificates();
        List<String> secrets = List.of(
                certs.serverKeyStorePassword(),
                certs.trustStorePassword(),
                security.kafkaAdmin().password(),
                security.cassandraAdmin().password());
        assertThat(secrets).doesNotHaveDuplicates().allMatch(s -> s.matches("[A-Za-z0-9_-]{24}"));
        String log = Files.readString(certs.dir().resolve("keytool.log"));
        for (String secret : secrets) {
            assertThat(security.toString()).doesNotContain(secret);
            assertThat(certs.toString()).doesNotContain(secret);
            assertThat(security.kafkaAdmin().toString()).doesNotContain(secret);
            assertThat(security.cassandraAdmin().toString()).doesNotContain(secret);
            assertThat(log).doesNotContain(secret);
        }
        StackCertificates other = StackCertificates.create(JAVA, work.resolve("other"), "Another CA");
        assertThat(other.trustStorePassword()).isNotIn(secrets);
        assertThat(load(other.trustStore(), other.trustStorePassword()).getCertificate("ca"))
                .isNotEqualTo(
                        load(certs.trustStore(), certs.trustStorePassword()).getCertificate("ca"));
    }

    @Test
    void should_configure_a_secured_cassandra_node_with_tls_required_and_password_authentication() throws Exception {
        Path dir = work.resolve("node");
        ServerRuntime runtime =
                new ServerRuntime(JAVA, "test", List.of(), List.of(Path.of("/m2/cassandra-all-5.0.7.jar")));
        CassandraNode node = new CassandraNode(
                runtime, LocalStackOptions.defaults(), dir, dir.resolve("watchdog"), 1111, 2222, 3333, 4444, security);

        node.prepare();

        Path yaml = dir.resolve("cassandra/conf/cassandra.yaml");
        assertThat(Files.readAllLines(yaml))
                .contains(
                        "authenticator: PasswordAuthenticator",
                        "authorizer: CassandraAuthorizer",
                        "client_encryption_options:",
                        "  enabled: true",
                        "  optional: false",
                        "  keystore: " + security.certificates().serverKeyStore(),
                        "  store_type: PKCS12")
                .doesNotContain("authenticator: AllowAllAuthenticator");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(yaml)))
                .isEqualTo("rw-------");
        assertThat(node.command()).contains("-Dcassandra.superuser_setup_delay_ms=0");
    }

    private static KeyStore load(Path file, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        }
        return store;
    }
}
