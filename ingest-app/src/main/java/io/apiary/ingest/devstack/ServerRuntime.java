package io.apiary.ingest.devstack;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the server processes run with: the {@code java} executable and each server's classpath.
 * Immutable and thread-safe.
 *
 * @param java               the {@code java} executable of a Java 17
 * @param javaSource         where that Java was found, for messages
 * @param kafkaClasspath     the Kafka broker's jars
 * @param cassandraClasspath the Cassandra node's jars
 * @param registryClasspath  the schema registry's runner jar (its libraries are named by the jar's
 *                           manifest); empty when the stack was not asked to run a registry
 */
record ServerRuntime(
        Path java,
        String javaSource,
        List<Path> kafkaClasspath,
        List<Path> cassandraClasspath,
        List<Path> registryClasspath) {

    ServerRuntime(Path java, String javaSource, List<Path> kafkaClasspath, List<Path> cassandraClasspath) {
        this(java, javaSource, kafkaClasspath, cassandraClasspath, List.of());
    }

    /** System property naming the folder with {@code kafka-server/classpath.txt} etc. */
    static final String DIR_PROPERTY = "apiary.devstack.dir";
    /** Environment variable naming the same folder. */
    static final String DIR_ENV = "APIARY_DEVSTACK_DIR";
    /** Environment variable naming a Java 17 home for the servers. */
    static final String JAVA_HOME_ENV = "APIARY_DEVSTACK_JAVA_HOME";

    private static final String REBUILD = "Run ./mvnw -DskipTests package from the project's"
            + " top folder (it resolves the server classpaths and builds the registry), or set -D"
            + DIR_PROPERTY + " or " + DIR_ENV + " to a folder holding kafka-server/classpath.txt and"
            + " cassandra-server/classpath.txt (and registry-server/classpath.txt for a registry).";
    private static final Pattern JAVA_VERSION = Pattern.compile("JAVA_VERSION=\"(\\d+)[^\"]*\"");

    /**
     * Locates Java and the classpath files as described in {@link LocalStack}.
     *
     * @throws LocalStackException if no Java 17 is found, or a classpath file or a jar it lists
     *                             is missing
     */
    static ServerRuntime resolve(LocalStackOptions options) {
        String[] javaFound = locateJava(options);
        Path dir = locateDevstackDir(options);
        List<Path> kafka = readClasspath(dir, "kafka-server");
        List<Path> cassandra = readClasspath(dir, "cassandra-server");
        List<Path> registry = options.registry() ? readClasspath(dir, "registry-server") : List.of();
        return new ServerRuntime(Path.of(javaFound[0]), javaFound[1], kafka, cassandra, registry);
    }

    /** @return the version in the name of the first jar called {@code artifact-VERSION.jar} */
    static String versionOf(List<Path> classpath, String artifact) {
        Pattern p = Pattern.compile(Pattern.quote(artifact) + "-(\\d[^/]*)\\.jar");
        for (Path jar : classpath) {
            Matcher m = p.matcher(jar.getFileName().toString());
            if (m.matches()) {
                return m.group(1);
            }
        }
        return "(unknown version)";
    }

    private static String[] locateJava(LocalStackOptions options) {
        if (options.javaHome().isPresent()) {
            return new String[] {
                checkedJava(options.javaHome().get(), "LocalStackOptions.javaHome"), "LocalStackOptions.javaHome"
            };
        }
        if (Runtime.version().feature() == 17) {
            Path home = Path.of(System.getProperty("java.home"));
            return new String[] {home.resolve("bin/java").toString(), "the current JVM " + home};
        }
        String env = System.getenv(JAVA_HOME_ENV);
        if (env != null && !env.isBlank()) {
            return new String[] {checkedJava(Path.of(env), JAVA_HOME_ENV), JAVA_HOME_ENV + "=" + env};
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> homes = Files.list(jvms)) {
                Optional<Path> jdk17 = homes.sorted()
                        .filter(h -> Files.isExecutable(h.resolve("bin/java")))
                        .filter(h -> releaseFeature(h).filter(f -> f == 17).isPresent())
                        .findFirst();
                if (jdk17.isPresent()) {
                    return new String[] {
                        jdk17.get().resolve("bin/java").toString(), jdk17.get() + " (found under /usr/lib/jvm)"
                    };
                }
            } catch (IOException e) {
                // fall through to the error below
            }
        }
        throw new LocalStackException("No Java 17 found to run the dev stack's servers (Cassandra"
                + " 5.0 needs Java 17 and fails on Java " + Runtime.version().feature() + ";"
                + " Kafka 4 needs 17 or later). Run this program on Java 17, set "
                + JAVA_HOME_ENV + " to a Java 17 home, or install one under /usr/lib/jvm"
                + " (e.g. apt-get install openjdk-17-jdk-headless).");
    }

    private static String checkedJava(Path home, String source) {
        Path java = home.resolve("bin/java");
        if (!Files.isExecutable(java)) {
            throw new LocalStackException(source + " points at " + home + ", which has no"
                    + " executable bin/java: give the home folder of a Java 17 installation");
        }
        Optional<Integer> feature = releaseFeature(home);
        if (feature.isPresent() && feature.get() != 17) {
            throw new LocalStackException(source + " points at " + home + ", a Java "
                    + feature.get() + ": the dev stack needs Java 17 (Cassandra 5.0 runs on 11"
                    + " or 17 only, Kafka 4 needs 17 or later)");
        }
        return java.toString();
    }

    private static Optional<Integer> releaseFeature(Path home) {
        try {
            Matcher m = JAVA_VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Path locateDevstackDir(LocalStackOptions options) {
        if (options.devstackDir().isPresent()) {
            return options.devstackDir().get();
        }
        String prop = System.getProperty(DIR_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        String env = System.getenv(DIR_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        CodeSource source = LocalStack.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new LocalStackException("Cannot tell where the application's classes were"
                    + " loaded from, so the dev stack's classpath files cannot be found. " + REBUILD);
        }
        try {
            // target/classes -> target/devstack; target/ingest-app.jar -> target/devstack
            Path location =
                    Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
            return location.resolveSibling("devstack");
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new LocalStackException(
                    "Cannot turn the code source " + source.getLocation()
                            + " into a folder to find the dev stack's classpath files. " + REBUILD,
                    e);
        }
    }

    private static List<Path> readClasspath(Path dir, String server) {
        Path file = dir.resolve(server).resolve("classpath.txt");
        if (!Files.isRegularFile(file)) {
            throw new LocalStackException("The " + server + " classpath file " + file + " does not exist. " + REBUILD);
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new LocalStackException(
                    "Cannot read the " + server + " classpath file " + file + ": " + e + ". " + REBUILD, e);
        }
        List<Path> jars = new ArrayList<>();
        for (String entry : text.split("[" + File.pathSeparator + "\\r\\n]+")) {
            if (!entry.isBlank()) {
                jars.add(Path.of(entry.trim()));
            }
        }
        if (jars.isEmpty()) {
            throw new LocalStackException("The " + server + " classpath file " + file + " is empty. " + REBUILD);
        }
        Map<String, Path> missing = new TreeMap<>();
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                missing.put(jar.toString(), jar);
            }
        }
        if (!missing.isEmpty()) {
            throw new LocalStackException("The " + server + " classpath file " + file + " lists "
                    + missing.size() + " jar(s) that do not exist, e.g. "
                    + missing.keySet().stream().limit(3).collect(Collectors.joining(", "))
                    + " (was the local Maven repository cleaned or moved?). " + REBUILD);
        }
        return List.copyOf(jars);
    }
}
