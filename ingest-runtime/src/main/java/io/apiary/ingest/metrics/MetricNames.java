package io.apiary.ingest.metrics;

/**
 * Every Micrometer meter name and tag key the application registers, defined once: the sink, the
 * topology, the benchmark, the commands' summaries and the tests import them from here, and
 * dashboards and alert rules (deploy/) use the same strings. With Prometheus a name's dots become
 * underscores, a meter's base unit is appended unless the name ends with it, and counters gain
 * {@code _total} ({@code apiary.sink.rows.written} is scraped as {@code apiary_sink_rows_written_total},
 * {@code apiary.sink.commit.lag} as {@code apiary_sink_commit_lag_records}); timers are in seconds there
 * ({@code _seconds_count}, {@code _seconds_sum}, {@code _seconds_max}, {@code _seconds_bucket}).
 * Every series carries one unit, as the Prometheus naming practice asks
 * (https://prometheus.io/docs/practices/naming/): a gauge's name ends with its unit
 * ({@code _requests}, {@code _rows}, {@code _bytes}, {@code _partitions}, {@code _records},
 * {@code _rows_per_second}, {@code _bytes_per_second}), a share of 0 to 1 with {@code _ratio}.
 *
 * <p>Each constant's javadoc starts with the meter's type and unit ({@code Gauge, ratio:}), then
 * its tags. Constants only: no state, thread-safe.
 */
public final class MetricNames {

    private MetricNames() {}

    // ---- tag keys ----

    /** Tag: a Cassandra table name, e.g. {@code hive_telemetry_v2}. */
    public static final String TAG_TABLE = "table";
    /** Tag: a Kafka topic name. */
    public static final String TAG_TOPIC = "topic";
    /** Tag: why a write was retried (the driver's error class, e.g. {@code WriteTimeoutException}). */
    public static final String TAG_CAUSE = "cause";
    /** Tag of {@link #SINK_REQUESTS}: {@code replica}, {@code non-replica} or {@code unknown}. */
    public static final String TAG_COORDINATOR = "coordinator";
    /** Tag: a Cassandra node, as the driver names it (its address and port). */
    public static final String TAG_NODE = "node";
    /** Tag of {@link #SINK_PARTITION_HOTTEST_SHARE}: the share of {@code rows} or of {@code bytes}. */
    public static final String TAG_MEASURE = "measure";
    /** Tag: the stage that counted, e.g. {@code sink}, {@code topology}, {@code process}, {@code deserialize}. */
    public static final String TAG_STAGE = "stage";
    /** Tag of {@link #DEAD_LETTER_RECORDS}: the dead letter's reason code (an enum name). */
    public static final String TAG_REASON = "reason";
    /** Tag of the topology's counters: the input stream, e.g. {@code entrance-counts}. */
    public static final String TAG_STREAM = "stream";
    /**
     * Tag of {@link #TOPOLOGY_HOURS_CLOSED}: {@code hive-progress} (the hive's own samples passed the hour's
     * end plus grace) or {@code quiet} (the quiet rule).
     */
    public static final String TAG_BY = "by";

    /** Common tag of every meter: {@code apiary-ingest}. */
    public static final String TAG_APPLICATION = "application";
    /** Common tag of every meter: the process's component, {@code topology}, {@code sink} or {@code all}. */
    public static final String TAG_COMPONENT = "component";

    // ---- base units (Micrometer's Prometheus naming appends one to a name that does not end with it) ----

    /** Base unit: a share of 0 to 1. */
    public static final String UNIT_RATIO = "ratio";
    /** Base unit: rows. */
    public static final String UNIT_ROWS = "rows";
    /** Base unit: bytes. */
    public static final String UNIT_BYTES = "bytes";
    /** Base unit: records (Kafka). */
    public static final String UNIT_RECORDS = "records";
    /** Base unit: write requests to Cassandra (a batch or a single statement each). */
    public static final String UNIT_REQUESTS = "requests";
    /** Base unit: partitions (Kafka's or Cassandra's, as the meter says). */
    public static final String UNIT_PARTITIONS = "partitions";
    /** Base unit: rows per second (underscored: Prometheus appends a base unit as it is). */
    public static final String UNIT_ROWS_PER_SECOND = "rows_per_second";
    /** Base unit: bytes per second (underscored: Prometheus appends a base unit as it is). */
    public static final String UNIT_BYTES_PER_SECOND = "bytes_per_second";

