package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.it.TwoNodeCassandra;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.tables.CqlScript;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.topology.BuiltInTables;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.SensorType;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's writes are token-aware: on a real two-node cluster ({@link TwoNodeCassandra}) with
 * replication factor 1, the node that coordinates each write is the one replica of its partition,
 * so no write takes an extra hop between nodes. (On the single node of the shared stack this would
 * hold trivially.)
 *
 * <p>Two paths: the requests the sink builds ({@link WriteGroup} of rows bound by
 * {@link SinkTable#hiveTelemetry}), executed one by one and checked with
 * {@link #assertCoordinatorIsReplica}; and the whole sink, consuming a row topic on the shared
 * Kafka broker and writing to this cluster, with combining by replicas on, whose own check of
 * every acknowledged request ({@code apiary.sink.requests{coordinator}}) must count no
 * non-replica.
 *
 * <p>The test is not vacuous: the partitions written are owned by both nodes (some by each), a
 * statement forced onto the non-replica fails the check, and statements without routing
 * information (values inlined in the CQL) are coordinated by a non-replica half of the time.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class TokenAwareIT {

    private static final Logger LOG = LoggerFactory.getLogger(TokenAwareIT.class);
    private static final String KEYSPACE = "it_token_aware";
    private static final ConsistencyLevel CONSISTENCY = ConsistencyLevel.LOCAL_QUORUM;
    private static final int HIVES = 40;
    private static final int DAYS = 2;
    /** Shards of the day as the time strategy numbers them (S = 96: 15-minute slices). */
    private static final int[] SHARDS = {0, 40, 80};

    private static final int READINGS_PER_PARTITION = 5;
    private static final int PARTITIONS = HIVES * DAYS * SHARDS.length;
    private static final LocalDate FIRST_DAY = LocalDate.of(2021, 7, 15);

    private static TwoNodeCassandra cassandra;
    private static CqlSession session;
    private static SinkTable<?> table;
    private static final AvroSingleObjectSerde<HiveTelemetryRow> SERDE =
            AvroSingleObjectSerde.of(HiveTelemetryRow.class);

    @BeforeAll
    static void startClusterAndApplySchema() {
        cassandra = TwoNodeCassandra.start();
        session = cassandra.session();
        List<CqlScript> scripts = SchemaApplier.load(null, KEYSPACE, SchemaApplier.DEV_REPLICATION);
        SchemaApplier.apply(session, scripts);
        assertThat(session.getMetadata().getKeyspace(KEYSPACE).orElseThrow().getReplication())
                .containsEntry("class", "org.apache.cassandra.locator.SimpleStrategy")
                .containsEntry("replication_factor", "1");
        table = BuiltInTables.TELEMETRY.sinkTable(
                session, KEYSPACE, new SinkTable.Options(CONSISTENCY, -1), Topics.defaults());
    }

    @AfterAll
    static void stopCluster() {
        if (cassandra != null) {
            cassandra.close();
        }
    }

    @Test
    void should_coordinate_every_partition_batch_on_its_replica_when_statements_are_bound_by_sink_table() {
        Map<List<Object>, List<SinkRow>> byPartition = new LinkedHashMap<>();
        long offset = 0;
        for (HiveTelemetryRow row : rowsInTimeOrder()) {
            byte[] value = SERDE.encode(row);
            SinkRow.GroupKey key =
                    SinkRow.GroupKey.of(table, new org.apache.kafka.common.TopicPartition("rows", 0), null);
            byPartition
                    .computeIfAbsent(partitionOf(row), k -> new ArrayList<>())
                    .add(new SinkRow(offset++, value, null).bind(key));
        }
        assertThat(byPartition).hasSize(PARTITIONS);

        Map<Node, Integer> owned = new HashMap<>();
        Map<Node, Integer> coordinated = new HashMap<>();
        for (List<SinkRow> partition : byPartition.values()) {
            // the request exactly as the sink builds it: an UNLOGGED batch of one partition's rows
            Statement<?> statement = DriverWriter.request(new WriteGroup(partition, 0, 1).writes());
            assertThat(statement).isInstanceOf(BatchStatement.class);

            ExecutionInfo info = session.execute(statement).getExecutionInfo();

            assertCoordinatorIsReplica(info, statement);
            owned.merge(replicas(statement).iterator().next(), 1, Integer::sum);
            coordinated.merge(info.getCoordinator(), 1, Integer::sum);
        }
        LOG.info("{} partitions: owned and coordinated per node {}", PARTITIONS, describe(owned));
        assertThat(owned.keySet())
                .as("owners of the partitions written: some by each node")
                .containsExactlyInAnyOrderElementsOf(
                        session.getMetadata().getNodes().values());
        assertThat(coordinated).isEqualTo(owned);
        assertThat(session.execute("SELECT count(*) FROM " + KEYSPACE + ".hive_telemetry_v2")
                        .one()
                        .getLong(0))
                .isEqualTo((long) PARTITIONS * READINGS_PER_PARTITION);
    }

    @Test
    void the_running_sink_sends_every_request_to_a_replica_also_when_it_combines_partitions_by_replicas()
            throws Exception {
        io.apiary.ingest.it.ItEndpoints kafka = io.apiary.ingest.it.SharedStack.get();
        Map<String, Object> settings = new HashMap<>();
        settings.put(io.apiary.ingest.config.IngestConfig.KAFKA_BOOTSTRAP_SERVERS, kafka.kafkaBootstrapServers());
        settings.putAll(kafka.registrySettings());
        settings.put(
                io.apiary.ingest.config.IngestConfig.CASSANDRA_CONTACT_POINTS,
                String.join(
                        ",",
                        cassandra.contactPoints().stream()
                                .map(a -> a.getHostString() + ":" + a.getPort())
                                .toList()));
        settings.put(io.apiary.ingest.config.IngestConfig.CASSANDRA_LOCAL_DATACENTER, cassandra.localDatacenter());
        settings.put(io.apiary.ingest.config.IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
        settings.put(io.apiary.ingest.config.IngestConfig.SINK_GROUP_ID, "token-aware-it-sink");
        settings.put(io.apiary.ingest.config.IngestConfig.SINK_COMBINE_REPLICAS, true);
        settings.put(io.apiary.ingest.config.IngestConfig.SINK_CONSISTENCY, "ONE");
        for (String topic : io.apiary.ingest.config.IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(topic, "token-aware-it." + topic);
        }
        io.apiary.ingest.config.IngestConfig config =
                io.apiary.ingest.config.ConfigLoader.load(null, Map.of(), settings);
        try (org.apache.kafka.clients.admin.Admin admin =
                org.apache.kafka.clients.admin.Admin.create(config.kafkaClientSettings())) {
            io.apiary.ingest.pipeline.TopicProvisioner.createMissing(admin, config);
        }
        session.execute(SimpleStatement.newInstance("TRUNCATE " + KEYSPACE + ".hive_telemetry_v2")
                .setTimeout(Duration.ofMinutes(1)));
        int hives = 200;
        int perHive = 5;
        long sent = RowFeed.send(config.kafkaClientSettings(), config.topics().telemetryRowsTopic(), hives, perHive);

        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        io.apiary.ingest.pipeline.Pipeline pipeline =
                io.apiary.ingest.pipeline.Pipeline.start(config, false, true, registry);
        try {
            org.awaitility.Awaitility.await()
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> registry.counter(MetricNames.SINK_ROWS_WRITTEN, "table", "hive_telemetry_v2")
                                    .count()
                            >= sent);
        } finally {
            pipeline.close();
        }
        double toReplica = registry.counter(MetricNames.SINK_REQUESTS, "coordinator", "replica")
                .count();
        double toNonReplica = registry.counter(MetricNames.SINK_REQUESTS, "coordinator", "non-replica")
                .count();
        var partitionsPerRequest =
                registry.find(MetricNames.SINK_BATCH_PARTITIONS).summary();
        LOG.info(
                "Sink on two nodes: {} rows, {} requests to a replica, {} to a non-replica, at most {} partitions "
                        + "per request",
                sent,
                toReplica,
                toNonReplica,
                partitionsPerRequest.max());
        assertThat(toReplica).isPositive();
        assertThat(toNonReplica).isZero();
        assertThat(registry.counter(MetricNames.SINK_SERVER_WARNINGS, "table", "hive_telemetry_v2")
                        .count())
                .isZero();
        assertThat(partitionsPerRequest.max())
                .as("partitions with the same replica were combined")
                .isGreaterThan(1);
        assertThat(session.execute("SELECT count(*) FROM " + KEYSPACE + ".hive_telemetry_v2")
                        .one()
                        .getLong(0))
                .isEqualTo(sent);
    }

    @Test
    void should_fail_the_check_when_a_routed_statement_is_forced_onto_the_non_replica() {
        BoundStatement bound =
                table.bind(SERDE.encode(rowsInTimeOrder().get(0))).insert();
        Node replica = replicas(bound).iterator().next();
        Node other = session.getMetadata().getNodes().values().stream()
                .filter(n -> !n.equals(replica))
                .findFirst()
                .orElseThrow();

        ExecutionInfo info = session.execute(bound.setNode(other)).getExecutionInfo();

        assertThat(info.getCoordinator()).isEqualTo(other);
        assertThatThrownBy(() -> assertCoordinatorIsReplica(info, bound))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("not a replica");
    }

    /**
     * The control: the same writes without routing information reach a non-replica coordinator.
     * The driver's default load balancing policy puts the replicas first when it knows the
     * statement's routing keyspace and key; otherwise it rotates the local nodes by one for each
     * query plan. With two nodes, two executions in a row of one unrouted statement thus start
     * their plans on different nodes, so one of the two is coordinated by the non-replica: this
     * is deterministic, not a matter of chance, as long as no other request of this session runs
     * meanwhile (the tests of this class run one at a time).
     */
    @Test
    void should_be_coordinated_by_a_non_replica_at_times_when_the_statement_carries_no_routing_key() {
        List<HiveTelemetryRow> rows = rowsInTimeOrder().subList(0, 10);
        int executions = 0;
        int nonReplica = 0;
        for (HiveTelemetryRow row : rows) {
            SimpleStatement inlined = inlinedInsert(row);
            assertThat(inlined.getRoutingKey()).isNull();
            assertThat(inlined.getRoutingKeyspace()).isNull();
            assertThat(inlined.getKeyspace()).isNull();
            Set<Node> replicas = replicas(table.bind(SERDE.encode(row)).insert());
            for (int i = 0; i < 2; i++) {
                ExecutionInfo info = session.execute(inlined).getExecutionInfo();
                executions++;
                if (!replicas.contains(info.getCoordinator())) {
                    nonReplica++;
                    assertThatThrownBy(() -> assertCoordinatorIsReplica(info, inlined))
                            .isInstanceOf(AssertionError.class);
                }
            }
        }
        LOG.info("Unrouted control: {} of {} executions coordinated by a non-replica", nonReplica, executions);
        assertThat(nonReplica)
                .as("executions of unrouted statements coordinated by a non-replica")
                .isPositive();
    }

    // ---------------------------------------------------------------------------------------
    // Call this from the sink path later.
    // ---------------------------------------------------------------------------------------

    /**
     * Asserts that a write was coordinated by a replica of its partition, according to the token
     * map of this class's session (which must be the session that executed it).
     *
     * @param info      the execution info of the statement's result ({@code
     *                  ResultSet#getExecutionInfo()}, {@code AsyncResultSet#getExecutionInfo()})
     * @param statement the statement executed: a bound statement, or a batch, whose partition is
     *                  that of its first statement with a routing key (as the driver routes it)
     * @throws AssertionError if the statement carries no routing keyspace or key, the token map
     *                        knows no replica for it, or the coordinator is not a replica
     */
    static void assertCoordinatorIsReplica(ExecutionInfo info, Statement<?> statement) {
        CqlIdentifier keyspace =
                statement.getKeyspace() != null ? statement.getKeyspace() : statement.getRoutingKeyspace();
        ByteBuffer key = statement.getRoutingKey();
        String what = statement.getClass().getSimpleName();
        assertThat(keyspace).as("routing keyspace of a %s", what).isNotNull();
        assertThat(key).as("routing key of a %s", what).isNotNull();
        Set<Node> replicas = replicas(keyspace, key);
        what += " of keyspace " + keyspace.asInternal() + ", token "
                + tokenMap().newToken(key.duplicate());
        assertThat(replicas).as("replicas of the %s", what).isNotEmpty();
        assertThat(info.getCoordinator())
                .as(
                        "the coordinator %s of the %s is not a replica of its partition (replicas: %s)",
                        info.getCoordinator().getEndPoint(),
                        what,
                        replicas.stream().map(Node::getEndPoint).toList())
                .isIn(replicas);
    }

    private static Set<Node> replicas(Statement<?> statement) {
        CqlIdentifier keyspace =
                statement.getKeyspace() != null ? statement.getKeyspace() : statement.getRoutingKeyspace();
        return replicas(keyspace, statement.getRoutingKey());
    }

    private static Set<Node> replicas(CqlIdentifier keyspace, ByteBuffer routingKey) {
        return tokenMap().getReplicas(keyspace, routingKey);
    }

    private static TokenMap tokenMap() {
        return session.getMetadata().getTokenMap().orElseThrow(() -> new AssertionError("the driver has no token map"));
    }

    /**
     * @return {@value #READINGS_PER_PARTITION} readings of each partition (hive, day, shard), in
     *     reading-time order across partitions, as the topology emits them
     */
    private static List<HiveTelemetryRow> rowsInTimeOrder() {
        List<HiveTelemetryRow> rows = new ArrayList<>();
        SensorType[] sensors = {SensorType.TEMPERATURE, SensorType.HUMIDITY, SensorType.WEIGHT};
        for (int d = 0; d < DAYS; d++) {
            LocalDate day = FIRST_DAY.plusDays(d);
            for (int shard : SHARDS) {
                Instant sliceStart =
                        day.atStartOfDay(ZoneOffset.UTC).toInstant().plus(Duration.ofMinutes(15L * shard));
                for (int r = 0; r < READINGS_PER_PARTITION; r++) {
                    for (int h = 0; h < HIVES; h++) {
                        SensorType sensor = sensors[r % sensors.length];
                        rows.add(new HiveTelemetryRow(
                                String.format(Locale.ROOT, "hive-%02d", h),
                                day,
                                shard,
                                sensor.name(),
                                "default",
                                sliceStart.plus(Duration.ofMinutes(r)),
                                "gw-" + (h % 4),
                                20.0 + h + r / 10.0,
                                unit(sensor)));
                    }
                }
            }
        }
        return rows;
    }

    private static List<Object> partitionOf(HiveTelemetryRow row) {
        return List.of(row.getHiveId(), row.getDay(), row.getShard());
    }

    /** @return the row's INSERT with its values as CQL literals: no bind markers, no routing key */
    private static SimpleStatement inlinedInsert(HiveTelemetryRow row) {
        long millis = row.getReadingTime().toEpochMilli();
        return SimpleStatement.newInstance(String.format(
                        Locale.ROOT,
                        "INSERT INTO %s.hive_telemetry_v2"
                                + " (hive_id, day, shard, sensor_type, sensor_id, reading_time, gateway_id, value, unit)"
                                + " VALUES (%s, '%s', %d, %s, %s, %d, %s, %s, %s) USING TIMESTAMP %d",
                        KEYSPACE,
                        literal(row.getHiveId()),
                        row.getDay(),
                        row.getShard(),
                        literal(row.getSensorType()),
                        literal(row.getSensorId()),
                        millis,
                        literal(row.getGatewayId()),
                        Double.toString(row.getValue()),
                        literal(row.getUnit()),
                        millis * 1000L))
                .setConsistencyLevel(CONSISTENCY)
                .setIdempotent(true);
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static String unit(SensorType sensor) {
        switch (sensor) {
            case TEMPERATURE:
                return "degC";
            case HUMIDITY:
                return "%RH";
            default:
                return "kg";
        }
    }

    private static String describe(Map<Node, Integer> perNode) {
        StringBuilder sb = new StringBuilder();
        perNode.forEach((node, count) -> sb.append(sb.length() == 0 ? "" : ", ")
                .append(node.getEndPoint())
                .append('=')
                .append(count));
        return sb.toString();
    }
}
