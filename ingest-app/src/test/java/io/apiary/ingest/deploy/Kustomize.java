package io.apiary.ingest.deploy;

import io.apiary.ingest.testing.ExternalTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Renders a kustomization with {@code kubectl kustomize} (kustomize is built into kubectl).
 * Stateless and thread-safe.
 */
final class Kustomize {

    private static final long TIMEOUT_SECONDS = 60;

    private Kustomize() {}

    /**
     * @param dir a folder with a kustomization.yaml
     * @return the rendered objects as multi-document YAML
     * @throws org.opentest4j.TestAbortedException when kubectl is not on PATH: the test is skipped,
     *                                               with a message naming kubectl (it fails instead
     *                                               where {@link ExternalTools#REQUIRE} names kubectl)
     * @throws AssertionError when kubectl fails (with its error output)
     */
    static String build(Path dir) {
        ExternalTools.require(
                "rendering " + dir + " with kubectl kustomize",
                "install kubectl, tested with 1.32, which has kustomize v5.5 built in; .ci/run's machines have it",
                "kubectl");
        String kubectl = ExternalTools.find("kubectl");
        try {
            Path stdout = Files.createTempFile("kustomize-", ".yaml");
            Path stderr = Files.createTempFile("kustomize-", ".err");
            try {
                Process process = new ProcessBuilder(kubectl, "kustomize", dir.toString())
                        .redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile())
                        .start();
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(
                            "kubectl kustomize " + dir + " did not finish within " + TIMEOUT_SECONDS + " s");
                }
                if (process.exitValue() != 0) {
                    throw new AssertionError("kubectl kustomize " + dir + " failed (exit " + process.exitValue() + "): "
                            + Files.readString(stderr, StandardCharsets.UTF_8).strip());
                }
                return Files.readString(stdout, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(stdout);
                Files.deleteIfExists(stderr);
            }
        } catch (IOException e) {
            throw new AssertionError("Cannot run " + kubectl + " kustomize " + dir + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while running kubectl kustomize " + dir, e);
        }
    }
}
