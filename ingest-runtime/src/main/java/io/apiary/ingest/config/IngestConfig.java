package io.apiary.ingest.config;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.topics.Topics;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;

/**
 * The application's configuration: every option defined once, with its type, default, unit,
 * validator and documentation (Kafka's {@link ConfigDef}, as {@code StreamsConfig} does).
 *
 * <p>Pass-through prefixes: {@code kafka.*} goes to every Kafka client (for example
 * {@code kafka.bootstrap.servers}, {@code kafka.security.protocol}, {@code kafka.sasl.jaas.config},
 * {@code kafka.ssl.truststore.location}); {@code streams.*} goes to Kafka Streams only;
 * {@code sink.consumer.*} to the sink's consumer only. Cassandra's authentication and TLS have
 * options of their own ({@code cassandra.auth.*}, {@code cassandra.ssl.*}: {@link io.apiary.ingest.cassandra.CassandraSecurityOptions}, an option group),
 * which override the same settings of the driver's {@code application.conf}; every other driver
 * setting (timeouts, pooling, throttling, other auth providers) goes in that file, named by
 * {@value #CASSANDRA_DRIVER_CONFIG_FILE}.
 *
 * <p>Immutable and thread-safe.
 */
public final class IngestConfig extends AbstractConfig {

    /** Prefix of settings passed to every Kafka client. */
    public static final String KAFKA_PREFIX = "kafka.";
    /** Prefix of settings passed to Kafka Streams only. */
    public static final String STREAMS_PREFIX = "streams.";
    /** Prefix of settings passed to the sink's Kafka consumer only. */
    public static final String SINK_CONSUMER_PREFIX = "sink.consumer.";

    public static final String KAFKA_BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
    public static final String TOPOLOGY_APPLICATION_ID = "topology.application.id";
    public static final String TOPOLOGY_STATE_DIR = "topology.state.dir";
    public static final String TOPOLOGY_PROCESSING_GUARANTEE = "topology.processing.guarantee";
    public static final String TELEMETRY_SHARDS = "telemetry.shards";
    public static final String TELEMETRY_SHARD_STRATEGY = "telemetry.shard.strategy";
    public static final String WEATHER_SHARDS = "weather.shards";
    public static final String ACTIVITY_GRACE_MS = "activity.window.grace.ms";

    /**
     * The largest {@link #ACTIVITY_GRACE_MS}, ms: 730 days, the default TTL of {@code hive_activity}
     * ({@code cql/020-hive_activity.cql}); an hour held open longer than its table keeps its row
     * gains nothing. It also keeps an hour's end plus grace far below {@link Long#MAX_VALUE} for every
     * event time validation lets through, so the window arithmetic cannot overflow.
     */
    public static final long ACTIVITY_GRACE_MAX_MS = Duration.ofDays(730).toMillis();

    public static final String ACTIVITY_IDLE_TIMEOUT_MS = "activity.idle.timeout.ms";

    /**
     * The largest {@link #ACTIVITY_IDLE_TIMEOUT_MS}, ms: 730 days, like {@link #ACTIVITY_GRACE_MAX_MS}. A
     * quiet partition's hours close only once the wall clock is this far past their end plus grace, so a
     * longer timeout would keep them open after {@code hive_activity} had dropped their rows.
     */
    public static final long ACTIVITY_IDLE_TIMEOUT_MAX_MS = ACTIVITY_GRACE_MAX_MS;

    public static final String ACTIVITY_CORRECTION_HORIZON_MS = "activity.correction.horizon.ms";

    /**
     * The largest {@link #ACTIVITY_CORRECTION_HORIZON_MS}, ms: 730 days, like {@link #ACTIVITY_GRACE_MAX_MS}:
     * a correction of an hour whose {@code hive_activity} row has expired would write a row with only the
     * late samples, and the hour's end plus grace plus horizon stays far below {@link Long#MAX_VALUE}.
     */
    public static final long ACTIVITY_CORRECTION_HORIZON_MAX_MS = ACTIVITY_GRACE_MAX_MS;

    /**
     * The longest wait of the sink and of the service, ms: 1 day, for {@link #SINK_COMMIT_INTERVAL_MS},
     * {@link #SINK_RETRY_BACKOFF_MS}, {@link #SINK_RETRY_BACKOFF_MAX_MS}, {@link #SINK_DRAIN_TIMEOUT_MS} and
     * the service's health and shutdown timeouts. Their deadlines are {@link System#nanoTime()} plus the
     * wait in nanoseconds: {@code Duration.toNanos()} throws past about 292 years and the sum overflows
     * before that, so an unbounded value failed only when first used (the first retry, the shutdown). A
     * day is far beyond any useful wait and far below both limits.
     */
    public static final long MAX_WAIT_MS = Duration.ofDays(1).toMillis();

    /**
     * The part of a setting's documentation that says why its waits end at {@link #MAX_WAIT_MS}.
     */
    public static final String MAX_WAIT_DOC = "At most 86,400,000 (1 day): its deadlines are computed in nanoseconds "
            + "of System.nanoTime(), which overflow past 292 years, and a longer wait only hides a fault.";

