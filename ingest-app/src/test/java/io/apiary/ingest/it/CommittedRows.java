package io.apiary.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The sink's promise, checked from outside: a committed offset never passes a row Cassandra does
 * not hold. Compares the {@code hive_telemetry_v2} row topic, below a group's committed offsets,
 * with the rows of the configuration's keyspace. Thread-safe (stateless).
 */
public final class CommittedRows {

    private CommittedRows() {}

    /**
     * @param row a row of {@code hive_telemetry_v2}
     * @return its primary key as text, {@code hive|day|shard|sensor type|reading time}
     */
    public static String key(HiveTelemetryRow row) {
        return String.join(
                "|",
                row.getHiveId(),
                String.valueOf(row.getDay()),
                String.valueOf(row.getShard()),
                row.getSensorType(),
                String.valueOf(row.getReadingTime()));
    }

    /**
     * @param config the configuration naming the keyspace, not null
     * @return the {@link #key keys} of every row of {@code hive_telemetry_v2} in it (paged)
     */
    public static Set<String> stored(IngestConfig config) {
        Set<String> rows = new HashSet<>();
        try (CqlSession session = CassandraSessions.open(config)) {
            for (Row row : session.execute(SimpleStatement.newInstance("SELECT hive_id, day, shard, sensor_type, "
                            + "reading_time FROM " + config.getString(IngestConfig.CASSANDRA_KEYSPACE)
                            + ".hive_telemetry_v2")
                    .setPageSize(5_000)
                    .setTimeout(Duration.ofSeconds(30)))) {
                rows.add(String.join(
                        "|",
                        row.getString(0),
                        String.valueOf(row.getLocalDate(1)),
                        String.valueOf(row.getInt(2)),
                        row.getString(3),
                        String.valueOf(row.getInstant(4))));
            }
        }
        return rows;
    }

    /**
     * Reads the row topic to its end and fails if a record below its partition's committed offset
     * is not a row Cassandra holds.
     *
     * @param config    the configuration naming the row topic, not null
     * @param committed committed offsets per partition (a partition without one: none checked)
     * @param stored    the rows Cassandra holds ({@link #stored})
     * @return how many records lie below the committed offsets
     */
    public static long checkStored(IngestConfig config, Map<TopicPartition, Long> committed, Set<String> stored) {
        Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic =
                config.topics().telemetryRowsTopic();
        Map<String, Object> settings = new HashMap<>(config.kafkaClientSettings());
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        long checked = 0;
        List<String> missing = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic.name()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() < committed.getOrDefault(partition, 0L)) {
                        HiveTelemetryRow row =
                                topic.valueSerde().deserializer().deserialize(topic.name(), record.value());
                        if (!stored.contains(key(row))) {
                            missing.add(partition + " offset " + record.offset() + ": " + key(row));
                        }
                        checked++;
                    }
                }
            }
            for (TopicPartition partition : partitions) {
                assertThat(consumer.position(partition))
                        .as("%s read to its end", partition)
                        .isGreaterThanOrEqualTo(ends.get(partition));
            }
        }
        assertThat(missing)
                .as("rows below the committed offsets %s that Cassandra does not hold", committed)
                .isEmpty();
        return checked;
    }
}
