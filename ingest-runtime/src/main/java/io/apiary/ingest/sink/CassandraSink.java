package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.logging.RateLimitedLog;
import io.apiary.ingest.metrics.MetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Cassandra sink: a Kafka consumer group on the row topics that groups rows by Cassandra
 * partition and writes each group as one token-aware request, and commits a Kafka offset only
 * once Cassandra acknowledged every record at or below it (at-least-once, no loss; idempotent
 * writes make redelivery harmless).
 *
 * <p>This class is the poll loop; its parts take the time as an argument and are tested alone:
 * <ul>
 *   <li><b>Grouping</b> ({@link PartitionBatcher}): a partition's rows wait, compactly
 *       ({@link SinkRow}: offset and value bytes), up to the linger time, or until the batch
 *       reaches its row cap or byte cap. A single-partition batch is not checked against the
 *       server's batch thresholds ({@link SinkSettings#SINGLE_PARTITION_BATCH_BYTES}); optionally
 *       ({@code sink.batch.combine.replicas}) small groups of one Kafka partition whose partitions
 *       have the same replicas are combined ({@link ReplicaCombiner}), within the server's
 *       {@code batch_size_warn_threshold} and {@code unlogged_batch_across_partitions_warn_threshold}.</li>
 *   <li><b>Write scheduling</b> ({@link WriteScheduler}): released batches are bound only when a
 *       request slot takes them (each row in place, {@link SinkRow#bind}), and split exactly by
 *       routing key and caps ({@link BatchGrouper}) into {@link WriteGroup}s, one request each;
 *       retries wait their back-off; in-flight requests are bounded by {@link ConcurrencyLimit}
 *       (latency-aware, with an overload guard) and rows per second by {@link RowRateLimiter}.</li>
 *   <li><b>Flow control</b> ({@link FlowControl}): above {@code maxBufferedRows} rows or
 *       {@code maxBufferedBytes} bytes polled and unacknowledged, all assigned partitions are
 *       paused and polling continues (the consumer stays in its group). A request slot takes, in
 *       order: a ready group, a batch closed by a cap, the oldest open batch once it has lingered,
 *       or at once past three quarters of either bound or while paused; so a lingered batch keeps
 *       filling while no slot is free to send it.</li>
 *   <li><b>Routing audit</b> ({@link RoutingAudit}): each acknowledged request's coordinator is
 *       checked against the token map ({@code apiary.sink.requests{coordinator}}).</li>
 *   <li><b>Failure handling</b> ({@link WriteFailures#outcome}): writes that time out or find
 *       Cassandra unavailable are retried with exponential backoff and jitter for as long as it
 *       takes; a batch Cassandra refuses as invalid is split, and the single row it still refuses
 *       goes to the dead letter topic while the rows beside it land. Records that cannot be
 *       decoded or bound also go there.</li>
 *   <li><b>Hot partitions</b> ({@code sink.hot.*}, {@link HotPartitions}): every acknowledged
 *       write is counted under its partition key and credited to its replicas.</li>
 * </ul>
 * Cassandra is reached only through a {@link CassandraWriter} ({@link DriverWriter} in
 * production), so the whole loop runs in unit tests against Kafka's {@code MockConsumer} and a
 * scripted writer.
 *
 * <p><b>Revocation and shutdown</b>: on revocation, unsent rows of the revoked partitions are
 * dropped (the new owner reads them again) and their in-flight writes awaited up to the drain
 * timeout; on shutdown, everything held is sent and awaited up to the drain timeout. Then
 * acknowledged offsets are committed.
 *
 * <p>Threading: {@link #run()} owns the consumer and all state on one thread; writer and
 * producer callbacks only enqueue work for it. {@link #stop()} may be called from any thread.
 */
public final class CassandraSink implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(CassandraSink.class);
    /** Shortest time between two lines of one of the sink's repeated warnings. */
    private static final Duration WARN_EVERY = Duration.ofSeconds(10);

    private static final long IDLE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long BUSY_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Shortest time between two halvings of the limit by overload: one burst of failures is one signal. */
    private static final long OVERLOAD_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final SinkSettings settings;
    private final CassandraWriter writer;
    private final Map<String, ? extends RowBinding> tablesByTopic;
    private final Consumer<byte[], byte[]> consumer;
    private final SinkDeadLetters deadLetters;
    private final SinkMetrics metrics;
    private final MeterRegistry registry;
    private final ServerBatchLimits serverLimits;
    private final long batchMaxBytes;
    private final long combinedMaxBytes;
    private final int combineMaxPartitions;
    private final LongSupplier clock;

    private final SinkOffsets offsets;
    private final RetryBackoff backoff;
    private final PartitionBatcher<SinkRow.GroupKey, SinkRow> batcher;
    private final WriteScheduler scheduler = new WriteScheduler();
    private final FlowControl flow;
    private final ConcurrencyLimit concurrency;
    private final RowRateLimiter rateLimiter;
    private final RoutingAudit routing;
    private final HotPartitions hot;
    private final LinkedBlockingQueue<Runnable> callbacks = new LinkedBlockingQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final RateLimitedLog retryWarnings = RateLimitedLog.of(LOG, WARN_EVERY);
    private final RateLimitedLog serverWarnings = RateLimitedLog.of(LOG, WARN_EVERY);

    private volatile boolean running = true;
    private volatile int inFlightGauge;
    private volatile int inFlightLimitGauge;
    private volatile int bufferedGauge;
    private volatile int lingeringGauge;
    private volatile long bufferedBytes;
    private volatile int pausedGauge;
    private volatile long commitLagGauge;
    private volatile Throwable failure;
    private volatile long lastLoopNanos;
    private volatile long lastAcknowledgementNanos;
    private boolean paused;

    /**
     * A sink writing through the java driver ({@link DriverWriter}).
     *
     * @param settings           batching and flow-control settings, not null
     * @param session            an open Cassandra session, not null; not closed by the sink
     * @param tablesByTopic      row topic name to its table binding, not empty
     * @param consumer           a consumer with byte-array deserializers, auto-commit disabled and
     *                           read_committed isolation; the sink subscribes and closes it
     * @param deadLetterProducer a byte-array producer for the dead letter topic; the sink closes it
     * @param registry           where the sink's meters go, not null
     */
    public CassandraSink(
            SinkSettings settings,
            CqlSession session,
            Map<String, SinkTable<?>> tablesByTopic,
            Consumer<byte[], byte[]> consumer,
            Producer<byte[], byte[]> deadLetterProducer,
            MeterRegistry registry) {
        this(
                settings,
                new DriverWriter(session),
                tablesByTopic,
                consumer,
                deadLetterProducer,
                registry,
                System::nanoTime,
                (writer, meters) -> settings.hot().enabled()
                        ? hotPartitions(settings.hot(), (DriverWriter) writer, tablesByTopic.values(), meters)
                        : null);
    }

    /** Makes the hot-partition detection of a sink, or returns null for none. */
    @FunctionalInterface
    interface HotPartitionsFactory {
        HotPartitions make(CassandraWriter writer, MeterRegistry registry);
    }

    /**
     * A sink writing through any writer: the seam of the loop's unit tests.
     *
     * @param settings           batching and flow-control settings, not null
     * @param writer             where requests go, not null
     * @param tablesByTopic      row topic name to its table binding, not empty
     * @param consumer           as above; the sink subscribes and closes it
     * @param deadLetterProducer as above; the sink closes it
     * @param registry           where the sink's meters go, not null
     * @param clock              the loop's clock in nanoseconds ({@link System#nanoTime()} in production); also read
     *                           on the thread that completes a write, to time Cassandra's answer, so thread-safe
     * @param hotPartitions      makes the hot-partition detection, or returns null for none
     */
    CassandraSink(
            SinkSettings settings,
            CassandraWriter writer,
            Map<String, ? extends RowBinding> tablesByTopic,
            Consumer<byte[], byte[]> consumer,
            Producer<byte[], byte[]> deadLetterProducer,
            MeterRegistry registry,
            LongSupplier clock,
            HotPartitionsFactory hotPartitions) {
        this.settings = Objects.requireNonNull(settings);
        this.writer = Objects.requireNonNull(writer);
        this.tablesByTopic = Map.copyOf(tablesByTopic);
        this.consumer = Objects.requireNonNull(consumer);
        this.clock = Objects.requireNonNull(clock);
        this.backoff = new RetryBackoff(settings.retryBackoff(), settings.retryBackoffMax());
        this.deadLetters = new SinkDeadLetters(
                Objects.requireNonNull(deadLetterProducer), settings.deadLetterTopic(), callbacks, backoff);
        this.registry = Objects.requireNonNull(registry);
        this.serverLimits = writer.serverLimits();
        this.batchMaxBytes = settings.effectiveBatchMaxBytes(serverLimits);
        this.combinedMaxBytes = settings.effectiveCombinedMaxBytes(serverLimits);
        this.combineMaxPartitions = settings.effectiveCombineMaxPartitions(serverLimits);
        this.batcher = new PartitionBatcher<>(
                settings.batchMaxRows(), batchMaxBytes, settings.linger().toNanos());
        this.flow = new FlowControl(settings.maxBufferedRows(), settings.maxBufferedBytes());
        this.concurrency =
                new ConcurrencyLimit(settings.limitAlgorithm(), settings.maxInFlight(), OVERLOAD_INTERVAL_NANOS);
        long now = clock.getAsLong();
        this.lastLoopNanos = now;
        this.lastAcknowledgementNanos = now;
        this.rateLimiter = new RowRateLimiter(settings.maxRowsPerSecond(), now);
        this.metrics = new SinkMetrics(
                registry,
                new SinkMetrics.Gauges(
                        () -> inFlightGauge,
                        () -> inFlightLimitGauge,
                        () -> bufferedGauge,
                        () -> bufferedBytes,
                        () -> lingeringGauge,
                        () -> pausedGauge,
                        () -> commitLagGauge));
        this.routing = new RoutingAudit(writer, metrics, RateLimitedLog.of(LOG, WARN_EVERY));
        this.offsets = new SinkOffsets(consumer, registry);
        this.hot = hotPartitions.make(writer, registry);
        // counters that alerts watch exist from the start at 0, so that increase() sees their first event
        this.tablesByTopic.forEach((topic, table) -> {
            metrics.rowsWritten(table.table());
            metrics.conflicts(table.table());
            registry.counter(MetricNames.SINK_RECORDS_LOST, MetricNames.TAG_TOPIC, topic);
        });
        LOG.info(
                "Cassandra sink: batches of at most {} rows and {} bytes (one partition; combined batches at most "
                        + "{} bytes: server batch_size_warn_threshold{}), linger {} ms, at most {} requests in flight "
                        + "({} limit){}{}",
                settings.batchMaxRows(),
                batchMaxBytes,
                combinedMaxBytes,
                serverLimits.fromServer() ? "" : ", assumed",
                settings.linger().toMillis(),
                settings.maxInFlight(),
                settings.limitAlgorithm().name().toLowerCase(java.util.Locale.ROOT),
                settings.maxRowsPerSecond() > 0 ? " and " + settings.maxRowsPerSecond() + " rows/s" : "",
                settings.combineReplicas()
                        ? ", combining up to " + combineMaxPartitions + " partitions by replicas"
                        : "");
    }

    /** Consumes and writes until {@link #stop()}; then drains, commits and closes its clients. */
    @Override
    public void run() {
        try {
            consumer.subscribe(List.copyOf(tablesByTopic.keySet()), new Rebalance());
            long nextCommit = clock.getAsLong() + settings.commitInterval().toNanos();
            while (running) {
                lastLoopNanos = clock.getAsLong();
                runCallbacks();
                deadLetters.resendDue();
                long now = clock.getAsLong();
                if (hot != null) {
                    hot.tick(now);
                }
                release(false);
                submit(now);
                flowControl();
                accept(offsets.poll(Duration.ofNanos(pollTimeoutNanos(clock.getAsLong()))));
                if (clock.getAsLong() >= nextCommit) {
                    offsets.commit(consumer.assignment(), false);
                    commitLagGauge = offsets.commitLag(consumer.assignment());
                    nextCommit = clock.getAsLong() + settings.commitInterval().toNanos();
                }
            }
        } catch (WakeupException e) {
            if (running) {
                failure = e;
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            LOG.error(
                    "The Cassandra sink stopped on an unexpected error; committed offsets stay at the last "
                            + "acknowledged rows, so a restart resumes without loss",
                    e);
        } finally {
            shutdown();
            stopped.countDown();
        }
    }

    /** Asks the sink to stop; returns at once. Thread-safe. */
    public void stop() {
        running = false;
        consumer.wakeup();
    }

    /**
     * Waits until the sink has drained, committed and closed its clients.
     *
     * @param timeout how long to wait
     * @return true if it stopped in time
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** @return the error that stopped the sink, or null if none */
    public Throwable failure() {
        return failure;
    }

    /**
     * @param table a table name
     * @return rows of that table acknowledged by Cassandra since start (counts retries' rows once)
     */
    public long rowsWritten(String table) {
        return (long) metrics.rowsWritten(table).count();
    }

    /**
     * What the sink is doing, for health checks. Thread-safe (reads volatile fields).
     *
     * @return a snapshot
     */
    public Activity activity() {
        return new Activity(!running, failure != null, lastLoopNanos, lastAcknowledgementNanos, bufferedGauge);
    }

    /**
     * A snapshot of the sink's progress.
     *
     * @param stopping                 whether {@link #stop()} was called
     * @param failed                   whether the sink stopped on an error
     * @param lastLoopNanos            the loop's clock ({@link System#nanoTime()}) when the poll loop last turned
     * @param lastAcknowledgementNanos the loop's clock at Cassandra's last acknowledgement of a
     *                                 write (the sink's start before the first)
     * @param heldRows                 rows polled and not yet acknowledged
     */
    public record Activity(
            boolean stopping, boolean failed, long lastLoopNanos, long lastAcknowledgementNanos, int heldRows) {}

    /**
     * The heaviest partitions and the load per Cassandra node in the last window of the
     * hot-partition detection ({@code sink.hot.*}). Thread-safe.
     *
     * @return the last window's report; empty before the first window ends or when the detection is off
     */
    public HotPartitionReport hotPartitions() {
        return hot == null ? HotPartitionReport.EMPTY : hot.report();
    }

    /** @return the meter registry the sink reports to */
    public MeterRegistry registry() {
        return registry;
    }

    private void accept(ConsumerRecords<byte[], byte[]> records) {
        if (records.isEmpty()) {
            return;
        }
        long now = clock.getAsLong();
        for (TopicPartition partition : records.partitions()) {
            RowBinding table = tablesByTopic.get(partition.topic());
            for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
                offsets.register(partition, record.offset());
                bufferedBytes += recordBytes(record);
                if (record.value() == null) {
                    deadLetter(
                            record,
                            RejectReason.NULL_VALUE,
                            new IllegalArgumentException("Row record has no value (tombstone)"));
                    continue;
                }
                // the value's size stands in for the row's server size until it is bound (exact split then)
                batcher.add(
                        SinkRow.GroupKey.of(table, partition, record.key()),
                        SinkRow.of(record),
                        record.value().length,
                        now);
            }
        }
        updateGauges();
    }

    /**
     * Moves batches closed by a cap to the write queues, or with {@code all} every batch (shutdown).
     * Lingered batches stay open, and keep filling, until a request slot takes them
     * ({@link #takeOldest}).
     */
    private void release(boolean all) {
        scheduler.addClosed(all ? batcher.drainOldest(0, 0) : batcher.drainFull());
    }

    /**
     * Binds the next batches into ready groups: one batch, or with combining on, enough batches
     * to fill the free request slots with combined groups.
     *
     * @return false if no batch may go now
     */
    private boolean bindNext(int freeSlots, long now) {
        PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch = takeOldest(now);
        if (batch == null) {
            return false;
        }
        List<WriteGroup> groups = new ArrayList<>();
        bindAndSplit(batch, groups);
        if (!settings.combineReplicas()) {
            scheduler.addReady(groups);
            return true;
        }
        // combining needs several batches at once
        long wanted = (long) Math.max(1, freeSlots) * combineMaxPartitions;
        while (groups.size() < wanted && (batch = takeOldest(now)) != null) {
            bindAndSplit(batch, groups);
        }
        if (groups.size() < 2) {
            scheduler.addReady(groups);
            return true;
        }
        List<WriteGroup> combined = new ArrayList<>();
        for (List<WriteGroup> combination : ReplicaCombiner.combine(
                groups,
                this::combineKey,
                g -> g.rows.size(),
                g -> g.serverBytes + SinkTable.PARTITION_OVERHEAD_BYTES,
                settings.batchMaxRows() / 2,
                combineMaxPartitions,
                settings.batchMaxRows(),
                combinedMaxBytes)) {
            combined.add(WriteGroup.combined(combination));
        }
        // oldest first here too: the combiner lists unfinished combinations (small, lingered groups) last
        combined.sort(Comparator.comparingLong(g -> g.openedNanos));
        scheduler.addReady(combined);
        return true;
    }

    /**
     * Takes the batch a free request slot sends next: of the oldest closed batch (full) and the
     * oldest open batch that may go, the one whose first row arrived first. An open batch may go
     * once its first row has waited the linger time, or at once when the buffer is three quarters
     * full or the partitions are paused (nothing new arrives then, so lingering rows must go for
     * the buffer to drain). Open batches are taken one at a time and only when a slot can send
     * them, so that while Cassandra is the bottleneck a batch keeps filling instead of leaving at
     * the size it had when its linger ended.
     *
     * <p>Oldest first, not full first: under a backlog, full batches of busy partitions form
     * faster than the sink writes them, and a lingered batch that always yielded to them would
     * wait until the backlog ends, holding back the committed offsets of its Kafka partition
     * ({@code SinkLoopTest}: a lingered row waited behind 20 younger full batches). Closed batches
     * are ordered by age too ({@link WriteScheduler}).
     *
     * @return the batch, removed from its queue, or null if none may go now
     */
    private PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> takeOldest(long now) {
        PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> closed = scheduler.peekClosed();
        if (closed == null || batcher.oldestOpenedNanos() <= closed.openedNanos()) {
            PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> open = batcher.pollOldest(now, pressed());
            if (open != null) {
                return open;
            }
        }
        return scheduler.takeClosed();
    }

    /** @return whether open batches may go before their linger ends: paused, or open rows or bytes past 3/4 */
    private boolean pressed() {
        return paused || batcher.openRows() > flow.earlyRows() || batcher.openBytes() > flow.earlyBytes();
    }

    /** Binds a batch's rows and splits them by routing key and by the caps, exactly. */
    private void bindAndSplit(PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch, List<WriteGroup> out) {
        List<SinkRow> bound = new ArrayList<>(batch.rows().size());
        SinkRow.GroupKey key = batch.key();
        for (SinkRow row : batch.rows()) {
            try {
                bound.add(row.bind(key));
            } catch (SerializationException e) {
                deadLetter(row.record(key), RejectReason.UNDECODABLE, e);
            } catch (io.apiary.ingest.serde.SchemaRegistryException e) {
                if (e.unavailable()) {
                    throw e; // not bad input: stop uncommitted, a restart resumes from the acknowledged rows
                }
                deadLetter(row.record(key), RejectReason.UNDECODABLE, e);
            } catch (RuntimeException e) {
                deadLetter(row.record(key), RejectReason.INVALID_ROW, e);
            }
        }
        if (bound.isEmpty()) {
            return;
        }
        int conflicts = Conflicts.count(bound);
        if (conflicts > 0) {
            metrics.conflicts(key.table().table()).increment(conflicts);
        }
        for (List<SinkRow> rows : BatchGrouper.group(
                bound, SinkRow::routingKey, SinkRow::serverBytes, settings.batchMaxRows(), batchMaxBytes)) {
            out.add(new WriteGroup(rows, batch.openedNanos(), 1));
        }
    }

    /** Rows combine only within one Kafka partition (revocation drops whole groups) and one replica set. */
    private Object combineKey(WriteGroup group) {
        SinkRow first = group.rows.get(0);
        Collection<?> replicas = writer.replicas(first.table().keyspace(), first.routingKey());
        return replicas == null ? null : List.of(group.partition, replicas);
    }

    private void submit(long now) {
        scheduler.promoteDue(now);
        int limit = concurrency.limit();
        while (scheduler.inFlight() < limit) {
            WriteGroup next = scheduler.peekReady();
            if (next == null) {
                if (!bindNext(limit - scheduler.inFlight(), now)) {
                    break;
                }
                continue;
            }
            if (!rateLimiter.tryAcquire(next.rows.size(), now)) {
                break;
            }
            send(scheduler.send(now), now);
        }
        updateGauges();
    }

    private void send(WriteGroup group, long now) {
        metrics.sent(group, now);
        // the write-latency metric's start: binding the batches before it in this turn took time too
        group.sentNanos = clock.getAsLong();
        java.util.concurrent.CompletionStage<CassandraWriter.Acknowledgement> answer;
        try {
            answer = writer.execute(group.writes());
        } catch (RuntimeException e) {
            // a writer that throws instead of failing its stage: handled as a failed write, not the loop's end
            answer = java.util.concurrent.CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((ack, error) -> {
            // the time of Cassandra's answer, read on the driver's thread: the poll thread may get to the
            // callback only after its current poll, which is the sink's delay, not the write's latency
            long answeredNanos = clock.getAsLong();
            callbacks.add(() -> onWritten(group, ack, error, answeredNanos));
        });
    }

    private long pollTimeoutNanos(long now) {
        if (scheduler.inFlight() > 0 || !callbacks.isEmpty()) {
            return BUSY_POLL_NANOS;
        }
        long wait = IDLE_POLL_NANOS;
        if (scheduler.hasWork()) {
            wait = Math.min(wait, Math.max(rateLimiter.nanosUntilAvailable(now), 0));
        }
        wait = Math.min(wait, scheduler.nanosUntilRetry(now));
        long lingerEnds = batcher.nextDeadlineNanos(now);
        if (lingerEnds != Long.MAX_VALUE && lingerEnds > now) {
            wait = Math.min(wait, lingerEnds - now);
        } else if (lingerEnds != Long.MAX_VALUE) {
            // a lingered batch waits only for the rate limit (the request slots are free, see above)
            wait = Math.min(wait, Math.max(rateLimiter.nanosUntilAvailable(now), 0));
        }
        return Math.max(0, wait);
    }

    private void onWritten(
            WriteGroup group, CassandraWriter.Acknowledgement answer, Throwable error, long answeredNanos) {
        if (!scheduler.answered(group) || group.abandoned) {
            return;
        }
        long now = clock.getAsLong();
        if (error == null) {
            acknowledged(group, answer, now, answeredNanos);
            updateGauges();
            return;
        }
        switch (WriteFailures.outcome(error, group.rows.size())) {
            case RETRY -> retry(group, error, now);
            case SPLIT -> {
                LOG.debug(
                        "Batch of {} rows to {} refused ({}); retrying its rows one by one",
                        group.rows.size(),
                        group.table(),
                        error.toString());
                scheduler.addReadyFirst(group.split());
            }
            case DEAD_LETTER -> {
                deadLetter(group.rows.get(0).record(), RejectReason.CASSANDRA_REJECTED, WriteFailures.unwrap(error));
            }
        }
        updateGauges();
    }

    private void acknowledged(WriteGroup group, CassandraWriter.Acknowledgement answer, long now, long answeredNanos) {
        lastAcknowledgementNanos = now;
        // the limit keeps its round trip as the loop sees it (the turn that sent it to the turn that got the
        // answer): fed only Cassandra's part, vegas held the sink well below the rate it reaches this way
        // (bench --runs ceiling,sink,sink-paced)
        concurrency.onSuccess(group.startedNanos, now - group.startedNanos, group.inFlightAtSend);
        metrics.written(group, Math.max(0, answeredNanos - group.sentNanos));
        Collection<?> replicas = routing.check(group, answer.coordinator(), now);
        if (hot != null) {
            hot.written(group, replicas);
        }
        for (SinkRow row : group.rows) {
            offsets.acknowledge(group.partition, row.offset());
        }
        bufferedBytes -= group.recordBytes;
        List<String> warnings = answer.warnings();
        if (!warnings.isEmpty()) {
            registry.counter(MetricNames.SINK_SERVER_WARNINGS, MetricNames.TAG_TABLE, group.table())
                    .increment(warnings.size());
            serverWarnings.warn(
                    "",
                    now,
                    "Cassandra warned about a write of {} rows ({} bytes) to {}: {}",
                    group.rows.size(),
                    group.serverBytes,
                    group.table(),
                    warnings);
        }
    }

    private void retry(WriteGroup group, Throwable error, long now) {
        if (WriteFailures.overload(error) && concurrency.onOverload(group.startedNanos, now, group.inFlightAtSend)) {
            LOG.debug(
                    "Cassandra is overloaded or slow ({}); requests in flight limited to {}",
                    WriteFailures.cause(error),
                    concurrency.limit());
        }
        group.attempts++;
        scheduler.retryAt(group, now + backoff.delayNanos(group.attempts, ThreadLocalRandom.current()::nextLong));
        metrics.retried(WriteFailures.cause(error), group.rows.size());
        if (WriteFailures.statementError(error)) {
            retryWarnings.error(
                    "refused",
                    now,
                    "Cassandra refuses every write to {} ({}): fix the table or the sink.table.* settings; "
                            + "the sink retries with backoff and commits nothing past these rows ({} writes queued)",
                    group.table(),
                    WriteFailures.unwrap(error).getMessage(),
                    scheduler.queued());
        } else {
            retryWarnings.warn(
                    "failed",
                    now,
                    "Cassandra write to {} failed ({}); retrying with backoff ({} writes queued, "
                            + "requests in flight limited to {})",
                    group.table(),
                    WriteFailures.unwrap(error).toString(),
                    scheduler.queued(),
                    concurrency.limit());
        }
    }

    /** The hot-partition detection of the sink's tables, with their partition keys from the driver's metadata. */
    private static HotPartitions hotPartitions(
            HotPartitionSettings settings,
            DriverWriter writer,
            Collection<SinkTable<?>> sinkTables,
            MeterRegistry registry) {
        Map<String, HotPartitions.Table> tables = new java.util.HashMap<>();
        String keyspace = null;
        for (SinkTable<?> table : sinkTables) {
            keyspace = table.keyspace();
            tables.put(
                    table.table(),
                    new HotPartitions.Table(
                            PartitionKeyFormat.of(writer.session(), keyspace, table.table())
                                    .orElse(null),
                            PartitionLife.of(table.descriptor(), settings)));
        }
        String ownersKeyspace = keyspace;
        return new HotPartitions(
                settings,
                tables,
                new HotPartitionMeters(registry),
                java.time.Clock.systemUTC(),
                System.nanoTime(),
                () -> ownersKeyspace == null ? 0 : writer.tokenOwners(ownersKeyspace),
                writer::nodeName,
                LOG::warn);
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> record, RejectReason reason, Throwable error) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        deadLetters.send(record, reason, error, () -> {
            offsets.acknowledge(partition, record.offset());
            bufferedBytes -= recordBytes(record);
        });
    }

    private void runCallbacks() {
        Runnable callback;
        while ((callback = callbacks.poll()) != null) {
            callback.run();
        }
    }

    private void flowControl() {
        boolean pause = flow.paused(paused, offsets.pending(), bufferedBytes, offsets.uncommittable());
        if (pause && !paused) {
            LOG.debug(
                    "Pausing {} partitions: {} rows, {} bytes buffered",
                    consumer.assignment().size(),
                    offsets.pending(),
                    bufferedBytes);
        } else if (!pause && paused) {
            consumer.resume(consumer.paused());
        }
        paused = pause;
        if (paused) {
            consumer.pause(consumer.assignment());
        }
        pausedGauge = consumer.paused().size();
    }

    private void updateGauges() {
        inFlightGauge = scheduler.inFlight();
        inFlightLimitGauge = concurrency.limit();
        bufferedGauge = offsets.pending();
        lingeringGauge = batcher.rows() + scheduler.closedRows();
    }

    /** Waits for in-flight writes of some partitions, then abandons what is left of them. */
    private void drain(Collection<TopicPartition> partitions, boolean waitForInFlight) {
        dropQueued(partitions);
        long deadline = clock.getAsLong() + settings.drainTimeout().toNanos();
        while (waitForInFlight && scheduler.inFlightOf(partitions) && clock.getAsLong() < deadline) {
            awaitCallback();
            dropQueued(partitions);
        }
        bufferedBytes -= scheduler.abandonInFlight(partitions);
    }

    /** Sends everything held, waiting up to the drain timeout for Cassandra to acknowledge it. */
    private void flushAll() {
        long deadline = clock.getAsLong() + settings.drainTimeout().toNanos();
        release(true);
        while (!scheduler.idle() && clock.getAsLong() < deadline) {
            submit(clock.getAsLong());
            awaitCallback();
        }
        if (!scheduler.idle()) {
            LOG.warn(
                    "Drain timeout ({} ms) passed with {} writes unfinished; their rows are read again after restart",
                    settings.drainTimeout().toMillis(),
                    scheduler.queued() + scheduler.inFlight());
        }
    }

    private void awaitCallback() {
        try {
            Runnable callback = callbacks.poll(10, TimeUnit.MILLISECONDS);
            if (callback != null) {
                callback.run();
            }
            runCallbacks();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Drops the unsent rows of some partitions; they will be read again. */
    private void dropQueued(Collection<TopicPartition> partitions) {
        for (PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch :
                batcher.remove(key -> partitions.contains(key.partition()))) {
            for (SinkRow row : batch.rows()) {
                bufferedBytes -= row.recordBytes(batch.key());
            }
        }
        bufferedBytes -= scheduler.dropQueued(partitions);
    }

    /**
     * @param record a consumed record
     * @return bytes of its key and value (what the sink holds in memory for it)
     */
    static int recordBytes(ConsumerRecord<byte[], byte[]> record) {
        return (record.key() == null ? 0 : record.key().length) + (record.value() == null ? 0 : record.value().length);
    }

    private void shutdown() {
        try {
            Set<TopicPartition> all = new HashSet<>(offsets.partitions());
            flushAll();
            drain(all, false);
            deadLetters.flush();
            runCallbacks();
            try {
                offsets.commit(consumer.assignment(), true);
            } catch (WakeupException e) {
                // stop() woke the consumer while the loop was not in poll(): that wake-up is spent now
                offsets.commit(consumer.assignment(), true);
            }
            LOG.info("Cassandra sink stopped; offsets committed for {} partitions", all.size());
        } catch (RuntimeException e) {
            LOG.warn(
                    "Final offset commit failed ({}); uncommitted rows will be written again after restart",
                    e.toString());
        } finally {
            consumer.close();
            deadLetters.close();
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            drain(partitions, true);
            try {
                offsets.commit(partitions, true);
            } catch (RuntimeException e) {
                LOG.warn(
                        "Commit on revocation failed ({}); the new owner re-writes from the last commit", e.toString());
            }
            offsets.forget(partitions);
            updateGauges();
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            LOG.debug("Assigned {}", partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            drain(partitions, false);
            offsets.forget(partitions);
            updateGauges();
        }
    }
}
