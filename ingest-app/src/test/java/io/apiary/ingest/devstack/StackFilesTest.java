package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackFilesTest {

    @Test
    void should_return_last_lines_written_after_offset_when_tailing(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("out.log");
        Files.writeString(file, "old 1\nold 2\n");
        long offset = Files.size(file);
        Files.writeString(
                file,
                IntStream.rangeClosed(1, 50).mapToObj(i -> "new " + i).collect(Collectors.joining("\n", "", "\n")),
                java.nio.file.StandardOpenOption.APPEND);

        assertThat(StackFiles.tail(file, offset, 40))
                .hasSize(40)
                .startsWith("new 11")
                .endsWith("new 50");
        assertThat(StackFiles.tail(file, Files.size(file), 40)).isEmpty();
        assertThat(StackFiles.tail(dir.resolve("missing.log"), 0, 40)).isEmpty();
    }

    @Test
    void should_fill_every_placeholder_when_rendering_kafka_template() {
        String text = StackFiles.render(
                "kafka-server.properties.template",
                Map.of("DIR", "/w/kafka", "BROKER_PORT", "1111", "CONTROLLER_PORT", "2222"));

        assertThat(text)
                .contains("log.dirs=/w/kafka/kraft-logs", "PLAINTEXT://127.0.0.1:1111", "CONTROLLER://127.0.0.1:2222")
                .doesNotContain("${");
    }

    @Test
    void should_name_missing_key_when_template_placeholder_is_not_set() {
        assertThatThrownBy(() -> StackFiles.render("kafka-server.properties.template", Map.of("DIR", "/w")))
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("${");
    }

    @Test
    void should_create_file_readable_by_owner_only_with_its_text_when_writing_owner_only(@TempDir Path dir)
            throws IOException {
        Path file = dir.resolve("conf/secret.properties");

        assertThat(StackFiles.writeOwnerOnly(file, "password=s3cr\u00e9t\n")).isEqualTo(file);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo("password=s3cr\u00e9t\n");
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file); // no partial file left
        }
    }

    @Test
    void should_replace_readable_file_and_not_follow_link_when_writing_owner_only(@TempDir Path dir)
            throws IOException {
        Path readable = Files.writeString(dir.resolve("readable.properties"), "old");
        Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r--r--"));
        Path elsewhere = Files.writeString(dir.resolve("elsewhere.txt"), "not mine to change");
        Path link = Files.createSymbolicLink(dir.resolve("link.properties"), elsewhere);

        StackFiles.writeOwnerOnly(readable, "new");
        StackFiles.writeOwnerOnly(link, "secret");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(readable)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(readable)).isEqualTo("new");
        assertThat(Files.isSymbolicLink(link)).isFalse();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(link)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(link)).isEqualTo("secret");
        assertThat(Files.readString(elsewhere)).isEqualTo("not mine to change");
    }

    @Test
    void should_create_folder_only_its_owner_may_enter_when_making_owner_only_folder(@TempDir Path dir)
            throws IOException {
        Path tls = dir.resolve("work/tls");

        assertThat(StackFiles.mkdirsOwnerOnly(tls)).isDirectory();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tls)))
                .isEqualTo("rwx------");
    }

    @Test
    void should_return_distinct_ports_when_picking_several() {
        int[] ports = StackFiles.freePorts(6);

        assertThat(ports).hasSize(6).doesNotHaveDuplicates();
        assertThat(IntStream.of(ports).allMatch(p -> p > 0)).isTrue();
    }
}
