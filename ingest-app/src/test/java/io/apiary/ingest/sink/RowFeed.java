package io.apiary.ingest.sink;

import io.apiary.ingest.bench.BenchWorkload;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import java.util.Map;

/**
 * The sink tests' feed: the benchmark's workload ({@link BenchWorkload}: interleaved in time order
 * as gateways send them, 1,000 readings per hive per minute) with 96 shards of the TIME strategy.
 */
final class RowFeed {

    static final int SHARDS = 96;

    private RowFeed() {}

    /**
     * @param hive    hive number
     * @param reading the hive's reading number
     * @return the row
     */
    static HiveTelemetryRow row(int hive, int reading) {
        return new BenchWorkload(1, SHARDS, ShardStrategy.TIME).row(hive, reading);
    }

    /**
     * @param kafka Kafka client settings (bootstrap servers)
     * @return producer settings for a feed into topics created just before
     */
    static Map<String, Object> producerSettings(Map<String, Object> kafka) {
        return BenchWorkload.producerSettings(kafka);
    }

    /**
     * Sends {@code hives x readingsPerHive} rows, reading round by round across all hives, and
     * waits until Kafka acknowledged them.
     *
     * @return rows acknowledged
     */
    static long send(
            Map<String, Object> kafka,
            Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic,
            int hives,
            int readingsPerHive) {
        long startNanos = System.nanoTime();
        long sent = new BenchWorkload(hives, SHARDS, ShardStrategy.TIME)
                .sendRows(kafka, topic, (long) hives * readingsPerHive, "lz4");
        System.out.printf(
                "SINK-IT produced %,d rows to %s in %.1f s%n",
                sent, topic.name(), (System.nanoTime() - startNanos) / 1e9);
        return sent;
    }
}
