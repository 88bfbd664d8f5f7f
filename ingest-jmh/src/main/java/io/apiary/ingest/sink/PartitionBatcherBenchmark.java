package io.apiary.ingest.sink;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.jmh.TelemetryFeed;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The sink's grouping core, {@link PartitionBatcher}, with the sink's own key and row types
 * ({@link SinkRow.GroupKey}, {@link SinkRow}), in nanoseconds per row (average time, one thread;
 * {@link OperationsPerInvocation} divides each invocation by its {@value #ROWS} rows).
 *
 * <p>One invocation is one linger period of the planned load: a new batcher with the sink's
 * default caps (100 rows, 512 KiB: {@link SinkSettings#SINGLE_PARTITION_BATCH_BYTES}, 1 s
 * linger) receives {@value #HIVES} hives x {@value #READINGS_PER_HIVE} readings = {@value #ROWS}
 * rows, reading by reading across all hives (every hive reads every 60 ms, so consecutive rows
 * belong to different partitions; one row every 6 us of the injected clock, 0.6 s in all),
 * calls {@code drainReady} after every 5,000 rows as the sink does after each poll
 * ({@code max.poll.records}), then {@code drainReady} at the linger deadline, which releases every
 * open batch. Each row's key is its own {@code GroupKey} over its own key bytes (the encoded
 * {@code HiveTelemetryPartitionKey}, about 24 bytes) and one of 6 Kafka partitions (the default
 * {@code topic.partitions}) chosen as Kafka's default partitioner does, as the sink builds them
 * per polled record; the row's size is its value's length, as the sink counts it before binding.
 *
 * <p>{@code strategy}: with {@code TIME} shards the 10 readings of a hive share one Cassandra
 * partition (10,000 batches of 10 rows); with {@code HASH} they are spread over 96 shards (95,473
 * batches, nearly all of one row): the shard strategy decides how many batches the batcher opens.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class PartitionBatcherBenchmark {

    static final int HIVES = TelemetryFeed.HIVES;
    static final int READINGS_PER_HIVE = 10;
    static final int ROWS = HIVES * READINGS_PER_HIVE;

    private static final int MAX_ROWS = 100;
    private static final long MAX_BYTES = SinkSettings.SINGLE_PARTITION_BATCH_BYTES;
    private static final long LINGER_NANOS = 1_000_000_000L;
    private static final int POLL_RECORDS = 5_000;
    private static final int KAFKA_PARTITIONS = 6;
    /** Nanoseconds between two rows: 10,000 hives each reading every 60 ms. */
    private static final long ROW_SPACING_NANOS = TelemetryFeed.READING_INTERVAL_MS * 1_000_000L / HIVES;

    /** How the rows' shards are chosen. */
    @Param({"TIME", "HASH"})
    public ShardStrategy strategy;

    private final SinkRow.GroupKey[] keys = new SinkRow.GroupKey[ROWS];
    private final SinkRow[] rows = new SinkRow[ROWS];
    private final int[] bytes = new int[ROWS];

    /** Encodes the rows and builds their keys as the sink does per polled record. */
    @Setup
    public void feed() {
        Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic =
                Topics.defaults().telemetryRowsTopic();
        int i = 0;
        for (int reading = 0; reading < READINGS_PER_HIVE; reading++) {
            for (int hive = 0; hive < HIVES; hive++, i++) {
                HiveTelemetryRow row = TelemetryFeed.row(hive, reading, strategy);
                byte[] key = topic.keySerde().serializer().serialize(topic.name(), TelemetryFeed.partitionKey(row));
                byte[] value = topic.valueSerde().serializer().serialize(topic.name(), row);
                TopicPartition partition =
                        new TopicPartition(topic.name(), Utils.toPositive(Utils.murmur2(key)) % KAFKA_PARTITIONS);
                ConsumerRecord<byte[], byte[]> record =
                        new ConsumerRecord<>(topic.name(), partition.partition(), i, key, value);
                // no table binding: the batcher never looks at it
                rows[i] = SinkRow.of(record);
                keys[i] = SinkRow.GroupKey.of(null, partition, key);
                bytes[i] = value.length;
            }
        }
    }

    /**
     * Adds one linger period's rows and drains them as the sink does.
     *
     * @param out receives every drained batch list
     * @return the batches released at the linger deadline
     */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public List<PartitionBatcher.Batch<SinkRow.GroupKey, SinkRow>> addThenDrain(Blackhole out) {
        PartitionBatcher<SinkRow.GroupKey, SinkRow> batcher = new PartitionBatcher<>(MAX_ROWS, MAX_BYTES, LINGER_NANOS);
        long now = 0;
        for (int i = 0; i < ROWS; i++) {
            batcher.add(keys[i], rows[i], bytes[i], now);
            if ((i + 1) % POLL_RECORDS == 0) {
                out.consume(batcher.drainReady(now));
            }
            now += ROW_SPACING_NANOS;
        }
        return batcher.drainReady(now + LINGER_NANOS);
    }
}
