package io.apiary.benchspark;

import static org.apache.spark.sql.functions.col;

import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.schema.HiveTelemetryRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.metrics.CassandraConnectorSource;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;

/**
 * The benchmark's peer: a Spark Structured Streaming job in local mode that drains the bench's
 * row topic (hive_telemetry_v2 rows in Avro single-object encoding, decoded by the project's
 * {@link AvroSingleObjectSerde}) into hive_telemetry_v2 with the Spark Cassandra Connector's
 * streaming sink, until {@code rows} rows are written or it is killed.
 *
 * <p>Arguments are {@code key=value} pairs: {@code bootstrap} (Kafka bootstrap servers),
 * {@code topic}, {@code cassandra} (host:port), {@code dc} (local datacenter), {@code keyspace},
 * {@code table}, {@code rows}, {@code progress} (file), {@code checkpoint} (folder), {@code cores}
 * (local mode threads), {@code max-offsets-per-trigger}, and the connector's write tuning:
 * {@code batch-rows}, {@code concurrent-writes}, {@code consistency}, {@code grouping-buffer}.
 *
 * <p>After each micro-batch (whose writes the connector has then acknowledged) it replaces the
 * progress file with {@code key=value} lines: {@code rows} (written so far), {@code requests}
 * and {@code connector_rows} (the connector's own counts of batches sent and rows in them, from its
 * {@code CassandraConnectorSource}; -1 if not available), {@code p50_ms} and {@code p99_ms} (its
 * batch write timer, an exponentially decaying sample, NaN if not available) and, at the end,
 * {@code done=true} or {@code failed=<message>}. The bench reads it. Once {@code rows} are
 * written it waits for the end of its standard input (the bench closes it after reading the
 * job's CPU time), then exits with 0; on failure it exits at once with 1.
 */
public final class SparkPeer {

    /** Name under which the connector's metrics source is registered. */
    static final String METRICS_SOURCE = "cassandra-connector";

    private SparkPeer() {}