    /**
     * The largest {@link #SINK_BATCH_MAX_BYTES}: 256 MiB, the Cassandra driver's largest frame
     * ({@code advanced.protocol.max-frame-length}): a larger batch could never be sent. A stock
     * Cassandra refuses a mutation above half its {@code commitlog_segment_size} (16 MiB) already.
     */
    public static final long SINK_BATCH_MAX_BYTES_LIMIT = 256L << 20;

    /**
     * The largest {@link #SINK_COMBINE_MAX_PARTITIONS}: 10,000, the largest {@link #SINK_BATCH_MAX_ROWS}.
     * A combined batch holds at most {@code sink.batch.max.rows} rows, so never more partitions than that.
     */
    public static final int SINK_COMBINE_MAX_PARTITIONS_LIMIT = 10_000;

    public static final String ACTIVITY_UPDATE_INTERVAL_MS = "activity.update.interval.ms";
    public static final String VALIDATION_MAX_FUTURE_SKEW_MS = "validation.max.future.skew.ms";
    public static final String VALIDATION_MAX_AGE_MS = "validation.max.age.ms";
    public static final String SINK_GROUP_ID = "sink.group.id";
    /** Registration files of tables the sink writes beside those of cql/ (see sink.ExtraTables). */
    public static final String SINK_EXTRA_TABLES = "sink.extra.tables";

    public static final String SINK_MAX_IN_FLIGHT = "sink.max.in.flight.requests";
    public static final String SINK_LIMIT_ALGORITHM = "sink.concurrency.limit.algorithm";
    public static final String SINK_BATCH_MAX_ROWS = "sink.batch.max.rows";
    public static final String SINK_BATCH_MAX_BYTES = "sink.batch.max.bytes";
    public static final String SINK_MAX_BUFFERED_ROWS = "sink.max.buffered.rows";
    public static final String SINK_MAX_BUFFERED_BYTES = "sink.max.buffered.bytes";
    public static final String SINK_COMMIT_INTERVAL_MS = "sink.commit.interval.ms";
    public static final String SINK_RETRY_BACKOFF_MS = "sink.retry.backoff.ms";
    public static final String SINK_RETRY_BACKOFF_MAX_MS = "sink.retry.backoff.max.ms";
    public static final String SINK_LINGER_MS = "sink.linger.ms";
    public static final String SINK_MAX_ROWS_PER_SECOND = "sink.max.rows.per.second";
    public static final String SINK_COMBINE_REPLICAS = "sink.batch.combine.replicas";
    public static final String SINK_COMBINE_MAX_PARTITIONS = "sink.batch.combine.max.partitions";
    public static final String SINK_DRAIN_TIMEOUT_MS = "sink.drain.timeout.ms";
    public static final String SINK_CONSISTENCY = "sink.consistency";
    /** Cassandra's largest TTL in seconds (20 years; {@code Attributes.MAX_TTL}). */
    public static final int MAX_TTL_SECONDS = 630_720_000;
    /** Tables the sink writes; each has {@code sink.table.<name>.consistency} and {@code .ttl.seconds}. */
    public static final java.util.List<String> SINK_TABLES = io.apiary.ingest.tables.TableNames.CURRENT;

    public static final String CASSANDRA_CONTACT_POINTS = "cassandra.contact.points";
    public static final String CASSANDRA_LOCAL_DATACENTER = "cassandra.local.datacenter";
    public static final String CASSANDRA_KEYSPACE = "cassandra.keyspace";
    public static final String CASSANDRA_DRIVER_CONFIG_FILE = "cassandra.driver.config.file";
    public static final String TOPIC_TELEMETRY = "topic.telemetry";
    public static final String TOPIC_ENTRANCE_COUNTS = "topic.entrance.counts";
    public static final String TOPIC_HOURLY_ACTIVITY = "topic.hourly.activity";
    public static final String TOPIC_TELEMETRY_ROWS = "topic.telemetry.rows";
    public static final String TOPIC_ACTIVITY_ROWS = "topic.activity.rows";
    public static final String TOPIC_DEAD_LETTER = "topic.dead.letter";
    public static final String TOPIC_ACTIVITY_LATE = "topic.activity.late";
    public static final String TOPIC_WEATHER = "topic.weather";
    public static final String TOPIC_ALERTS = "topic.alerts";
    public static final String TOPIC_WEATHER_ROWS = "topic.weather.rows";
    public static final String TOPIC_ALERT_ROWS = "topic.alert.rows";
    /** Every setting that names one of the pipeline's topics. */
    public static final java.util.List<String> TOPIC_NAME_SETTINGS = java.util.List.of(
            TOPIC_TELEMETRY,
            TOPIC_ENTRANCE_COUNTS,
            TOPIC_HOURLY_ACTIVITY,
            TOPIC_TELEMETRY_ROWS,
            TOPIC_ACTIVITY_ROWS,
            TOPIC_DEAD_LETTER,
            TOPIC_ACTIVITY_LATE,
            TOPIC_WEATHER,
            TOPIC_ALERTS,
            TOPIC_WEATHER_ROWS,
            TOPIC_ALERT_ROWS);

    public static final String TOPIC_PARTITIONS = "topic.partitions";
    public static final String TOPIC_REPLICATION_FACTOR = "topic.replication.factor";

