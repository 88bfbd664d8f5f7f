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
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
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
 * The Cassandra sink: a Kafka consumer group on the row topics that writes each poll's rows as
 * single-partition UNLOGGED batches (or plain statements for lone rows), with a bounded number
 * of requests in flight, and commits a Kafka offset only once Cassandra acknowledged every record
 * at or below it (at-least-once, no loss; idempotent writes make redelivery harmless).
 *
 * <p>Flow control: when more than {@code maxBufferedRows} rows, or {@code maxBufferedBytes} bytes
 * of keys and values, are polled and unacknowledged, all assigned partitions are paused and
 * polling continues (so the consumer stays in its group); they resume when both are back under
 * half. Writes that time out or find Cassandra unavailable are
 * retried with exponential backoff and jitter for as long as it takes; a batch Cassandra refuses
 * as invalid is split, and the single row it still refuses goes to the dead letter topic while
 * the rows beside it land. On revocation and shutdown, unsent rows are abandoned (they will be
 * read again), in-flight writes are awaited up to the drain timeout, then acknowledged offsets
 * are committed.
 *
 * <p>Threading: {@link #run()} owns the consumer and all state on one thread; driver and
 * producer callbacks only enqueue work for it. {@link #stop()} may be called from any thread.
 */
public final class CassandraSink implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(CassandraSink.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final SinkSettings settings;
    private final CqlSession session;
    private final Map<String, SinkTable> tablesByTopic;
    private final Consumer<byte[], byte[]> consumer;
    private final SinkDeadLetters deadLetters;
    private final SinkMetrics metrics;
    private final MeterRegistry registry;

    private final SinkOffsets offsets;
    private final RetryBackoff backoff;
    private final ArrayDeque<WriteGroup> ready = new ArrayDeque<>();
    private final PriorityQueue<WriteGroup> retries = new PriorityQueue<>(Comparator.comparingLong(g -> g.dueAtNanos));
    private final Set<WriteGroup> inFlight = new HashSet<>();
    private final LinkedBlockingQueue<Runnable> callbacks = new LinkedBlockingQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private volatile boolean running = true;
    private volatile int inFlightGauge;
    private volatile int bufferedGauge;
    private volatile long bufferedBytes;
    private volatile int pausedGauge;
    private volatile Throwable failure;
    private boolean paused;
    private long lastRetryWarnNanos = -WARN_EVERY_NANOS;
    private long lastServerWarnNanos = -WARN_EVERY_NANOS;

    /**
     * @param settings           flow-control settings, not null
     * @param session            an open Cassandra session, not null; not closed by the sink
     * @param tablesByTopic      row topic name to its table binding, not empty
     * @param consumer           a consumer with byte-array deserializers, auto-commit disabled and
     *                           read_committed isolation; the sink subscribes and closes it
     * @param deadLetterProducer a byte-array producer for the dead letter topic; the sink closes it
     * @param registry           where the sink's meters go, not null
     */
    public CassandraSink(SinkSettings settings, CqlSession session, Map<String, SinkTable> tablesByTopic,
            Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> deadLetterProducer, MeterRegistry registry) {
        this.settings = Objects.requireNonNull(settings);
        this.session = Objects.requireNonNull(session);
        this.tablesByTopic = Map.copyOf(tablesByTopic);
        this.consumer = Objects.requireNonNull(consumer);
        this.backoff = new RetryBackoff(settings.retryBackoff(), settings.retryBackoffMax());
        this.deadLetters = new SinkDeadLetters(Objects.requireNonNull(deadLetterProducer),
                settings.deadLetterTopic(), callbacks, backoff);
        this.registry = Objects.requireNonNull(registry);
        this.metrics = new SinkMetrics(registry, () -> inFlightGauge, () -> bufferedGauge, () -> bufferedBytes,
                () -> pausedGauge);
        this.offsets = new SinkOffsets(consumer, registry);
    }

    /** Consumes and writes until {@link #stop()}; then drains, commits and closes its clients. */
    @Override
    public void run() {
        try {
            consumer.subscribe(List.copyOf(tablesByTopic.keySet()), new Rebalance());
            long nextCommit = System.nanoTime() + settings.commitInterval().toNanos();
            while (running) {
                runCallbacks();
                deadLetters.resendDue();
                submit();
                flowControl();
                boolean busy = !inFlight.isEmpty() || !ready.isEmpty() || !retries.isEmpty();
                accept(offsets.poll(Duration.ofMillis(busy ? 5 : 100)));
                if (System.nanoTime() >= nextCommit) {
                    offsets.commit(consumer.assignment(), false);
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

    /** @return the meter registry the sink reports to */
    public MeterRegistry registry() {
        return registry;
    }

    private void accept(ConsumerRecords<byte[], byte[]> records) {
        if (records.isEmpty()) {
            return;
        }
        List<SinkRow> rows = new ArrayList<>(records.count());
        for (ConsumerRecord<byte[], byte[]> record : records) {
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());
            offsets.register(partition, record.offset());
            bufferedBytes += recordBytes(record);
            SinkTable table = tablesByTopic.get(record.topic());
            if (record.value() == null) {
                deadLetter(record, RejectReason.NULL_VALUE,
                        new IllegalArgumentException("Row record has no value (tombstone)"));
                continue;
            }
            try {
                BoundStatement statement = table.bind(record.value());
                rows.add(new SinkRow(partition, record, table.table(), statement,
                        statement.getRoutingKey(), SinkTable.boundBytes(statement)));
            } catch (SerializationException e) {
                deadLetter(record, RejectReason.UNDECODABLE, e);
            } catch (RuntimeException e) {
                deadLetter(record, RejectReason.INVALID_ROW, e);
            }
        }
        for (List<SinkRow> batch : BatchGrouper.group(rows, SinkRow::groupKey, SinkRow::boundBytes,
                settings.batchMaxRows(), settings.batchMaxBytes())) {
            ready.addLast(new WriteGroup(batch));
        }
        updateGauges();
    }

    private void submit() {
        long now = System.nanoTime();
        while (!retries.isEmpty() && retries.peek().dueAtNanos <= now) {
            ready.addFirst(retries.poll());
        }
        while (inFlight.size() < settings.maxInFlight() && !ready.isEmpty()) {
            WriteGroup group = ready.pollFirst();
            group.startedNanos = System.nanoTime();
            inFlight.add(group);
            session.executeAsync(group.statement()).whenComplete(
                    (result, error) -> callbacks.add(() -> onWritten(group, result, error)));
        }
        updateGauges();
    }

    private void onWritten(WriteGroup group, AsyncResultSet result, Throwable error) {
        inFlight.remove(group);
        if (group.abandoned) {
            return;
        }
        long now = System.nanoTime();
        if (error == null) {
            metrics.written(group, now - group.startedNanos);
            group.rows.forEach(row -> offsets.acknowledge(row.partition(), row.offset()));
            bufferedBytes -= group.recordBytes;
            List<String> warnings = result.getExecutionInfo().getWarnings();
            if (!warnings.isEmpty()) {
                registry.counter("apiary.sink.server.warnings", "table", group.table).increment(warnings.size());
                if (now - lastServerWarnNanos > WARN_EVERY_NANOS) {
                    lastServerWarnNanos = now;
                    LOG.warn("Cassandra warned about a write of {} rows ({} bytes) to {}: {}", group.rows.size(),
                            group.boundBytes, group.table, warnings);
                }
            }
        } else if (WriteFailures.retryable(error)) {
            group.attempts++;
            group.dueAtNanos = now + backoff.delayNanos(group.attempts, ThreadLocalRandom.current()::nextLong);
            retries.add(group);
            metrics.retried(WriteFailures.cause(error), group.rows.size());
            if (now - lastRetryWarnNanos > WARN_EVERY_NANOS) {
                lastRetryWarnNanos = now;
                LOG.warn("Cassandra write to {} failed ({}); retrying with backoff ({} writes waiting to retry)",
                        group.table, WriteFailures.unwrap(error).toString(), retries.size());
            }
        } else if (group.rows.size() > 1) {
            LOG.debug("Batch of {} rows to {} refused ({}); retrying its rows one by one", group.rows.size(),
                    group.table, error.toString());
            group.split().forEach(ready::addFirst);
        } else {
            deadLetter(group.rows.get(0).record(), RejectReason.CASSANDRA_REJECTED, WriteFailures.unwrap(error));
        }
        updateGauges();
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
        if (!paused && (buffered >= settings.maxBufferedRows() || bytes >= settings.maxBufferedBytes())) {
            paused = true;
            LOG.debug("Pausing {} partitions: {} rows, {} bytes buffered", consumer.assignment().size(), buffered, bytes);
        } else if (paused && buffered <= settings.maxBufferedRows() / 2 && bytes <= settings.maxBufferedBytes() / 2) {
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
        bufferedGauge = offsets.pending();
    }

    /** Waits for in-flight writes of some partitions, then abandons what is left of them. */
    private void drain(Collection<TopicPartition> partitions, boolean waitForInFlight) {
        abandonQueued(partitions);
        long deadline = System.nanoTime() + settings.drainTimeout().toNanos();
        while (waitForInFlight && inFlight.stream().anyMatch(g -> partitions.contains(g.partition))
                && System.nanoTime() < deadline) {
            try {
                Runnable callback = callbacks.poll(10, TimeUnit.MILLISECONDS);
                if (callback != null) {
                    callback.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            abandonQueued(partitions);
        }
        inFlight.stream().filter(g -> partitions.contains(g.partition) && !g.abandoned).forEach(g -> {
            g.abandoned = true;
            bufferedBytes -= g.recordBytes;
        });
    }

    /** Drops the queued (unsent) writes of some partitions; their rows will be read again. */
    private void abandonQueued(Collection<TopicPartition> partitions) {
        Predicate<WriteGroup> ofPartitions = g -> partitions.contains(g.partition);
        Stream.concat(ready.stream(), retries.stream()).filter(ofPartitions).forEach(g -> bufferedBytes -= g.recordBytes);
        ready.removeIf(ofPartitions);
        retries.removeIf(ofPartitions);
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
            drain(all, true);
            deadLetters.flush();
            runCallbacks();
            offsets.commit(consumer.assignment(), true);
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
