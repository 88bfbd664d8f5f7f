package io.apiary.ingest.devstack;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** File, template and port helpers of the dev stack. Stateless and thread-safe. */
public final class StackFiles {

    /** Folder of the templates on the application's classpath. */
    static final String RESOURCE_DIR = "/devstack/";

    private static final Pattern LEFTOVER = Pattern.compile("\\$\\{([A-Z_]+)}");
    private static final int TAIL_BYTES = 64 * 1024;
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_DIR =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

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
     * Writes a text file (UTF-8) that only its owner may read and write ({@code rw-------}) from
     * the moment it exists, creating its parent folders: for every file that holds a password.
     * The text goes to a new file of a random name in the same folder, created with those
     * permissions ({@code CREATE_NEW}; the umask can only narrow them), which then replaces {@code
     * file} by an atomic rename. So no other local user can open it at any moment, even in a
     * folder they may list and read (an explicit work folder is usually {@code rwxr-xr-x}), and
     * nobody reads it half-written. An existing {@code file} is replaced, never written through
     * (a symbolic link is replaced, not followed).
     *
     * <p>On a file system without POSIX permissions (Windows, some mounted folders) the file is
     * created with its folder's default access: there the work folder's own access rights (its
     * ACL) protect it, as they protect the rest of the work folder.
     *
     * @param file the file; not null
     * @param text its content
     * @return the file
     * @throws UncheckedIOException if it cannot be written (no temporary file is left behind)
     */
    public static Path writeOwnerOnly(Path file, String text) {
        Path dir = file.toAbsolutePath().getParent();
        Path partial = dir.resolve("." + file.getFileName() + "."
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".partial");
        Set<StandardOpenOption> create = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            Files.createDirectories(dir);
            try (SeekableByteChannel out =
                    dir.getFileSystem().supportedFileAttributeViews().contains("posix")
                            ? Files.newByteChannel(partial, create, OWNER_ONLY)
                            : Files.newByteChannel(partial, create)) { // not POSIX: see above
                ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
            }
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE); // replaces an existing file
            return file;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("cannot write " + file + ": " + e, e);
        }
    }

    /**
     * Creates a folder that only its owner may list and enter ({@code rwx------}) from the moment
     * it exists, and its missing parents (with the default permissions), for a folder whose files
     * are written by other programs (keytool's key stores) and hold secrets. An existing folder is
     * left as it is. On a file system without POSIX permissions, as {@link #writeOwnerOnly}.
     *
     * @return the folder
     * @throws UncheckedIOException if it cannot be created
     */
    static Path mkdirsOwnerOnly(Path dir) {
        try {
            if (Files.isDirectory(dir)) {
                return dir;
            }
            Path absolute = dir.toAbsolutePath();
            Files.createDirectories(absolute.getParent());
            return absolute.getFileSystem().supportedFileAttributeViews().contains("posix")
                    ? Files.createDirectory(dir, OWNER_ONLY_DIR)
                    : Files.createDirectory(dir); // not POSIX: see writeOwnerOnly
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create folder " + dir + ": " + e, e);
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
