package io.apiary.ingest.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** File, template and port helpers of the dev stack. Stateless and thread-safe. */
public final class StackFiles {

    /** Folder of the templates on the application's classpath. */
    static final String RESOURCE_DIR = "/devstack/";

    private static final Pattern LEFTOVER = Pattern.compile("\\$\\{([A-Z_]+)}");
    private static final int TAIL_BYTES = 64 * 1024;

    private StackFiles() {}

    /**
     * Reads a template from {@code /devstack/} on the classpath and replaces each
     * {@code ${KEY}} of {@code values}.
     *
     * @throws LocalStackException if the template is missing or keeps an unknown upper-case key
     */
    static String render(String template, Map<String, String> values) {
        String text = resource(template);
        for (Map.Entry<String, String> e : values.entrySet()) {
            text = text.replace("${" + e.getKey() + "}", e.getValue());
        }
        Matcher m = LEFTOVER.matcher(text);
        if (m.find()) {
            throw new LocalStackException("Template " + RESOURCE_DIR + template + " uses ${" + m.group(1)
                    + "}, which the dev stack does not set");
        }
        return text;
    }

    /** @return the text of a {@code /devstack/} resource; never null */
    static String resource(String name) {
        return new String(resourceBytes(RESOURCE_DIR + name), StandardCharsets.UTF_8);
    }

    /** @return the bytes of a classpath resource given by absolute name; never null */
    static byte[] resourceBytes(String absoluteName) {
        try (InputStream in = StackFiles.class.getResourceAsStream(absoluteName)) {
            if (in == null) {
                throw new LocalStackException("Resource " + absoluteName + " is missing from the"
                        + " application's classpath: rebuild with ./mvnw -DskipTests package");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + absoluteName, e);
        }
    }

    /** Writes a text file (UTF-8), creating its parent folders. */
    static Path write(Path file, String text) {
        return write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes a binary file, creating its parent folders. */
    static Path write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(file.getParent());
            return Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Makes a file readable and writable by its owner only ({@code rw-------}), for files that
     * hold passwords; does nothing on a file system without POSIX permissions.
     *
     * @throws UncheckedIOException if the permissions cannot be set
     */
    public static void ownerOnly(Path file) {
        try {
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not POSIX: the work folder's own permissions apply
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restrict the permissions of " + file, e);
        }
    }

    /** Creates a folder and its parents. */
    static Path mkdirs(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create folder " + dir, e);
        }
    }

    /** @return the escaped form of a value for an XML attribute or text */
    static String xml(String value) {
        return value.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    /**
     * Picks free TCP ports on 127.0.0.1, all distinct: every socket stays open until all are
     * picked. Another process may still take a port before the server binds it.
     *
     * @param count how many ports, at least 1
     * @return the ports
     */
    static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pick a free port on 127.0.0.1", e);
        } finally {
            for (ServerSocket s : sockets) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // the port was picked; a failed close changes nothing for the caller
                }
            }
        }
    }

    /** @return the size of a file in bytes, 0 if it does not exist */
    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) { // including NoSuchFileException
            return 0L;
        }
    }

    /**
     * Returns the last lines written to a file after a given offset.
     *
     * @param file     the file; may not exist
     * @param fromByte ignore what was before this offset (what a previous run wrote)
     * @param maxLines how many lines at most
     * @return the lines, empty if nothing was written after {@code fromByte}
     */
    static List<String> tail(Path file, long fromByte, int maxLines) {
        long size = size(file);
        if (size <= fromByte) {
            return List.of();
        }
        long start = Math.max(fromByte, size - TAIL_BYTES);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            byte[] buf = new byte[(int) (size - start)];
            raf.seek(start);
            raf.readFully(buf);
            List<String> lines = new ArrayList<>(Arrays.asList(new String(buf, StandardCharsets.UTF_8).split("\\R")));
            if (start > fromByte && !lines.isEmpty()) {
                lines.remove(0); // most likely a partial line
            }
            lines.removeIf(String::isBlank);
            return lines.subList(Math.max(0, lines.size() - maxLines), lines.size());
        } catch (IOException e) {
            return List.of("(cannot read " + file + ": " + e + ")");
        }
    }

    /**
     * Deletes a folder and everything in it; nothing if it does not exist.
     *
     * @param dir the folder
     * @throws UncheckedIOException if something could not be deleted
     */
    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
