package io.apiary.ingest.bench;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What one state benchmark run ({@link StateBench}) measured, and the arithmetic on it: totals,
 * per open (hive, hour) and per sample held. A byte figure of -1 (or a NaN of seconds) was not
 * measured: the child's JVM is a JRE without {@code jcmd} (live heap), there is no {@code /proc}
 * (resident set), the stores are in memory (RocksDB), or the step did not happen. Immutable and
 * thread-safe.
 *
 * @param hives                  hives of the workload; each has one open hour
 * @param samplesPerHive         samples each hive sent within the hour
 * @param samplesSent            samples Kafka acknowledged
 * @param grace                  the hourly windows' grace period ({@code activity.window.grace.ms})
 * @param storeType              {@code rocksdb} or {@code in_memory} ({@code topology.store.type})
 * @param partitions             partitions of the entrance-counter topic, so tasks of the hourly stores
 * @param heapMaxBytes           the topology JVM's maximum heap ({@code -Xmx})
 * @param rocksDbBoundBytes      {@code topology.rocksdb.memory.bytes}
 * @param feedSeconds            time to produce the samples
 * @param processSeconds         from the feed's start (the topology processes while it is fed) to
 *                               the topology's group having committed every sample
 * @param heapPeakBytes          the most heap used in the topology's JVM in any scrape of its
 *                               {@code /metrics} (every second, garbage included)
 * @param liveHeapStartBytes     its heap used right after a full collection, once RUNNING, before the feed
 * @param liveHeapBytes          the same once every sample was processed: the state's peak
 * @param residentPeakBytes      the topology's peak resident set ({@code VmHWM}) before the SIGKILL
 * @param rocksDbCachePeakBytes  the most RocksDB block cache in use in any scrape (one cache shared
 *                               by every store, which holds the memtables, index and filter blocks too)
 * @param rocksDbCacheCapacityBytes the cache's capacity as RocksDB reports it
 * @param memtablePeakBytes      the most memory in memtables, all stores, in any scrape
 * @param tableReadersBytes      RocksDB's memory for reading SST files outside the cache, all stores,
 *                               at the peak
 * @param stores                 per store of the hourly sums, not null
 * @param stateFolderBytes       bytes of every file in the topology's state folder at the peak
 * @param killToRunningSeconds   from the SIGKILL to the restarted topology's {@code /health/ready}
 *                               answering 200 (RUNNING)
 * @param launchToRunningSeconds from the restarted JVM's launch to RUNNING
 * @param restoredRecords        records the restarted topology restored (its restore lines)
 * @param restoredPartitions     changelog partitions it restored
 * @param restoreSeconds         seconds it spent restoring (its restore lines: each round's first
 *                               partition's start to its last one's end, summed over rounds)
 * @param stateFolderAfterRestoreBytes the state folder once RUNNING again
 * @param stateFolderStoppedBytes the state folder after the restarted topology's clean stop
 *                               (SIGTERM: it commits, flushes and closes its stores)
 * @param hoursClosed            hours the topology closed, both processes (0 when the workload
 *                               kept its hour open, as it should)
 * @param lateSamples            samples that came after their hour closed, both processes (0 as well)
 */
