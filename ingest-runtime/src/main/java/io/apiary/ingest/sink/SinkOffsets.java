package io.apiary.ingest.sink;

import io.apiary.ingest.logging.RateLimitedLog;
import io.apiary.ingest.metrics.MetricNames;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's offsets: which polled records are still unacknowledged ({@link OffsetTracker}) and
 * what was last committed, and the commits themselves. A partition commits the first offset still
 * pending; with nothing pending it commits the consumer's position, which also covers the
 * transaction markers the topology's exactly-once producer leaves after its last record (else
 * the group would show a lag of one per partition forever). Not thread-safe: the sink's poll
 * thread only (commit callbacks run inside {@code poll}).
 */
final class SinkOffsets {

    private static final Logger LOG = LoggerFactory.getLogger(SinkOffsets.class);

    private final Consumer<?, ?> consumer;
    private final MeterRegistry registry;
    private final OffsetTracker tracker = new OffsetTracker();
    private final Map<TopicPartition, Long> committed = new HashMap<>();
    private final RateLimitedLog commitWarnings = RateLimitedLog.of(LOG, java.time.Duration.ofSeconds(60));

    SinkOffsets(Consumer<?, ?> consumer, MeterRegistry registry) {
        this.consumer = consumer;
        this.registry = registry;
    }

    /**
     * Polls, starting partitions without a committed offset from their beginning, and reporting
     * loudly (ERROR log and the {@code apiary.sink.records.lost} counter) records the broker
     * deleted before the sink wrote them, instead of skipping them silently.
     */
    <K, V> ConsumerRecords<K, V> poll(Duration timeout) {
        try {
            @SuppressWarnings("unchecked")
            ConsumerRecords<K, V> records = (ConsumerRecords<K, V>) consumer.poll(timeout);
            return records;
        } catch (NoOffsetForPartitionException e) {
            LOG.info("No committed offset for {}: starting from the beginning", e.partitions());
            consumer.seekToBeginning(e.partitions());
        } catch (OffsetOutOfRangeException e) {
            Map<TopicPartition, Long> starts =
                    consumer.beginningOffsets(e.offsetOutOfRangePartitions().keySet());
            e.offsetOutOfRangePartitions().forEach((partition, position) -> {
                long start = starts.getOrDefault(partition, position);
                long lost = Math.max(0, start - position);
                registry.counter(MetricNames.SINK_RECORDS_LOST, MetricNames.TAG_TOPIC, partition.topic())
                        .increment(lost);
                LOG.error(
                        "Records {} to {} of {} were deleted by the broker (retention) before the sink wrote "
                                + "them: {} rows lost. Raise the topic's retention or check that it uses LogAppendTime.",
                        position,
                        start - 1,
                        partition,
                        lost);
            });
            consumer.seekToBeginning(e.offsetOutOfRangePartitions().keySet());
        }
        return ConsumerRecords.empty();
    }

    /**
     * Registers a polled record. A partition whose offsets went backwards (the topic was
     * recreated, or the sink was sent back to its beginning) starts over: its earlier records can
     * no longer be committed anyway.
     */
    void register(TopicPartition partition, long offset) {
        try {
            tracker.register(partition, offset);
        } catch (IllegalArgumentException e) {
            LOG.warn(
                    "Offsets of {} went backwards ({}); tracking it again from offset {}",
                    partition,
                    e.getMessage(),
                    offset);
            tracker.remove(partition);
            committed.remove(partition);
            tracker.register(partition, offset);
        }
    }

    void acknowledge(TopicPartition partition, long offset) {
        tracker.acknowledge(partition, offset);
    }

    /** @return records polled and not yet acknowledged, over all partitions */
    int pending() {
        return tracker.unacknowledgedTotal();
    }

    /**
     * @return records polled and not yet committable: the unacknowledged ones plus those
     *         acknowledged behind an unacknowledged one in their partition
     */
    int uncommittable() {
        return tracker.pendingTotal();
    }

    /** @return the partitions with records polled since assignment */
    Collection<TopicPartition> partitions() {
        return tracker.partitions();
    }

    /**
     * Commits what is acknowledged and not yet committed.
     *
     * @param partitions partitions to commit
     * @param sync       wait for the commit (revocation, shutdown) or not (periodic)
     * @throws org.apache.kafka.common.KafkaException from a synchronous commit
     */
    void commit(Collection<TopicPartition> partitions, boolean sync) {
        Map<TopicPartition, OffsetAndMetadata> toCommit = new HashMap<>();
        for (TopicPartition partition : partitions) {
            tracker.committable(partition).ifPresent(committable -> {
                long offset = tracker.pending(partition) == 0
                        ? Math.max(committable, consumer.position(partition))
                        : committable;
                if (!Long.valueOf(offset).equals(committed.get(partition))) {
                    toCommit.put(partition, new OffsetAndMetadata(offset));
                }
            });
        }
        if (toCommit.isEmpty()) {
            return;
        }
        if (sync) {
            consumer.commitSync(toCommit);
            toCommit.forEach((p, o) -> committed.put(p, o.offset()));
        } else {
            consumer.commitAsync(toCommit, (done, error) -> {
                if (error == null) {
                    done.forEach((p, o) -> committed.put(p, o.offset()));
                } else {
                    if (!commitWarnings.warn(
                            "",
                            System.nanoTime(),
                            "Offset commit failed ({}); the next commit will include these offsets (logged at "
                                    + "most every 60 s)",
                            error.toString())) {
                        LOG.debug("Offset commit failed ({})", error.toString());
                    }
                }
            });
        }
    }

    /**
     * Records consumed but not committed: per partition the consumer's position minus the last
     * committed offset (or the first offset polled, if none was committed yet), summed.
     *
     * @param partitions the assigned partitions
     * @return records, at least 0
     */
    long commitLag(Collection<TopicPartition> partitions) {
        long lag = 0;
        for (TopicPartition partition : partitions) {
            Long base = committed.get(partition);
            if (base == null) {
                base = tracker.firstRegistered(partition);
            }
            if (base != null) {
                try {
                    lag += Math.max(0, consumer.position(partition, Duration.ZERO) - base);
                } catch (RuntimeException e) {
                    // position unknown right after assignment: no lag to report yet
                }
            }
        }
        return lag;
    }

    /**
     * Forgets partitions that were revoked or lost.
     *
     * @param partitions the partitions
     */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(p -> {
            tracker.remove(p);
            committed.remove(p);
        });
    }
}