    /**
     * @param args {@code key=value} pairs, see the class comment
     * @throws Exception if the job cannot start
     */
    public static void main(String[] args) throws Exception {
        AvroSingleObjectSerde.limitValueSizes();
        Map<String, String> a = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("Argument '" + arg + "' is not key=value");
            }
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        long target = Long.parseLong(need(a, "rows"));
        Path progress = Path.of(need(a, "progress"));
        String[] cassandra = need(a, "cassandra").split(":");
        SparkSession spark = SparkSession.builder()
                .master("local[" + a.getOrDefault("cores", "*") + "]")
                .appName("apiary-bench-spark")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.cassandra.connection.host", cassandra[0])
                .config("spark.cassandra.connection.port", cassandra.length > 1 ? cassandra[1] : "9042")
                .config("spark.cassandra.connection.localDC", need(a, "dc"))
                // the connector's advice for throughput: group rows of one partition into a batch
                .config("spark.cassandra.output.batch.grouping.key", "partition")
                .config("spark.cassandra.output.batch.size.rows", need(a, "batch-rows"))
                .config("spark.cassandra.output.batch.grouping.buffer.size", a.getOrDefault("grouping-buffer", "1000"))
                .config("spark.cassandra.output.concurrent.writes", need(a, "concurrent-writes"))
                .config("spark.cassandra.output.consistency.level", need(a, "consistency"))
                .config("spark.cassandra.output.metrics", "true")
                .config(
                        "spark.metrics.conf.driver.source." + METRICS_SOURCE + ".class",
                        CassandraConnectorSource.class.getName())
                .config(
                        "spark.metrics.conf.executor.source." + METRICS_SOURCE + ".class",
                        CassandraConnectorSource.class.getName())
                .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
        AtomicLong written = new AtomicLong();
        spark.streams().addListener(new StreamingQueryListener() {
            @Override
            public void onQueryStarted(QueryStartedEvent event) {}

            @Override
            public void onQueryProgress(QueryProgressEvent event) {
                long rows = written.addAndGet(event.progress().numInputRows());
                writeProgress(progress, rows, null);
            }

            @Override
            public void onQueryTerminated(QueryTerminatedEvent event) {}
        });
        writeProgress(progress, 0, null);
        Dataset<Row> records = spark.readStream()
                .format("kafka")
                .option("kafka.bootstrap.servers", need(a, "bootstrap"))
                .option("subscribe", need(a, "topic"))
                .option("startingOffsets", "earliest")
                .option("kafka.isolation.level", "read_committed")
                .option("maxOffsetsPerTrigger", need(a, "max-offsets-per-trigger"))
                .load();
        Dataset<TelemetryRowBean> rows = records.select("value")
                .as(Encoders.BINARY())
                .mapPartitions(
                        (MapPartitionsFunction<byte[], TelemetryRowBean>) SparkPeer::decode,
                        Encoders.bean(TelemetryRowBean.class));
        Dataset<Row> columns = rows.select(
                col("hiveId").as("hive_id"),
                col("day"),
                col("shard"),
                col("sensorType").as("sensor_type"),
                col("sensorId").as("sensor_id"),
                col("readingTime").as("reading_time"),
                col("gatewayId").as("gateway_id"),
                col("value"),
                col("unit"));
        StreamingQuery query = columns.writeStream()
                .format("org.apache.spark.sql.cassandra")
                .option("keyspace", need(a, "keyspace"))
                .option("table", need(a, "table"))
                .option("checkpointLocation", need(a, "checkpoint"))
                .outputMode("append")
                .start();
        int exit = 0;
        try {
            while (written.get() < target) {
                if (query.awaitTermination(TimeUnit.MILLISECONDS.toMillis(100))) {
                    throw new IllegalStateException(
                            "the streaming query ended before " + target + " rows: " + query.exception());
                }
            }
            writeProgress(progress, written.get(), "done=true");
            // stay alive until the bench closes our standard input: it reads our CPU time, which a
            // process that has exited no longer has
            while (System.in.read() >= 0) {
                // nothing to read but the end
            }
        } catch (Exception e) {
            writeProgress(progress, written.get(), "failed=" + String.valueOf(e).replace('\n', ' '));
            exit = 1;
        } finally {
            query.stop();
            spark.stop();
        }
        System.exit(exit);
    }

    private static Iterator<TelemetryRowBean> decode(Iterator<byte[]> values) {
        AvroSingleObjectSerde<HiveTelemetryRow> serde = Serdes.ROWS;
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return values.hasNext();
            }

            @Override
            public TelemetryRowBean next() {
                return TelemetryRowBean.of(serde.decode(values.next()));
            }
        };
    }

    /** The serde, made once per JVM (it is thread-safe). */
    private static final class Serdes {
        static final AvroSingleObjectSerde<HiveTelemetryRow> ROWS = AvroSingleObjectSerde.of(HiveTelemetryRow.class);
    }

    private static synchronized void writeProgress(Path file, long rows, String end) {
        List<String> lines = new ArrayList<>();
        lines.add("rows=" + rows);
        // one source per metrics system instance (driver, executor): the tasks record into one of them
        List<CassandraConnectorSource> sources = connectorSources();
        long requests = sources.isEmpty() ? -1 : 0;
        long connectorRows = sources.isEmpty() ? -1 : 0;
        CassandraConnectorSource busiest = null;
        for (CassandraConnectorSource source : sources) {
            requests += source.writeBatchTimer().getCount();
            connectorRows += source.writeRowMeter().getCount();
            if (busiest == null
                    || source.writeBatchTimer().getCount()
                            > busiest.writeBatchTimer().getCount()) {
                busiest = source;
            }
        }
        lines.add("requests=" + requests);
        lines.add("connector_rows=" + connectorRows);
        boolean timed = busiest != null && busiest.writeBatchTimer().getCount() > 0;
        lines.add("p50_ms="
                + (timed
                        ? String.format(
                                Locale.ROOT,
                                "%.3f",
                                busiest.writeBatchTimer().getSnapshot().getMedian() / 1e6)
                        : "NaN"));
        lines.add("p99_ms="
                + (timed
                        ? String.format(
                                Locale.ROOT,
                                "%.3f",
                                busiest.writeBatchTimer().getSnapshot().get99thPercentile() / 1e6)
                        : "NaN"));
        if (end != null) {
            lines.add(end);
        }
        try {
            Path temp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(temp, lines, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("Cannot write the progress file " + file + ": " + e);
        }
    }

    private static List<CassandraConnectorSource> connectorSources() {
        List<CassandraConnectorSource> found = new ArrayList<>();
        SparkEnv env = SparkEnv.get();
        if (env != null) {
            scala.collection.Iterator<Source> sources =
                    env.metricsSystem().getSourcesByName(METRICS_SOURCE).iterator();
            while (sources.hasNext()) {
                if (sources.next() instanceof CassandraConnectorSource c) {
                    found.add(c);
                }
            }
        }
        return found;
    }

    private static String need(Map<String, String> args, String key) {
        String value = args.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("Missing argument " + key + "=...");
        }
        return value;
    }
}
