package io.apiary.ingest.topology;

import io.apiary.ingest.deadletter.DeadLetterExceptionHandlers;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/**
 * What the stream threads of one {@code KafkaStreams} instance have fetched and processed of each
 * input partition: the {@link InputLag} of a running topology. It is fed from three places:
 * <ul>
 *   <li>the main consumers, wrapped by {@link #clientSupplier()} (pass it to {@code KafkaStreams}): each
 *       poll gives, per partition, the offset of the last record handed to Kafka Streams;</li>
 *   <li>the check step of the entrance-counter stream ({@link InputLag#handled}): every record it
 *       takes, valid or not;</li>
 *   <li>the deserialization handler {@link DeserializationFailures} (with this object in the Streams
 *       properties under {@link #CONFIG_KEY}): every record that could not be read.</li>
 * </ul>
 * Each question notes the partition's end offset (the last stable offset under read_committed),
 * asked from the broker ({@link Consumer#endOffsets}) when the answer is older than
 * {@value #END_OFFSETS_MAX_AGE_MS} ms: one request per stream thread for all its partitions, so the
 * answer is never older than that. The next question answers whether everything up to that noted
 * end has been processed: the consumer's position has reached it and every record polled below it
 * has been handled. Records appended since do not count, so a partition with steady traffic is
 * caught up while the topology keeps pace with it, and one whose records wait (a stalled or starved
 * stream thread, a backlog) is not. The consumer's own lag ({@link Consumer#currentLag}) is not
 * enough: it is updated only when records are handed out, so a partition whose fetched records wait
 * in the consumer's buffer behind other partitions' shows no lag, for as long as they wait (seen for
 * many seconds under load). Asked on a thread whose consumer this object did not
 * wrap (another client supplier, or the {@code streams} group protocol, whose consumer Kafka Streams
 * creates itself), or when the broker does not answer within {@value #END_OFFSETS_TIMEOUT_MS} ms,
 * the answer is "not caught up", so the quiet rule waits.
 *
 * <p>Thread-safe: each stream thread reports and asks about its own partitions only.
 */
public final class InputProgress implements InputLag {

    /** Key of this object in the Kafka Streams properties, where {@link DeserializationFailures} finds it. */
    public static final String CONFIG_KEY = "apiary.topology.input.progress";

    /** Longest age of an end offset taken as the partition's end, ms. */
    static final long END_OFFSETS_MAX_AGE_MS = 100;
    /** Longest wait for the broker's end offsets, ms. */
    static final long END_OFFSETS_TIMEOUT_MS = 2_000;

    private final Map<Thread, ThreadConsumer> consumers = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Offsets> partitions = new ConcurrentHashMap<>();

    /** A stream thread's consumer and the end offsets last asked with it; used by that thread only. */
    private static final class ThreadConsumer {
        final Consumer<?, ?> consumer;
        Map<TopicPartition, Long> ends = Map.of();
        long endsAtNanos;

        ThreadConsumer(Consumer<?, ?> consumer) {
            this.consumer = consumer;
        }

        /** @return the partition's end offset, asked anew when the last answer is too old; null if unknown */
        Long end(TopicPartition partition) {
            long now = System.nanoTime();
            if (!ends.containsKey(partition) || now - endsAtNanos > END_OFFSETS_MAX_AGE_MS * 1_000_000) {
                java.util.Set<TopicPartition> asked = new java.util.HashSet<>(consumer.assignment());
                asked.add(partition);
                ends = consumer.endOffsets(asked, java.time.Duration.ofMillis(END_OFFSETS_TIMEOUT_MS));
                endsAtNanos = now;
            }
            return ends.get(partition);
        }
    }

    /** Offsets of one partition; written by the one thread that owns the partition at a time. */
    private static final class Offsets {
        volatile long polled = -1;
        volatile long handled = -1;
        /** The end offset noted at the last question, or -1. */
        volatile long target = -1;
        /** The highest offset polled below {@link #target}, or -1. */
        volatile long polledBelowTarget = -1;
    }

