package io.apiary.ingest.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

class BoundedRocksDbMemoryTest {

    static {
        RocksDB.loadLibrary();
    }

    /** As Kafka Streams hands options to the setter: with a block-based table config already set. */
    private static Options storeOptions() {
        Options options = new Options();
        options.setTableFormatConfig(new BlockBasedTableConfig());
        return options;
    }

    @Test
    void should_give_every_store_the_same_write_buffer_manager_and_cache_index_and_filter_blocks() {
        Map<String, Object> configs = Map.of(
                StateStoreOptions.TOPOLOGY_ROCKSDB_MEMORY_BYTES,
                64L << 20,
                StateStoreOptions.TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO,
                0.5);
        try (Options first = storeOptions();
                Options second = storeOptions()) {
            new BoundedRocksDbMemory().setConfig("hourly-activity-hours", first, configs);
            new BoundedRocksDbMemory().setConfig("hourly-activity-seen", second, configs);

            assertThat(first.writeBufferManager()).isNotNull().isSameAs(second.writeBufferManager());
            assertThat(first.maxWriteBufferNumber()).isEqualTo(BoundedRocksDbMemory.MAX_WRITE_BUFFERS);
            assertThat(first.writeBufferSize()).isBetween(1L << 20, 16L << 20);
            BlockBasedTableConfig table = (BlockBasedTableConfig) first.tableFormatConfig();
            assertThat(table.cacheIndexAndFilterBlocks()).isTrue();
            assertThat(table.cacheIndexAndFilterBlocksWithHighPriority()).isTrue();
            assertThat(table.pinTopLevelIndexAndFilter()).isTrue();
            assertThat(BoundedRocksDbMemory.sharedCapacityBytes()).isPositive();
        }
    }
}
