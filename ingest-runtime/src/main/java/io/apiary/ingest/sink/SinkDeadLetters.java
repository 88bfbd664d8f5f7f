package io.apiary.ingest.sink;

import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.logging.RateLimitedLog;
import java.time.Duration;
import java.util.Queue;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends row records the sink cannot write to the dead letter topic (stage {@code sink}, format of
 * {@link DeadLetterHeaders}). A record counts as handled only once Kafka acknowledged its dead
 * letter copy; until then its offset stays uncommitted, and a failed send is tried again after
 * an exponential backoff ({@link RetryBackoff}), with one ERROR log line per 10 s at most.
 * Thread-safety: {@link #send} is called on the sink's poll thread; the producer's callbacks only
 * enqueue work for that thread.
 */
final class SinkDeadLetters {

    private static final Logger LOG = LoggerFactory.getLogger(SinkDeadLetters.class);

    /** A copy waiting to be sent again. */
    private record Resend(
            long dueNanos,
            int attempt,
            ConsumerRecord<byte[], byte[]> record,
            RejectReason reason,
            Throwable error,
            Runnable onHandled) {}

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Queue<Runnable> pollThreadWork;
    private final RetryBackoff backoff;
    private final java.util.PriorityQueue<Resend> resends =
            new java.util.PriorityQueue<>(java.util.Comparator.comparingLong(Resend::dueNanos));
    private final RateLimitedLog sendErrors = RateLimitedLog.of(LOG, java.time.Duration.ofSeconds(10));

    /**
     * @param producer       a byte-array producer (acks=all); closed by {@link #close()}
     * @param topic          the dead letter topic
     * @param pollThreadWork where callbacks enqueue work for the poll thread
     * @param backoff        delay before sending a failed copy again
     */
    SinkDeadLetters(
            Producer<byte[], byte[]> producer, String topic, Queue<Runnable> pollThreadWork, RetryBackoff backoff) {
        this.producer = producer;
        this.topic = topic;
        this.pollThreadWork = pollThreadWork;
        this.backoff = backoff;
    }

    /**
     * Sends one record's dead letter copy.
     *
     * @param record    the original record
     * @param reason    why it cannot be written
     * @param error     the failure, whose message goes into the headers
     * @param onHandled run on the poll thread once Kafka acknowledged the copy
     */
    void send(ConsumerRecord<byte[], byte[]> record, RejectReason reason, Throwable error, Runnable onHandled) {
        send(record, reason, error, onHandled, 1);
    }

    private void send(
            ConsumerRecord<byte[], byte[]> record,
            RejectReason reason,
            Throwable error,
            Runnable onHandled,
            int attempt) {
        producer.send(
                DeadLetterHeaders.record(
                        topic,
                        "sink",
                        reason,
                        error,
                        record.topic(),
                        record.partition(),
                        record.offset(),
                        record.key(),
                        record.value(),
                        record.headers()),
                (metadata, sendError) -> pollThreadWork.add(() -> {
                    if (sendError == null) {
                        onHandled.run();
                        return;
                    }
                    long now = System.nanoTime();
                    sendErrors.error(
                            "",
                            now,
                            "Cannot write {}-{}@{} to the dead letter topic {} (attempt {}); its offset stays "
                                    + "uncommitted and the copy is sent again later ({} waiting)",
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            topic,
                            attempt,
                            resends.size() + 1,
                            sendError);
                    resends.add(new Resend(
                            now
                                    + backoff.delayNanos(
                                            attempt, java.util.concurrent.ThreadLocalRandom.current()::nextLong),
                            attempt + 1,
                            record,
                            reason,
                            error,
                            onHandled));
                }));
    }

    /** Sends again the copies whose backoff has passed; call from the poll thread. */
    void resendDue() {
        long now = System.nanoTime();
        while (!resends.isEmpty() && resends.peek().dueNanos() <= now) {
            Resend r = resends.poll();
            send(r.record(), r.reason(), r.error(), r.onHandled(), r.attempt());
        }
    }

    /** Waits until every copy sent so far is acknowledged or failed. */
    void flush() {
        producer.flush();
    }

    /** Closes the producer, waiting up to 10 s for unsent copies. */
    void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
