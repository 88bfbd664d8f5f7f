package io.apiary.ingest.config;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;

/**
 * The options of running the application as a service: its HTTP endpoints, health rules,
 * shutdown budget, the topology's state stores and RocksDB memory, and Cassandra authentication
 * and TLS. They are part of {@link IngestConfig#definition()} (one definition, one reference);
 * this class only keeps {@link IngestConfig} readable. Thread-safe (constants only).
 */
public final class OperationsOptions {

    public static final String HTTP_PORT = "http.port";
    public static final String HTTP_HOST = "http.host";
    public static final String HEALTH_SINK_STALL_TIMEOUT_MS = "health.sink.stall.timeout.ms";
    public static final String HEALTH_LIVENESS_TIMEOUT_MS = "health.liveness.timeout.ms";
    public static final String SHUTDOWN_TIMEOUT_MS = "shutdown.timeout.ms";
    public static final String TOPOLOGY_STORE_TYPE = "topology.store.type";
    public static final String TOPOLOGY_ROCKSDB_MEMORY_BYTES = "topology.rocksdb.memory.bytes";
    public static final String TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO = "topology.rocksdb.write.buffer.ratio";
    public static final String CASSANDRA_AUTH_USERNAME = "cassandra.auth.username";
    public static final String CASSANDRA_AUTH_PASSWORD = "cassandra.auth.password";
    public static final String CASSANDRA_SSL_ENABLED = "cassandra.ssl.enabled";
    public static final String CASSANDRA_SSL_TRUSTSTORE_PATH = "cassandra.ssl.truststore.path";
    public static final String CASSANDRA_SSL_TRUSTSTORE_PASSWORD = "cassandra.ssl.truststore.password";
    public static final String CASSANDRA_SSL_KEYSTORE_PATH = "cassandra.ssl.keystore.path";
    public static final String CASSANDRA_SSL_KEYSTORE_PASSWORD = "cassandra.ssl.keystore.password";
    public static final String CASSANDRA_SSL_HOSTNAME_VALIDATION = "cassandra.ssl.hostname.validation";

    private OperationsOptions() {}

    /**
     * Like {@link Range#between}, but refuses NaN, which passes every comparison.
     *
     * @param min the least valid value
     * @param max the greatest valid value
     * @return a validator that throws {@link org.apache.kafka.common.config.ConfigException} outside [min, max] or for NaN
     */
    public static ConfigDef.Validator finiteBetween(double min, double max) {
        Range range = Range.between(min, max);
        return ConfigDef.LambdaValidator.with(
                (name, value) -> {
                    if (value instanceof Double d && d.isNaN()) {
                        throw new org.apache.kafka.common.config.ConfigException(
                                name, value, "must be a number in " + range);
                    }
                    range.ensureValid(name, value);
                },
                range::toString);
    }

