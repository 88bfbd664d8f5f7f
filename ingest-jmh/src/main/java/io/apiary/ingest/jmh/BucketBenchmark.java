package io.apiary.ingest.jmh;

import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import java.time.LocalDate;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The bucket functions the topology applies to every reading ({@code RowMapper.telemetryRow}), in
 * nanoseconds per reading (average time, one thread):
 * <ul>
 *   <li>{@link #dayBucket}: {@link DayBucket#of}, the UTC date of the reading time;</li>
 *   <li>{@link #shardTime}: {@link ShardStrategy#TIME} at 96 shards (15-minute slices of the day);</li>
 *   <li>{@link #shardHash}: {@link ShardStrategy#HASH} at 96 shards (murmur2 of hive id, sensor
 *       type and reading time, which first copies them into a new byte array);</li>
 *   <li>{@link #baseline}: only the input lookup the others share, the floor under their figures.</li>
 * </ul>
 * Input: 1,024 pre-built (hive, sensor, time) triples: hive ids {@code hive-N} drawn from 10,000
 * hives, one of the five sensor type names, a time anywhere in 30 days from 2026-11-02 (fixed seed);
 * each call takes the next triple, round robin. Results are returned, so nothing is optimised away.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class BucketBenchmark {

    private static final int INPUTS = 1_024;
    private static final int MASK = INPUTS - 1;
    private static final long THIRTY_DAYS_MS = 30 * DayBucket.MILLIS_PER_DAY;

    private final String[] hiveIds = new String[INPUTS];
    private final String[] sensors = new String[INPUTS];
    private final long[] times = new long[INPUTS];
    private int next;

    /** Draws the inputs. */
    @Setup
    public void draw() {
        SplittableRandom random = new SplittableRandom(20261102);
        for (int i = 0; i < INPUTS; i++) {
            hiveIds[i] = TelemetryFeed.hiveId(random.nextInt(TelemetryFeed.HIVES));
            sensors[i] = TelemetryFeed.sensor(random.nextInt(5));
            times[i] = TelemetryFeed.START.toEpochMilli() + random.nextLong(THIRTY_DAYS_MS);
        }
    }

    /** @return the input's reading time (what every benchmark here pays to pick its input) */
    @Benchmark
    public long baseline() {
        return times[next++ & MASK];
    }

    /** @return the UTC date of a reading time */
    @Benchmark
    public LocalDate dayBucket() {
        return DayBucket.of(times[next++ & MASK]);
    }

    /** @return the TIME shard of a reading at 96 shards */
    @Benchmark
    public int shardTime() {
        int i = next++ & MASK;
        return ShardStrategy.TIME.shard(hiveIds[i], sensors[i], times[i], TelemetryFeed.SHARDS);
    }

    /** @return the HASH shard of a reading at 96 shards */
    @Benchmark
    public int shardHash() {
        int i = next++ & MASK;
        return ShardStrategy.HASH.shard(hiveIds[i], sensors[i], times[i], TelemetryFeed.SHARDS);
    }
}
