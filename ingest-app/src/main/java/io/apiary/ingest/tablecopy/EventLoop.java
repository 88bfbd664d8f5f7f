package io.apiary.ingest.tablecopy;

import java.util.PriorityQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The one thread that owns a copy's or a verification's state: the driver's callbacks only
 * {@link #post} work to it, and delayed work (retries) is {@link #schedule scheduled} on it. A
 * loop of {@link #turn} calls runs it. {@link #post} is thread-safe; everything else is for the
 * loop's own thread.
 */
public final class EventLoop {

    private record Timer(long dueNanos, long sequence, Runnable task) {}

    private final LinkedBlockingQueue<Runnable> posted = new LinkedBlockingQueue<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) ->
            a.dueNanos != b.dueNanos ? Long.compare(a.dueNanos, b.dueNanos) : Long.compare(a.sequence, b.sequence));
    private final LongSupplier clock;
    private long sequence;

    /** A loop on {@link System#nanoTime()}. */
    public EventLoop() {
        this(System::nanoTime);
    }

    /** @param clock nanoseconds, monotonic (tests pass their own) */
    EventLoop(LongSupplier clock) {
        this.clock = clock;
    }

    /** @return the loop's clock, nanoseconds */
    public long now() {
        return clock.getAsLong();
    }

    /**
     * Queues a task for the loop's thread. Thread-safe.
     *
     * @param task the task, not null
     */
    public void post(Runnable task) {
        posted.add(task);
    }

    /**
     * Runs a task on the loop's thread after a delay.
     *
     * @param delayNanos at least this long from now
     * @param task       the task, not null
     */
    public void schedule(long delayNanos, Runnable task) {
        timers.add(new Timer(now() + Math.max(0, delayNanos), sequence++, task));
    }

    /**
     * Runs the timers that are due and every posted task; when none was there, waits for a posted
     * task up to {@code maxWaitNanos} (less when a timer falls due earlier), then runs what came.
     *
     * @param maxWaitNanos the longest wait, not negative
     * @throws InterruptedException if interrupted while waiting
     */
    public void turn(long maxWaitNanos) throws InterruptedException {
        if (runReady() > 0) {
            return;
        }
        long wait = maxWaitNanos;
        if (!timers.isEmpty()) {
            wait = Math.min(wait, Math.max(0, timers.peek().dueNanos - now()));
        }
        Runnable task = wait > 0 ? posted.poll(wait, TimeUnit.NANOSECONDS) : null;
        if (task != null) {
            task.run();
        }
        runReady();
    }

    private int runReady() {
        int ran = 0;
        long now = now();
        while (!timers.isEmpty() && timers.peek().dueNanos <= now) {
            timers.poll().task().run();
            ran++;
        }
        Runnable task;
        while ((task = posted.poll()) != null) {
            task.run();
            ran++;
        }
        return ran;
    }
}
