package io.apiary.ingest.sink;

import io.apiary.ingest.jmh.TelemetryFeed;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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

/**
 * The sink's hot-partition detection ({@link HotPartitions}), in nanoseconds per acknowledged
 * write request (average time, one thread; {@link OperationsPerInvocation} divides each
 * invocation by its {@value #WRITES} writes).
 *
 * <p>One invocation is one 10-s window of the planned load as the sink acknowledges it:
 * {@value #WRITES} single-partition write requests of {@value #ROWS_PER_WRITE} rows and
 * {@value #BYTES_PER_WRITE} bytes each (small batches, so many requests per window: 10 s at 170,000
 * rows/s is 130,000 requests of 13 rows; the sink's current rows per request are in
 * docs/performance.md), each counted under its partition key in the rows and bytes sketches and the HLL, and
 * credited to 3 replicas out of 6 nodes; then the window ends (shares, report, meters). Partition
 * keys are composite routing keys like the sink's ({@code hive_id, day, shard}, about 24 bytes),
 * drawn uniformly from {@code partitions} keys, so the sketches are full (512 keys each) and
 * purge as they would under the planned load.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class HotPartitionsBenchmark {

    static final int WRITES = 130_000;
    static final int ROWS_PER_WRITE = 13;
    static final int BYTES_PER_WRITE = 13 * 130;
    private static final String TABLE = "hive_telemetry";

    /** Distinct partitions written in a window: one per hive (time shards) or many (hash shards). */
    @Param({"10000", "1000000"})
    int partitions;

    private ByteBuffer[] keys;
    private int[] order;
    private List<List<String>> replicaSets;
    private HotPartitions detector;
    private long nanos;

    @Setup
    public void setUp() {
        keys = new ByteBuffer[partitions];
        for (int i = 0; i < partitions; i++) {
            keys[i] = compositeKey("hive-" + (i % TelemetryFeed.HIVES), 20_422, i / TelemetryFeed.HIVES);
        }
        SplittableRandom random = new SplittableRandom(42);
        order = new int[WRITES];
        for (int i = 0; i < WRITES; i++) {
            order[i] = random.nextInt(partitions);
        }
        List<String> nodes = List.of("n1", "n2", "n3", "n4", "n5", "n6");
        replicaSets = List.of(
                nodes.subList(0, 3),
                nodes.subList(1, 4),
                nodes.subList(2, 5),
                nodes.subList(3, 6),
                List.of("n5", "n6", "n1"),
                List.of("n6", "n1", "n2"));
        HotPartitionSettings settings = HotPartitionSettings.DEFAULTS;
        detector = new HotPartitions(
                settings,
                Map.of(TABLE, new HotPartitions.Table(null, PartitionLife.of(TABLE, settings))),
                new HotPartitionMeters(new SimpleMeterRegistry()),
                Clock.systemUTC(),
                0,
                () -> 6,
                String::valueOf,
                line -> {});
        nanos = 0;
    }

    /** @return one window: the writes, then the window's end */
    @Benchmark
    @OperationsPerInvocation(WRITES)
    public HotPartitionReport window() {
        for (int i = 0; i < WRITES; i++) {
            int k = order[i];
            detector.partition(TABLE, keys[k], ROWS_PER_WRITE, BYTES_PER_WRITE);
            detector.replicas(replicaSets.get(k % replicaSets.size()), ROWS_PER_WRITE);
        }
        nanos += HotPartitionSettings.DEFAULTS.window().toNanos();
        detector.tick(nanos);
        return detector.report();
    }

    /** A composite routing key as the driver serializes (hive_id text, day date, shard int). */
    private static ByteBuffer compositeKey(String hive, int day, int shard) {
        byte[] id = hive.getBytes(StandardCharsets.UTF_8);
        ByteBuffer key = ByteBuffer.allocate(2 + id.length + 1 + 2 + 4 + 1 + 2 + 4 + 1);
        key.putShort((short) id.length).put(id).put((byte) 0);
        key.putShort((short) 4).putInt(day).put((byte) 0);
        key.putShort((short) 4).putInt(shard).put((byte) 0);
        return key.flip();
    }
}
