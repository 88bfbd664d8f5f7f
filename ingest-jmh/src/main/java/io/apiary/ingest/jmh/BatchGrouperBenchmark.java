package io.apiary.ingest.jmh;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.sink.BatchGrouper;
import io.apiary.ingest.sink.ServerBatchLimits;
import io.apiary.schema.HiveTelemetryRow;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link BatchGrouper#group}, the sink's exact split of one batch once its rows are bound, in
 * nanoseconds per call, i.e. per batch of {@code rows} rows (average time, one thread; divide by
 * {@code rows} for the cost per row).
 *
 * <p>Input, as the sink calls it for a {@code PartitionBatcher} batch of hive_telemetry rows: the
 * rows of one Cassandra partition (one hive, one day, one TIME shard; five sensors in turn), each
 * with its own routing key buffer (the serialized composite partition key, as the driver computes it
 * per bound statement) and its server-side size as {@code SinkTable.serverBytes} counts it (139 to
 * 148 bytes), with the sink's default caps: 100 rows and 5,120 bytes (Cassandra's stock
 * {@code batch_size_warn_threshold}). A batch of 20 rows therefore stays whole; one of 100 rows is
 * split by the byte cap into 3 batches (35, 35 and 30 rows). 256 such batches of distinct hives are pre-built and
 * taken round robin. The grouped batches are returned, so nothing is optimised away.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class BatchGrouperBenchmark {

    /**
     * A bound row as the grouper sees it (the sink's bound {@code SinkRow}, which needs a live session to
     * build): its routing key and its size.
     *
     * @param routingKey  the serialized Cassandra partition key
     * @param serverBytes its size as Cassandra counts it in a batch
     */
    public record Bound(ByteBuffer routingKey, int serverBytes) {}

    private static final int BATCHES = 256;
    private static final int MASK = BATCHES - 1;
    private static final int MAX_ROWS = 100;
    private static final long MAX_BYTES = ServerBatchLimits.STOCK.warnBytes();

    /** Rows in the batch to group. */
    @Param({"20", "100"})
    public int rows;

    private final List<List<Bound>> batches = new ArrayList<>(BATCHES);
    private int next;

    /** Builds the batches. */
    @Setup
    public void build() {
        batches.clear();
        for (int b = 0; b < BATCHES; b++) {
            int hive = (int) ((b * 7_919L) % TelemetryFeed.HIVES);
            List<Bound> batch = new ArrayList<>(rows);
            for (int reading = 0; reading < rows; reading++) {
                HiveTelemetryRow row = TelemetryFeed.row(hive, reading, ShardStrategy.TIME);
                batch.add(new Bound(TelemetryFeed.routingKey(row), TelemetryFeed.serverBytes(row)));
            }
            if (!batch.get(0).routingKey().equals(batch.get(rows - 1).routingKey())) {
                throw new IllegalStateException("a batch's rows must share one Cassandra partition");
            }
            batches.add(batch);
        }
    }

    /** @return the single-partition batches within the caps */
    @Benchmark
    public List<List<Bound>> group() {
        return BatchGrouper.group(
                batches.get(next++ & MASK), Bound::routingKey, Bound::serverBytes, MAX_ROWS, MAX_BYTES);
    }
}
