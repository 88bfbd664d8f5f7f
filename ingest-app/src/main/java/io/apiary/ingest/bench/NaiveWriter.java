package io.apiary.ingest.bench;

import io.apiary.ingest.sink.SinkTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The benchmark's naive writer, what a simple Kafka-to-Cassandra sink does: reads the row topic
 * and sends one asynchronous INSERT per record as it comes, at most {@code inFlight} at a time.
 * Rows are decoded and bound exactly as the sink binds them ({@link SinkTable#bind}), so the
 * difference to the sink is grouping alone. Retries as {@link AsyncWrites} does. Reads with
 * {@code assign} from the start of every partition, commits nothing. Runs on one thread.
 */
final class NaiveWriter implements Runnable {

    private final Map<String, Object> kafka;
    private final String topic;
    private final SinkTable<?> table;
    private final long rows;
    private final AsyncWrites writes;

    /**
     * @param kafka   Kafka client settings (bootstrap servers, security)
     * @param topic   the hive_telemetry row topic
     * @param rows    how many of its first records to write
     * @param table   binds a row topic value to its INSERT
     * @param writes  sends the INSERTs, with the in-flight limit
     */
    NaiveWriter(Map<String, Object> kafka, String topic, long rows, SinkTable<?> table, AsyncWrites writes) {
        this.kafka = kafka;
        this.topic = topic;
        this.rows = rows;
        this.table = table;
        this.writes = writes;
    }

    /** Writes the first rows of the topic and waits for their acknowledgements; failures go to {@code writes}. */
    @Override
    public void run() {
        Map<String, Object> settings = new HashMap<>(kafka);
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "apiary-bench-naive");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long read = 0;
            while (read < rows && writes.running()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    if (read == rows) {
                        break;
                    }
                    writes.send(table.bind(record.value()).insert(), 1);
                    read++;
                }
            }
            writes.awaitAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            writes.fail(e);
        }
    }
}
