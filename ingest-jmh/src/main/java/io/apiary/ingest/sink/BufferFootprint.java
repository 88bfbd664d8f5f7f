package io.apiary.ingest.sink;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.jmh.TelemetryFeed;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Utils;

/**
 * The heap one buffered row costs the sink while it lingers: what the sink keeps per polled
 * record (the compact {@link SinkRow} in the {@link PartitionBatcher}, its batch key, and its
 * offset in the {@link OffsetTracker}), measured as the live heap after a full collection with
 * N rows held, less the live heap before, divided by N. Not a JMH benchmark (JMH measures time):
 * a plain program that prints its figure.
 *
 * <p>The rows are the benchmark's ({@link TelemetryFeed}): 10,000 hives, {@code readings} rows
 * each, in time order across hives, keyed and encoded as the topology produces them, spread
 * over 6 Kafka partitions by Kafka's default partitioner; each record is built as Kafka's
 * fetcher builds it (fresh key and value arrays, empty headers). Run:
 * {@code java -Xmx6g -cp ingest-jmh/target/benchmarks.jar io.apiary.ingest.sink.BufferFootprint 60}.
 */
public final class BufferFootprint {

    private BufferFootprint() {}

    /**
     * @param args readings per hive (default 60: 600,000 rows)
     * @throws InterruptedException if interrupted between collections
     */
    public static void main(String[] args) throws InterruptedException {
        int perHive = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic =
                Topics.defaults().telemetryRowsTopic();
        int n = TelemetryFeed.HIVES * perHive;
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        long keyBytes = 0;
        long valueBytes = 0;
        int i = 0;
        for (int reading = 0; reading < perHive; reading++) {
            for (int hive = 0; hive < TelemetryFeed.HIVES; hive++, i++) {
                HiveTelemetryRow row = TelemetryFeed.row(hive, reading, ShardStrategy.TIME);
                keys[i] = topic.keySerde().serializer().serialize(topic.name(), TelemetryFeed.partitionKey(row));
                values[i] = topic.valueSerde().serializer().serialize(topic.name(), row);
                keyBytes += keys[i].length;
                valueBytes += values[i].length;
            }
        }
        long before = liveHeap();
        PartitionBatcher<SinkRow.GroupKey, SinkRow> batcher =
                new PartitionBatcher<>(Integer.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
        OffsetTracker offsets = new OffsetTracker();
        long[] next = new long[6];
        for (i = 0; i < n; i++) {
            byte[] key = keys[i].clone();
            byte[] value = values[i].clone();
            int p = Utils.toPositive(Utils.murmur2(key)) % next.length;
            TopicPartition partition = new TopicPartition(topic.name(), p);
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(
                    topic.name(),
                    p,
                    next[p]++,
                    0L,
                    TimestampType.CREATE_TIME,
                    key.length,
                    value.length,
                    key,
                    value,
                    new RecordHeaders(),
                    Optional.of(0));
            offsets.register(partition, record.offset());
            batcher.add(SinkRow.GroupKey.of(null, partition, record.key()), SinkRow.of(record), value.length, 0);
        }
        long after = liveHeap();
        System.out.printf(
                "%,d rows held (%,d Cassandra partitions): key %.1f B and value %.1f B per row on "
                        + "average; heap per buffered row %.1f B%n",
                n, TelemetryFeed.HIVES, keyBytes / (double) n, valueBytes / (double) n, (after - before) / (double) n);
        Reference.reachabilityFence(keys);
        Reference.reachabilityFence(values);
        Reference.reachabilityFence(batcher);
        Reference.reachabilityFence(offsets);
    }

    private static long liveHeap() throws InterruptedException {
        for (int k = 0; k < 4; k++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
