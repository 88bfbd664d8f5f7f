package io.apiary.ingest.demo;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads consumer-group lag and topic sizes through Kafka's Admin API. Not thread-safe.
 */
public final class LagProbe implements AutoCloseable {

    private final Admin admin;
    private final Map<String, Object> clientSettings;

    /**
     * @param clientSettings Kafka client settings (bootstrap servers, security)
     */
    public LagProbe(Map<String, Object> clientSettings) {
        this.clientSettings = Map.copyOf(clientSettings);
        this.admin = Admin.create(clientSettings);
    }

    /**
     * @param groupId a consumer group
     * @param topics  topics it reads
     * @return records not yet committed by the group (log end offset minus committed offset,
     *         summed; counts transaction markers too, so it reaches 0 only when caught up)
     */
    public long lag(String groupId, Collection<String> topics) {
        Map<TopicPartition, Long> ends = endOffsets(topics);
        Map<TopicPartition, OffsetAndMetadata> committed =
                get(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
        long lag = 0;
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            OffsetAndMetadata c = committed.get(e.getKey());
            lag += e.getValue() - (c == null ? 0 : c.offset());
        }
        return lag;
    }

    /**
     * @param topics topics
     * @return the log end offset of each of their partitions
     */
    public Map<TopicPartition, Long> endOffsets(Collection<String> topics) {
        Map<String, TopicDescription> descriptions =
                get(admin.describeTopics(topics).allTopicNames());
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        descriptions.forEach((name, d) ->
                d.partitions().forEach(p -> request.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
        Map<TopicPartition, ListOffsetsResultInfo> infos =
                get(admin.listOffsets(request).all());
        Map<TopicPartition, Long> ends = new HashMap<>();
        infos.forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    /**
     * Counts the committed records of a topic by reading it from the start (read_committed).
     *
     * @param topic a topic
     * @return its records, transaction markers and aborted records excluded
     */
    public long countRecords(String topic) {
        return countByHeader(topic, null).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    /**
     * Counts the committed records of a topic by the value of one header.
     *
     * @param topic  the topic
     * @param header the header's name (UTF-8 values); null counts every record under ""
     * @return header value ("" when absent) to number of records, sorted by value
     * @throws org.apache.kafka.common.KafkaException if Kafka does not answer
     */
    public Map<String, Long> countByHeader(String topic, String header) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        Map<TopicPartition, Long> ends = endOffsets(List.of(topic));
        Map<String, Object> settings = new HashMap<>(clientSettings);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(ends.keySet());
            consumer.seekToBeginning(ends.keySet());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!caughtUp(consumer, ends) && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                for (org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> r : records) {
                    org.apache.kafka.common.header.Header h =
                            header == null ? null : r.headers().lastHeader(header);
                    String value = h == null || h.value() == null
                            ? ""
                            : new String(h.value(), java.nio.charset.StandardCharsets.UTF_8);
                    counts.merge(value, 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaException("Kafka admin request failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
