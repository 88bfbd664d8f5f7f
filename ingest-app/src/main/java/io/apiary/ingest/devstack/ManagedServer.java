package io.apiary.ingest.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the dev stack's servers ({@link KafkaBroker}, {@link CassandraNode}) share: their state,
 * the {@link #start()} sequence (prepare files, launch, wait until ready, clean up on failure) and
 * the methods that delegate to the {@link ServerProcess}. Subclasses supply the hooks.
 *
 * <p>The public methods are deliberately not final: only then does javac give the public
 * subclasses public bridge methods, so that reflection from other packages sees and can call
 * them as before this class existed. The subclasses are final and do not override them.
 *
 * <p>Thread-safety: all methods may be called from any thread. {@link #start()} calls are
 * serialized; {@link #stop()} may be called while a start is in progress, which then fails.
 */
abstract class ManagedServer {

    final ServerRuntime runtime;
    final LocalStackOptions options;
    /** The server's own folder in the work folder, e.g. {@code <work>/kafka}. */
    final Path dir;

    final Path watchdogDir;
    final String version;
    final ServerProcess process;
    private volatile Duration startupTime = Duration.ZERO;
    private volatile boolean startFailed;

    /**
     * @param workDir the stack's work folder; the server's folder is {@code workDir/folder}
     * @param folder  the server's folder name, e.g. {@code kafka}
     * @param logFile the server's main log file, relative to its folder
     * @param product how messages name the server, before its version, e.g. {@code Kafka}
     * @param version the server's version, e.g. {@code 4.4.0}
     * @param role    how messages name the server, after its version, e.g. {@code broker}
     */
    ManagedServer(
            ServerRuntime runtime,
            LocalStackOptions options,
            Path workDir,
            Path watchdogDir,
            String folder,
            String logFile,
            String product,
            String version,
            String role) {
        this.runtime = runtime;
        this.options = options;
        this.dir = workDir.resolve(folder);
        this.watchdogDir = watchdogDir;
        this.version = version;
        this.process = new ServerProcess(
                product + " " + version + " " + role,
                workDir,
                dir.resolve(logFile),
                dir.resolve("stdout.log"),
                options.stopTimeout());
    }

    /**
     * Starts the server and blocks until it is ready (what ready means is told by the server's
     * class). Restarts reuse the same ports and data. Does nothing if the server is already
     * running.
     *
     * @throws LocalStackException if it does not become ready within the start timeout or its
     *                             process exits; the process is stopped before this is thrown
     */
    public synchronized void start() {
        if (process.isRunning()) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            prepare();
            process.launch(command(), dir);
            awaitReady(t0);
        } catch (LocalStackException e) {
            startFailed = true;
            process.stop();
            throw e;
        } catch (RuntimeException e) {
            startFailed = true;
            process.stop();
            throw process.failure("unexpected error " + e);
        }
        startupTime = Duration.ofNanos(System.nanoTime() - t0);
        logReady();
    }

    /**
     * Stops the server: SIGTERM, then after the stop timeout SIGKILL of it and its descendants.
     * Blocks until the process has ended. Does nothing if it is not running. Data is kept, so
     * {@link #start()} can start it again.
     */
    public void stop() {
        process.stop();
    }

    /**
     * Kills the server with SIGKILL, it and its descendants, as a crash would end it: no shutdown, no
     * flush (Kafka recovers its logs and Cassandra replays its commit log at the next start). Blocks until
     * the process has ended. Does nothing if it is not running. Data is kept, so {@link #start()} can
     * start it again.
     */
    public void kill() {
        process.kill();
    }

    /**
     * Stops the server (SIGTERM, or SIGKILL with {@code kill}) and starts it again on the same ports, with
     * the same data and configuration, blocking until it is ready again.
     *
     * @param kill true to end it with SIGKILL instead of SIGTERM
     * @return how long the start took, from the launch to ready
     * @throws LocalStackException as {@link #start()}
     */
    public Duration restart(boolean kill) {
        if (kill) {
            kill();
        } else {
            stop();
        }
        start();
        return startupTime();
    }

    /** @return whether the server's process is alive (it may still be starting) */
    public boolean isRunning() {
        return process.isRunning();
    }

    /**
     * @return the pid of the current or last server process
     * @throws IllegalStateException if it was never launched
     */
    public long pid() {
        return process.pid();
    }

    /** @return the server's main log file, under {@link #directory()}; may not exist yet */
    public Path logFile() {
        return process.logFile();
    }

    /** @return how long the last successful start took, from the call to ready; zero before */
    public Duration startupTime() {
        return startupTime;
    }

    /** @return the server's version, from its jar's name, e.g. {@code 4.4.0}; never null */
    public String version() {
        return version;
    }

    /** @return the server's folder in the work folder, e.g. {@code <work>/kafka}; never null */
    public Path directory() {
        return dir;
    }

    /** @return whether a start of this server has failed (its work folder is then kept) */
    final boolean startFailed() {
        return startFailed;
    }

    /** @return what is left of the start timeout since {@code startNanos}; never negative */
    final Duration startTimeLeft(long startNanos) {
        Duration left = options.startTimeout().minusNanos(System.nanoTime() - startNanos);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /**
     * Writes the server's configuration on the first start (and whatever else it needs before
     * its launch). Called by {@link #start()} only, under its lock.
     *
     * @throws LocalStackException if it fails (RuntimeExceptions are wrapped by the caller)
     */
    abstract void prepare();

    /** @return the command line that launches the server through {@link ParentWatchdog} */
    abstract List<String> command();

    /**
     * Waits until the launched server is ready, with {@link ServerProcess#awaitReady}.
     *
     * @param startNanos {@link System#nanoTime()} when {@link #start()} began
     * @throws LocalStackException if it is not ready in time or its process exits
     */
    abstract void awaitReady(long startNanos);

    /** Logs that the server is ready; {@link #startupTime()} is already set. */
    abstract void logReady();
}