    /**
     * The definition of every option: this class's, {@link io.apiary.ingest.serde.RegistrySettings}'
     * and the features' {@link OptionGroup}s'. Built once when the class initialises and never changed
     * afterwards; {@link #definition()} hands out copies.
     */
    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(
                    KAFKA_BOOTSTRAP_SERVERS,
                    Type.LIST,
                    "localhost:9092",
                    Importance.HIGH,
                    "Kafka brokers to bootstrap from, host:port, comma-separated.")
            .define(
                    TOPOLOGY_APPLICATION_ID,
                    Type.STRING,
                    "apiary-ingest-topology",
                    Importance.HIGH,
                    "Kafka Streams application.id of the topology: its consumer group and the prefix of its internal topics.")
            .define(
                    TOPOLOGY_STATE_DIR,
                    Type.STRING,
                    System.getProperty("java.io.tmpdir") + "/apiary-ingest-state",
                    Importance.MEDIUM,
                    "Folder of the topology's local state: its RocksDB stores (see topology.store.type), checkpoints and "
                            + "locks. On Kubernetes, a persistent volume per instance, so a restart does not rebuild the "
                            + "stores from their changelog topics.")
            .define(
                    TOPOLOGY_PROCESSING_GUARANTEE,
                    Type.STRING,
                    "exactly_once_v2",
                    ValidString.in("exactly_once_v2", "at_least_once"),
                    Importance.MEDIUM,
                    "Kafka Streams processing.guarantee. exactly_once_v2 keeps hourly counts exact across restarts.")
            .define(
                    TELEMETRY_SHARDS,
                    Type.INT,
                    96,
                    Range.between(1, 100_000),
                    Importance.HIGH,
                    "Shards per day bucket of hive_telemetry_v2 (see the partition math in cql/010-hive_telemetry_v2.cql). "
                            + "Changing it moves new rows to other partitions; readers must know every value used.")
            .define(
                    TELEMETRY_SHARD_STRATEGY,
                    Type.STRING,
                    "time",
                    ValidString.in("time", "hash"),
                    Importance.HIGH,
                    "How a reading's shard is chosen, in hive_telemetry_v2 and weather_readings: 'time' = contiguous "
                            + "slices of the UTC day (batches fill), 'hash' = uniform hash of hive (station), sensor and "
                            + "reading time (no batching): a read-spreading option that costs writes, since nearly "
                            + "every row is a partition of its own and so a request of its own.")
            .define(
                    WEATHER_SHARDS,
                    Type.INT,
                    4,
                    Range.between(1, 100_000),
                    Importance.MEDIUM,
                    "Shards per day bucket of weather_readings (see the partition math in cql/030-weather_readings.cql: "
                            + "4 keep a station reporting every 10 s at 15,120 cells per partition). Changing it moves "
                            + "new rows to other partitions; readers must know every value used.")
            .define(
                    ACTIVITY_IDLE_TIMEOUT_MS,
                    Type.LONG,
                    Duration.ofMinutes(1).toMillis(),
                    Range.between(1_000, ACTIVITY_IDLE_TIMEOUT_MAX_MS),
                    Importance.MEDIUM,
                    "Quiet rule of the hourly windows, ms of wall-clock time: once a hive has sent no sample for this "
                            + "long, while its partition of the entrance-counter topic holds no record the topology has "
                            + "not processed (no lag, no unprocessed fetched records, no stall of the stream thread "
                            + "for this long), the hive's open hours whose end plus grace is before the wall clock minus "
                            + "this timeout are closed: with live traffic at most this long plus "
                            + "activity.update.interval.ms after its own samples would have closed them; after a replay "
                            + "of history, all of them. A sample that comes later for such an hour is a correction "
                            + "(activity.correction.horizon.ms). At most 63,072,000,000 (730 days, hive_activity's "
                            + "retention: a quiet hive's hours would stay open after their rows expired).")
            .define(
                    ACTIVITY_UPDATE_INTERVAL_MS,
                    Type.LONG,
                    Duration.ofSeconds(10).toMillis(),
                    Range.between(100, 3_600_000),
                    Importance.LOW,
                    "How often, ms of wall-clock time, the open hours that changed are written to hive_activity "
                            + "(interim values; the result follows at close), corrections of closed hours are published, "
                            + "and the quiet rule is applied. A gap of more than this plus 1 s between two quiet checks "
                            + "(the stream thread stalled) starts the quiet rule's wait again.")
            .define(
                    VALIDATION_MAX_FUTURE_SKEW_MS,
                    Type.LONG,
                    Duration.ofMinutes(5).toMillis(),
                    Range.atLeast(0),
                    Importance.MEDIUM,
                    "Gateway records whose event time is further ahead of the receiver's clock than this, ms, are "
                            + "dead-lettered (FUTURE_TIMESTAMP) before they can move stream time.")
            .define(
                    VALIDATION_MAX_AGE_MS,
                    Type.LONG,
                    -1L,
                    ConfigDef.LambdaValidator.with(
                            (name, value) -> {
                                if (value instanceof Long ms && ms != -1L && ms < 1L) {
                                    throw new org.apache.kafka.common.config.ConfigException(
                                            name, value, "must be -1 (each table's retention) or at least 1 ms");
                                }
                            },
                            () -> "-1 or [1,...]"),
                    Importance.MEDIUM,
                    "Gateway records whose event time is older than this, ms before the receiver's clock, are "
                            + "dead-lettered (EXPIRED_TIMESTAMP). -1 (the default) takes each table's retention "
                            + "(hive_telemetry_v2 90 days, hive_activity 730 days, weather_readings 365 days, agent_alerts_v2 "
                            + "365 days). Replays of history (import-csv of old files, the demo) set it larger.")
            .define(
                    ACTIVITY_GRACE_MS,
                    Type.LONG,
                    Duration.ofMinutes(10).toMillis(),
                    Range.between(0, ACTIVITY_GRACE_MAX_MS),
                    Importance.HIGH,
                    "Grace period of the hourly windows, in milliseconds: how long after an hour ends, in the hive's own "
                            + "event time (its latest sample), samples for it are still summed before its first result "
                            + "is published. At most 63,072,000,000 (730 days, hive_activity's retention: an hour held "
                            + "open longer would outlive its row). Changed across a restart, it applies to hours not yet "
                            + "closed; a closed hour stays closed (a later sample corrects it).")
            .define(
                    ACTIVITY_CORRECTION_HORIZON_MS,
                    Type.LONG,
                    Duration.ofDays(2).toMillis(),
                    Range.between(0, ACTIVITY_CORRECTION_HORIZON_MAX_MS),
                    Importance.HIGH,
                    "Correction horizon of the hourly windows, in milliseconds: how long after an hour has closed, in "
                            + "the hive's own event time, a sample for it still corrects it (its hive_activity row gets "
                            + "the new sums and a result with timing LATE and the next pane_index is published on the "
                            + "hourly topic); later samples go to the late topic. The topology keeps each hour's sums and "
                            + "its samples' identities until then, so state grows with it (docs/performance.md). The "
                            + "default, 2 days, covers a gateway offline for up to two days while other gateways of its hive stay "
                            + "live; a hive whose every gateway was offline is corrected after any outage, its close time "
                            + "having stopped with its last sample. 0: no corrections. At most 63,072,000,000 (730 days, "
                            + "hive_activity's retention). Raised across a restart, it does not bring back hours already "
                            + "forgotten: their samples stay late.")
            .define(
                    SINK_GROUP_ID,
                    Type.STRING,
                    "apiary-ingest-sink",
                    Importance.HIGH,
                    "Consumer group of the Cassandra sink.")
            .define(
                    SINK_EXTRA_TABLES,
                    Type.LIST,
                    "",
                    Importance.LOW,
                    "Tables the sink writes beside those of cql/, each fed by its own row topic: paths of their "
                            + "registration files (.properties naming the table's CQL file, its row topic and the row "
                            + "schema; see docs/platform.md, \"Tables beside cql/\"), comma-separated. Empty (the "
                            + "default): none.")
            .define(
                    SINK_MAX_IN_FLIGHT,
                    Type.INT,
                    256,
                    Range.between(1, 10_000),
                    Importance.HIGH,
                    "Maximum write requests (batches or single statements) awaiting Cassandra's answer, per sink "
                            + "instance: the ceiling of the adaptive limit (sink.concurrency.limit.algorithm). 256: "
                            + "with one row per request (the hash shard strategy) 64 halved the rate in ingest-app bench.")
            .define(
                    SINK_LIMIT_ALGORITHM,
                    Type.STRING,
                    "vegas",
                    ConfigDef.ValidString.in("vegas", "gradient2", "aimd", "fixed"),
                    Importance.MEDIUM,
                    "How the limit of requests in flight follows Cassandra (Netflix concurrency-limits): vegas (the "
                            + "default) or gradient2 lower it as requests start to queue at the server, so that write "
                            + "latency stays near the unloaded one; under both, an overload or timeout also halves it "
                            + "(at most every 200 ms), as aimd alone does; fixed keeps sink.max.in.flight.requests.")
            .define(
                    SINK_BATCH_MAX_ROWS,
                    Type.INT,
                    100,
                    Range.between(1, 10_000),
                    Importance.MEDIUM,
                    "Maximum rows in one batch.")
            .define(
                    SINK_BATCH_MAX_BYTES,
                    Type.LONG,
                    -1L,
                    minusOneOrBetween(100, SINK_BATCH_MAX_BYTES_LIMIT),
                    Importance.MEDIUM,
                    "Maximum size of one batch in bytes, counted as Cassandra counts it for "
                            + "batch_size_warn_threshold, bounded from above (clustering values plus 40 bytes per "
                            + "row, each written cell's value plus 24 bytes). -1 (the default): 512 KiB for a batch of "
                            + "one partition, which Cassandra does not check against batch_size_warn_threshold or "
                            + "batch_size_fail_threshold (BatchStatement.verifyBatchSize skips single-partition "
                            + "batches, CASSANDRA-10876); batches combining partitions "
                            + "(sink.batch.combine.replicas) stay within the server's batch_size_warn_threshold, "
                            + "read from system_views.settings at start (stock: 5 KiB), so the sink never causes "
                            + "batch warnings. At most 268,435,456 (256 MiB, the Cassandra driver's largest frame: a "
                            + "larger batch could never be sent; a stock Cassandra refuses a mutation above 16 MiB, half "
                            + "its commitlog_segment_size).")
            .define(
                    SINK_LINGER_MS,
                    Type.LONG,
                    1_000L,
                    Range.between(0, 60_000),
                    Importance.HIGH,
                    "How long a Cassandra partition's first row waits for more rows of the same partition before "
                            + "its batch is sent, in milliseconds (like the Kafka producer's linger.ms). 0 sends what "
                            + "each poll brings at once. A batch also goes when it reaches sink.batch.max.rows or "
                            + "sink.batch.max.bytes, and early when the buffer is three quarters full.")
            .define(
                    SINK_MAX_ROWS_PER_SECOND,
                    Type.LONG,
                    0L,
                    Range.atLeast(0),
                    Importance.MEDIUM,
                    "Most rows written per second by one sink instance; 0 (the default) sets no limit.")
            .define(
                    SINK_COMBINE_REPLICAS,
                    Type.BOOLEAN,
                    false,
                    Importance.LOW,
                    "Combine small batches whose partitions have the same replicas (from the driver's token map) "
                            + "into one UNLOGGED batch, up to sink.batch.combine.max.partitions partitions and "
                            + "sink.batch.max.bytes. Saves requests when partitions are many and rows per partition "
                            + "few; each such batch still goes to a replica of all its partitions.")
            .define(
                    SINK_COMBINE_MAX_PARTITIONS,
                    Type.INT,
                    -1,
                    minusOneOrBetween(2, SINK_COMBINE_MAX_PARTITIONS_LIMIT),
                    Importance.LOW,
                    "Most partitions in a combined batch; -1 (the default) reads the server's "
                            + "unlogged_batch_across_partitions_warn_threshold (stock: 10). At most 10,000, the largest "
                            + "sink.batch.max.rows: a combined batch never holds more rows, so never more partitions.")
            .define(
                    SINK_DRAIN_TIMEOUT_MS,
                    Type.LONG,
                    30_000L,
                    Range.between(0, MAX_WAIT_MS),
                    Importance.MEDIUM,
                    "On shutdown, how long the sink keeps writing what it holds before it commits and exits; on "
                            + "partition revocation, how long it waits for writes in flight. Rows not written by then "
                            + "are read again from Kafka by the next owner (nothing is lost). 0 does not wait. "
                            + MAX_WAIT_DOC)
            .define(
                    SINK_CONSISTENCY,
                    Type.STRING,
                    "LOCAL_QUORUM",
                    consistencyLevel(false),
                    Importance.MEDIUM,
                    "Write consistency level of every table, unless sink.table.<table>.consistency says otherwise.")
            .define(
                    SINK_MAX_BUFFERED_ROWS,
                    Type.INT,
                    1_000_000,
                    Range.atLeast(1),
                    Importance.MEDIUM,
                    "Rows held in memory (polled but not yet acknowledged by Cassandra). Above it the sink pauses "
                            + "its Kafka partitions and keeps polling, resuming once writes drain. Rows per batch "
                            + "grow with it: about this many rows divided by the partitions written at once. A "
                            + "waiting row of the benchmark's workload (hive_telemetry_v2, about 60 rows per key) costs "
                            + "about 140 bytes of heap (ingest-jmh BufferFootprint), so the default holds about 140 "
                            + "MiB; rows of many distinct keys (the hash shard strategy) cost more each.")
            .define(
                    SINK_MAX_BUFFERED_BYTES,
                    Type.LONG,
                    128L * 1024 * 1024,
                    Range.atLeast(1),
                    Importance.MEDIUM,
                    "Key and value bytes of the rows held in memory; the sink pauses its partitions above it too, "
                            + "so a flood of large rows during a Cassandra outage cannot exhaust the heap.")
            .define(
                    SINK_COMMIT_INTERVAL_MS,
                    Type.LONG,
                    1_000L,
                    Range.between(10, MAX_WAIT_MS),
                    Importance.LOW,
                    "How often the sink commits the offsets Cassandra has acknowledged, in milliseconds. "
                            + MAX_WAIT_DOC)
            .define(
                    SINK_RETRY_BACKOFF_MS,
                    Type.LONG,
                    100L,
                    Range.between(1, MAX_WAIT_MS),
                    Importance.LOW,
                    "First wait before retrying a write that timed out or found Cassandra unavailable, in milliseconds; "
                            + "doubles on each retry, with jitter. " + MAX_WAIT_DOC)
            .define(
                    SINK_RETRY_BACKOFF_MAX_MS,
                    Type.LONG,
                    30_000L,
                    Range.between(1, MAX_WAIT_MS),
                    Importance.LOW,
                    "Longest wait between retries of one write, in milliseconds. Retries go on while Cassandra is down. "
                            + MAX_WAIT_DOC)
            .define(
                    CASSANDRA_CONTACT_POINTS,
                    Type.LIST,
                    "127.0.0.1:9042",
                    Importance.HIGH,
                    "Cassandra nodes to connect to first, host:port, comma-separated.")
            .define(
                    CASSANDRA_LOCAL_DATACENTER,
                    Type.STRING,
                    "datacenter1",
                    Importance.HIGH,
                    "The Cassandra datacenter this instance is in (the driver routes to its replicas).")
            .define(CASSANDRA_KEYSPACE, Type.STRING, "apiary", Importance.HIGH, "Keyspace of the tables.")
            .define(
                    CASSANDRA_DRIVER_CONFIG_FILE,
                    Type.STRING,
                    "",
                    Importance.MEDIUM,
                    "Optional path of a Cassandra java driver application.conf (HOCON) layered over the driver's "
                            + "reference.conf: authentication, TLS, timeouts, pooling, throttling. Use ${?ENV_VAR} "
                            + "substitutions for secrets.")
            .define(TOPIC_TELEMETRY, Type.STRING, Topics.TELEMETRY, Importance.LOW, "Gateway telemetry topic.")
            .define(
                    TOPIC_ENTRANCE_COUNTS,
                    Type.STRING,
                    Topics.ENTRANCE_COUNTS,
                    Importance.LOW,
                    "Gateway entrance-counter topic.")
            .define(
                    TOPIC_HOURLY_ACTIVITY,
                    Type.STRING,
                    Topics.HOURLY_ACTIVITY,
                    Importance.LOW,
                    "Topic of final hourly activity results, for analysts.")
            .define(
                    TOPIC_TELEMETRY_ROWS,
                    Type.STRING,
                    Topics.TELEMETRY_ROWS,
                    Importance.LOW,
                    "Row topic of hive_telemetry_v2.")
            .define(
                    TOPIC_ACTIVITY_ROWS,
                    Type.STRING,
                    Topics.ACTIVITY_ROWS,
                    Importance.LOW,
                    "Row topic of hive_activity.")
            .define(
                    TOPIC_DEAD_LETTER,
                    Type.STRING,
                    Topics.DEAD_LETTER,
                    Importance.MEDIUM,
                    "Dead letter topic: records that could not be processed, with headers naming stage and reason.")
            .define(
                    TOPIC_ACTIVITY_LATE,
                    Type.STRING,
                    Topics.ACTIVITY_LATE,
                    Importance.LOW,
                    "Entrance-counter samples that arrived after their hour had closed (window end + grace).")
            .define(TOPIC_WEATHER, Type.STRING, Topics.WEATHER, Importance.LOW, "Weather station readings topic.")
            .define(TOPIC_ALERTS, Type.STRING, Topics.ALERTS, Importance.LOW, "Agent alerts topic.")
            .define(
                    TOPIC_WEATHER_ROWS,
                    Type.STRING,
                    Topics.WEATHER_ROWS,
                    Importance.LOW,
                    "Row topic of weather_readings.")
            .define(TOPIC_ALERT_ROWS, Type.STRING, Topics.ALERT_ROWS, Importance.LOW, "Row topic of agent_alerts_v2.")
            .define(
                    TOPIC_PARTITIONS,
                    Type.INT,
                    6,
                    Range.between(1, 10_000),
                    Importance.MEDIUM,
                    "Partitions of the topics the application creates when they are missing "
                            + "(the sink and the topology scale out to this many instances).")
            .define(
                    TOPIC_REPLICATION_FACTOR,
                    Type.SHORT,
                    (short) -1,
                    minusOneOrBetween(1, Short.MAX_VALUE),
                    Importance.MEDIUM,
                    "Replication factor of the topics the application creates; -1 takes the broker's default "
                            + "(default.replication.factor). 0 and other negative values are refused: Kafka would "
                            + "refuse the topics only when the application creates them.");

