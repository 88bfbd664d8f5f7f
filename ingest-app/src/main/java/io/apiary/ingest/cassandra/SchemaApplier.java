package io.apiary.ingest.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the project's {@code cql/} files in name order. Every statement in them is idempotent
 * ({@code IF NOT EXISTS}), so applying twice is harmless. The files come from a folder, or from
 * the application's own jar (where the build puts {@code cql/}). Each DDL statement waits for
 * schema agreement (the driver's default). Thread-safe (stateless).
 */
public final class SchemaApplier {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaApplier.class);
    /** Replication of the local dev stack's single node. */
    public static final String DEV_REPLICATION = "{'class': 'SimpleStrategy', 'replication_factor': 1}";
    /** What a keyspace name may be here: a letter, then up to 47 letters, digits or underscores. */
    public static final Pattern NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]{0,47}");

    private SchemaApplier() {}

    /**
     * Reads the CQL files.
     *
     * @param folder      folder of {@code .cql} files, or null for the bundled copy
     * @param keyspace    value of {@code ${keyspace}}: a valid unquoted CQL identifier
     * @param replication value of {@code ${replication}}: a CQL replication map
     * @return the parsed scripts in name order
     * @throws IllegalArgumentException if the keyspace name is invalid or a file is malformed
     * @throws UncheckedIOException if a file cannot be read
     */
    public static List<CqlScript> load(Path folder, String keyspace, String replication) {
        if (!NAME.matcher(keyspace).matches()) {
            throw new IllegalArgumentException("Invalid keyspace name '" + keyspace
                    + "': use a letter then up to 47 letters, digits or underscores");
        }
        Map<String, String> variables = Map.of("keyspace", keyspace, "replication", replication);
        List<CqlScript> scripts = new ArrayList<>();
        try {
            if (folder != null) {
                readFolder(folder, variables, scripts);
            } else {
                URL bundled = SchemaApplier.class.getResource("/cql/");
                if (bundled == null) {
                    throw new IOException("cql/ is missing from the application's classpath");
                }
                if ("jar".equals(bundled.getProtocol())) {
                    try (FileSystem jar = FileSystems.newFileSystem(bundled.toURI(), Map.of())) {
                        readFolder(jar.getPath("/cql"), variables, scripts);
                    }
                } else {
                    readFolder(Path.of(bundled.toURI()), variables, scripts);
                }
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate the bundled cql/ folder: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the CQL files: " + e.getMessage(), e);
        }
        return scripts;
    }

    private static void readFolder(Path folder, Map<String, String> variables, List<CqlScript> scripts)
            throws IOException {
        if (!Files.isDirectory(folder)) {
            throw new IOException(folder + (Files.exists(folder) ? " is not a folder" : ": no such folder"));
        }
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".cql") && Files.isRegularFile(f))
                    .sorted(Comparator.comparing(f -> f.getFileName().toString()))
                    .toList()) {
                String text;
                try {
                    text = Files.readString(file, StandardCharsets.UTF_8);
                } catch (java.nio.charset.CharacterCodingException e) {
                    throw new IOException(file + " is not UTF-8 text", e);
                } catch (IOException e) {
                    throw new IOException(file + ": " + e, e);
                }
                scripts.add(CqlScript.parse(file.getFileName().toString(), text, variables));
            }
        }
        if (scripts.isEmpty()) {
            throw new IOException("no .cql files in " + folder.toAbsolutePath());
        }
    }

    /**
     * Executes the scripts' statements in order.
     *
     * @param session an open session, not null
     * @param scripts scripts from {@link #load}
     * @return the number of statements executed
     * @throws com.datastax.oss.driver.api.core.DriverException if Cassandra refuses a statement
     */
    public static int apply(CqlSession session, List<CqlScript> scripts) {
        int count = 0;
        for (CqlScript script : scripts) {
            for (String statement : script.statements()) {
                LOG.debug("{}: {}", script.name(), statement);
                session.execute(SimpleStatement.newInstance(statement).setTimeout(java.time.Duration.ofSeconds(60)));
                count++;
            }
            LOG.info(
                    "Applied {} ({} statements)",
                    script.name(),
                    script.statements().size());
        }
        return count;
    }
}
