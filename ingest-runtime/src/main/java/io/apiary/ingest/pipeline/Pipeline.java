package io.apiary.ingest.pipeline;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.sink.CassandraSink;
import io.apiary.ingest.sink.ExtraTables;
import io.apiary.ingest.sink.SinkSettings;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.tables.TableCatalog;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.topology.BuiltInTables;
import io.apiary.ingest.topology.IngestTopology;
import io.apiary.ingest.topology.InputProgress;
import io.apiary.ingest.topology.TableSpec;
import io.apiary.ingest.topology.TopologySettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.MissingSourceTopicException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running application: the Kafka Streams topology, the Cassandra sink, or both, in one JVM.
 * {@link #close()} stops the sink first (it drains in-flight writes and commits), then the
 * topology (it commits its transaction and closes its stores).
 *
 * <p>Thread-safe: start and close may be called from different threads.
 */
public final class Pipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
    private static final Duration CLOSE_MARGIN = Duration.ofSeconds(1);

    private final KafkaStreams streams;
    /** Whether the topology leaves its group on close ({@link GroupMembership#onClose}); null without it. */
    private final CloseOptions.GroupMembershipOperation topologyOnClose;

    private final CassandraSink sink;
    private final CqlSession session;
    private final List<AutoCloseable> meterBinders;
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile String failure;
    private volatile boolean stopping;

    private Pipeline(
            KafkaStreams streams,
            CloseOptions.GroupMembershipOperation topologyOnClose,
            CassandraSink sink,
            CqlSession session,
            List<AutoCloseable> meterBinders) {
        this.streams = streams;
        this.topologyOnClose = topologyOnClose;
        this.sink = sink;
        this.session = session;
        this.meterBinders = meterBinders;
    }

    /**
     * Starts the chosen components.
     *
     * @param config       the configuration, not null
     * @param withTopology whether to run the topology
     * @param withSink     whether to run the sink (needs Cassandra and the applied CQL)
     * @param registry     where metrics go, not null
     * @return the running pipeline
     * @throws org.apache.kafka.common.KafkaException or com.datastax.oss.driver.api.core.DriverException
     *         if a client cannot be created or a table is missing
     * @throws IllegalStateException if a schema registry subject does not fit the application's
     *         schemas, or is missing without auto-registration ({@link RegistrySubjects})
     */
    public static Pipeline start(IngestConfig config, boolean withTopology, boolean withSink, MeterRegistry registry) {
        KafkaStreams streams = null;
        CloseOptions.GroupMembershipOperation topologyOnClose = null;
        CassandraSink sink = null;
        CqlSession session = null;
        List<AutoCloseable> binders = new ArrayList<>();
        Pipeline pipeline;
        // read before connecting: a fault in a registration is the user's to fix, not a server's
        List<ExtraTables.Registration> extraTables = withSink ? extraTables(config) : List.of();
        RegistrySubjects.prepare(
                config.topics(),
                extraTables.stream().map(ExtraTables.Registration::subject).toList());
        try {
            if (withSink) {
                session = CassandraSessions.open(config, registry);
                sink = createSink(config, session, registry, binders, extraTables);
            }
            if (withTopology) {
                InputProgress progress = new InputProgress();
                java.util.Properties props = StreamsProperties.from(config);
                props.put(InputProgress.CONFIG_KEY, progress);
                topologyOnClose = GroupMembership.onClose(props);
                LOG.info(
                        "Topology group membership: {}",
                        GroupMembership.isStatic(props)
                                ? "static (instance.id "
                                        + GroupMembership.instanceId(config).orElse("from streams.*")
                                        + "): it stays in the group on a clean stop, and a restart under the same id"
                                        + " within the session timeout gets its tasks back without waiting for this member to expire"
                                : "dynamic (no instance.id): it leaves the group on a clean stop");
                streams = new KafkaStreams(
                        IngestTopology.build(TopologySettings.from(config).withInputLag(progress)),
                        props,
                        progress.clientSupplier());
                KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
                streamsMetrics.bindTo(registry);
                binders.add(streamsMetrics);
            }
            pipeline = new Pipeline(streams, topologyOnClose, sink, session, binders);
        } catch (RuntimeException e) {
            if (session != null) {
                session.close();
            }
            throw e;
        }
        pipeline.startComponents();
        return pipeline;
    }

    /**
     * @param config the configuration
     * @return the tables registered with {@code sink.extra.tables}, read and checked
     * @throws IllegalArgumentException naming the file and the fault if one cannot be used, or if it
     *                                  names a table of {@code cql/} or one of the pipeline's topics
     */
    public static List<ExtraTables.Registration> extraTables(IngestConfig config) {
        List<ExtraTables.Registration> registrations =
                ExtraTables.readAll(config.getList(IngestConfig.SINK_EXTRA_TABLES).stream()
                        .map(String::trim)
                        .filter(path -> !path.isEmpty())
                        .map(java.nio.file.Path::of)
                        .toList());
        List<String> topics = config.topics().all();
        for (ExtraTables.Registration extra : registrations) {
            String table = extra.table().name();
            if (TableCatalog.bundled().find(table).isPresent()
                    || table.equals(TableNames.TABLE_COPY_PROGRESS)
                    || table.equals(TableNames.TABLE_VERIFY_FINDINGS)) {
                throw new IllegalArgumentException("table registration " + extra.file() + ": table " + table
                        + " is one of cql/'s (or table copy's); a registered table needs a name of its own");
            }
            if (topics.contains(extra.rowTopic())) {
                throw new IllegalArgumentException("table registration " + extra.file() + ": row topic "
                        + extra.rowTopic() + " is one of the pipeline's topics (" + String.join(", ", topics)
                        + "); a registered table needs a row topic of its own");
            }
        }
        return registrations;
    }

    private static CassandraSink createSink(
            IngestConfig config,
            CqlSession session,
            MeterRegistry registry,
            List<AutoCloseable> binders,
            List<ExtraTables.Registration> extraTables) {
        SinkSettings settings = SinkSettings.from(config);
        String keyspace = config.getString(IngestConfig.CASSANDRA_KEYSPACE);
        Topics topics = config.topics();
        List<TableSpec<?, ?>> specs = new ArrayList<>(BuiltInTables.ALL);
        extraTables.forEach(extra -> specs.add(TableSpec.registered(extra)));
        Map<String, SinkTable<?>> tables = new HashMap<>();
        for (TableSpec<?, ?> spec : specs) {
            SinkTable<?> table;
            try {
                table = spec.sinkTable(
                        session, keyspace, tableOptions(config, spec.table().name()), topics);
            } catch (com.datastax.oss.driver.api.core.servererrors.InvalidQueryException e) {
                // the live table differs from its CQL (a column missing, the table absent)
                String source = extraTables.stream()
                        .filter(extra ->
                                extra.table().name().equals(spec.table().name()))
                        .map(extra -> "the registration " + extra.file())
                        .findFirst()
                        .orElse("cql/");
                throw new IllegalArgumentException(
                        "table " + keyspace + "." + spec.table().name() + " differs from its CQL in " + source
                                + ": Cassandra refuses the sink's statements (" + e.getMessage()
                                + "); a missing table is created by `ingest-app schema apply` (--cql-dir for a registered"
                                + " table), an existing one must be altered to match",
                        e);
            }
            tables.put(spec.rowTopic().apply(topics).name(), table);
        }
        for (ExtraTables.Registration extra : extraTables) {
            LOG.info(
                    "Sink table {} registered in {}: row topic {} (read: {}; subject {})",
                    extra.table().name(),
                    extra.file(),
                    extra.rowTopic(),
                    topics.wireFormat().framingsRead(),
                    extra.subject().name());
        }

        Map<String, Object> consumerSettings = sinkConsumerSettings(config, settings);
        Map<String, Object> producerSettings = sinkProducerSettings(config);

        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(consumerSettings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(producerSettings, new ByteArraySerializer(), new ByteArraySerializer());
        for (KafkaClientMetrics clientMetrics :
                List.of(new KafkaClientMetrics(consumer), new KafkaClientMetrics(producer))) {
            clientMetrics.bindTo(registry);
            binders.add(clientMetrics);
        }
        return new CassandraSink(settings, session, tables, consumer, producer, registry);
    }

    /**
     * The settings of the sink's Kafka consumer: {@code kafka.*}, the poll and fetch sizes that follow from
     * the sink's memory bound, the static membership of {@link GroupMembership}, {@code sink.consumer.*},
     * then what at-least-once rests on (no auto commit, read committed, no offset reset, the sink's group),
     * which a pass-through cannot change.
     *
     * @param config   the configuration, not null
     * @param settings the sink's settings (its memory bound), not null
     * @return a new mutable map, without deserializers
     */
    public static Map<String, Object> sinkConsumerSettings(IngestConfig config, SinkSettings settings) {
        Map<String, Object> consumerSettings = new HashMap<>(config.kafkaClientSettings());
        consumerSettings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        // one fetch is the most a poll can bring beyond the sink's memory bound: keep it a quarter of it
        int fetchBytes = (int) Math.max(1 << 20, Math.min(50L << 20, settings.maxBufferedBytes() / 4));
        consumerSettings.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, fetchBytes);
        consumerSettings.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Math.min(1 << 20, fetchBytes));
        consumerSettings.put(ConsumerConfig.CLIENT_ID_CONFIG, "apiary-sink");
        // static where the instance has a stable identity; a dynamic member leaves the group on close
        GroupMembership.applyToConsumer(consumerSettings, config);
        Map<String, Object> passThrough = config.passThrough(IngestConfig.SINK_CONSUMER_PREFIX);
        consumerSettings.putAll(passThrough);
        // What at-least-once rests on cannot be passed through: the sink alone commits, after Cassandra acknowledged.
        for (String forced : new String[] {
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            ConsumerConfig.GROUP_ID_CONFIG
        }) {
            if (passThrough.containsKey(forced)) {
                LOG.warn("Ignoring {}{}: the sink sets it itself", IngestConfig.SINK_CONSUMER_PREFIX, forced);
            }
        }
        consumerSettings.put(ConsumerConfig.GROUP_ID_CONFIG, config.getString(IngestConfig.SINK_GROUP_ID));
        consumerSettings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerSettings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // "none": the sink starts new partitions from the beginning itself and reports records
        // deleted by retention before it wrote them, instead of skipping them silently.
        consumerSettings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");

        return consumerSettings;
    }

    /**
     * The settings of the sink's dead letter producer: {@code kafka.*} with acks=all and idempotence.
     *
     * @param config the configuration, not null
     * @return a new mutable map, without serializers
     */
    public static Map<String, Object> sinkProducerSettings(IngestConfig config) {
        Map<String, Object> producerSettings = new HashMap<>(config.kafkaClientSettings());
        producerSettings.put(ProducerConfig.ACKS_CONFIG, "all");
        producerSettings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerSettings.put(ProducerConfig.CLIENT_ID_CONFIG, "apiary-sink-dead-letter");
        return producerSettings;
    }

    /**
     * @param config the configuration
     * @param table  a table the sink writes
     * @return its consistency level (its own for a table of {@link IngestConfig#SINK_TABLES}, else
     *         {@code sink.consistency}) and TTL (its own for a table of {@link IngestConfig#SINK_TABLES},
     *         else the table's {@code default_time_to_live}), also logged
     */
    public static SinkTable.Options tableOptions(IngestConfig config, String table) {
        boolean own = IngestConfig.SINK_TABLES.contains(table);
        String level =
                own ? config.getString(IngestConfig.sinkTableConsistency(table)).trim() : "";
        if (level.isEmpty()) {
            level = config.getString(IngestConfig.SINK_CONSISTENCY).trim();
        }
        SinkTable.Options options = new SinkTable.Options(
                DefaultConsistencyLevel.valueOf(level.toUpperCase(java.util.Locale.ROOT)),
                own ? config.getInt(IngestConfig.sinkTableTtl(table)) : -1);
        LOG.info(
                "Sink table {}: consistency {}, TTL {}",
                table,
                options.consistency(),
                options.ttlSeconds() < 0 ? "the table's default" : options.ttlSeconds() + " s");
        return options;
    }

    private void startComponents() {
        if (streams != null) {
            streams.setUncaughtExceptionHandler(e -> {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                if (cause instanceof MissingSourceTopicException || e instanceof MissingSourceTopicException) {
                    LOG.error(
                            "The topology's input topics do not exist ({}); create them with "
                                    + "'ingest-app topics create'",
                            cause.getMessage());
                    fail("topology: input topics missing (ingest-app topics create)");
                } else if (io.apiary.ingest.serde.SchemaRegistryException.unavailableIn(e)) {
                    LOG.error(
                            "A stream thread stopped because the schema registry is unavailable; it is replaced"
                                    + " and resumes from the committed offsets: {}",
                            e.getMessage());
                    return StreamThreadExceptionResponse.REPLACE_THREAD;
                } else {
                    LOG.error("The topology stopped on an unexpected error", e);
                    fail("topology: " + e);
                }
                return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
            streams.setGlobalStateRestoreListener(new RestoreProgress());
            streams.setStateListener((now, before) -> {
                LOG.info("Topology state {} -> {}", before, now);
                if (now == KafkaStreams.State.ERROR) {
                    fail("topology entered state ERROR");
                }
            });
            streams.start();
        }
        if (sink != null) {
            Thread thread = new Thread(
                    () -> {
                        sink.run();
                        if (sink.failure() != null) {
                            fail("sink: " + sink.failure());
                        }
                    },
                    "apiary-sink");
            thread.start();
        }
    }

    private void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
        terminated.countDown();
    }

    /** @return the topology's Kafka Streams instance, or null if not running the topology */
    public KafkaStreams streams() {
        return streams;
    }

    /** @return the sink's Cassandra session, or null if not running the sink */
    public CqlSession session() {
        return session;
    }

    /** @return true once {@link #close()} began: the components are draining or stopped */
    public boolean stopping() {
        return stopping;
    }

    /** @return the sink, or null if not running the sink */
    public CassandraSink sink() {
        return sink;
    }

    /**
     * Blocks until a component fails or the pipeline is closed.
     *
     * @return the failure, or null if closed normally
     * @throws InterruptedException if interrupted
     */
    public String awaitTermination() throws InterruptedException {
        terminated.await();
        return failure;
    }

    /** @return a description of the first component failure, or null */
    public String failure() {
        return failure;
    }

    /** Stops the sink (drain and commit), then the topology, then the Cassandra session, within 60 s. Idempotent. */
    @Override
    public void close() {
        close(Duration.ofSeconds(60));
    }

    /**
     * Stops the sink (it sends what it holds, waits for Cassandra up to its drain timeout and
     * commits what was acknowledged), then the topology (it commits and closes its stores, and
     * leaves its group unless it is a static member: {@link GroupMembership#onClose}) with
     * the time left, then the Cassandra session. Returns within about {@code timeout} even if a
     * component does not stop in time; what was not committed is read again after a restart.
     * Idempotent; thread-safe.
     *
     * @param timeout the whole shutdown's budget, positive
     * @return true if every component stopped within it
     */
    public boolean close(Duration timeout) {
        stopping = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean clean = true;
        try {
            if (sink != null) {
                sink.stop();
                if (!sink.awaitStopped(timeout)) {
                    LOG.warn("The sink did not stop within {} s", timeout.toSeconds());
                    clean = false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            clean = false;
        }
        if (streams != null) {
            // a second of the budget stays for the session and the meters
            Duration left = Duration.ofNanos(
                    Math.max(deadline - System.nanoTime() - CLOSE_MARGIN.toNanos(), CLOSE_MARGIN.toNanos()));
            if (!streams.close(CloseOptions.timeout(left).withGroupMembershipOperation(topologyOnClose))) {
                LOG.warn("The topology did not close within the shutdown timeout; uncommitted work is redone after "
                        + "a restart");
                clean = false;
            }
        }
        for (AutoCloseable binder : meterBinders) {
            try {
                binder.close();
            } catch (Exception e) {
                LOG.debug("Closing a meter binder failed", e);
            }
        }
        if (session != null) {
            session.close();
        }
        terminated.countDown();
        return clean;
    }

    /**
     * @param timeout how long to wait
     * @return true if the topology reached RUNNING within the timeout (true without a topology)
     * @throws InterruptedException if interrupted
     */
    public boolean awaitTopologyRunning(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (streams != null && streams.state() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > deadline || failure != null) {
                return false;
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return true;
    }
}
