package io.apiary.ingest.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * Programs outside the JDK that some tests run ({@code kubectl}, {@code node}, {@code npm}), found on
 * {@code PATH}, and Python packages, found by a {@code python3} that imports their modules
 * ({@link #requirePython}). Where one is missing the test is skipped with a message naming it, so that a fresh
 * machine with only a JDK 17 passes the suite; where the environment variable {@value #REQUIRE}
 * names it (a comma-separated list, or {@code all}), the test fails instead, so that a CI machine
 * that should have the tool ({@code .ci/run} sets the variable) cannot go green by skipping.
 * Stateless and thread-safe.
 */
public final class ExternalTools {

    /**
     * The environment variable naming the tools whose absence fails a test instead of skipping it.
     * Deliberately outside the {@code APIARY_} prefix: every {@code APIARY_*} variable is read as a
     * setting of the application, and an unknown one is warned about in every process the tests start.
     */
    public static final String REQUIRE = "REQUIRE_TEST_TOOLS";

    private ExternalTools() {}

    /**
     * @param name a program's file name, e.g. {@code "kubectl"}, not null
     * @return its path in the first {@code PATH} folder that holds it as an executable, or null if none does
     */
    public static String find(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }

    /**
     * Returns when every tool is on {@code PATH}; otherwise skips the calling test, or fails it if
     * {@value #REQUIRE} names a missing tool.
     *
     * @param what  what the test would have done with them, for the message (e.g. "rendering deploy/ with
     *              kubectl kustomize"), not null
     * @param hint  how to install them, for the message, not null
     * @param tools the programs needed, at least one
     * @throws org.opentest4j.TestAbortedException if one is missing and not required: the test is skipped
     * @throws AssertionError if one is missing and {@value #REQUIRE} names it (or is {@code all})
     */
    public static void require(String what, String hint, String... tools) {
        List<String> missing = new ArrayList<>();
        for (String tool : tools) {
            if (find(tool) == null) {
                missing.add(tool);
            }
        }
        if (!missing.isEmpty()) {
            absent(
                    what,
                    hint,
                    missing,
                    String.join(" and ", missing) + (missing.size() == 1 ? " is" : " are") + " not on PATH");
        }
    }

    /**
     * Finds a Python 3 interpreter that imports every module: each {@code python3} on {@code PATH} in
     * order, then {@code /usr/bin/python3}, where Debian's {@code python3-*} packages install (a
     * {@code python3} of pyenv or a virtual environment earlier on {@code PATH} does not see them).
     *
     * @param modules the modules to import, e.g. {@code "confluent_kafka"}, at least one
     * @return the interpreter's path, or null if none imports them all within 30 s
     * @throws InterruptedException if interrupted while an interpreter runs
     */
    public static String python(String... modules) throws InterruptedException {
        Set<String> candidates = new LinkedHashSet<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "python3");
            if (Files.isExecutable(candidate)) {
                candidates.add(candidate.toString());
            }
        }
        candidates.add("/usr/bin/python3");
        String imports = "import " + String.join(", ", modules);
        for (String candidate : candidates) {
            if (Files.isExecutable(Path.of(candidate)) && imports(candidate, imports)) {
                return candidate;
            }
        }
        return null;
    }

    /**
     * Returns a Python 3 interpreter that imports every module ({@link #python}); otherwise skips the
     * calling test, or fails it if {@value #REQUIRE} names {@code tool} (or is {@code all}).
     *
     * @param what    what the test would have done with them, for the message, not null
     * @param hint    how to install them (the packages to install), for the message, not null
     * @param tool    the name {@value #REQUIRE} uses for them, e.g. {@code "python3-confluent-kafka"}, not null
     * @param modules the modules to import, at least one
     * @return the interpreter's path, never null
     * @throws org.opentest4j.TestAbortedException if none imports them and {@code tool} is not required
     * @throws AssertionError if none imports them and {@value #REQUIRE} names {@code tool}
     * @throws InterruptedException if interrupted while an interpreter runs
     */
    public static String requirePython(String what, String hint, String tool, String... modules)
            throws InterruptedException {
        String python = python(modules);
        if (python == null) {
            absent(
                    what,
                    hint,
                    List.of(tool),
                    tool + " is not installed (no python3 imports " + String.join(", ", modules) + ")");
        }
        return python;
    }

    private static boolean imports(String python, String imports) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(python, "-c", imports)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return false;
            }
            return process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static void absent(String what, String hint, List<String> missing, String absent) {
        Set<String> required = required(System.getenv(REQUIRE));
        if (required.contains("all") || missing.stream().anyMatch(required::contains)) {
            throw new AssertionError(absent + ", needed for " + what + " (" + hint + "); " + REQUIRE + "="
                    + System.getenv(REQUIRE) + " makes its absence a failure");
        }
        Assumptions.abort(absent + ": skipped " + what + " (" + hint + ")");
    }

    /**
     * @param value the variable's value, may be null
     * @return the tool names it lists, lower case, trimmed; empty for null or blank
     */
    static Set<String> required(String value) {
        if (value == null || value.isBlank()) {
            return Set.of();
        }
        return Arrays.stream(value.split(","))
                .map(s -> s.strip().toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }
}
