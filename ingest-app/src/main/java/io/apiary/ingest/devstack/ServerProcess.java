package io.apiary.ingest.devstack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server JVM of the dev stack: launch through {@link ParentWatchdog}, wait until ready, stop
 * with SIGTERM then SIGKILL, and explain failures with the tail of the server's output.
 *
 * <p>Thread-safe: {@link #stop()} may be called from any thread, also while another thread waits
 * in {@link #awaitReady}, which then fails promptly.
 */
final class ServerProcess {

    /** How many lines of a server's output a failure message shows. */
    static final int TAIL_LINES = 40;

    private static final Logger LOG = LoggerFactory.getLogger(ServerProcess.class);
    private static final long POLL_MILLIS = 200L;
    /** Exit code of a JVM ended by SIGINT (128 + 2). */
    private static final int SIGINT_EXIT = 130;

    /** A readiness check, called repeatedly; may throw while the server is not ready. */
    @FunctionalInterface
    interface Probe {
        /** @return true once the server serves requests */
        boolean ready() throws Exception;
    }

    private final String name;
    private final Path workDir;
    private final Path logFile;
    private final Path stdoutFile;
    private final Duration stopTimeout;

    private volatile Process process;
    /** The process {@link #stop()} was called for: its end is expected. */
    private volatile Process stopping;

    private volatile long logOffset;
    private volatile long stdoutOffset;

    /**
     * @param name        how messages name the server, e.g. "Cassandra 5.0.7 node"
     * @param workDir     the stack's work folder, named in failure messages
     * @param logFile     the server's own log file
     * @param stdoutFile  where the process's stdout and stderr go (appended)
     * @param stopTimeout how long to wait after SIGTERM before killing
     */
    ServerProcess(String name, Path workDir, Path logFile, Path stdoutFile, Duration stopTimeout) {
        this.name = name;
        this.workDir = workDir;
        this.logFile = logFile;
        this.stdoutFile = stdoutFile;
        this.stopTimeout = stopTimeout;
    }

    /**
     * Builds {@code java OPTIONS -cp WATCHDOG:CLASSPATH ParentWatchdog PID MAIN ARGS}.
     *
     * @param watchdogDir folder holding the copied {@code ParentWatchdog.class}, first on the classpath
     */
    static List<String> javaCommand(
            Path java,
            List<String> jvmOptions,
            Path watchdogDir,
            List<Path> classpath,
            String mainClass,
            List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(watchdogDir
                + File.pathSeparator
                + classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        cmd.add(ParentWatchdog.class.getName());
        cmd.add(Long.toString(ProcessHandle.current().pid()));
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Runs a short-lived tool to completion, its output going to a file.
     *
     * @throws LocalStackException if it cannot start, fails or outlives {@code timeout}
     */
    static void runTool(String what, List<String> command, Path dir, Path output, Duration timeout, Path workDir) {
        long offset = StackFiles.size(output);
        Process p = start(command, dir, output, what);
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                waitFor(p, Duration.ofSeconds(10));
                throw new LocalStackException(
                        what + " did not finish within " + timeout.toSeconds() + " s."
                                + details(workDir, output, offset, null, 0),
                        workDir,
                        null);
            }
            if (p.exitValue() != 0) {
                throw new LocalStackException(
                        what + " failed with exit code " + p.exitValue() + "."
                                + details(workDir, output, offset, null, 0),
                        workDir,
                        null);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new LocalStackException(what + " was interrupted. Work folder: " + workDir, workDir, e);
        }
    }

    /**
     * Launches the server process (stdout and stderr appended to the stdout file).
     *
     * @throws LocalStackException if the process cannot be started
     */
    void launch(List<String> command, Path dir) {
        logOffset = StackFiles.size(logFile);
        stdoutOffset = StackFiles.size(stdoutFile);
        LOG.debug("Starting {}: {}", name, command);
        Process launched = start(command, dir, stdoutFile, name);
        process = launched;
        launched.onExit().thenAccept(this::reportUnexpectedEnd);
    }

    /**
     * Logs an error when the server's process ends without {@link #stop()}: a server killed or
     * crashed under a running stack would otherwise go unnoticed until clients fail. Exit code
     * 130 (SIGINT) is not reported: Ctrl-C reaches the whole process group, servers included,
     * while the stack itself is stopping.
     */
    private void reportUnexpectedEnd(Process ended) {
        if (stopping == ended || ended.exitValue() == SIGINT_EXIT) {
            return;
        }
        LOG.error(
                "{} (pid {}) ended on its own with exit code {}: it no longer serves. Its log: {}; restart"
                        + " it with `ingest-app devstack restart SERVER --work-dir WORK_FOLDER` (from code:"
                        + " LocalStack.restart), or the stack",
                name,
                ended.pid(),
                ended.exitValue(),
                logFile);
    }

    /**
     * Waits until the probe says ready, the process exits, or the timeout passes.
     *
     * @param timeout how long to wait, counted from this call
     * @throws LocalStackException if the process exited or the timeout passed (the process is
     *                             then still running: the caller stops it)
     */
    void awaitReady(Probe probe, Duration timeout) {
        Process p = process;
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        Exception lastProbeError = null;
        try {
            while (true) {
                if (!p.isAlive()) {
                    throw failure("the process exited with code " + p.exitValue() + " after "
                            + seconds(Duration.ofNanos(System.nanoTime() - start)));
                }
                try {
                    if (probe.ready()) {
                        return;
                    }
                } catch (Exception e) {
                    lastProbeError = e;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw failure("it was not ready within " + seconds(timeout)
                            + (lastProbeError == null ? "" : " (last check: " + lastProbeError + ")"));
                }
                p.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("the wait for it was interrupted");
        }
    }

    /**
     * Stops the process: SIGTERM, up to the stop timeout, then SIGKILL of it and its
     * descendants. Returns at once if it is not running. Waits (blocks) for the process to end;
     * concurrent callers wait for the first one.
     */
    synchronized void stop() {
        Process p = process;
        if (p == null) {
            return;
        }
        stopping = p;
        List<ProcessHandle> descendants = p.descendants().collect(Collectors.toList());
        if (p.isAlive()) {
            long start = System.nanoTime();
            p.destroy();
            boolean exited = waitFor(p, stopTimeout);
            if (!exited) {
                LOG.warn(
                        "{} did not stop within {} after SIGTERM: killing it (pid {})",
                        name,
                        seconds(stopTimeout),
                        p.pid());
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                waitFor(p, Duration.ofSeconds(10));
            }
            LOG.info(
                    "{} stopped in {} (pid {}, exit code {})",
                    name,
                    seconds(Duration.ofNanos(System.nanoTime() - start)),
                    p.pid(),
                    p.isAlive() ? "none yet" : Integer.toString(p.exitValue()));
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * Kills the process and its descendants at once (SIGKILL: no shutdown hook, no flush), as a crash
     * or an OOM kill would end it, and waits for it to end. Returns at once if it is not running. The
     * end is expected, so it is not reported as an error.
     */
    synchronized void kill() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return;
        }
        stopping = p;
        List<ProcessHandle> descendants = p.descendants().collect(Collectors.toList());
        p.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        waitFor(p, Duration.ofSeconds(30));
        LOG.info(
                "{} killed with SIGKILL (pid {}, exit code {})",
                name,
                p.pid(),
                p.isAlive() ? "none yet" : p.exitValue());
    }

    /** @return whether the process is alive */
    boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /**
     * @return the pid of the current or last process
     * @throws IllegalStateException if it was never launched
     */
    long pid() {
        Process p = process;
        if (p == null) {
            throw new IllegalStateException(name + " was never launched");
        }
        return p.pid();
    }

    /** @return the server's own log file (may not exist yet) */
    Path logFile() {
        return logFile;
    }

    /** @return a failure naming the server, the reason, the work folder and the output tail */
    LocalStackException failure(String reason) {
        return new LocalStackException(
                name + " failed to start: " + reason + "."
                        + details(workDir, stdoutFile, stdoutOffset, logFile, logOffset),
                workDir,
                null);
    }

    /** @return a duration as seconds with one decimal, e.g. "3.1 s" */
    static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    private static String details(Path workDir, Path stdout, long stdoutFrom, Path log, long logFrom) {
        List<String> lines = log == null ? List.of() : StackFiles.tail(log, logFrom, TAIL_LINES);
        Path shown = log;
        if (lines.isEmpty()) {
            lines = StackFiles.tail(stdout, stdoutFrom, TAIL_LINES);
            shown = stdout;
        }
        StringBuilder sb = new StringBuilder(" Work folder (kept for inspection): ").append(workDir);
        if (lines.isEmpty()) {
            sb.append(". The server wrote nothing to ")
                    .append(stdout)
                    .append(log == null ? "" : " or " + log)
                    .append('.');
        } else {
            sb.append(". Last ")
                    .append(lines.size())
                    .append(" lines of ")
                    .append(shown)
                    .append(":\n");
            lines.forEach(line -> sb.append("    ").append(line).append('\n'));
        }
        return sb.toString();
    }

    private static Process start(List<String> command, Path dir, Path output, String what) {
        try {
            StackFiles.mkdirs(output.getParent());
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
            pb.environment().remove("CLASSPATH");
            pb.environment().remove("JAVA_TOOL_OPTIONS");
            pb.environment().remove("_JAVA_OPTIONS");
            pb.environment().remove("JDK_JAVA_OPTIONS");
            Process p = pb.start();
            p.getOutputStream().close(); // the servers read nothing from stdin
            return p;
        } catch (IOException | UncheckedIOException e) {
            throw new LocalStackException(
                    "Cannot start " + what + " with " + command.get(0) + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static boolean waitFor(Process p, Duration timeout) {
        try {
            return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false; // go on to the kill: an interrupted stop must not leave the process
        }
    }
}