    // ---- shared by the topology and the sink ----

    /**
     * Gauge, seconds: how long the schema registry's current outage has lasted (its requests fail, and
     * records that need a schema from it wait), 0 while it serves; no tags. Absent without a registry.
     */
    public static final String SCHEMA_REGISTRY_OUTAGE = "apiary.schema.registry.outage";

    /** Counter, records: records sent to the dead letter topic; tags {@link #TAG_STAGE}, {@link #TAG_REASON}. */
    public static final String DEAD_LETTER_RECORDS = "apiary.dead.letter.records";
    /**
     * Counter, rows: conflicting writes, two different records for one primary key of a table, of
     * which one row is kept whole (the rule per table is in docs/analysts.md, "Conflicting writes"); tags
     * {@link #TAG_TABLE} and {@link #TAG_STAGE} ({@code topology} or {@code sink}). The pipeline counts
     * the conflicts it can see without reading before each write: the topology within its duplicate
     * window of entrance-counter samples (an open hour), the sink among the rows of one partition that
     * wait in one batch (within {@code sink.linger.ms} of each other at one sink instance).
     */
    public static final String WRITE_CONFLICTS = "apiary.write.conflicts";

    // ---- topology ----

    /**
     * Counter, records: samples that arrived after their hour closed and after the correction horizon (sent to
     * the late topic); tag {@link #TAG_STREAM}.
     */
    public static final String TOPOLOGY_LATE_RECORDS = "apiary.topology.late.records";
    /** Counter, records: samples seen again (same identity, same values) and not summed twice; tag {@link #TAG_STREAM}. */
    public static final String TOPOLOGY_DUPLICATE_RECORDS = "apiary.topology.duplicate.records";
    /** Counter, hours: (hive, hour) windows closed, their first result published; tag {@link #TAG_BY}. */
    public static final String TOPOLOGY_HOURS_CLOSED = "apiary.topology.hours.closed";
    /**
     * Counter, results: later results of closed hours (timing LATE) published on the hourly topic, each
     * replacing the hour's earlier result; tag {@link #TAG_STREAM}.
     */
    public static final String TOPOLOGY_HOUR_CORRECTIONS = "apiary.topology.hour.corrections";

    // ---- sink: throughput and requests ----

    /** Counter, rows: rows acknowledged by Cassandra; tag {@link #TAG_TABLE}. */
    public static final String SINK_ROWS_WRITTEN = "apiary.sink.rows.written";
    /** Distribution summary, rows: rows per write request (1 = a plain statement). */
    public static final String SINK_BATCH_ROWS = "apiary.sink.batch.rows";
    /** Distribution summary, bytes: bytes per write request, as Cassandra counts them for its batch size warning. */
    public static final String SINK_BATCH_BYTES = "apiary.sink.batch.bytes";
    /** Distribution summary, partitions: Cassandra partitions per write request (no buckets). */
    public static final String SINK_BATCH_PARTITIONS = "apiary.sink.batch.partitions";
    /** Timer: from sending a write request to Cassandra's answer. */
    public static final String SINK_WRITE_LATENCY = "apiary.sink.write.latency";
    /** Timer: from a batch's first row arriving to the batch being sent. */
    public static final String SINK_BATCH_LINGER = "apiary.sink.batch.linger";
    /** Counter, requests: acknowledged write requests; tag {@link #TAG_COORDINATOR}. */
    public static final String SINK_REQUESTS = "apiary.sink.requests";
    /** Counter, requests: write requests retried; tag {@link #TAG_CAUSE}. */
    public static final String SINK_RETRIES = "apiary.sink.retries";
    /** Counter, rows: rows in retried write requests; tag {@link #TAG_CAUSE}. */
    public static final String SINK_RETRIED_ROWS = "apiary.sink.retried.rows";
    /**
     * Counter, records: records the broker deleted (retention) before the sink wrote them, i.e. rows
     * lost; tag {@link #TAG_TOPIC}. Registered at 0 for every row topic so that alerts see its first increase.
     */
    public static final String SINK_RECORDS_LOST = "apiary.sink.records.lost";
    /** Counter, warnings: warnings Cassandra returned with acknowledged writes; tag {@link #TAG_TABLE}. */
    public static final String SINK_SERVER_WARNINGS = "apiary.sink.server.warnings";

