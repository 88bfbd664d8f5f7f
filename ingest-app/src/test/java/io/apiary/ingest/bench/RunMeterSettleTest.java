package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link RunMeter#settle}: after a window, waits until the nodes have been quiet for the given time
 * and counts their CPU from the window's close; this JVM stands in for the Cassandra node.
 */
class RunMeterSettleTest {

    private static final Duration QUIET = Duration.ofMillis(200);
    private static final Duration POLL = Duration.ofMillis(10);

    private static RunMeter.Window window(RunMeter meter) throws InterruptedException {
        AtomicInteger progress = new AtomicInteger();
        return meter.measure(() -> progress.incrementAndGet(), 5, () -> false, POLL, Duration.ofSeconds(10));
    }

    @Test
    void waits_for_the_busy_polls_and_then_the_quiet_time_and_counts_the_cpu_after_the_window()
            throws InterruptedException {
        RunMeter meter = new RunMeter(List.of(ProcessHandle.current().pid()), OptionalLong.empty());
        RunMeter.Window window = window(meter);
        assertThat(window.cassandraAfterCpuSeconds()).isNaN();
        AtomicInteger polls = new AtomicInteger();

        RunMeter.Window settled =
                meter.settle(window, () -> polls.incrementAndGet() <= 20, QUIET, POLL, Duration.ofSeconds(30));

        assertThat(polls.get()).as("20 busy polls, then quiet ones for 200 ms").isGreaterThan(20 + 10);
        assertThat(settled.afterSeconds()).as("at least the quiet time").isGreaterThanOrEqualTo(0.2);
        assertThat(settled.cassandraAfterCpuSeconds()).isFinite().isGreaterThanOrEqualTo(0);
        assertThat(settled.cassandraCpuSeconds()).isEqualTo(window.cassandraCpuSeconds());
        assertThat(settled.items()).isEqualTo(window.items());
    }

    @Test
    void stops_at_the_timeout_when_the_nodes_stay_busy() throws InterruptedException {
        RunMeter meter = new RunMeter(List.of(ProcessHandle.current().pid()), OptionalLong.empty());
        RunMeter.Window window = window(meter);

        RunMeter.Window settled = meter.settle(window, () -> true, QUIET, POLL, Duration.ofMillis(300));

        assertThat(settled.afterSeconds()).isBetween(0.3, 5.0);
        assertThat(settled.cassandraAfterCpuSeconds()).isFinite();
    }

    @Test
    void leaves_the_window_as_it_is_when_the_nodes_cpu_is_not_measured() throws InterruptedException {
        RunMeter meter = new RunMeter(List.of(), OptionalLong.empty());
        RunMeter.Window window = window(meter);
        AtomicInteger polls = new AtomicInteger();

        RunMeter.Window settled =
                meter.settle(window, () -> polls.incrementAndGet() > 0, QUIET, POLL, Duration.ofSeconds(30));

        assertThat(settled).isSameAs(window);
        assertThat(polls.get()).as("nothing asked").isZero();
    }

    @Test
    void the_pools_that_count_are_those_of_compactions_and_memtable_flushes() {
        assertThat(List.of(
                        "CompactionExecutor",
                        "MemtableFlushWriter",
                        "PerDiskMemtableFlushWriter_0",
                        "MemtablePostFlush"))
                .allMatch(NodeActivity::compactsOrFlushes);
        assertThat(List.of(
                        "Native-Transport-Requests",
                        "MutationStage",
                        "ReadStage",
                        "MemtableReclaimMemory",
                        "ValidationExecutor"))
                .noneMatch(NodeActivity::compactsOrFlushes);
    }
}
