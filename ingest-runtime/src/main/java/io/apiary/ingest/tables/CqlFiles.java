package io.apiary.ingest.tables;

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

/**
 * Reads the project's {@code cql/} files (or a folder of {@code .cql} files) in name order, with
 * their {@code ${keyspace}} and {@code ${replication}} placeholders filled in. The files come from
 * a folder, or from the application's own jar (where the build puts {@code cql/}). Other files
 * in the folder (such as table registrations, {@code .table.properties}) are skipped.
 * Thread-safe (stateless).
 */
public final class CqlFiles {

    /** What a keyspace name may be here: a letter, then up to 47 letters, digits or underscores. */
    public static final Pattern KEYSPACE_NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]{0,47}");

    private CqlFiles() {}

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
        return load(folder, "/cql", keyspace, replication);
    }

    /**
     * Reads the CQL files of a folder bundled with the application.
     *
     * @param resourceFolder the folder on the class path, e.g. {@code /cql/legacy}
     * @param keyspace       value of {@code ${keyspace}}: a valid unquoted CQL identifier
     * @param replication    value of {@code ${replication}}: a CQL replication map
     * @return the parsed scripts in name order
     * @throws IllegalArgumentException if the keyspace name is invalid or a file is malformed
     * @throws UncheckedIOException if the folder is missing or a file cannot be read
     */
    public static List<CqlScript> bundled(String resourceFolder, String keyspace, String replication) {
        return load(null, resourceFolder, keyspace, replication);
    }

    private static List<CqlScript> load(Path folder, String resourceFolder, String keyspace, String replication) {
        if (!KEYSPACE_NAME.matcher(keyspace).matches()) {
            throw new IllegalArgumentException("Invalid keyspace name '" + keyspace
                    + "': use a letter then up to 47 letters, digits or underscores");
        }
        Map<String, String> variables = Map.of("keyspace", keyspace, "replication", replication);
        List<CqlScript> scripts = new ArrayList<>();
        try {
            if (folder != null) {
                readFolder(folder, variables, scripts);
            } else {
                URL bundled = CqlFiles.class.getResource(resourceFolder + "/");
                if (bundled == null) {
                    throw new IOException(
                            resourceFolder.substring(1) + "/ is missing from the application's classpath");
                }
                if ("jar".equals(bundled.getProtocol())) {
                    try (FileSystem jar = FileSystems.newFileSystem(bundled.toURI(), Map.of())) {
                        readFolder(jar.getPath(resourceFolder), variables, scripts);
                    }
                } else {
                    readFolder(Path.of(bundled.toURI()), variables, scripts);
                }
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException(
                    "Cannot locate the bundled folder " + resourceFolder + ": " + e.getMessage(), e);
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
}
