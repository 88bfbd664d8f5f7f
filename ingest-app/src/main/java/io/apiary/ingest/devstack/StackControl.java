package io.apiary.ingest.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops, kills and starts one server of a running local stack from another process ({@code ingest-app
 * devstack restart kafka --kill --work-dir DIR}): the servers are child processes of the JVM that started
 * the stack, so only that JVM can launch one again with its ports, data and watchdog. The two talk through
 * files in {@code <work folder>/control/}, a folder only the stack's owner may open ({@code rwx------}): the
 * stack writes its pid to {@value #PID_FILE}; a client writes a request {@code <id>.request} (one line:
 * {@code stop|start|restart SERVER [kill]}), the stack carries it out and answers {@code <id>.reply}
 * ({@code ok} or {@code error}, then one line of text); both files are written whole under another name
 * and renamed, so neither side reads half of one. No port is opened: who may control the stack is who may
 * write its work folder.
 *
 * <p>Thread-safe: {@link #serve} runs one daemon thread that carries out requests one at a time; {@link
 * #send} may be called from any thread or process.
 */
public final class StackControl implements AutoCloseable {

    /** The control folder's name, in the work folder. */
    public static final String FOLDER = "control";
    /** The file holding the serving JVM's pid, in the control folder. */
    public static final String PID_FILE = "devstack.pid";

    private static final Logger LOG = LoggerFactory.getLogger(StackControl.class);
    private static final long POLL_MILLIS = 100L;
    private static final String REQUEST = ".request";
    private static final String REPLY = ".reply";

    /** What a request asks of one server. */
    public enum Action {
        /** SIGTERM (SIGKILL with kill), and stay down. */
        STOP,
        /** Start a stopped server again and wait until it is ready. */
        START,
        /** Stop (or kill), then start again and wait until ready. */
        RESTART
    }

    private final LocalStack stack;
    private final Path folder;
    private final Thread worker;
    private volatile boolean closed;

    private StackControl(LocalStack stack, Path folder) {
        this.stack = stack;
        this.folder = folder;
        this.worker = new Thread(this::loop, "devstack-control");
        this.worker.setDaemon(true);
    }

    /**
     * Starts answering requests for a stack: creates {@code <work folder>/control/} (owner-only), writes the
     * pid and polls for requests every 100 ms until closed.
     *
     * @param stack a started stack, not null
     * @return the running control, to close before the stack
     * @throws UncheckedIOException if the control folder or pid file cannot be written
     */
    public static StackControl serve(LocalStack stack) {
        Path folder = StackFiles.mkdirsOwnerOnly(stack.workDir().resolve(FOLDER));
        StackFiles.writeOwnerOnly(
                folder.resolve(PID_FILE), ProcessHandle.current().pid() + "\n");
        StackControl control = new StackControl(stack, folder);
        control.worker.start();
        LOG.info("Controlling the local stack through {} (ingest-app devstack stop|start|restart)", folder);
        return control;
    }

    /**
     * Asks the stack running in a work folder to act on one of its servers, and waits for its answer.
     *
     * @param workDir the stack's work folder, not null
     * @param action  what to do, not null
     * @param server  which server, not null
     * @param kill    for stop and restart: SIGKILL instead of SIGTERM
     * @param timeout how long to wait for the answer (a restart waits for the server to be ready), positive
     * @return the stack's answer, e.g. "kafka restarted (SIGKILL) and ready in 12.3 s"
     * @throws LocalStackException if no stack serves that folder, the stack refused or failed (its message),
     *                             or no answer came within the timeout
     */
    public static String send(Path workDir, Action action, LocalStack.Server server, boolean kill, Duration timeout) {
        Path folder = workDir.resolve(FOLDER);
        long pid = servingPid(folder);
        String id = UUID.randomUUID().toString();
        Path reply = folder.resolve(id + REPLY);
        StackFiles.writeOwnerOnly(
                folder.resolve(id + REQUEST),
                action.name().toLowerCase(Locale.ROOT) + " " + server.label() + (kill ? " kill" : "") + "\n");
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!Files.exists(reply)) {
                if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    throw new LocalStackException("The local stack of " + workDir + " (pid " + pid
                            + ") ended before it answered; start it again with `ingest-app devstack`");
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new LocalStackException("The local stack of " + workDir + " (pid " + pid
                            + ") did not answer within " + ServerProcess.seconds(timeout) + " (a server's start can "
                            + "take longer on a busy machine: see its log in " + workDir + ", or raise --timeout)");
                }
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            }
            List<String> lines = Files.readAllLines(reply, StandardCharsets.UTF_8);
            Files.deleteIfExists(reply);
            String message = lines.size() > 1 ? String.join("\n", lines.subList(1, lines.size())) : "";
            if (lines.isEmpty() || !"ok".equals(lines.get(0))) {
                throw new LocalStackException(message.isEmpty() ? "The local stack gave no answer" : message);
            }
            return message;
        } catch (IOException e) {
            throw new LocalStackException("Cannot read the local stack's answer in " + folder + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalStackException("Interrupted while waiting for the local stack of " + workDir, e);
        }
    }

    private static long servingPid(Path folder) {
        Path pidFile = folder.resolve(PID_FILE);
        long pid;
        try {
            pid = Long.parseLong(
                    Files.readString(pidFile, StandardCharsets.UTF_8).trim());
        } catch (NoSuchFileException e) {
            throw new LocalStackException("No local stack serves " + folder.getParent() + " (no " + pidFile
                    + "): give the work folder that `ingest-app devstack` printed, while it runs");
        } catch (IOException | NumberFormatException e) {
            throw new LocalStackException("Cannot read " + pidFile + ": " + e, e);
        }
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            throw new LocalStackException("The local stack of " + folder.getParent() + " (pid " + pid
                    + ") is no longer running; start one with `ingest-app devstack`");
        }
        return pid;
    }

    /**
     * Carries out one request.
     *
     * @param line the request's text: {@code stop|start|restart SERVER [kill]}
     * @return the answer's message
     * @throws IllegalArgumentException if the request is malformed
     * @throws RuntimeException         what the stack threw
     */
    String handle(String line) {
        String[] words = line.trim().split("\\s+");
        if (words.length < 2 || words.length > 3 || (words.length == 3 && !"kill".equals(words[2]))) {
            throw new IllegalArgumentException(
                    "malformed request '" + line.trim() + "': want stop|start|restart " + "SERVER [kill]");
        }
        Action action = Action.valueOf(words[0].toUpperCase(Locale.ROOT));
        LocalStack.Server server = LocalStack.Server.parse(words[1]);
        boolean kill = words.length == 3;
        String how = kill ? "SIGKILL" : "SIGTERM";
        return switch (action) {
            case STOP -> {
                stack.stop(server, kill);
                yield server.label() + " stopped (" + how + "); its ports and data are kept";
            }
            case START -> {
                Duration took = stack.start(server);
                yield took.isZero()
                        ? server.label() + " was running"
                        : server.label() + " started and ready in " + ServerProcess.seconds(took);
            }
            case RESTART ->
                server.label() + " restarted (" + how + ") and ready in "
                        + ServerProcess.seconds(stack.restart(server, kill));
        };
    }

    private void loop() {
        while (!closed) {
            try {
                for (Path request : pending()) {
                    answer(request);
                }
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("The local stack's control failed; requests in {} may go unanswered", folder, e);
            }
        }
    }

    private List<Path> pending() {
        List<Path> requests = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*" + REQUEST)) {
            files.forEach(requests::add);
        } catch (NoSuchFileException e) {
            return List.of(); // the stack is being deleted
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        requests.sort(null);
        return requests;
    }

    private void answer(Path request) {
        String name = request.getFileName().toString();
        String id = name.substring(0, name.length() - REQUEST.length());
        String reply;
        try {
            String line = Files.readString(request, StandardCharsets.UTF_8);
            Files.deleteIfExists(request);
            LOG.info("Control request: {}", line.trim());
            reply = "ok\n" + handle(line);
        } catch (IOException e) {
            reply = "error\nCannot read the request " + request + ": " + e;
        } catch (RuntimeException e) {
            reply = "error\n" + (e.getMessage() == null ? e.toString() : e.getMessage());
        }
        LOG.info("Control answer: {}", reply.replace('\n', ' '));
        StackFiles.writeOwnerOnly(folder.resolve(id + REPLY), reply + "\n");
    }

    /** Stops answering; a request being carried out finishes first. Idempotent. */
    @Override
    public void close() {
        closed = true;
        worker.interrupt();
        try {
            worker.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(folder.resolve(PID_FILE));
        } catch (IOException e) {
            LOG.debug("Cannot delete {}", folder.resolve(PID_FILE), e);
        }
    }
}