    /**
     * Adds the options to a definition.
     *
     * @param definition the application's definition, not null
     */
    static void define(ConfigDef definition) {
        definition
                .define(
                        HTTP_PORT,
                        Type.INT,
                        8080,
                        Range.between(-1, 65_535),
                        Importance.HIGH,
                        "Port of the HTTP endpoints of 'run': /health/live, /health/ready and /metrics "
                                + "(Prometheus text format). 0 picks a free port (logged); -1 serves no HTTP.")
                .define(
                        HTTP_HOST,
                        Type.STRING,
                        "0.0.0.0",
                        Importance.LOW,
                        "Address the HTTP endpoints listen on; 0.0.0.0 (the default) is every interface, as "
                                + "Kubernetes probes and Prometheus need.")
                .define(
                        HEALTH_SINK_STALL_TIMEOUT_MS,
                        Type.LONG,
                        60_000L,
                        Range.atLeast(1_000),
                        Importance.MEDIUM,
                        "The sink is not ready while it holds rows of which Cassandra acknowledged none for this "
                                + "long, ms, or while no Cassandra node is connected; it is ready again with the "
                                + "next acknowledgement. Keep it above the longest retry backoff you expect to ride out "
                                + "without being taken out of service.")
                .define(
                        HEALTH_LIVENESS_TIMEOUT_MS,
                        Type.LONG,
                        300_000L,
                        Range.atLeast(10_000),
                        Importance.LOW,
                        "The process is not live (and Kubernetes restarts it) when the sink's poll loop has not "
                                + "turned for this long, ms, which only a hang can cause: the loop turns at least "
                                + "every 100 ms, and a revocation or shutdown drain holds it at most "
                                + "sink.drain.timeout.ms. A component that failed is not live either.")
                .define(
                        SHUTDOWN_TIMEOUT_MS,
                        Type.LONG,
                        60_000L,
                        Range.atLeast(1_000),
                        Importance.HIGH,
                        "After SIGTERM, the most time the application takes to stop, ms: the sink sends what it "
                                + "holds and waits for Cassandra up to sink.drain.timeout.ms, commits what was "
                                + "acknowledged, then the topology commits and closes with what is left. Keep "
                                + "Kubernetes' terminationGracePeriodSeconds above it, and it above "
                                + "sink.drain.timeout.ms plus about 10 s.")
                .define(
                        TOPOLOGY_STORE_TYPE,
                        Type.STRING,
                        "rocksdb",
                        ValidString.in("rocksdb", "in_memory"),
                        Importance.MEDIUM,
                        "State stores of the hourly sums (open hours, sample identities, close time): 'rocksdb' "
                                + "(the default) keeps them on disk in topology.state.dir, so a restart on the same "
                                + "volume restores only the changelog's tail; 'in_memory' keeps them on the heap "
                                + "(about 60 bytes per open hive hour and 80 per sample of an open hour) and "
                                + "restores them from the changelog topics at every start.")
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
                        finiteBetween(0.1, 0.9),
                        Importance.LOW,
                        "Share of topology.rocksdb.memory.bytes that memtables may take before RocksDB flushes "
                                + "them; the rest caches blocks.")
                .define(
                        CASSANDRA_AUTH_USERNAME,
                        Type.STRING,
                        "",
                        Importance.MEDIUM,
                        "User name for Cassandra's PasswordAuthenticator; empty (the default) connects without "
                                + "credentials, or with those of cassandra.driver.config.file.")
                .define(
                        CASSANDRA_AUTH_PASSWORD,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "Password of cassandra.auth.username; set it from a Secret, e.g. the environment "
                                + "variable APIARY_CASSANDRA_AUTH_PASSWORD. Never logged.")
                .define(
                        CASSANDRA_SSL_ENABLED,
                        Type.BOOLEAN,
                        false,
                        Importance.MEDIUM,
                        "Connect to Cassandra over TLS (client_encryption_options), trusting "
                                + "cassandra.ssl.truststore.path, or the JVM's default trust store when empty.")
                .define(
                        CASSANDRA_SSL_TRUSTSTORE_PATH,
                        Type.STRING,
                        "",
                        Importance.MEDIUM,
                        "Trust store (PKCS12 or JKS) with the certificates that sign the Cassandra nodes' "
                                + "certificates; empty uses the JVM's default.")
                .define(
                        CASSANDRA_SSL_TRUSTSTORE_PASSWORD,
                        Type.PASSWORD,
                        "",
                        Importance.MEDIUM,
                        "Password of the trust store; never logged.")
                .define(
                        CASSANDRA_SSL_KEYSTORE_PATH,
                        Type.STRING,
                        "",
                        Importance.LOW,
                        "Key store (PKCS12 or JKS) with this client's key and certificate, when the nodes "
                                + "require client certificates (require_client_auth); empty sends none.")
                .define(
                        CASSANDRA_SSL_KEYSTORE_PASSWORD,
                        Type.PASSWORD,
                        "",
                        Importance.LOW,
                        "Password of the key store and of its key; never logged.")
                .define(
                        CASSANDRA_SSL_HOSTNAME_VALIDATION,
                        Type.BOOLEAN,
                        true,
                        Importance.LOW,
                        "Check that each node's certificate names the address the driver connects to.");
    }
}
