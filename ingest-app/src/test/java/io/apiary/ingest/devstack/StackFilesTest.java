package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
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
    void should_return_distinct_ports_when_picking_several() {
        int[] ports = StackFiles.freePorts(6);

        assertThat(ports).hasSize(6).doesNotHaveDuplicates();
        assertThat(IntStream.of(ports).allMatch(p -> p > 0)).isTrue();
    }
}
