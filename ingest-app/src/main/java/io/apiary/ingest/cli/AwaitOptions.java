package io.apiary.ingest.cli;

import picocli.CommandLine.Option;

/**
 * The importers' options to follow what they sent through the topology: {@code --await} and
 * {@code --await-timeout-seconds}. A picocli mixin; not thread-safe.
 */
public final class AwaitOptions {

    /** The longest --await-timeout-seconds: a week. */
    static final long MAX_AWAIT_SECONDS = 7 * 24 * 3600;

    @Option(
            names = "--await",
            description = "After sending, wait until the topology has consumed every record, then"
                    + " report each one it did not store (late or dead-lettered) with its lines.")
    boolean await;

    @Option(
            names = "--await-timeout-seconds",
            defaultValue = "300",
            paramLabel = "S",
            description = "How long --await waits for the topology (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    /**
     * @throws IllegalArgumentException if the timeout is not 1 s to a week
     */
    void check() {
        if (timeoutSeconds < 1 || timeoutSeconds > MAX_AWAIT_SECONDS) {
            throw new IllegalArgumentException(
                    "--await-timeout-seconds must be 1 to " + MAX_AWAIT_SECONDS + " (a week), was " + timeoutSeconds);
        }
    }
}
