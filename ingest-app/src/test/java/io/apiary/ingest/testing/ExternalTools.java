package io.apiary.ingest.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * Programs outside the JDK that some tests run ({@code kubectl}, {@code node}, {@code npm}), found on
 * {@code PATH}. Where one is missing the test is skipped with a message naming it, so that a fresh
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
        if (missing.isEmpty()) {
            return;
        }
        String absent = String.join(" and ", missing) + (missing.size() == 1 ? " is" : " are") + " not on PATH";
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
