package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry's launch on a plain and on a secured stack: its command line and files, without
 * starting it (the real HTTPS registry is {@code SecureStackIT}'s).
 */
class RegistryServerTest {

    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
    private static final ServerRuntime RUNTIME =
            new ServerRuntime(JAVA, "test", List.of(), List.of(), List.of(Path.of("/m2/registry-server-runner.jar")));

    private static RegistryServer registry(Path work, StackSecurity security) {
        return new RegistryServer(
                RUNTIME, LocalStackOptions.defaults(), work, work.resolve("watchdog"), 3333, security);
    }

    @Test
    void should_serve_https_only_with_the_runs_certificate_its_password_in_an_owner_only_file(@TempDir Path work)
            throws IOException {
        StackSecurity security = StackSecurity.create(JAVA, work.resolve("certificates"));
        RegistryServer registry = registry(work, security);
        registry.prepare();

        assertThat(registry.secure()).isTrue();
        assertThat(registry.confluentApiUrl()).isEqualTo("https://127.0.0.1:3333/apis/ccompat/v7");
        List<String> command = registry.command();
        assertThat(command)
                .contains(
                        "-Dquarkus.http.host=127.0.0.1",
                        "-Dquarkus.http.ssl-port=3333",
                        "-Dquarkus.http.insecure-requests=disabled")
                .noneMatch(arg -> arg.startsWith("-Dquarkus.http.port="));
        String password = security.certificates().serverKeyStorePassword();
        assertThat(String.join(" ", command)).doesNotContain(password);
        Path settings = work.resolve("registry/" + RegistryServer.SECRET_SETTINGS);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(settings)))
                .isEqualTo("rw-------");
        assertThat(Files.readAllLines(settings))
                .contains(
                        "quarkus.http.ssl.certificate.key-store-file="
                                + security.certificates().serverKeyStore().toAbsolutePath(),
                        "quarkus.http.ssl.certificate.key-store-file-type=PKCS12",
                        "quarkus.http.ssl.certificate.key-store-password=" + password);
    }

    @Test
    void should_serve_plain_http_without_a_settings_file_on_a_stack_that_is_not_secured(@TempDir Path work) {
        RegistryServer registry = registry(work, null);
        registry.prepare();

        assertThat(registry.secure()).isFalse();
        assertThat(registry.confluentApiUrl()).isEqualTo("http://127.0.0.1:3333/apis/ccompat/v7");
        assertThat(registry.command())
                .contains("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=3333")
                .noneMatch(arg -> arg.contains("ssl") || arg.contains("insecure-requests"));
        assertThat(work.resolve("registry/" + RegistryServer.SECRET_SETTINGS)).doesNotExist();
    }
}
