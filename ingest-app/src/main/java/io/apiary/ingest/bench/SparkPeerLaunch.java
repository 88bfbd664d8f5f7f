package io.apiary.ingest.bench;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the Spark peer of the {@code spark} run is built, and the command that starts it: the
 * {@code ingest-bench-spark} module's jar and the classpath file its build writes
 * ({@code target/ingest-bench-spark.jar} and {@code target/classpath.txt}). Spark stays out of the
 * application's own jar and classpath: the peer always runs as a JVM of its own. Immutable and
 * thread-safe.
 *
 * @param dir the module's {@code target} folder, holding both files
 */
public record SparkPeerLaunch(Path dir) {

    /** The command that builds the peer, from the repository's root. */
    public static final String BUILD_COMMAND = "./mvnw -q -Pbench-spark -pl ingest-bench-spark -am -DskipTests package";

    /** System property naming the module's target folder, overriding the default location. */
    public static final String DIR_PROPERTY = "apiary.bench.spark.dir";

    /** The peer's main class. */
    static final String MAIN_CLASS = "io.apiary.benchspark.SparkPeer";

    /**
     * What Spark 3.5 needs to run on Java 17 (its launcher's {@code JavaModuleOptions}): it reaches
     * into JDK internals that the module system closes by default.
     */
    static final List<String> JAVA_17_OPTIONS = List.of(
            "-XX:+IgnoreUnrecognizedVMOptions",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
            "--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "-Djdk.reflect.useDirectMethodHandle=false");

    /**
     * Finds the built peer: the folder named by {@value #DIR_PROPERTY}, else
     * {@code ingest-bench-spark/target} beside the folder this application was loaded from
     * ({@code ingest-app/target/ingest-app.jar} or {@code ingest-app/target/classes}).
     *
     * @return the peer, or empty if its jar or classpath file is missing (not built)
     */
    public static Optional<SparkPeerLaunch> locate() {
        String prop = System.getProperty(DIR_PROPERTY);
        Path dir;
        if (prop != null && !prop.isBlank()) {
            dir = Path.of(prop);
        } else {
            CodeSource source = Bench.class.getProtectionDomain().getCodeSource();
            if (source == null || source.getLocation() == null) {
                return Optional.empty();
            }
            try {
                // <repo>/ingest-app/target/ingest-app.jar -> <repo>/ingest-bench-spark/target
                Path module = Path.of(source.getLocation().toURI())
                        .toAbsolutePath()
                        .normalize()
                        .getParent()
                        .getParent();
                dir = module.resolveSibling("ingest-bench-spark").resolve("target");
            } catch (URISyntaxException | IllegalArgumentException | NullPointerException e) {
                return Optional.empty();
            }
        }
        SparkPeerLaunch launch = new SparkPeerLaunch(dir);
        return Files.isRegularFile(launch.jar()) && Files.isRegularFile(launch.classpathFile())
                ? Optional.of(launch)
                : Optional.empty();
    }

    /** @return the module's jar */
    public Path jar() {
        return dir.resolve("ingest-bench-spark.jar");
    }

    /** @return the file listing the peer's dependencies, separated by the path separator */
    public Path classpathFile() {
        return dir.resolve("classpath.txt");
    }

    /**
     * @param maxHeapMiB the peer JVM's largest heap, MiB
     * @param args       the peer's {@code key=value} arguments
     * @return the command line: this JVM's {@code java}, the Java 17 options, the classpath, the
     *         main class and the arguments
     * @throws IOException if the classpath file cannot be read
     */
    List<String> command(int maxHeapMiB, List<String> args) throws IOException {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + maxHeapMiB + "m"));
        command.addAll(JAVA_17_OPTIONS);
        command.add("-cp");
        command.add(jar()
                + File.pathSeparator
                + Files.readString(classpathFile(), StandardCharsets.UTF_8).trim());
        command.add(MAIN_CLASS);
        command.addAll(args);
        return command;
    }

    /**
     * Reads the peer's progress file ({@code key=value} lines, replaced whole after each
     * micro-batch: {@code rows}, {@code requests}, {@code connector_rows}, {@code p50_ms},
     * {@code p99_ms}, and at the end {@code done} or {@code failed}).
     *
     * @param file the progress file
     * @return its entries; empty if it does not exist yet or cannot be read
     */
    static Map<String, String> progress(Path file) {
        Map<String, String> entries = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    entries.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        } catch (IOException e) {
            // not written yet, or being replaced: the next poll reads it
        }
        return entries;
    }

    /**
     * @param entries progress entries
     * @param key     an entry
     * @return its number, NaN if missing or not a number
     */
    static double number(Map<String, String> entries, String key) {
        try {
            return Double.parseDouble(entries.getOrDefault(key, "NaN"));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
