package io.apiary.ingest.devstack;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;

/**
 * Launcher that ties a server JVM's life to the JVM that started it.
 *
 * <p>Usage: {@code java -cp WATCHDOG_DIR:SERVER_JARS io.apiary.ingest.devstack.ParentWatchdog
 * PARENT_PID MAIN_CLASS [ARGS...]}. A daemon thread polls the parent process once a second; when
 * the parent is gone (even after a {@code SIGKILL}) it calls {@link System#exit(int)}, which runs
 * the server's own shutdown hooks, and halts the JVM if those hooks have not finished within
 * {@value #HALT_AFTER_MILLIS} ms. The main thread then runs {@code MAIN_CLASS.main(ARGS)} by
 * reflection.
 *
 * <p>This class is copied as a single class file onto each server's classpath, so it must only use
 * JDK classes: no nested, inner or anonymous classes and no other project class. It is not meant
 * to be used from application code.
 */
public final class ParentWatchdog implements Runnable {

    /** How often the parent process is checked, in milliseconds. */
    static final long POLL_MILLIS = 1_000L;

    /** How long {@link System#exit(int)} may take before the JVM is halted, in milliseconds. */
    static final long HALT_AFTER_MILLIS = 30_000L;

    /** Exit status used when the parent process has disappeared. */
    static final int PARENT_GONE_STATUS = 3;

    private final ProcessHandle parent;
    private final boolean halter;

    private ParentWatchdog(ProcessHandle parent, boolean halter) {
        this.parent = parent;
        this.halter = halter;
    }

    /**
     * Starts the watch thread, then runs the real main class.
     *
     * @param args the parent pid, the main class name, then the main class's own arguments
     * @throws Throwable whatever the real main method throws, unwrapped; an
     *                   {@link IllegalArgumentException} when fewer than two arguments are given
     */
    public static void main(String[] args) throws Throwable {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: ParentWatchdog PARENT_PID MAIN_CLASS [ARGS...]");
        }
        long parentPid = Long.parseLong(args[0]);
        Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
        if (parent.isEmpty() || !parent.get().isAlive()) {
            System.err.println("ParentWatchdog: parent process " + parentPid + " is gone, not starting");
            System.exit(PARENT_GONE_STATUS);
        }
        Thread watcher = new Thread(new ParentWatchdog(parent.get(), false), "parent-watchdog");
        watcher.setDaemon(true);
        watcher.start();

        Method main = Class.forName(args[1]).getMethod("main", String[].class);
        String[] rest = Arrays.copyOfRange(args, 2, args.length);
        try {
            main.invoke(null, (Object) rest);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Runs either the parent watch loop or, for the halter thread, the exit deadline. */
    @Override
    public void run() {
        if (halter) {
            pause(HALT_AFTER_MILLIS);
            System.err.println("ParentWatchdog: shutdown took longer than " + HALT_AFTER_MILLIS + " ms, halting");
            Runtime.getRuntime().halt(PARENT_GONE_STATUS);
            return;
        }
        while (parent.isAlive()) {
            pause(POLL_MILLIS);
        }
        System.err.println("ParentWatchdog: parent process " + parent.pid() + " is gone, exiting");
        Thread deadline = new Thread(new ParentWatchdog(parent, true), "parent-watchdog-halt");
        deadline.setDaemon(true);
        deadline.start();
        System.exit(PARENT_GONE_STATUS);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            // Nothing interrupts these daemon threads on purpose: keep watching.
        }
    }
}
