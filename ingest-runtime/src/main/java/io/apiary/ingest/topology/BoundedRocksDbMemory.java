package io.apiary.ingest.topology;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds the off-heap memory of every RocksDB store of one topology instance (all stream
 * threads, all tasks) by one number, {@value StateStoreOptions#TOPOLOGY_ROCKSDB_MEMORY_BYTES}:
 * the stores share one LRU block cache, and a write buffer manager charges their memtables to
 * that same cache up to {@value StateStoreOptions#TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO} of it;
 * index and filter blocks live in the cache too (high priority, top level pinned) instead of
 * growing with the number of SST files. This is the approach of Kafka Streams' memory
 * management guide ("Bounding total RocksDB memory"); without it each store has its own cache
 * and memtables, so resident memory grows with the number of tasks and can pass the container's
 * limit.
 *
 * <p>Kafka Streams creates one instance per store through {@code rocksdb.config.setter}; the
 * shared cache and manager are created once per JVM, from the first store's settings, and never
 * closed (they live as long as the process). Thread-safe.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

    private static final Logger LOG = LoggerFactory.getLogger(BoundedRocksDbMemory.class);
    /** Share of the cache kept for index and filter blocks (RocksDB's high-priority pool). */
    static final double HIGH_PRIORITY_POOL_RATIO = 0.1;
    /** Memtables per store: one being written, one being flushed. */
    static final int MAX_WRITE_BUFFERS = 2;

    private static Shared shared;

    /** The cache and write buffer manager shared by every store of the JVM. */
    private record Shared(long totalBytes, long writeBufferBytes, Cache cache, WriteBufferManager writeBuffers) {}

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Shared memory = shared(configs);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(memory.cache());
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(memory.writeBuffers());
        options.setMaxWriteBufferNumber(MAX_WRITE_BUFFERS);
        // a memtable never larger than the stores' whole write budget shared by a few stores
        options.setWriteBufferSize(Math.max(1L << 20, Math.min(16L << 20, memory.writeBufferBytes() / 4)));
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // The cache and write buffer manager are shared by every store and outlive each of them.
    }

    private static synchronized Shared shared(Map<String, Object> configs) {
        if (shared == null) {
            long total = longSetting(configs, StateStoreOptions.TOPOLOGY_ROCKSDB_MEMORY_BYTES, 128L << 20);
            double ratio = doubleSetting(configs, StateStoreOptions.TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO, 0.5);
            long writeBuffers = (long) (total * ratio);
            Cache cache = new LRUCache(total, -1, false, HIGH_PRIORITY_POOL_RATIO);
            shared = new Shared(total, writeBuffers, cache, new WriteBufferManager(writeBuffers, cache));
            LOG.info(
                    "RocksDB stores share {} MiB off-heap (block cache, memtables up to {} MiB, index and filters)",
                    total >> 20,
                    writeBuffers >> 20);
        }
        return shared;
    }

    /** @return the bytes the shared cache was created with, or -1 before the first store opened */
    static synchronized long sharedCapacityBytes() {
        return shared == null ? -1 : shared.totalBytes();
    }

    private static long longSetting(Map<String, Object> configs, String name, long fallback) {
        Object value = configs.get(name);
        return value == null ? fallback : Long.parseLong(value.toString().trim());
    }

    private static double doubleSetting(Map<String, Object> configs, String name, double fallback) {
        Object value = configs.get(name);
        return value == null ? fallback : Double.parseDouble(value.toString().trim());
    }
}
