package io.apiary.ingest.logging;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.helpers.FormattingTuple;
import org.slf4j.helpers.MessageFormatter;

/**
 * A log that lets a repeated line through at most {@code permits} times per interval and key, so
 * that a fault which fails every write logs a line every few seconds rather than thousands. The one
 * "warn at most every N" of the application: the sink's retry, server-warning, routing and commit
 * warnings, the hot partition and hot node warnings, the table copy's retries.
 *
 * <p>Each key (a table, a node; {@code ""} for a site with one) has its own window, which opens
 * with the first line let through and lasts the interval. A line held back is counted; the next
 * line let through for that key ends with {@code " (N similar lines held back in the last S s)"}.
 * Optionally the first line held back in a window is replaced by a notice, once (for sites that
 * let several lines through a window, so that a reader knows that the list is cut). Events are
 * still counted by the site's meters: the log only limits lines.
 *
 * <p>Messages are SLF4J patterns ({@code {}} placeholders; a last {@link Throwable} argument is the
 * cause). Time is the caller's ({@link System#nanoTime()} or a test's clock), so the limits are
 * testable without sleeping. Thread-safe (synchronized: the sites log a few lines a minute). Memory:
 * one small entry per key seen; keys are bounded by the site (tables, nodes).
 */
public final class RateLimitedLog {

    /** A log level of the lines written. */
    public enum Level {
        WARN,
        ERROR
    }

    /** Where the lines go: a logger, or a command's error output. */
    @FunctionalInterface
    public interface Output {
        /**
         * @param level   the line's level, not null
         * @param message the formatted line, not null
         * @param cause   the cause, or null
         */
        void write(Level level, String message, Throwable cause);
    }

    private static final class Window {
        long startNanos;
        int used;
        long heldBack;
        long heldBackSinceNanos;
        boolean noticed;
    }

    private final Output output;
    private final int permits;
    private final long intervalNanos;
    private final Function<String, String> heldBackNotice;
    private final Map<String, Window> windows = new HashMap<>();

    /**
     * @param output         where the lines go, not null
     * @param permits        lines let through per key per interval, at least 1
     * @param interval       the window, not negative
     * @param heldBackNotice the notice written (at the level of the line held back) instead of the first
     *                       line held back in a window, from the key; null for none
     * @throws IllegalArgumentException if permits is below 1 or the interval negative
     */
    public RateLimitedLog(Output output, int permits, Duration interval, Function<String, String> heldBackNotice) {
        this.output = Objects.requireNonNull(output, "output");
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1: " + permits);
        }
        if (interval.isNegative()) {
            throw new IllegalArgumentException("interval must not be negative: " + interval);
        }
        this.permits = permits;
        this.intervalNanos = interval.toNanos();
        this.heldBackNotice = heldBackNotice;
    }

    /**
     * A log of one line per interval and key, without a notice.
     *
     * @param logger   where the lines go, not null
     * @param interval the shortest time between two lines of one key, not negative
     * @return a new log
     */
    public static RateLimitedLog of(Logger logger, Duration interval) {
        return new RateLimitedLog(to(logger), 1, interval, null);
    }

    /**
     * @param logger an SLF4J logger, not null
     * @return an output writing to it at the line's level
     */
    public static Output to(Logger logger) {
        Objects.requireNonNull(logger, "logger");
        return (level, message, cause) -> {
            if (level == Level.ERROR) {
                logger.error(message, cause);
            } else {
                logger.warn(message, cause);
            }
        };
    }

    /**
     * @param err a command's error output, not null
     * @return an output writing {@code "warning: "} or {@code "error: "} and the line (the cause's
     *         text is part of the line where the site puts it there)
     */
    public static Output to(java.io.PrintWriter err) {
        Objects.requireNonNull(err, "err");
        return (level, message, cause) -> err.println((level == Level.ERROR ? "error: " : "warning: ") + message);
    }

    /**
     * Writes a WARN line unless this key's window has used its permits.
     *
     * @param key      what the line is about ({@code ""} for a site with one), not null
     * @param nowNanos the current time (one clock, consistently)
     * @param pattern  an SLF4J pattern, not null
     * @param args     its arguments; a last Throwable is the cause
     * @return whether the line was written
     */
    public boolean warn(String key, long nowNanos, String pattern, Object... args) {
        return log(Level.WARN, key, nowNanos, pattern, args);
    }

    /**
     * Writes an ERROR line unless this key's window has used its permits (WARN and ERROR lines of
     * one key share the window).
     *
     * @param key      what the line is about ({@code ""} for a site with one), not null
     * @param nowNanos the current time (one clock, consistently)
     * @param pattern  an SLF4J pattern, not null
     * @param args     its arguments; a last Throwable is the cause
     * @return whether the line was written
     */
    public boolean error(String key, long nowNanos, String pattern, Object... args) {
        return log(Level.ERROR, key, nowNanos, pattern, args);
    }

    /**
     * @param key what the lines are about
     * @return the lines of this key held back since the last one written
     */
    public synchronized long heldBack(String key) {
        Window window = windows.get(key);
        return window == null ? 0 : window.heldBack;
    }

    private synchronized boolean log(Level level, String key, long nowNanos, String pattern, Object... args) {
        Objects.requireNonNull(key, "key");
        Window window = windows.get(key);
        if (window == null) {
            window = new Window();
            window.startNanos = nowNanos;
            windows.put(key, window);
        } else if (nowNanos - window.startNanos >= intervalNanos) {
            window.startNanos = nowNanos;
            window.used = 0;
            window.noticed = false;
        }
        if (window.used >= permits) {
            if (window.heldBack == 0) {
                window.heldBackSinceNanos = nowNanos;
            }
            window.heldBack++;
            if (heldBackNotice != null && !window.noticed) {
                window.noticed = true;
                output.write(level, heldBackNotice.apply(key), null);
            }
            return false;
        }
        window.used++;
        FormattingTuple line = MessageFormatter.arrayFormat(pattern, args);
        String message = line.getMessage();
        if (window.heldBack > 0) {
            long seconds = Math.max(
                    1, Duration.ofNanos(nowNanos - window.heldBackSinceNanos).toSeconds());
            message += " (" + window.heldBack + " similar line" + (window.heldBack == 1 ? "" : "s")
                    + " held back in the last " + seconds + " s)";
            window.heldBack = 0;
        }
        output.write(level, message, line.getThrowable());
        return true;
    }
}
