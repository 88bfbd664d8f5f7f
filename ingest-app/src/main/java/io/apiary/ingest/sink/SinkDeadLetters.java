package io.apiary.ingest.sink;

import java.time.Duration;
import java.util.Queue;

import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.deadletter.RejectReason;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends row records the sink cannot write to the dead letter topic (stage {@code sink}, format of
 * {@link DeadLetterHeaders}). A record counts as handled only once Kafka acknowledged its dead
 * letter copy; until then its offset stays uncommitted, and a failed send is tried again.
 * Thread-safety: {@link #send} is called on the sink's poll thread; the producer's callbacks only
 * enqueue work for that thread.
 */
final class SinkDeadLetters {

    private static final Logger LOG = LoggerFactory.getLogger(SinkDeadLetters.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final Queue<Runnable> pollThreadWork;

    /**
     * @param producer       a byte-array producer (acks=all); closed by {@link #close()}
     * @param topic          the dead letter topic
     * @param pollThreadWork where callbacks enqueue work for the poll thread
     */
    SinkDeadLetters(Producer<byte[], byte[]> producer, String topic, Queue<Runnable> pollThreadWork) {
        this.producer = producer;
        this.topic = topic;
        this.pollThreadWork = pollThreadWork;
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
        producer.send(DeadLetterHeaders.record(topic, "sink", reason, error, record.topic(), record.partition(),
                        record.offset(), record.key(), record.value(), record.headers()),
                (metadata, sendError) -> pollThreadWork.add(() -> {
                    if (sendError == null) {
                        onHandled.run();
                    } else {
                        LOG.error("Cannot write {}-{}@{} to the dead letter topic {}; trying again", record.topic(),
                                record.partition(), record.offset(), topic, sendError);
                        send(record, reason, error, onHandled);
                    }
                }));
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