public record StateFigures(
        int hives,
        long samplesPerHive,
        long samplesSent,
        Duration grace,
        String storeType,
        int partitions,
        long heapMaxBytes,
        long rocksDbBoundBytes,
        double feedSeconds,
        double processSeconds,
        long heapPeakBytes,
        long liveHeapStartBytes,
        long liveHeapBytes,
        long residentPeakBytes,
        long rocksDbCachePeakBytes,
        long rocksDbCacheCapacityBytes,
        long memtablePeakBytes,
        long tableReadersBytes,
        List<Store> stores,
        long stateFolderBytes,
        double killToRunningSeconds,
        double launchToRunningSeconds,
        long restoredRecords,
        int restoredPartitions,
        double restoreSeconds,
        long stateFolderAfterRestoreBytes,
        long stateFolderStoppedBytes,
        long hoursClosed,
        long lateSamples) {

    /**
     * One store of the hourly sums.
     *
     * @param name             its name, e.g. {@code hourly-activity-hours}
     * @param keys             RocksDB's estimate of its keys at the peak, all tasks (-1 when in memory)
     * @param changelogBytes   its changelog topic's bytes, one copy of each partition (the largest
     *                         replica's log) at the peak
     * @param changelogRecords offsets its changelog's partitions span (records, and transaction
     *                         markers under exactly-once), at the peak
     * @param folderBytes      bytes of its RocksDB folders in the state folder, all tasks, at the peak
     *                         (memtables not yet flushed are not in it)
     * @param folderBytesStopped the same after the restarted topology's clean stop, which flushes
     *                         the memtables: the store's size on disk
     */
    public record Store(
            String name,
            long keys,
            long changelogBytes,
            long changelogRecords,
            long folderBytes,
            long folderBytesStopped) {}

    /** Checks what must be there. */
    public StateFigures {
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(storeType, "storeType");
        stores = List.copyOf(stores);
        if (hives < 1 || samplesPerHive < 1) {
            throw new IllegalArgumentException("hives and samples per hive must be at least 1");
        }
    }

    /** @return the (hive, hour) pairs open at the peak: one per hive, since all samples are in one hour */
    public long openHiveHours() {
        return hives;
    }

    /** @return the samples of the workload: {@link #hives()} x {@link #samplesPerHive()} */
    public long samples() {
        return hives * samplesPerHive;
    }

    /**
     * @return RocksDB's memory at the peak: the shared block cache in use (memtables, index and
     *     filter blocks included) plus the table readers; -1 when not measured
     */
    public long rocksDbBytes() {
        return rocksDbCachePeakBytes < 0 ? -1 : rocksDbCachePeakBytes + Math.max(0, tableReadersBytes);
    }

    /** @return whether RocksDB's memory stayed within {@code topology.rocksdb.memory.bytes}; false when not measured */
    public boolean rocksDbWithinBound() {
        return rocksDbBytes() >= 0 && rocksDbBytes() <= rocksDbBoundBytes;
    }

    /** @return live heap at the peak less the live heap before the feed; -1 when not measured */
    public long liveHeapGrowthBytes() {
        return liveHeapBytes < 0 || liveHeapStartBytes < 0 ? -1 : liveHeapBytes - liveHeapStartBytes;
    }

    /** @return bytes of every store's changelog, one copy */
    public long changelogBytes() {
        return stores.stream().mapToLong(Store::changelogBytes).sum();
    }

    /** @return offsets every store's changelog spans */
    public long changelogRecords() {
        return stores.stream().mapToLong(Store::changelogRecords).sum();
    }

    /**
     * @param bytes a total, or -1 when not measured
     * @return bytes per open (hive, hour), NaN when not measured
     */
    public double perHiveHour(long bytes) {
        return bytes < 0 ? Double.NaN : (double) bytes / openHiveHours();
    }

    /**
     * @param bytes a total, or -1 when not measured
     * @return bytes per sample held (every sample sent is held: its hour is open), NaN when not measured
     */
    public double perSample(long bytes) {
        return bytes < 0 ? Double.NaN : (double) bytes / samples();
    }

    /** @return samples processed per second of {@link #processSeconds()}, NaN when not measured */
    public double samplesPerSecond() {
        return processSeconds > 0 ? samplesSent / processSeconds : Double.NaN;
    }

    /** @return records restored per second of {@link #restoreSeconds()}, NaN when not measured */
    public double restoredPerSecond() {
        return restoreSeconds > 0 ? restoredRecords / restoreSeconds : Double.NaN;
    }

    /**
     * @param name a store's name
     * @return the store, or null if the run measured none of that name
     */
    public Store store(String name) {
        return stores.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }
}
