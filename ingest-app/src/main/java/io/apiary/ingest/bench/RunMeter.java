package io.apiary.ingest.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Measures one benchmark run while it works: wall time, CPU time of this JVM (the client) and
 * of the Cassandra node (or the nodes of a local cluster, summed) and the Kafka broker, and heap.
 *
 * <p>The measured window opens at the first progress (the first row acknowledged, the first
 * record committed), so client start-up (connecting, joining a consumer group, Kafka Streams'
 * rebalance) is left out for every kind of run alike, and closes when progress reaches the
 * target. Rates and CPU per item are over that window: {@code (items at close - items at open)
 * / (time at close - time at open)}. A run done within its first poll is measured from the call
 * instead, start-up included.
 *
 * <p>CPU comes from the operating system's process accounting
 * ({@link ProcessHandle.Info#totalCpuDuration()}: user + system time, which on Linux is read from
 * {@code /proc/<pid>/stat} in clock ticks of 10 ms); the client's CPU includes every thread of
 * this JVM: garbage collection and JIT compilation as well as the run's own threads.
 *
 * <p>Heap: the peak of heap used, sampled at every poll (garbage included, so it mostly shows how
 * lazily the collector runs), and the peak <em>live</em> heap: {@link #FIRST_LIVE_HEAP_PROBE} after
 * the window opens and then every {@link #LIVE_HEAP_PROBE} a full collection is forced
 * ({@code System.gc()}) and the heap used right after it is read (-1 for runs too short); this
 * is what the run kept reachable, the figure a memory bound is about. The wall time and the
 * CPU time of these forced collections are taken out of the window, and a request that was in
 * flight during one is left out of the latency percentiles ({@link #leaveOutOfLatency}): a forced
 * collection stops the client's threads, and the requests answered meanwhile would otherwise
 * count that pause as Cassandra's latency. Not
 * thread-safe but for {@link #leaveOutOfLatency} and {@link #latencyLeftOut}: one run at a time, from one thread.
 */
public final class RunMeter {

    /** How often a full collection is forced to read the live heap. */
    static final Duration LIVE_HEAP_PROBE = Duration.ofSeconds(10);
    /** When the first one is, after the window opens; a shorter run has no live heap figure. */
    static final Duration FIRST_LIVE_HEAP_PROBE = Duration.ofSeconds(2);

    /**
     * What one run measured over its window. CPU seconds are NaN when the process is unknown.
     * {@code cassandraAfterCpuSeconds} is the nodes' CPU from the window's close until their
     * compactions and flushes were done ({@link #settle}), NaN until then or when not measured;
     * {@code afterSeconds} how long that took from the close (the writer's shutdown included), NaN
     * likewise.
     */
    record Window(
            long items,
            double seconds,
            double clientCpuSeconds,
            double cassandraCpuSeconds,
            double kafkaCpuSeconds,
            long peakHeapBytes,
            long peakLiveHeapBytes,
            boolean completed,
            double cassandraAfterCpuSeconds,
            double afterSeconds) {

        /**
         * @param cpuSeconds CPU seconds over the window
         * @return microseconds of CPU per item, NaN when unknown or nothing was done
         */
        double microsPerItem(double cpuSeconds) {
            return items == 0 ? Double.NaN : cpuSeconds * 1e6 / items;
        }
    }

    private final List<Long> cassandraPids;
    private final OptionalLong kafkaPid;
    /** CPU seconds (client, Cassandra, Kafka) when the last window closed; null before the first. */
    private double[] lastClose;
    /** When the last window closed, in {@link System#nanoTime()}. */
    private long lastCloseNanos;
    /** The forced collections of the run being measured, as {start, end} in {@link System#nanoTime()}. */
    private final List<long[]> probes = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Latency samples of the run being measured that {@link #leaveOutOfLatency} left out. */
    private final java.util.concurrent.atomic.LongAdder leftOut = new java.util.concurrent.atomic.LongAdder();

    /**
     * @param cassandraPids process ids of the Cassandra nodes whose CPU to count, summed, when they run on
     *                      this machine; empty when they do not (the figure is then NaN)
     * @param kafkaPid      process id of the Kafka broker whose CPU to count, if it runs on this machine
     */
    RunMeter(List<Long> cassandraPids, OptionalLong kafkaPid) {
        this.cassandraPids = List.copyOf(cassandraPids);
        this.kafkaPid = kafkaPid;
    }

    /**
     * Polls {@code progress} until it reaches {@code target}, {@code failed} turns true, or the
     * timeout passes.
     *
     * @param progress     items done so far (rows acknowledged, records committed), non-decreasing
     * @param target       items at which the run is complete
     * @param failed       true once the run failed (checked every poll)
     * @param pollInterval time between polls
     * @param timeout      longest run
     * @return what was measured; {@code completed} false on failure or timeout
     * @throws InterruptedException if interrupted while waiting
     */
    Window measure(LongSupplier progress, long target, BooleanSupplier failed, Duration pollInterval, Duration timeout)
            throws InterruptedException {
        return measure(ProcessHandle.current(), progress, target, failed, pollInterval, timeout, () -> 0);
    }

    /**
     * As {@link #measure(LongSupplier, long, BooleanSupplier, Duration, Duration)}, with work of this
     * JVM that is not the client's (the paced run's gateway producer) kept out of the client's CPU:
     * {@code notClient}'s increase from the window's open to its close is subtracted.
     *
     * @param progress     items done so far, non-decreasing
     * @param target       items at which the run is complete
     * @param failed       true once the run failed (checked every poll)
     * @param pollInterval time between polls
     * @param timeout      longest run
     * @param notClient    CPU seconds of this JVM that are not the client's so far, non-decreasing; read
     *                     at every poll (so that a {@link ThreadsCpu} sees its threads before they end)
     * @return what was measured; {@code completed} false on failure or timeout
     * @throws InterruptedException if interrupted while waiting
     */
    Window measure(
            LongSupplier progress,
            long target,
            BooleanSupplier failed,
            Duration pollInterval,
            Duration timeout,
            DoubleSupplier notClient)
            throws InterruptedException {
        return measure(ProcessHandle.current(), progress, target, failed, pollInterval, timeout, notClient);
    }

    /**
     * As {@link #measure(LongSupplier, long, BooleanSupplier, Duration, Duration)}, with the client
     * being another process (the Spark peer's JVM): its CPU is counted as the client's; this JVM's
     * heap says nothing of it, so no collection is forced and both heap figures are -1.
     *
     * @param client the process whose CPU is the client's; {@link ProcessHandle#current()} for this JVM
     * @param progress     items done so far, non-decreasing
     * @param target       items at which the run is complete
     * @param failed       true once the run failed (checked every poll)
     * @param pollInterval time between polls
     * @param timeout      longest run
     * @return what was measured; {@code completed} false on failure or timeout
     * @throws InterruptedException if interrupted while waiting
     */
    Window measure(
            ProcessHandle client,
            LongSupplier progress,
            long target,
            BooleanSupplier failed,
            Duration pollInterval,
            Duration timeout)
            throws InterruptedException {
        return measure(client, progress, target, failed, pollInterval, timeout, () -> 0);
    }

    private Window measure(
            ProcessHandle client,
            LongSupplier progress,
            long target,
            BooleanSupplier failed,
            Duration pollInterval,
            Duration timeout,
            DoubleSupplier notClient)
            throws InterruptedException {
        boolean self = client.pid() == ProcessHandle.current().pid();
        probes.clear();
        leftOut.reset();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long deadline = System.nanoTime() + timeout.toNanos();
        long peakHeap = 0;
        long peakLive = -1;
        long openItems = -1;
        long openNanos = 0;
        long nextProbe = 0;
        long probeNanos = 0;
        double probeCpu = 0;
        double[] open = null;
        double notClientOpen = 0;
        double[] start = allCpuSeconds(client);
        double notClientStart = notClient.getAsDouble();
        long startNanos = System.nanoTime();
        long done;
        while (true) {
            done = progress.getAsLong();
            double notClientNow = notClient.getAsDouble();
            long now = System.nanoTime();
            if (self) {
                peakHeap = Math.max(peakHeap, memory.getHeapMemoryUsage().getUsed());
            }
            if (open == null && done > 0) {
                open = allCpuSeconds(client);
                notClientOpen = notClientNow;
                openItems = done;
                openNanos = now;
                nextProbe = now + FIRST_LIVE_HEAP_PROBE.toNanos();
            }
            if (done >= target || failed.getAsBoolean() || now > deadline) {
                break;
            }
            if (self && open != null && now >= nextProbe) {
                double cpu = cpuSeconds(ProcessHandle.current());
                System.gc();
                peakLive = Math.max(peakLive, memory.getHeapMemoryUsage().getUsed());
                probeCpu += cpuSeconds(ProcessHandle.current()) - cpu;
                long after = System.nanoTime();
                probes.add(new long[] {now, after});
                probeNanos += after - now;
                nextProbe = after + LIVE_HEAP_PROBE.toNanos();
            }
            Thread.sleep(pollInterval.toMillis());
        }
        long closeNanos = System.nanoTime();
        double[] close = allCpuSeconds(client);
        double notClientClose = notClient.getAsDouble();
        lastClose = close;
        lastCloseNanos = closeNanos;
        if (!self) {
            peakHeap = -1;
        }
        if (open == null) {
            return new Window(
                    0, 0, Double.NaN, Double.NaN, Double.NaN, peakHeap, peakLive, false, Double.NaN, Double.NaN);
        }
        if (done == openItems) {
            // the whole run fell within the first poll: measure it from the start instead
            open = start;
            notClientOpen = notClientStart;
            openItems = 0;
            openNanos = startNanos;
        }
        return new Window(
                done - openItems,
                (closeNanos - openNanos - probeNanos) / 1e9,
                close[0] - open[0] - probeCpu - (notClientClose - notClientOpen),
                close[1] - open[1],
                close[2] - open[2],
                peakHeap,
                peakLive,
                done >= target && !failed.getAsBoolean(),
                Double.NaN, // the nodes' CPU after the window: settle's
                Double.NaN);
    }

    /**
     * Waits, after a write run's window ({@link #measure}), until the Cassandra nodes have no
     * compaction or flush running or queued, and adds their CPU from the window's close until then
     * to the window. A run leaves such work behind: its memtables' flushes start compactions
     * (four similar SSTables at the shipped compaction strategies' thresholds) that run on while
     * the next run writes, or are cut short by the next run's TRUNCATE. A short write run ends
     * with compactions still to run or running (Cassandra's system.log shows them), so its window holds a share of the
     * compaction its own writes caused that depends on how much CPU it left the node, and two
     * runs' Cassandra CPU per row compare fairly only with what follows the window counted too.
     *
     * <p>Everything the nodes spend in that time is counted, not only compactions and flushes:
     * also their collector's work on the run's garbage and JIT compilation after the load, which
     * keep a node busy for a while even with no compaction or flush running. Quiet means
     * {@code busy} answered false on every poll for {@code quiet}; that tail is counted too (the
     * node's idle background, a small share of a long run's figure). When the nodes'
     * CPU is not measured (a remote cluster) nothing is waited for and the window is returned
     * as it is.
     *
     * @param window       the window just measured, not null
     * @param busy         whether a node is compacting or flushing now (polled), not null
     * @param quiet        how long {@code busy} must stay false
     * @param pollInterval time between polls
     * @param timeout      longest wait; after it the CPU so far is counted (the caller says so)
     * @return {@code window} with {@code cassandraAfterCpuSeconds} and {@code afterSeconds} set
     * @throws InterruptedException if interrupted while waiting
     */
    Window settle(Window window, BooleanSupplier busy, Duration quiet, Duration pollInterval, Duration timeout)
            throws InterruptedException {
        if (cassandraPids.isEmpty() || lastClose == null) {
            return window;
        }
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        long quietSince = start;
        while (true) {
            long now = System.nanoTime();
            if (busy.getAsBoolean()) {
                quietSince = now;
            } else if (now - quietSince >= quiet.toNanos()) {
                break;
            }
            if (now > deadline) {
                break;
            }
            Thread.sleep(pollInterval.toMillis());
        }
        double[] after = allCpuSeconds(ProcessHandle.current());
        return new Window(
                window.items(),
                window.seconds(),
                window.clientCpuSeconds(),
                window.cassandraCpuSeconds(),
                window.kafkaCpuSeconds(),
                window.peakHeapBytes(),
                window.peakLiveHeapBytes(),
                window.completed(),
                after[1] - lastClose[1],
                (System.nanoTime() - lastCloseNanos) / 1e9);
    }

    /**
     * Whether a request's latency sample is left out of the percentiles: whether a forced
     * collection of the live-heap probe of the run being measured (the last one, after it ended)
     * ran at some instant of its span; counted ({@link #latencyLeftOut}) when it is. Thread-safe.
     *
     * @param fromNanos the request's send, in {@link System#nanoTime()}
     * @param toNanos   its answer, at or after {@code fromNanos}
     * @return true if the sample is to be left out
     */
    boolean leaveOutOfLatency(long fromNanos, long toNanos) {
        for (long[] probe : probes) {
            if (fromNanos < probe[1] && toNanos > probe[0]) {
                leftOut.increment();
                return true;
            }
        }
        return false;
    }

    /** @return latency samples of the run being measured (or the last one) left out so far; thread-safe */
    long latencyLeftOut() {
        return leftOut.sum();
    }

    /** Collects garbage; called before each run, so that runs start from the same heap. */
    static void collectGarbage() {
        System.gc();
    }

    private double[] allCpuSeconds(ProcessHandle client) {
        double cassandra = cassandraPids.isEmpty() ? Double.NaN : 0;
        for (long pid : cassandraPids) {
            cassandra += cpuSeconds(OptionalLong.of(pid)); // a node that is gone makes the sum NaN
        }
        return new double[] {cpuSeconds(client), cassandra, cpuSeconds(kafkaPid)};
    }

    private static double cpuSeconds(OptionalLong pid) {
        return pid.isEmpty()
                ? Double.NaN
                : ProcessHandle.of(pid.getAsLong()).map(RunMeter::cpuSeconds).orElse(Double.NaN);
    }

    /**
     * The CPU time a process has used so far, as every run here counts it.
     *
     * @param pid a process id, e.g. of the local Cassandra node
     * @return user + system seconds, NaN when the process is unknown
     */
    public static double processCpuSeconds(long pid) {
        return cpuSeconds(OptionalLong.of(pid));
    }

    private static double cpuSeconds(ProcessHandle process) {
        return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }
}
