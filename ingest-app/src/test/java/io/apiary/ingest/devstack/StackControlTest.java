package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client side of {@link StackControl}'s file protocol, against a stand-in that answers as a running
 * stack would (the stack side runs in {@code LocalStackIT}).
 */
class StackControlTest {

    @TempDir
    Path work;

    @Test
    void refuses_a_work_folder_that_no_stack_serves_naming_the_folder() {
        assertThatThrownBy(() -> StackControl.send(
                        work, StackControl.Action.RESTART, LocalStack.Server.KAFKA, true, Duration.ofSeconds(5)))
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("No local stack serves " + work)
                .hasMessageContaining("work folder that `ingest-app devstack` printed");
    }

    @Test
    void refuses_a_stack_whose_process_has_ended() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Files.createDirectories(work.resolve(StackControl.FOLDER));
        Files.writeString(work.resolve(StackControl.FOLDER).resolve(StackControl.PID_FILE), ended.pid() + "\n");

        assertThatThrownBy(() -> StackControl.send(
                        work, StackControl.Action.STOP, LocalStack.Server.CASSANDRA, false, Duration.ofSeconds(5)))
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("is no longer running");
    }

    @Test
    void sends_one_request_line_and_returns_the_stacks_answer() throws Exception {
        servedByThisJvm();
        CompletableFuture<String> request = answerNextRequest("ok\nkafka restarted (SIGKILL) and ready in 9.1 s");

        String answer = StackControl.send(
                work, StackControl.Action.RESTART, LocalStack.Server.KAFKA, true, Duration.ofSeconds(30));

        assertThat(request.get()).isEqualTo("restart kafka kill\n");
        assertThat(answer).isEqualTo("kafka restarted (SIGKILL) and ready in 9.1 s");
        assertThat(requestsAndReplies()).isEmpty();
    }

    @Test
    void throws_the_stacks_error_as_its_message() throws Exception {
        servedByThisJvm();
        answerNextRequest("error\nthe local stack in /w has no schema registry (started without one)");

        assertThatThrownBy(() -> StackControl.send(
                        work, StackControl.Action.START, LocalStack.Server.REGISTRY, false, Duration.ofSeconds(30)))
                .isInstanceOf(LocalStackException.class)
                .hasMessage("the local stack in /w has no schema registry (started without one)");
    }

    @Test
    void gives_up_after_its_timeout_when_no_answer_comes() throws Exception {
        servedByThisJvm();

        assertThatThrownBy(() -> StackControl.send(
                        work, StackControl.Action.START, LocalStack.Server.KAFKA, false, Duration.ofMillis(300)))
                .isInstanceOf(LocalStackException.class)
                .hasMessageContaining("did not answer within 0.3 s")
                .hasMessageContaining("--timeout");
    }

    @Test
    void parses_the_servers_by_name_and_names_them_when_one_is_unknown() {
        assertThat(LocalStack.Server.parse(" Kafka ")).isEqualTo(LocalStack.Server.KAFKA);
        assertThat(LocalStack.Server.parse("cassandra")).isEqualTo(LocalStack.Server.CASSANDRA);
        assertThat(LocalStack.Server.REGISTRY.label()).isEqualTo("registry");
        assertThatThrownBy(() -> LocalStack.Server.parse("zookeeper"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no server 'zookeeper' in the local stack: kafka, cassandra or registry");
    }

    private void servedByThisJvm() throws IOException {
        Files.createDirectories(work.resolve(StackControl.FOLDER));
        Files.writeString(
                work.resolve(StackControl.FOLDER).resolve(StackControl.PID_FILE),
                ProcessHandle.current().pid() + "\n");
    }

    /** Answers the first request file that appears as a stack would; completes with the request's text. */
    private CompletableFuture<String> answerNextRequest(String reply) {
        Path folder = work.resolve(StackControl.FOLDER);
        return CompletableFuture.supplyAsync(() -> {
            Path[] request = new Path[1];
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                request[0] = requestsAndReplies().stream()
                        .filter(p -> p.toString().endsWith(".request"))
                        .findFirst()
                        .orElse(null);
                return request[0] != null;
            });
            try {
                String text = Files.readString(request[0], StandardCharsets.UTF_8);
                Files.delete(request[0]);
                String id = request[0].getFileName().toString().replace(".request", "");
                StackFiles.writeOwnerOnly(folder.resolve(id + ".reply"), reply + "\n");
                return text;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private List<Path> requestsAndReplies() throws IOException {
        try (Stream<Path> files = Files.list(work.resolve(StackControl.FOLDER))) {
            return files.filter(p -> !p.getFileName().toString().equals(StackControl.PID_FILE))
                    .toList();
        }
    }
}
