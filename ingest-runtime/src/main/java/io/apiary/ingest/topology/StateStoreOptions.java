package io.apiary.ingest.topology;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;

/**
 * The options of the topology's state stores: their kind (RocksDB or in memory) and RocksDB's memory. They are part of {@link IngestConfig#definition()} (one definition, one reference), loaded as an
 * {@link OptionGroup} service. Thread-safe (constants only).
 */
public final class StateStoreOptions implements OptionGroup {

    /** Option name: {@value}. */
    public static final String TOPOLOGY_STORE_TYPE = "topology.store.type";

    /** Option name: {@value}. */
    public static final String TOPOLOGY_ROCKSDB_MEMORY_BYTES = "topology.rocksdb.memory.bytes";

    /** Option name: {@value}. */
    public static final String TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO = "topology.rocksdb.write.buffer.ratio";

    /** For the service loader. */
    public StateStoreOptions() {}

    @Override
    public void define(ConfigDef definition) {
        definition
                .define(
                        TOPOLOGY_STORE_TYPE,
                        Type.STRING,
                        "rocksdb",
                        ValidString.in("rocksdb", "in_memory"),
                        Importance.MEDIUM,
                        "State stores of the hourly sums (open hours, sample identities, close time): 'rocksdb' "
                                + "(the default) keeps them on disk in topology.state.dir, so a restart on the same "
                                + "volume restores only the changelog's tail; 'in_memory' keeps them on the heap, "
                                + "which then grows with every sample of an open hour (docs/performance.md, Topology "
                                + "state under many hives), and restores them from the changelog topics at every start.")
                .define(
                        TOPOLOGY_ROCKSDB_MEMORY_BYTES,
                        Type.LONG,
                        128L << 20,
                        Range.atLeast(8L << 20),
                        Importance.MEDIUM,
                        "Off-heap memory of all RocksDB stores of one topology instance together, bytes: one "
                                + "block cache shared by every store, which also holds their memtables (write "
                                + "buffer manager), index and filter blocks. Add it to the heap when sizing the "
                                + "container's memory limit.")
                .define(
                        TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO,
                        Type.DOUBLE,
                        0.5,
                        IngestConfig.finiteBetween(0.1, 0.9),
                        Importance.LOW,
                        "Share of topology.rocksdb.memory.bytes that memtables may take before RocksDB flushes "
                                + "them; the rest caches blocks.");
    }
}