    /** The features' option groups, loaded once: their {@link OptionGroup#check} runs at every load. */
    private static final java.util.List<OptionGroup> GROUPS = new java.util.ArrayList<>();

    static {
        io.apiary.ingest.serde.RegistrySettings.define(DEFINITION);
        for (OptionGroup group : java.util.ServiceLoader.load(OptionGroup.class, IngestConfig.class.getClassLoader())) {
            group.define(DEFINITION);
            GROUPS.add(group);
        }
        if (GROUPS.isEmpty()) {
            // without them the features' options would be unknown settings: say why instead
            throw new IllegalStateException("No option groups on the class path "
                    + "(META-INF/services/io.apiary.ingest.config.OptionGroup): the application jar is incomplete");
        }
        for (String table : SINK_TABLES) {
            DEFINITION.define(
                    sinkTableConsistency(table),
                    Type.STRING,
                    "",
                    consistencyLevel(true),
                    Importance.LOW,
                    "Write consistency level of " + table + "; empty (the default) takes sink.consistency.");
            DEFINITION.define(
                    sinkTableTtl(table),
                    Type.INT,
                    -1,
                    ConfigDef.LambdaValidator.with(
                            (name, value) -> {
                                int ttl = (Integer) value;
                                if (ttl < -1 || ttl > MAX_TTL_SECONDS) {
                                    throw new org.apache.kafka.common.config.ConfigException(
                                            name,
                                            value,
                                            "must be -1 (the table's default) or 0 to " + MAX_TTL_SECONDS
                                                    + " (Cassandra's maximum, 20 years)");
                                }
                            },
                            () -> "-1 or [0,...," + MAX_TTL_SECONDS + "]"),
                    Importance.LOW,
                    "Time to live of the cells written to " + table + ", in seconds; -1 (the default) keeps the "
                            + "table's default_time_to_live (see cql/), 0 writes cells that never expire.");
        }
    }

