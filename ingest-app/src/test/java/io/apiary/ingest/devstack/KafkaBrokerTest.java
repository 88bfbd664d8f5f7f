package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured broker's file preparation, with a stand-in for {@code java} (a shell script) that
 * records what the storage format tool would have been given: no Kafka is started.
 */
class KafkaBrokerTest {

    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    @TempDir
    static Path shared;

    private static StackSecurity security;

    @BeforeAll
    static void makeCertificates() {
        security = StackSecurity.create(JAVA, shared);
    }

    @Test
    void should_give_format_tool_password_in_owner_only_argfile_and_delete_it_when_tool_returns(@TempDir Path work)
            throws IOException {
        Path record = work.resolve("record");
        KafkaBroker broker = broker(work, fakeJava(work, record, 0));

        broker.prepare();

        String password = security.kafkaAdmin().password();
        assertThat(Files.readString(record.resolve("argfile-mode"))).isEqualToIgnoringNewLines("600");
        assertThat(Files.readString(record.resolve("argfile")))
                .contains("'kafka.tools.StorageTool'", "'--add-scram'", "password=" + password);
        assertThat(Files.readString(record.resolve("command"))).doesNotContain(password);
        assertThat(work.resolve("kafka/" + KafkaBroker.FORMAT_ARGS)).doesNotExist();
        Path properties = work.resolve("kafka/server.properties");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(properties)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(properties))
                .contains(
                        "password=\"" + password + "\"",
                        "ssl.keystore.password=" + security.certificates().serverKeyStorePassword());
        try (Stream<Path> files = Files.list(work.resolve("kafka"))) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(f -> f.endsWith(".partial"));
        }
    }

    @Test
    void should_delete_argfile_when_format_tool_fails(@TempDir Path work) throws IOException {
        Path record = work.resolve("record");
        KafkaBroker broker = broker(work, fakeJava(work, record, 3));

        assertThatThrownBy(broker::prepare)
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("failed with exit code 3");

        assertThat(Files.readString(record.resolve("argfile"))).contains("'--add-scram'");
        assertThat(work.resolve("kafka/" + KafkaBroker.FORMAT_ARGS)).doesNotExist();
    }

    private static KafkaBroker broker(Path work, Path java) {
        ServerRuntime runtime =
                new ServerRuntime(java, "test", List.of(Path.of("/m2/kafka_2.13-4.1.0.jar")), List.of());
        return new KafkaBroker(
                runtime,
                LocalStackOptions.builder().secure(true).build(),
                work,
                work.resolve("watchdog"),
                1111,
                2222,
                security);
    }

    /** @return a script that records its arguments and its {@code @argfile}, then exits with {@code exit} */
    private static Path fakeJava(Path work, Path record, int exit) throws IOException {
        Files.createDirectories(record);
        Path script = work.resolve("fake-java");
        Files.writeString(
                script,
                "#!/bin/sh\n"
                        + "r='" + record + "'\n"
                        + "printf '%s\\n' \"$@\" > \"$r/command\"\n"
                        + "for a in \"$@\"; do\n"
                        + "  case \"$a\" in\n"
                        + "    @*) f=\"${a#@}\"\n"
                        + "        stat -c %a \"$f\" > \"$r/argfile-mode\"\n"
                        + "        cat \"$f\" > \"$r/argfile\";;\n"
                        + "  esac\n"
                        + "done\n"
                        + "exit " + exit + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }
}
