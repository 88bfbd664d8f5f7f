package io.apiary.ingest.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The CPU time of some threads of this JVM, summed: one thread given by id, and every thread whose
 * name ends with a given suffix (e.g. a Kafka producer's network thread,
 * {@code kafka-producer-network-thread | <client.id>}), found as they appear. Read from
 * {@link ThreadMXBean#getThreadCpuTime} (user + system time). A thread's time is the last read
 * while it lived, so a thread that ended counts up to the last {@link #seconds()} call before its
 * end: callers read often (every poll). Used to keep work that is not the measured client's (the
 * paced run's gateway producer) out of the client's CPU. Thread-safe.
 */
final class ThreadsCpu {

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long threadId;
    private final String nameSuffix;
    /** Last CPU nanoseconds read, per thread id. */
    private final Map<Long, Long> last = new HashMap<>();

    /**
     * @param threadId   a thread's id ({@link Thread#getId()})
     * @param nameSuffix the end of the names of the other threads to count, not null
     */
    ThreadsCpu(long threadId, String nameSuffix) {
        this.threadId = threadId;
        this.nameSuffix = Objects.requireNonNull(nameSuffix);
    }

    /** @return whether this JVM measures threads' CPU time; {@link #seconds()} is 0 otherwise */
    boolean supported() {
        return threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
    }

    /**
     * @return CPU seconds the threads used so far, summed; 0 if not {@link #supported()}, so that
     *     a caller subtracting it leaves their CPU counted in rather than losing the figure
     */
    synchronized double seconds() {
        if (!supported()) {
            return 0;
        }
        read(threadId);
        if (last.size() < 2) { // the named thread not seen yet
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
                if (info != null && info.getThreadName().endsWith(nameSuffix)) {
                    read(info.getThreadId());
                }
            }
        } else {
            last.keySet().stream().filter(id -> id != threadId).toList().forEach(this::read);
        }
        return last.values().stream().mapToLong(Long::longValue).sum() / 1e9;
    }

    private void read(long id) {
        long nanos = threads.getThreadCpuTime(id);
        if (nanos >= 0) { // -1 once the thread ended: keep its last figure
            last.merge(id, nanos, Math::max);
        }
    }
}
