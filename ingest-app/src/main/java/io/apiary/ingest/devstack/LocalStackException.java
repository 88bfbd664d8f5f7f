package io.apiary.ingest.devstack;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Raised when the local development stack cannot be prepared, started or restarted.
 *
 * <p>The message is meant to be shown to a developer as is: it names the server concerned, the
 * reason (an exit code, a timeout, a missing file), the work folder that was kept for inspection
 * and, when a server process ran, the last lines it logged.
 */
public final class LocalStackException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The kept work folder; not serialized. */
    private final transient Path workDir;

    /**
     * Creates an exception with an actionable message.
     *
     * @param message what failed and what to do about it; never {@code null}
     */
    public LocalStackException(String message) {
        this(message, null, null);
    }

    /**
     * Creates an exception with an actionable message and the low-level cause.
     *
     * @param message what failed and what to do about it; never {@code null}
     * @param cause   the underlying failure; may be {@code null}
     */
    public LocalStackException(String message, Throwable cause) {
        this(message, null, cause);
    }

    /**
     * Creates an exception about a stack whose work folder was kept for inspection.
     *
     * @param message what failed and what to do about it; never {@code null}
     * @param workDir the work folder kept for inspection; may be {@code null}
     * @param cause   the underlying failure; may be {@code null}
     */
    public LocalStackException(String message, Path workDir, Throwable cause) {
        super(message, cause);
        this.workDir = workDir;
    }

    /** @return the work folder kept for inspection, when the failure happened in one */
    public Optional<Path> workDir() {
        return Optional.ofNullable(workDir);
    }
}
