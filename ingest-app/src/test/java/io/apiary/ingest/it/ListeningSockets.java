package io.apiary.ingest.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/** Test helper: the TCP sockets a process listens on, as {@code ss} (iproute2) shows them. Stateless. */
public final class ListeningSockets {

    private ListeningSockets() {}

    /**
     * @param pid a process id
     * @return the {@code ss -ltnpH} lines of the process's listening TCP sockets (one per socket,
     *     e.g. {@code LISTEN 0 4096 [::ffff:127.0.0.1]:18443 *:* users:(("java",pid=9892,fd=274))});
     *     empty if {@code ss} is missing or fails, which is printed
     * @throws InterruptedException if interrupted while {@code ss} runs
     */
    public static Optional<List<String>> of(long pid) throws InterruptedException {
        try {
            Process ss =
                    new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
            List<String> lines = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> l.contains("pid=" + pid + ","))
                    .toList();
            return ss.waitFor() == 0 ? Optional.of(lines) : Optional.empty();
        } catch (IOException e) {
            System.out.println("No listener check: ss (iproute2) is not installed: " + e.getMessage());
            return Optional.empty();
        }
    }
}