    /**
     * @param table a table of {@link #SINK_TABLES}
     * @return the name of its consistency-level option
     */
    public static String sinkTableConsistency(String table) {
        return "sink.table." + table + ".consistency";
    }

    /**
     * @return a copy of the definition of every option (names, types, defaults, validators, docs): the
     *         generated reference and the tests read it; changing the copy changes nothing here
     */
    public static ConfigDef definition() {
        return new ConfigDef(DEFINITION);
    }

    /**
     * @param table a table of {@link #SINK_TABLES}
     * @return the name of its TTL option
     */
    public static String sinkTableTtl(String table) {
        return "sink.table." + table + ".ttl.seconds";
    }

    /**
     * @param min the least valid value other than -1
     * @param max the greatest valid value
     * @return a validator of -1 (a setting's "take the default elsewhere") or a value in [min, max], whose
     *         {@link org.apache.kafka.common.config.ConfigException} names the setting, the value and both
     */
    public static ConfigDef.Validator minusOneOrBetween(long min, long max) {
        return ConfigDef.LambdaValidator.with(
                (name, value) -> {
                    long v = ((Number) value).longValue();
                    if (v != -1 && (v < min || v > max)) {
                        throw new org.apache.kafka.common.config.ConfigException(
                                name, value, "must be -1 or in [" + min + ", " + max + "]");
                    }
                },
                () -> "-1 or [" + min + ",...," + max + "]");
    }