    // ---- sink: flow control ----

    /** Gauge, requests: write requests (batches or single statements) awaiting Cassandra's answer. */
    public static final String SINK_IN_FLIGHT = "apiary.sink.in.flight.requests";
    /** Gauge, requests: the adaptive limit of write requests in flight. */
    public static final String SINK_IN_FLIGHT_LIMIT = "apiary.sink.in.flight.limit.requests";
    /** Gauge, rows: rows polled and not yet acknowledged. */
    public static final String SINK_BUFFERED_ROWS = "apiary.sink.buffered.rows";
    /** Gauge, bytes: key and value bytes of the rows polled and not yet acknowledged. */
    public static final String SINK_BUFFERED_BYTES = "apiary.sink.buffered.bytes";
    /** Gauge, rows: rows waiting in open batches (linger) for more rows of their partition. */
    public static final String SINK_LINGERING_ROWS = "apiary.sink.lingering.rows";
    /** Gauge, partitions: Kafka partitions paused by flow control. */
    public static final String SINK_PAUSED_PARTITIONS = "apiary.sink.paused.partitions";
    /** Gauge, records: records consumed but not yet committed, over the assigned partitions. */
    public static final String SINK_COMMIT_LAG = "apiary.sink.commit.lag";

    // ---- sink: hot partitions and nodes ----

    /**
     * Gauge, ratio: the heaviest partition's share (0 to 1) of a table's rows or bytes in the last window, 0
     * before the first window and without writes; tags {@link #TAG_TABLE}, {@link #TAG_MEASURE}.
     */
    public static final String SINK_PARTITION_HOTTEST_SHARE = "apiary.sink.partition.hottest.share";
    /** Gauge, rows/s: the heaviest partition's rows per second in the last window, 0 without writes; tag {@link #TAG_TABLE}. */
    public static final String SINK_PARTITION_HOTTEST_ROWS_PER_SECOND = "apiary.sink.partition.hottest.rows.per.second";
    /** Gauge, bytes/s: the heaviest partition's bytes per second in the last window, 0 without writes; tag {@link #TAG_TABLE}. */
    public static final String SINK_PARTITION_HOTTEST_BYTES_PER_SECOND =
            "apiary.sink.partition.hottest.bytes.per.second";
    /**
     * Gauge, bytes: the largest size a heavy partition reaches at the end of its bucket, 0 when none is
     * projected; tag {@link #TAG_TABLE}.
     */
    public static final String SINK_PARTITION_HOTTEST_PROJECTED_BYTES = "apiary.sink.partition.hottest.projected.bytes";
    /** Gauge, partitions: distinct partitions written in the last window (an estimate); tag {@link #TAG_TABLE}. */
    public static final String SINK_WRITTEN_PARTITIONS = "apiary.sink.written.partitions";
    /** Counter, partitions: hot partitions found, one per hot partition per window; tag {@link #TAG_TABLE}. */
    public static final String SINK_HOT_PARTITIONS = "apiary.sink.hot.partitions";
    /** Counter, partitions: heavy partitions projected past Cassandra's size guidance without being hot; tag {@link #TAG_TABLE}. */
    public static final String SINK_PROJECTED_OVER_LIMIT = "apiary.sink.projected.over.limit";
    /** Counter, nodes: hot Cassandra nodes found, one per hot node per window. */
    public static final String SINK_HOT_NODES = "apiary.sink.hot.nodes";
    /** Gauge, ratio: the share (0 to 1) of the last window's rows of which a node is a replica; tag {@link #TAG_NODE}. */
    public static final String SINK_NODE_SHARE = "apiary.sink.node.share";
    /** Counter, rows: rows of which a node is a replica; tag {@link #TAG_NODE}. */
    public static final String SINK_NODE_REPLICA_ROWS = "apiary.sink.node.replica.rows";
}
