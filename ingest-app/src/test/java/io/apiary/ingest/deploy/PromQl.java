package io.apiary.ingest.deploy;

import io.apiary.ingest.testing.ExternalTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * PromQL checked with Prometheus's own grammar: the npm package {@code @prometheus-io/lezer-promql}
 * (the parser of Prometheus's web UI), installed once into {@code target/promql} with
 * {@code npm install}, run by {@code src/test/resources/promql/check.cjs} under Node.js. A syntax
 * error is an error node of the lezer tree; metric names are the {@code Identifier}s of vector
 * selectors. Without {@code npm} or {@code node} on PATH the calling test is skipped, with a message
 * naming them. Thread-safe (the install is synchronized).
 */
final class PromQl {

    /** The grammar's version: lezer-promql 0.315.0 is the parser of Prometheus 3.x's UI. */
    static final String PACKAGE = "@prometheus-io/lezer-promql@0.315.0";

    private static final Path PREFIX = Path.of("target", "promql").toAbsolutePath();
    private static final Path SCRIPT =
            Path.of("src", "test", "resources", "promql", "check.cjs").toAbsolutePath();
    private static final long TIMEOUT_SECONDS = 120;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * One expression's parse.
     *
     * @param expr    the expression as given
     * @param errors  the syntax errors (positions and the text around them), empty when valid
     * @param metrics the metric names its vector selectors name, sorted
     */
    record Result(String expr, List<Error> errors, List<String> metrics) {
        /** @return whether the expression parsed without an error node */
        boolean valid() {
            return errors.isEmpty();
        }
    }

    /**
     * A syntax error node.
     *
     * @param from start offset in the expression (UTF-16 units)
     * @param to   end offset
     * @param text the expression's text around it
     */
    record Error(int from, int to, String text) {}

    private PromQl() {}

    /**
     * @param expressions PromQL expressions, not null; Grafana's {@code $__rate_interval},
     *                    {@code $__interval} and {@code $__range} must be replaced by the caller
     * @return one result per expression, in order
     * @throws org.opentest4j.TestAbortedException when npm or node is not on PATH
     * @throws AssertionError when the install or the script fails
     */
    static List<Result> parse(List<String> expressions) {
        Path modules = install();
        try {
            Path input = Files.createTempFile("promql-", ".json");
            Path output = Files.createTempFile("promql-", ".out.json");
            Path stderr = Files.createTempFile("promql-", ".err");
            try {
                Files.writeString(input, JSON.writeValueAsString(expressions), StandardCharsets.UTF_8);
                run(List.of(ExternalTools.find("node"), SCRIPT.toString(), modules.toString()), input, output, stderr);
                return JSON.readValue(output.toFile(), new TypeReference<List<Result>>() {});
            } finally {
                Files.deleteIfExists(input);
                Files.deleteIfExists(output);
                Files.deleteIfExists(stderr);
            }
        } catch (IOException e) {
            throw new AssertionError("Cannot run the PromQL parser: " + e, e);
        }
    }

    private static synchronized Path install() {
        ExternalTools.require(
                "checking PromQL with " + PACKAGE,
                "install Node.js 18 or later with npm; .ci/run's machines have it",
                "npm",
                "node");
        String npm = ExternalTools.find("npm");
        Path modules = PREFIX.resolve("node_modules");
        if (Files.isDirectory(modules.resolve("@prometheus-io").resolve("lezer-promql"))) {
            return modules;
        }
        try {
            Files.createDirectories(PREFIX);
            Path log = Files.createTempFile("npm-", ".log");
            try {
                run(
                        List.of(npm, "install", "--no-audit", "--no-fund", "--prefix", PREFIX.toString(), PACKAGE),
                        null,
                        log,
                        log);
            } finally {
                Files.deleteIfExists(log);
            }
        } catch (IOException e) {
            throw new AssertionError("Cannot install " + PACKAGE + " into " + PREFIX + ": " + e, e);
        }
        return modules;
    }

    private static void run(List<String> command, Path stdin, Path stdout, Path stderr) throws IOException {
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        if (stdin != null) {
            builder.redirectInput(stdin.toFile());
        }
        Process process = builder.start();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(
                        String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while running " + command, e);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
                    + Files.readString(stderr, StandardCharsets.UTF_8).strip());
        }
    }
}