    /**
     * Checks a wait that a component was given, for the components built without a configuration (the
     * configuration's ranges refuse such values at load, naming the setting).
     *
     * @param setting the setting the wait comes from, for the message
     * @param wait    the wait, not null
     * @param minMs   the least valid wait, ms
     * @param maxMs   the greatest valid wait, ms
     * @return {@code wait}
     * @throws IllegalArgumentException naming the setting if the wait is outside [minMs, maxMs]
     */
    public static Duration requireWait(String setting, Duration wait, long minMs, long maxMs) {
        if (wait.compareTo(Duration.ofMillis(minMs)) < 0 || wait.compareTo(Duration.ofMillis(maxMs)) > 0) {
            throw new IllegalArgumentException(
                    setting + " (" + wait.toMillis() + " ms) is outside [" + minMs + ", " + maxMs + "] ms");
        }
        return wait;
    }

    /** Consistency levels of plain reads and writes: every level but SERIAL and LOCAL_SERIAL (Cassandra allows them for conditional writes and reads only). */
    static ConfigDef.Validator consistencyLevel(boolean emptyAllowed) {
        return consistencyLevel(emptyAllowed, false);
    }

    /**
     * A validator of a Cassandra consistency level name (case-insensitive): every level but SERIAL and
     * LOCAL_SERIAL; for reads also without ANY, which Cassandra allows for writes only.
     *
     * @param emptyAllowed whether an empty value (take another option's level) is valid
     * @param read         whether the level is a read's
     * @return a validator that throws {@link org.apache.kafka.common.config.ConfigException} naming the valid levels
     */
    public static ConfigDef.Validator consistencyLevel(boolean emptyAllowed, boolean read) {
        java.util.List<String> levels = java.util.Arrays.stream(
                        com.datastax.oss.driver.api.core.DefaultConsistencyLevel.values())
                .filter(level -> !level.isSerial())
                .filter(level -> !read || level != com.datastax.oss.driver.api.core.DefaultConsistencyLevel.ANY)
                .map(Enum::name)
                .toList();
        return ConfigDef.LambdaValidator.with(
                (name, value) -> {
                    String text = ((String) value).trim().toUpperCase(Locale.ROOT);
                    if (!(emptyAllowed && text.isEmpty()) && !levels.contains(text)) {
                        throw new org.apache.kafka.common.config.ConfigException(
                                name, value, "must be one of " + levels);
                    }
                },
                () -> (emptyAllowed ? "\"\" or " : "") + levels);
    }