    /**
     * @return a client supplier of Kafka's own clients whose main consumers report their polls here;
     *         restore and global consumers, producers and the admin client are not wrapped
     */
    public KafkaClientSupplier clientSupplier() {
        return new KafkaClientSupplier() {
            @Override
            public Admin getAdmin(Map<String, Object> config) {
                return Admin.create(config);
            }

            @Override
            public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
                return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
            }

            @Override
            public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
                return tracked(new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()));
            }

            @Override
            public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
                return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            }

            @Override
            public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
                return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            }
        };
    }

    /** The consumer, whose polls report to this object; every call is passed on unchanged. */
    @SuppressWarnings("unchecked")
    Consumer<byte[], byte[]> tracked(Consumer<byte[], byte[]> consumer) {
        return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(
                Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(consumer, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (result instanceof ConsumerRecords<?, ?> records
                            && method.getName().equals("poll")) {
                        polled(consumer, records);
                    }
                    return result;
                });
    }

    /**
     * Notes a poll of the calling thread's consumer.
     *
     * @param consumer the consumer polled, not null
     * @param records  what the poll returned, not null
     */
    void polled(Consumer<?, ?> consumer, ConsumerRecords<?, ?> records) {
        Thread thread = Thread.currentThread();
        ThreadConsumer known = consumers.get(thread);
        if (known == null || known.consumer != consumer) {
            consumers.put(thread, new ThreadConsumer(consumer));
        }
        for (TopicPartition partition : records.partitions()) {
            List<? extends ConsumerRecord<?, ?>> polled = records.records(partition);
            if (!polled.isEmpty()) {
                Offsets offsets = offsets(partition);
                offsets.polled =
                        Math.max(offsets.polled, polled.get(polled.size() - 1).offset());
                for (int i = polled.size() - 1; i >= 0; i--) {
                    long offset = polled.get(i).offset();
                    if (offset < offsets.target) {
                        offsets.polledBelowTarget = Math.max(offsets.polledBelowTarget, offset);
                        break;
                    }
                }
            }
        }
    }

    @Override
    public void handled(TopicPartition partition, long offset) {
        Offsets offsets = offsets(partition);
        if (offset > offsets.handled) {
            offsets.handled = offset;
        }
    }

    @Override
    public boolean caughtUp(TopicPartition partition) {
        ThreadConsumer thread = consumers.get(Thread.currentThread());
        if (thread == null) {
            return false;
        }
        Offsets offsets = offsets(partition);
        long target = offsets.target;
        long polledBelow = offsets.polledBelowTarget;
        offsets.target = -1; // unknown until this question's end is noted
        try {
            Long end = thread.end(partition);
            boolean caughtUp = target >= 0
                    && thread.consumer.position(partition, java.time.Duration.ZERO) >= target
                    && offsets.handled >= polledBelow; // nothing polled below it waits in the task's buffer
            if (end != null) {
                offsets.polledBelowTarget = offsets.polled; // every record polled so far is below the end
                offsets.target = end;
            }
            return caughtUp;
        } catch (org.apache.kafka.common.errors.WakeupException | org.apache.kafka.common.errors.InterruptException e) {
            throw e;
        } catch (org.apache.kafka.common.KafkaException | IllegalStateException unknown) {
            return false; // no answer in time, no position yet, or the partition is not assigned
        }
    }

    private Offsets offsets(TopicPartition partition) {
        Offsets offsets = partitions.get(partition);
        return offsets != null ? offsets : partitions.computeIfAbsent(partition, p -> new Offsets());
    }

    /**
     * The dead letter handler of records that cannot be read ({@link DeadLetterExceptionHandlers.Deserialization}),
     * which also tells the {@link InputProgress} found under {@link #CONFIG_KEY} that the record is handled.
     * Not thread-safe: Kafka Streams gives each stream thread its own.
     */
    public static final class DeserializationFailures implements DeserializationExceptionHandler {

        private final DeadLetterExceptionHandlers.Deserialization deadLetter =
                new DeadLetterExceptionHandlers.Deserialization();
        private InputLag progress = SYNCHRONOUS;

        @Override
        public void configure(Map<String, ?> configs) {
            deadLetter.configure(configs);
            if (configs.get(CONFIG_KEY) instanceof InputLag given) {
                progress = given;
            }
        }

        @Override
        public Response handleError(
                ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
            Response response = deadLetter.handleError(context, record, exception);
            if (response.result() == Result.RESUME) {
                progress.handled(new TopicPartition(context.topic(), context.partition()), context.offset());
            }
            return response;
        }
    }
}
