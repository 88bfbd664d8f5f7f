package io.apiary.ingest.read;

import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Computes the partitions of a day-and-shard bucketed table (hive_telemetry, weather_readings)
 * that can hold an entity's rows of one series in a time range, with the same bucket functions
 * the topology writes with ({@link DayBucket}, {@link ShardStrategy}). Pure; thread-safe.
 *
 * <p>Exactness: a bucket is returned if and only if some millisecond {@code t} in the range has
 * {@code DayBucket.of(t)} and {@code strategy.shard(entity, series, t, shards)} equal to it.
 * <ul>
 *   <li>{@code time}: the shard is a monotone step function of the time of day, so each day
 *       contributes the contiguous shards from the shard of its first queried millisecond to that
 *       of its last, computed directly.</li>
 *   <li>{@code hash}: the shard depends on the entity, the series and the millisecond, so each
 *       day's queried milliseconds are enumerated until every shard has been seen (for a whole
 *       day at 96 shards that takes about 500 hashes); past {@value #MAX_HASHES_PER_DAY} hashes
 *       in one day the remaining shards are all included (a superset: never a missed row). With
 *       at most 100,000 shards, a shard not seen after that many uniform hashes has probability
 *       below e^-40.</li>
 * </ul>
 */
public final class PartitionSelector {

    /** Most hashes computed for one day of a {@code hash} scheme before every shard is assumed. */
    public static final int MAX_HASHES_PER_DAY = 4_000_000;

    private PartitionSelector() {}

    /**
     * The buckets that can hold rows in {@code range}, in (day, shard) order, each with the part of
     * the range it can hold.
     *
     * @param entity the partition's entity (hive id, station id), not null
     * @param series what the shard strategy was given as the sensor type (the sensor type for
     *               hive_telemetry, {@code WEATHER} for weather_readings), not null
     * @param range  the queried range, not null
     * @param scheme the strategy and shard count the rows were written with, not null
     * @return the slices, sorted by bucket; never empty
     */
    public static List<ShardSlice> slices(String entity, String series, TimeRange range, ShardScheme scheme) {
        List<ShardSlice> slices = new ArrayList<>();
        long first = range.fromMillis();
        long last = range.toMillis() - 1;
        for (long epochDay = DayBucket.epochDay(first); epochDay <= DayBucket.epochDay(last); epochDay++) {
            long dayStart = epochDay * DayBucket.MILLIS_PER_DAY;
            long lo = Math.max(first, dayStart);
            long hi = Math.min(last, dayStart + DayBucket.MILLIS_PER_DAY - 1);
            LocalDate day = LocalDate.ofEpochDay(epochDay);
            if (scheme.strategy() == ShardStrategy.TIME) {
                addTimeShards(slices, day, dayStart, lo, hi, scheme.shards());
            } else {
                BitSet shards = hashShards(entity, series, lo, hi, scheme.shards());
                for (int shard = shards.nextSetBit(0); shard >= 0; shard = shards.nextSetBit(shard + 1)) {
                    slices.add(new ShardSlice(new DayShard(day, shard), lo, hi + 1));
                }
            }
        }
        return slices;
    }

    /**
     * The first millisecond of the day that a {@code time} shard holds: the least {@code m} with
     * {@code floor(m x shards / 86,400,000) >= shard}, that is {@code ceil(shard x 86,400,000 / shards)}.
     *
     * @param shard  0 to {@code shards} (the latter gives the day's length)
     * @param shards shards per day, at least 1
     * @return milliseconds since the start of the UTC day
     */
    static long timeShardStart(int shard, int shards) {
        return Math.floorDiv(shard * DayBucket.MILLIS_PER_DAY + shards - 1, shards);
    }

    private static void addTimeShards(
            List<ShardSlice> slices, LocalDate day, long dayStart, long lo, long hi, int shards) {
        int firstShard = ShardStrategy.TIME.shard("", "", lo, shards);
        int lastShard = ShardStrategy.TIME.shard("", "", hi, shards);
        for (int shard = firstShard; shard <= lastShard; shard++) {
            long from = Math.max(lo, dayStart + timeShardStart(shard, shards));
            long to = Math.min(hi + 1, dayStart + timeShardStart(shard + 1, shards));
            slices.add(new ShardSlice(new DayShard(day, shard), from, to));
        }
    }

    private static BitSet hashShards(String entity, String series, long lo, long hi, int shards) {
        BitSet seen = new BitSet(shards);
        int distinct = 0;
        long hashes = 0;
        for (long t = lo; t <= hi && distinct < shards; t++) {
            if (++hashes > MAX_HASHES_PER_DAY) {
                seen.set(0, shards);
                break;
            }
            int shard = ShardStrategy.HASH.shard(entity, series, t, shards);
            if (!seen.get(shard)) {
                seen.set(shard);
                distinct++;
            }
        }
        return seen;
    }
}