    /**
     * Validates and types a set of settings.
     *
     * @param settings option name to value; unknown {@code kafka.*}, {@code streams.*} and
     *                 {@code sink.consumer.*} keys pass through; not null
     * @throws org.apache.kafka.common.config.ConfigException naming the option and the accepted
     *                                                        values when a value is invalid, or the options
     *                                                        and the rule when a combination is
     *                                                        ({@link OptionGroup#check})
     */
    public IngestConfig(Map<String, ?> settings) {
        super(DEFINITION, settings, false);
        for (OptionGroup group : GROUPS) {
            group.check(this);
        }
    }

    private volatile io.apiary.ingest.serde.WireFormat wireFormat; // built on first use

    /**
     * The wire format of the topics ({@code wire.format.*}) with its schema registry client
     * ({@code schema.registry.*}), built once per configuration so that its caches are shared.
     *
     * @return the wire format
     * @throws org.apache.kafka.common.config.ConfigException if registry framing is asked for
     *         without {@code schema.registry.url}, or a registry setting is invalid
     */
    public io.apiary.ingest.serde.WireFormat wireFormat() {
        io.apiary.ingest.serde.WireFormat format = wireFormat;
        if (format == null) {
            synchronized (this) {
                format = wireFormat;
                if (format == null) {
                    format = io.apiary.ingest.serde.WireFormat.from(this, this::registryTls);
                    wireFormat = format;
                }
            }
        }
        return format;
    }

