package io.apiary.ingest.sink;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.apiary.ingest.deadletter.RejectReason;
import io.micrometer.core.instrument.MeterRegistry;
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
 * <p><b>Grouping</b> ({@link PartitionBatcher}): a partition's rows wait up to the linger time,
 * or until the batch reaches its row cap or byte cap (bytes as Cassandra counts them for
 * {@code batch_size_warn_threshold}, {@link SinkTable#serverBytes}). A group of one row is sent as
 * a plain statement, a larger one as an UNLOGGED batch of one partition. Optionally
 * ({@code sink.batch.combine.replicas}) small groups of one Kafka partition whose partitions have
 * the same replicas are combined ({@link ReplicaCombiner}), never beyond the server's
 * {@code unlogged_batch_across_partitions_warn_threshold}.
 *
 * <p><b>Routing</b>: every partition-key column is a bind marker, so the driver knows each
 * request's routing key and its token-aware load balancing sends it to a replica; each
 * acknowledged request is checked against the token map ({@code apiary.sink.requests{coordinator}}).
 *
 * <p><b>Throughput</b>: at most {@code maxInFlight} requests in flight, lowered by
 * {@link AdaptiveConcurrency} while Cassandra reports overload or timeouts and raised again as
 * writes succeed; at most {@code maxRowsPerSecond} rows per second ({@link RowRateLimiter}).
 *
 * <p><b>Flow control</b>: when more than {@code maxBufferedRows} rows, or {@code maxBufferedBytes}
 * bytes of keys and values, are polled and unacknowledged, all assigned partitions are paused,
 * waiting batches are sent without lingering, and polling continues (the consumer stays in its
 * group); partitions resume when both are back under half. Batches are sent early, oldest first,
 * once lingering rows pass three quarters of either bound.
 *
 * <p><b>Failures</b>: writes that time out or find Cassandra unavailable are retried with
 * exponential backoff and jitter for as long as it takes; a batch Cassandra refuses as invalid is
 * split, and the single row it still refuses goes to the dead letter topic while the rows beside
 * it land. Records that cannot be decoded or bound also go there.
 *
 * <p><b>Hot partitions</b> ({@code sink.hot.*}, {@link HotPartitions}): every acknowledged write
 * is counted under its partition key and credited to its replicas; each window reports the
 * heaviest partitions and the load per node ({@link #hotPartitions()}, metrics) and logs one WARN
 * per partition or node found hot, or projected past 100 MB or 100,000 cells at the end of its
 * bucket.
 *
 * <p><b>Revocation and shutdown</b>: on revocation, unsent rows of the revoked partitions are
 * dropped (the new owner reads them again) and their in-flight writes awaited up to the drain
 * timeout; on shutdown, everything held is sent and awaited up to the drain timeout. Then
 * acknowledged offsets are committed.
 *
 * <p>Threading: {@link #run()} owns the consumer and all state on one thread; driver and
 * producer callbacks only enqueue work for it. {@link #stop()} may be called from any thread.
 */
public final class CassandraSink implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(CassandraSink.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long IDLE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long BUSY_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final SinkSettings settings;
    private final CqlSession session;
    private final Map<String, SinkTable<?>> tablesByTopic;
    private final Consumer<byte[], byte[]> consumer;
    private final SinkDeadLetters deadLetters;
    private final SinkMetrics metrics;
    private final MeterRegistry registry;
    private final ServerBatchLimits serverLimits;
    private final long batchMaxBytes;
    private final int combineMaxPartitions;

    private final SinkOffsets offsets;
    private final RetryBackoff backoff;
    private final PartitionBatcher<SinkRow.GroupKey, SinkRow> batcher;
    private final AdaptiveConcurrency concurrency;
    private final RowRateLimiter rateLimiter;
    private final HotPartitions hot;
    private final ArrayDeque<WriteGroup> ready = new ArrayDeque<>();
    private final PriorityQueue<WriteGroup> retries = new PriorityQueue<>(Comparator.comparingLong(g -> g.dueAtNanos));
    private final Set<WriteGroup> inFlight = new HashSet<>();
    private final LinkedBlockingQueue<Runnable> callbacks = new LinkedBlockingQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private volatile boolean running = true;
    private volatile int inFlightGauge;
    private volatile int inFlightLimitGauge;
    private volatile int bufferedGauge;
    private volatile int lingeringGauge;
    private volatile long bufferedBytes;
    private volatile int pausedGauge;
    private volatile long commitLagGauge;
    private volatile Throwable failure;
    private volatile long lastLoopNanos = System.nanoTime();
    private volatile long lastAcknowledgementNanos = System.nanoTime();
    private boolean paused;
    private long lastRetryWarnNanos = -WARN_EVERY_NANOS;
    private long lastServerWarnNanos = -WARN_EVERY_NANOS;
    private long lastRoutingWarnNanos = -WARN_EVERY_NANOS;

    /**
     * @param settings           batching and flow-control settings, not null
     * @param session            an open Cassandra session, not null; not closed by the sink
     * @param tablesByTopic      row topic name to its table binding, not empty
     * @param consumer           a consumer with byte-array deserializers, auto-commit disabled and
     *                           read_committed isolation; the sink subscribes and closes it
     * @param deadLetterProducer a byte-array producer for the dead letter topic; the sink closes it
     * @param registry           where the sink's meters go, not null
     */
    public CassandraSink(SinkSettings settings, CqlSession session, Map<String, SinkTable<?>> tablesByTopic,
            Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> deadLetterProducer, MeterRegistry registry) {
        this.settings = Objects.requireNonNull(settings);
        this.session = Objects.requireNonNull(session);
        this.tablesByTopic = Map.copyOf(tablesByTopic);
        this.consumer = Objects.requireNonNull(consumer);
        this.backoff = new RetryBackoff(settings.retryBackoff(), settings.retryBackoffMax());
        this.deadLetters = new SinkDeadLetters(Objects.requireNonNull(deadLetterProducer),
                settings.deadLetterTopic(), callbacks, backoff);
        this.registry = Objects.requireNonNull(registry);
        this.serverLimits = ServerBatchLimits.read(session);
        this.batchMaxBytes = settings.effectiveBatchMaxBytes(serverLimits);
        this.combineMaxPartitions = settings.effectiveCombineMaxPartitions(serverLimits);
        this.batcher = new PartitionBatcher<>(settings.batchMaxRows(), batchMaxBytes, settings.linger().toNanos());
        this.concurrency = new AdaptiveConcurrency(settings.maxInFlight(), TimeUnit.MILLISECONDS.toNanos(200));
        this.rateLimiter = new RowRateLimiter(settings.maxRowsPerSecond(), System.nanoTime());
        this.metrics = new SinkMetrics(registry, new SinkMetrics.Gauges(() -> inFlightGauge,
                () -> inFlightLimitGauge, () -> bufferedGauge, () -> bufferedBytes, () -> lingeringGauge,
                () -> pausedGauge, () -> commitLagGauge));
        this.offsets = new SinkOffsets(consumer, registry);
        this.hot = settings.hot().enabled() ? hotPartitions(settings.hot(), session, this.tablesByTopic.values(),
                registry) : null;
        // counters that alerts watch exist from the start at 0, so that increase() sees their first event
        this.tablesByTopic.forEach((topic, table) -> {
            metrics.rowsWritten(table.table());
            metrics.conflicts(table.table());
            registry.counter("apiary.sink.records.lost", "topic", topic);
        });
        LOG.info("Cassandra sink: batches of at most {} rows and {} bytes (server batch_size_warn_threshold {} "
                + "bytes{}), linger {} ms, at most {} requests in flight{}{}", settings.batchMaxRows(), batchMaxBytes,
                serverLimits.warnBytes(), serverLimits.fromServer() ? "" : ", assumed",
                settings.linger().toMillis(), settings.maxInFlight(),
                settings.maxRowsPerSecond() > 0 ? " and " + settings.maxRowsPerSecond() + " rows/s" : "",
                settings.combineReplicas() ? ", combining up to " + combineMaxPartitions + " partitions by replicas"
                        : "");
    }

    /** Consumes and writes until {@link #stop()}; then drains, commits and closes its clients. */
    @Override
    public void run() {
        try {
            consumer.subscribe(List.copyOf(tablesByTopic.keySet()), new Rebalance());
            long nextCommit = System.nanoTime() + settings.commitInterval().toNanos();
            while (running) {
                lastLoopNanos = System.nanoTime();
                runCallbacks();
                deadLetters.resendDue();
                long now = System.nanoTime();
                if (hot != null) {
                    hot.tick(now);
                }
                collect(now, false);
                submit(now);
                flowControl();
                accept(offsets.poll(Duration.ofNanos(pollTimeoutNanos(System.nanoTime()))));
                if (System.nanoTime() >= nextCommit) {
                    offsets.commit(consumer.assignment(), false);
                    commitLagGauge = offsets.commitLag(consumer.assignment());
                    nextCommit = System.nanoTime() + settings.commitInterval().toNanos();
                }
            }
        } catch (WakeupException e) {
            if (running) {
                failure = e;
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            LOG.error("The Cassandra sink stopped on an unexpected error; committed offsets stay at the last "
                    + "acknowledged rows, so a restart resumes without loss", e);
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
     * @param lastLoopNanos            {@link System#nanoTime()} when the poll loop last turned
     * @param lastAcknowledgementNanos {@link System#nanoTime()} of Cassandra's last acknowledgement
     *                                 of a write (the sink's start before the first)
     * @param heldRows                 rows polled and not yet acknowledged
     */
    public record Activity(boolean stopping, boolean failed, long lastLoopNanos, long lastAcknowledgementNanos,
            int heldRows) {
    }

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
        long now = System.nanoTime();
        for (TopicPartition partition : records.partitions()) {
            SinkTable<?> table = tablesByTopic.get(partition.topic());
            for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
                offsets.register(partition, record.offset());
                bufferedBytes += recordBytes(record);
                if (record.value() == null) {
                    deadLetter(record, RejectReason.NULL_VALUE,
                            new IllegalArgumentException("Row record has no value (tombstone)"));
                    continue;
                }
                SinkRow row = new SinkRow(partition, record, table);
                // the value's size stands in for the row's server size until it is bound (exact split then)
                batcher.add(row.groupKey(), row, record.value().length, now);
            }
        }
        updateGauges();
    }

    /** Moves batches that are ready (full, lingered, or pushed out by memory pressure) to the send queue. */
    private void collect(long now, boolean all) {
        List<PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow>> batches = batcher.drainReady(now);
        if (all || paused) {
            batches.addAll(batcher.drainOldest(0, 0));
        } else {
            batches.addAll(batcher.drainOldest(settings.maxBufferedRows() / 4 * 3,
                    settings.maxBufferedBytes() / 4 * 3));
        }
        if (batches.isEmpty()) {
            return;
        }
        List<WriteGroup> groups = new ArrayList<>();
        for (PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch : batches) {
            bindAndSplit(batch, groups);
        }
        if (settings.combineReplicas() && groups.size() > 1) {
            Optional<TokenMap> tokenMap = session.getMetadata().getTokenMap();
            // Cassandra checks the size of batches of several partitions against its threshold,
            // whatever sink.batch.max.bytes allows single-partition batches
            long combinedMaxBytes = Math.min(batchMaxBytes, serverLimits.warnBytes());
            for (List<WriteGroup> combination : ReplicaCombiner.combine(groups,
                    g -> tokenMap.map(map -> combineKey(map, g)).orElse(null), g -> g.rows.size(),
                    g -> g.serverBytes + SinkTable.PARTITION_OVERHEAD_BYTES, settings.batchMaxRows() / 2,
                    combineMaxPartitions, settings.batchMaxRows(), combinedMaxBytes)) {
                ready.addLast(WriteGroup.combined(combination));
            }
        } else {
            ready.addAll(groups);
        }
        updateGauges();
    }

    /** Binds a batch's rows and splits them by routing key and by the caps, exactly. */
    private void bindAndSplit(PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow> batch, List<WriteGroup> out) {
        List<BoundRow> bound = new ArrayList<>(batch.rows().size());
        for (SinkRow row : batch.rows()) {
            try {
                bound.add(BoundRow.bind(row));
            } catch (SerializationException e) {
                deadLetter(row.record(), RejectReason.UNDECODABLE, e);
            } catch (RuntimeException e) {
                deadLetter(row.record(), RejectReason.INVALID_ROW, e);
            }
        }
        int conflicts = Conflicts.count(bound);
        if (conflicts > 0) {
            metrics.conflicts(bound.get(0).row().table().table()).increment(conflicts);
        }
        for (List<BoundRow> rows : BatchGrouper.group(bound, BoundRow::routingKey, BoundRow::serverBytes,
                settings.batchMaxRows(), batchMaxBytes)) {
            out.add(new WriteGroup(rows, batch.openedNanos(), 1));
        }
    }

    /** Rows combine only within one Kafka partition (revocation drops whole groups) and one replica set. */
    private static Object combineKey(TokenMap tokenMap, WriteGroup group) {
        BoundRow first = group.rows.get(0);
        if (first.statement().getRoutingKeyspace() == null) {
            return null;
        }
        return List.of(group.partition, tokenMap.getReplicas(first.statement().getRoutingKeyspace(),
                first.routingKey()));
    }

    private void submit(long now) {
        while (!retries.isEmpty() && retries.peek().dueAtNanos <= now) {
            ready.addFirst(retries.poll());
        }
        int limit = concurrency.limit();
        while (inFlight.size() < limit && !ready.isEmpty()) {
            WriteGroup group = ready.peekFirst();
            if (!rateLimiter.tryAcquire(group.rows.size(), now)) {
                break;
            }
            ready.pollFirst();
            send(group, now);
        }
        updateGauges();
    }

    private void send(WriteGroup group, long now) {
        metrics.sent(group, now);
        group.startedNanos = now;
        inFlight.add(group);
        session.executeAsync(group.statement()).whenComplete(
                (result, error) -> callbacks.add(() -> onWritten(group, result, error)));
    }

    private long pollTimeoutNanos(long now) {
        if (!inFlight.isEmpty() || !callbacks.isEmpty()) {
            return BUSY_POLL_NANOS;
        }
        long wait = IDLE_POLL_NANOS;
        if (!ready.isEmpty()) {
            wait = Math.min(wait, Math.max(rateLimiter.nanosUntilAvailable(now), 0));
        }
        if (!retries.isEmpty()) {
            wait = Math.min(wait, retries.peek().dueAtNanos - now);
        }
        long lingerEnds = batcher.nextDeadlineNanos(now);
        if (lingerEnds != Long.MAX_VALUE) {
            wait = Math.min(wait, lingerEnds - now);
        }
        return Math.max(0, wait);
    }

    private void onWritten(WriteGroup group, AsyncResultSet result, Throwable error) {
        inFlight.remove(group);
        if (group.abandoned) {
            return;
        }
        long now = System.nanoTime();
        if (error == null) {
            lastAcknowledgementNanos = now;
            concurrency.onSuccess();
            metrics.written(group, now);
            Set<Node> replicas = checkCoordinator(group, result.getExecutionInfo().getCoordinator());
            if (hot != null) {
                hot.written(group, replicas);
            }
            group.rows.forEach(row -> offsets.acknowledge(row.row().partition(), row.row().offset()));
            bufferedBytes -= group.recordBytes;
            List<String> warnings = result.getExecutionInfo().getWarnings();
            if (!warnings.isEmpty()) {
                registry.counter("apiary.sink.server.warnings", "table", tableOf(group)).increment(warnings.size());
                if (now - lastServerWarnNanos > WARN_EVERY_NANOS) {
                    lastServerWarnNanos = now;
                    LOG.warn("Cassandra warned about a write of {} rows ({} bytes) to {}: {}", group.rows.size(),
                            group.serverBytes, tableOf(group), warnings);
                }
            }
        } else if (WriteFailures.retryable(error)) {
            if (WriteFailures.overload(error) && concurrency.onOverload(now)) {
                LOG.debug("Cassandra is overloaded or slow ({}); requests in flight limited to {}",
                        WriteFailures.cause(error), concurrency.limit());
            }
            group.attempts++;
            group.dueAtNanos = now + backoff.delayNanos(group.attempts, ThreadLocalRandom.current()::nextLong);
            retries.add(group);
            metrics.retried(WriteFailures.cause(error), group.rows.size());
            if (now - lastRetryWarnNanos > WARN_EVERY_NANOS && WriteFailures.statementError(error)) {
                lastRetryWarnNanos = now;
                LOG.error("Cassandra refuses every write to {} ({}): fix the table or the sink.table.* settings; "
                        + "the sink retries with backoff and commits nothing past these rows ({} writes waiting)",
                        tableOf(group), WriteFailures.unwrap(error).getMessage(), retries.size());
            } else if (now - lastRetryWarnNanos > WARN_EVERY_NANOS) {
                lastRetryWarnNanos = now;
                LOG.warn("Cassandra write to {} failed ({}); retrying with backoff ({} writes waiting to retry, "
                        + "requests in flight limited to {})", tableOf(group), WriteFailures.unwrap(error).toString(),
                        retries.size(), concurrency.limit());
            }
        } else if (group.rows.size() > 1) {
            LOG.debug("Batch of {} rows to {} refused ({}); retrying its rows one by one", group.rows.size(),
                    tableOf(group), error.toString());
            group.split().forEach(ready::addFirst);
        } else {
            deadLetter(group.rows.get(0).row().record(), RejectReason.CASSANDRA_REJECTED,
                    WriteFailures.unwrap(error));
        }
        updateGauges();
    }

    /**
     * Counts whether the coordinator of an acknowledged write was a replica of its partition.
     *
     * @return the replicas of the group's partitions (combined groups share them), empty if unknown
     */
    private Set<Node> checkCoordinator(WriteGroup group, Node coordinator) {
        BoundRow first = group.rows.get(0);
        Optional<TokenMap> tokenMap = session.getMetadata().getTokenMap();
        if (tokenMap.isEmpty() || first.statement().getRoutingKeyspace() == null) {
            metrics.coordinator(null);
            return Set.of();
        }
        Set<Node> replicas = tokenMap.get().getReplicas(first.statement().getRoutingKeyspace(), first.routingKey());
        if (coordinator == null) {
            metrics.coordinator(null);
            return replicas;
        }
        boolean replica = replicas.contains(coordinator);
        metrics.coordinator(replica);
        long now = System.nanoTime();
        if (!replica && now - lastRoutingWarnNanos > WARN_EVERY_NANOS) {
            lastRoutingWarnNanos = now;
            LOG.warn("A write to {} was coordinated by {}, which is not a replica of its partition: check the "
                    + "driver's load-balancing policy (token-aware routing) and the local datacenter",
                    tableOf(group), coordinator.getEndPoint());
        }
        return replicas;
    }

    /** The hot-partition detection of the sink's tables, with their partition keys from the driver's metadata. */
    private static HotPartitions hotPartitions(HotPartitionSettings settings, CqlSession session,
            Collection<SinkTable<?>> sinkTables, MeterRegistry registry) {
        Map<String, HotPartitions.Table> tables = new java.util.HashMap<>();
        String keyspace = null;
        for (SinkTable<?> table : sinkTables) {
            keyspace = table.keyspace();
            tables.put(table.table(), new HotPartitions.Table(
                    PartitionKeyFormat.of(session, keyspace, table.table()).orElse(null),
                    PartitionLife.of(table.table(), settings)));
        }
        String ownersKeyspace = keyspace;
        return new HotPartitions(settings, tables, new HotPartitionMeters(registry), java.time.Clock.systemUTC(),
                System.nanoTime(), () -> session.getMetadata().getTokenMap().map(map -> (int) session.getMetadata()
                        .getNodes().values().stream().filter(node -> ownersKeyspace != null
                                && !map.getTokenRanges(com.datastax.oss.driver.api.core.CqlIdentifier
                                        .fromInternal(ownersKeyspace), node).isEmpty()).count()).orElse(0),
                node -> nodeName((Node) node), LOG::warn);
    }

    /** @return a node's address as {@code host:port} */
    static String nodeName(Node node) {
        return node.getEndPoint().resolve() instanceof java.net.InetSocketAddress address
                ? address.getHostString() + ":" + address.getPort() : node.getEndPoint().toString();
    }

    private static String tableOf(WriteGroup group) {
        return group.rows.get(0).row().table().table();
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
        int buffered = offsets.pending();
        long bytes = bufferedBytes;
        // rows acknowledged behind a slow one cost only their offsets, but bound those as well
        boolean uncommittable = offsets.uncommittable() >= 4L * settings.maxBufferedRows();
        if (!paused && (buffered >= settings.maxBufferedRows() || bytes >= settings.maxBufferedBytes()
                || uncommittable)) {
            paused = true;
            LOG.debug("Pausing {} partitions: {} rows, {} bytes buffered", consumer.assignment().size(), buffered, bytes);
        } else if (paused && buffered <= settings.maxBufferedRows() / 2 && bytes <= settings.maxBufferedBytes() / 2
                && offsets.uncommittable() <= 2L * settings.maxBufferedRows()) {
            paused = false;
            consumer.resume(consumer.paused());
        }
        if (paused) {
            consumer.pause(consumer.assignment());
        }
        pausedGauge = consumer.paused().size();
    }

    private void updateGauges() {
        inFlightGauge = inFlight.size();
        inFlightLimitGauge = concurrency.limit();
        bufferedGauge = offsets.pending();
        lingeringGauge = batcher.rows();
    }

    /** Waits for in-flight writes of some partitions, then abandons what is left of them. */
    private void drain(Collection<TopicPartition> partitions, boolean waitForInFlight) {
        abandonQueued(partitions);
        long deadline = System.nanoTime() + settings.drainTimeout().toNanos();
        while (waitForInFlight && inFlight.stream().anyMatch(g -> partitions.contains(g.partition))
                && System.nanoTime() < deadline) {
            awaitCallback();
            abandonQueued(partitions);
        }
        abandonInFlight(partitions);
    }

    /** Sends everything held, waiting up to the drain timeout for Cassandra to acknowledge it. */
    private void flushAll() {
        long deadline = System.nanoTime() + settings.drainTimeout().toNanos();
        collect(System.nanoTime(), true);
        while ((!inFlight.isEmpty() || !ready.isEmpty() || !retries.isEmpty()) && System.nanoTime() < deadline) {
            submit(System.nanoTime());
            awaitCallback();
        }
        if (!ready.isEmpty() || !retries.isEmpty() || !inFlight.isEmpty()) {
            LOG.warn("Drain timeout ({} ms) passed with {} writes unfinished; their rows are read again after restart",
                    settings.drainTimeout().toMillis(), ready.size() + retries.size() + inFlight.size());
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

    private void abandonInFlight(Collection<TopicPartition> partitions) {
        inFlight.stream().filter(g -> partitions.contains(g.partition) && !g.abandoned).forEach(g -> {
            g.abandoned = true;
            bufferedBytes -= g.recordBytes;
        });
    }

    /** Drops the unsent rows of some partitions; they will be read again. */
    private void abandonQueued(Collection<TopicPartition> partitions) {
        for (SinkRow row : batcher.remove(key -> partitions.contains(key.partition()))) {
            bufferedBytes -= row.recordBytes();
        }
        Predicate<WriteGroup> ofPartitions = g -> partitions.contains(g.partition);
        for (Collection<WriteGroup> queue : List.<Collection<WriteGroup>>of(ready, retries)) {
            queue.stream().filter(ofPartitions).forEach(g -> bufferedBytes -= g.recordBytes);
            queue.removeIf(ofPartitions);
        }
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
            LOG.warn("Final offset commit failed ({}); uncommitted rows will be written again after restart",
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
                LOG.warn("Commit on revocation failed ({}); the new owner re-writes from the last commit", e.toString());
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