    /** @return the TLS context of {@code schema.registry.ssl.*}, for https registry URLs */
    private javax.net.ssl.SSLContext registryTls() {
        return TlsStores.context(
                this,
                io.apiary.ingest.serde.RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PATH,
                io.apiary.ingest.serde.RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PASSWORD,
                io.apiary.ingest.serde.RegistrySettings.REGISTRY_SSL_KEYSTORE_PATH,
                io.apiary.ingest.serde.RegistrySettings.REGISTRY_SSL_KEYSTORE_PASSWORD,
                "the schema registry");
    }

    /**
     * Settings that are neither defined nor a setting their pass-through prefix's clients know:
     * most likely misspelt. {@code kafka.*} must name a setting of a Kafka consumer, producer,
     * admin client or of Kafka Streams; {@code streams.*} one of Kafka Streams (or of its clients,
     * with Kafka Streams' {@code consumer.}, {@code producer.}, {@code admin.},
     * {@code main.consumer.}, {@code restore.consumer.}, {@code global.consumer.} prefixes, or a
     * {@code topic.} setting); {@code sink.consumer.*} one of a consumer.
     *
     * @return their names, sorted
     */
    public java.util.SortedSet<String> unknownSettings() {
        java.util.SortedSet<String> unknown = new java.util.TreeSet<>();
        for (String key : originals().keySet()) {
            boolean known;
            if (key.startsWith(SINK_CONSUMER_PREFIX)) {
                known = KafkaClientSettings.CONSUMER.contains(key.substring(SINK_CONSUMER_PREFIX.length()));
            } else if (key.startsWith(KAFKA_PREFIX)) {
                known = KafkaClientSettings.ANY_CLIENT.contains(key.substring(KAFKA_PREFIX.length()));
            } else if (key.startsWith(STREAMS_PREFIX)) {
                known = KafkaClientSettings.isStreamsSetting(key.substring(STREAMS_PREFIX.length()));
            } else {
                known = DEFINITION.names().contains(key);
            }
            if (!known) {
                unknown.add(key);
            }
        }
        return unknown;
    }

    /**
     * @return the topic names, in the configured wire format ({@link #wireFormat()}, built when
     *         the topics' serdes are first asked for)
     */
    public Topics topics() {
        return new Topics(
                getString(TOPIC_TELEMETRY),
                getString(TOPIC_ENTRANCE_COUNTS),
                getString(TOPIC_HOURLY_ACTIVITY),
                getString(TOPIC_TELEMETRY_ROWS),
                getString(TOPIC_ACTIVITY_ROWS),
                getString(TOPIC_DEAD_LETTER),
                getString(TOPIC_ACTIVITY_LATE),
                getString(TOPIC_WEATHER),
                getString(TOPIC_ALERTS),
                getString(TOPIC_WEATHER_ROWS),
                getString(TOPIC_ALERT_ROWS),
                this::wireFormat);
    }

    /** @return the shard strategy of hive_telemetry_v2 and weather_readings */
    public ShardStrategy shardStrategy() {
        return ShardStrategy.parse(getString(TELEMETRY_SHARD_STRATEGY));
    }

    /**
     * Settings for every Kafka client: {@code kafka.*} with the prefix removed.
     *
     * @return a new mutable map
     */
    public Map<String, Object> kafkaClientSettings() {
        Map<String, Object> settings = new TreeMap<>(originalsWithPrefix(KAFKA_PREFIX));
        settings.put("bootstrap.servers", String.join(",", getList(KAFKA_BOOTSTRAP_SERVERS)));
        return settings;
    }

    /**
     * Settings with a prefix, prefix removed (for {@code streams.} or {@code sink.consumer.}).
     *
     * @param prefix the prefix, with its trailing dot
     * @return a new mutable map
     */
    public Map<String, Object> passThrough(String prefix) {
        return new TreeMap<>(originalsWithPrefix(prefix));
    }

    /**
     * All settings as text for logs, with secrets masked: any key naming a password, secret,
     * JAAS config, token, user info or key material shows {@code [hidden]}.
     *
     * @return option name to printable value, sorted
     */
    public Map<String, String> describe() {
        Map<String, String> out = new TreeMap<>();
        values().forEach((key, value) -> out.put(key, printable(key, value)));
        originals().forEach((key, value) -> out.putIfAbsent(key, printable(key, value)));
        return out;
    }

    static String printable(String key, Object value) {
        String k = key.toLowerCase(Locale.ROOT);
        boolean secret = k.contains("password")
                || k.contains("secret")
                || k.contains("jaas")
                || k.contains("token")
                || k.endsWith(".key")
                || k.contains("credentials")
                || k.contains("user.info");
        return secret ? "[hidden]" : String.valueOf(value);
    }

    /**
     * Like {@link ConfigDef.Range#between}, but refuses NaN, which passes every comparison.
     *
     * @param min the least valid value
     * @param max the greatest valid value
     * @return a validator that throws {@link org.apache.kafka.common.config.ConfigException} outside [min, max] or for NaN
     */
    public static ConfigDef.Validator finiteBetween(double min, double max) {
        ConfigDef.Range range = ConfigDef.Range.between(min, max);
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
}
