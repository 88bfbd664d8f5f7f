package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.driver.api.core.type.reflect.GenericType;
import io.apiary.ingest.identity.AlertIds;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.tables.TableNames;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.WeatherReadingRow;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;

/**
 * How the rows of one row topic become idempotent writes of one Cassandra table.
 *
 * <p>Every partition-key column is a bind marker, so the driver computes each statement's routing
 * token and sends it to a replica. The write timestamp ({@code USING TIMESTAMP}, microseconds) is
 * derived from the row, by {@link WriteTimestamps}: the second after the event's plus a fingerprint of the
 * row's regular values (hive_activity: the hour's start, plus 1,000 per update of the hour, a
 * sample summed or a conflicting sample replacing one, plus a fingerprint below 1,000). So retries and replays of a row converge to the same cells, and two
 * different rows for one primary key get different timestamps: the one with the greater timestamp
 * wins in every cell, whatever order they arrive in, instead of Cassandra choosing cell by cell
 * between equal timestamps (the greater value of each cell), which made rows that match neither
 * input.
 *
 * <p>Tables with optional columns (weather_readings: measurements a station does not take;
 * agent_alerts_v2: an alert without hive) leave a null value unset, so it writes no cell and no
 * tombstone, and precede the INSERT with a deletion of the row at the write timestamp minus
 * 1 us, in the same single-partition batch. That deletion shadows every cell of an earlier
 * version with a smaller timestamp, so a measurement only the losing version had does not
 * survive beside the winner's; the winner itself, written 1 us later, is not shadowed.
 *
 * <p>Values are set with the codec of their column type named directly ({@link TypeCodecs}),
 * which skips the driver's codec-registry lookup per value.
 *
 * <p>Thread-safe: prepared statements and serdes are.
 *
 * @param <T> the row topic's record type
 */
public final class SinkTable<T extends SpecificRecord> implements RowBinding {

    /**
     * Per-table write options.
     *
     * @param consistency write consistency level, not null
     * @param ttlSeconds  time to live of written cells in seconds; -1 keeps the table's
     *                    {@code default_time_to_live}, 0 means never expire
     */
    public record Options(ConsistencyLevel consistency, int ttlSeconds) {

        /** Checks the values. */
        public Options {
            Objects.requireNonNull(consistency, "consistency");
            if (ttlSeconds < -1) {
                throw new IllegalArgumentException(
                        "ttlSeconds must be -1 (table default) or at least 0: " + ttlSeconds);
            }
        }

        /** @return the CQL USING clause: {@code USING TIMESTAMP ?}, plus {@code AND TTL n} when set */
        String usingClause() {
            return ttlSeconds < 0 ? " USING TIMESTAMP ?" : " USING TIMESTAMP ? AND TTL " + ttlSeconds;
        }
    }

    /**
     * One row bound for writing. Immutable.
     *
     * @param statements  the statements that write it, in order: the row deletion (tables with
     *                    optional columns) then the INSERT; not empty
     * @param routingKey  the serialized Cassandra partition key (the driver's routing key), not null
     * @param serverBytes its size as Cassandra counts it in a batch ({@link #serverBytes})
     * @param fingerprint the 64-bit fingerprint of its regular values ({@link WriteTimestamps#fingerprint})
     */
    public record Write(List<BoundStatement> statements, ByteBuffer routingKey, int serverBytes, long fingerprint) {

        /** @return the INSERT (the last statement) */
        public BoundStatement insert() {
            return statements.get(statements.size() - 1);
        }
    }

    /** Binds a row's columns, in the order of {@link Layout#columns}, to markers 0 and up. */
    @FunctionalInterface
    interface ColumnBinder<T> {
        BoundStatementBuilder bind(T row, BoundStatementBuilder statement);
    }

    /** The write timestamp of a row from its fingerprint, in microseconds. */
    @FunctionalInterface
    interface WriteTime<T> {
        long micros(T row, long fingerprint);
    }

    /**
     * The shape of a table as the sink writes it.
     *
     * @param table          table name, without keyspace
     * @param columns        every written column: the partition key, then the clustering columns,
     *                       then the regular columns
     * @param partitionKeys  how many of {@code columns} are the partition key
     * @param clustering     how many follow as clustering columns
     * @param deleteFirst    whether each write deletes the row at its timestamp minus 1 us first
     *                       (tables with optional columns)
     * @param updated        whether a key's rows are successive updates of one thing (an hour's
     *                       growing sums), so that two rows of one key with different values are no
     *                       conflict
     */
    record Layout(
            String table,
            List<String> columns,
            int partitionKeys,
            int clustering,
            boolean deleteFirst,
            boolean updated) {}

    /**
     * Bytes counted per written cell beside its value: an upper bound of what Cassandra 5.0 adds
     * per cell in {@code PartitionUpdate.dataSize()} (write timestamp, TTL, local deletion time).
     * Calibrated on Cassandra 5.0.7: a 50-row batch of hive_telemetry rows that these constants at
     * 16 and 16 counted as 4,760 bytes was reported by the server as 6,500 bytes (130 per row, so
     * about 99 bytes of overhead per row of 3 regular cells); 24 and 40 bound that from above.
     */
    static final int CELL_OVERHEAD_BYTES = 24;
    /** Bytes counted per row beside its values: an upper bound of its liveness and deletion info (see above). */
    static final int ROW_OVERHEAD_BYTES = 40;
    /** Bytes counted for a row deletion that precedes an INSERT: its deletion time (12 bytes), bounded from above. */
    static final int ROW_DELETION_BYTES = 16;
    /**
     * Bytes Cassandra 5.0.7 counts per partition of a batch beside its rows (an empty static row
     * and the partition's deletion info, 29 bytes), bounded from above.
     */
    static final int PARTITION_OVERHEAD_BYTES = 40;

    /**
     * CQL {@code text}, encoded with {@code String.getBytes(UTF_8)} (the JDK's fast path for
     * Latin-1 strings) instead of the driver's {@code CharsetEncoder}, which took 12% of the sink
     * thread's CPU in a JFR profile of {@code ingest-app bench}. The bytes are the same: strings
     * decoded from Avro hold no unpaired surrogates. Decoding, formatting and parsing are the
     * driver's. Thread-safe.
     */
    static final TypeCodec<String> TEXT = new TypeCodec<>() {
        @Override
        public GenericType<String> getJavaType() {
            return GenericType.STRING;
        }

        @Override
        public DataType getCqlType() {
            return DataTypes.TEXT;
        }

        @Override
        public ByteBuffer encode(String value, ProtocolVersion protocolVersion) {
            return value == null ? null : ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String decode(ByteBuffer bytes, ProtocolVersion protocolVersion) {
            return TypeCodecs.TEXT.decode(bytes, protocolVersion);
        }

        @Override
        public String format(String value) {
            return TypeCodecs.TEXT.format(value);
        }

        @Override
        public String parse(String value) {
            return TypeCodecs.TEXT.parse(value);
        }
    };

    private final Layout layout;
    private final CqlSession session;
    private final String keyspace;
    private final PreparedStatement insert;
    private final PreparedStatement delete;
    private final ConsistencyLevel consistency;
    private final Deserializer<T> deserializer;
    private final ColumnBinder<T> binder;
    private final WriteTime<T> writeTime;
    private volatile PreparedStatement copyInsert;

    private SinkTable(
            CqlSession session,
            String keyspace,
            Options options,
            Layout layout,
            Class<T> type,
            ColumnBinder<T> binder,
            WriteTime<T> writeTime) {
        this.layout = layout;
        this.session = session;
        this.keyspace = keyspace;
        this.consistency = options.consistency();
        this.insert = session.prepare(insertCql(options.usingClause()));
        this.delete = layout.deleteFirst() ? session.prepare(deleteCql()) : null;
        this.deserializer = AvroSingleObjectSerde.of(type).deserializer();
        this.binder = binder;
        this.writeTime = writeTime;
    }

    private SinkTable(SinkTable<T> table, Deserializer<T> deserializer) {
        this.layout = table.layout;
        this.session = table.session;
        this.keyspace = table.keyspace;
        this.consistency = table.consistency;
        this.insert = table.insert;
        this.delete = table.delete;
        this.deserializer = Objects.requireNonNull(deserializer);
        this.binder = table.binder;
        this.writeTime = table.writeTime;
        this.copyInsert = table.copyInsert;
    }

    /**
     * This table, reading its row topic's values with another deserializer: the row topic's own
     * (its {@link io.apiary.ingest.serde.WireFormat}). Without it, a table reads single-object
     * encoded values only.
     *
     * @param valueSerde the serde of the row topic's values, not null
     * @return a table sharing this one's prepared statements
     */
    public SinkTable<T> readingWith(Serde<T> valueSerde) {
        return new SinkTable<>(this, valueSerde.deserializer());
    }

    private String insertCql(String using) {
        List<String> markers = new ArrayList<>();
        layout.columns().forEach(c -> markers.add("?"));
        return "INSERT INTO " + keyspace + "." + layout.table() + " (" + String.join(", ", layout.columns())
                + ") VALUES (" + String.join(", ", markers) + ")" + using;
    }

    private String deleteCql() {
        List<String> key = new ArrayList<>();
        for (String column : layout.columns().subList(0, layout.partitionKeys() + layout.clustering())) {
            key.add(column + " = ?");
        }
        return "DELETE FROM " + keyspace + "." + layout.table() + " USING TIMESTAMP ? WHERE "
                + String.join(" AND ", key);
    }

    /** @return the table name, without keyspace */
    @Override
    public String table() {
        return layout.table();
    }

    /**
     * @return whether rows of one primary key with different values are successive updates
     *         (hive_activity: an hour's sums, written again as they grow) rather than conflicting
     *         inputs; the sink counts no conflicts for such a table (the topology counts its own)
     */
    @Override
    public boolean rowsAreUpdates() {
        return layout.updated();
    }

    /** @return the keyspace of the table, as Cassandra stores it (internal form) */
    @Override
    public String keyspace() {
        return insert.getVariableDefinitions().get(0).getKeyspace().asInternal();
    }

    /** @return the columns this table writes: partition key, clustering columns, regular columns */
    public List<String> columns() {
        return layout.columns();
    }

    /** @return how many of {@link #columns()} form the partition key */
    public int partitionKeyColumns() {
        return layout.partitionKeys();
    }

    /** @return how many of {@link #columns()} after the partition key are clustering columns */
    public int clusteringColumns() {
        return layout.clustering();
    }

    /**
     * Decodes a row topic value.
     *
     * @param value the record value (in the row topic's wire format), not null
     * @return the row
     * @throws org.apache.kafka.common.errors.SerializationException if the value cannot be decoded
     */
    public T decode(byte[] value) {
        return Objects.requireNonNull(deserializer.deserialize(null, value));
    }

    /**
     * Decodes a row topic value and binds it, with the write timestamp derived from the row.
     *
     * @param value the record value (in the row topic's wire format), not null
     * @return the row's idempotent statements
     * @throws org.apache.kafka.common.errors.SerializationException if the value cannot be decoded
     * @throws RuntimeException if it cannot be bound (e.g. a time past year 294,247)
     */
    @Override
    public Write bind(byte[] value) {
        return bind(decode(value), Long.MIN_VALUE, -1);
    }

    /**
     * Binds a row with the write timestamp derived from it ({@link WriteTimestamps}) and the
     * configured TTL, as {@link #bind(byte[])} binds a decoded row.
     *
     * @param row the row in this table's layout, not null
     * @return the row's idempotent statements
     * @throws RuntimeException if it cannot be bound (e.g. a time past year 294,247)
     */
    public Write bind(T row) {
        return bind(row, Long.MIN_VALUE, -1);
    }

    /**
     * Binds a row copied from another table ({@code ingest-app table copy}), keeping the source's
     * write time and remaining TTL: {@code USING TIMESTAMP ? AND TTL ?}.
     *
     * @param row             the row in this table's layout, not null
     * @param writeTimeMicros the source cells' write time, microseconds
     * @param ttlSeconds      the source cells' remaining time to live in seconds, 0 for none
     * @return the row's statements
     * @throws IllegalArgumentException if {@code ttlSeconds} is negative
     */
    public Write bindCopy(T row, long writeTimeMicros, int ttlSeconds) {
        if (ttlSeconds < 0) {
            throw new IllegalArgumentException("ttlSeconds must be 0 (none) or more: " + ttlSeconds);
        }
        return bind(row, writeTimeMicros, ttlSeconds);
    }

    private Write bind(T row, long writeTimeMicros, int ttlSeconds) {
        boolean copy = writeTimeMicros != Long.MIN_VALUE;
        PreparedStatement statement = copy ? copyInsert() : insert;
        BoundStatementBuilder builder = binder.bind(row, statement.boundStatementBuilder());
        int regularStart = layout.partitionKeys() + layout.clustering();
        int columns = layout.columns().size();
        long fingerprint = WriteTimestamps.fingerprint(builder, regularStart, columns);
        long micros = copy ? writeTimeMicros : writeTime.micros(row, fingerprint);
        builder = builder.set(columns, micros, TypeCodecs.BIGINT);
        if (copy) {
            builder = builder.set(columns + 1, ttlSeconds, TypeCodecs.INT);
        }
        BoundStatement bound =
                builder.setIdempotence(true).setConsistencyLevel(consistency).build();
        List<BoundStatement> statements;
        int bytes = serverBytes(bound);
        if (delete != null) {
            BoundStatementBuilder deletion =
                    delete.boundStatementBuilder().set(0, Math.subtractExact(micros, 1L), TypeCodecs.BIGINT);
            for (int i = 0; i < regularStart; i++) {
                deletion = deletion.setBytesUnsafe(i + 1, bound.getBytesUnsafe(i));
            }
            statements = List.of(
                    deletion.setIdempotence(true)
                            .setConsistencyLevel(consistency)
                            .build(),
                    bound);
            bytes += ROW_DELETION_BYTES;
        } else {
            statements = List.of(bound);
        }
        return new Write(statements, bound.getRoutingKey(), bytes, fingerprint);
    }

    private PreparedStatement copyInsert() {
        PreparedStatement prepared = copyInsert;
        if (prepared == null) {
            prepared = session.prepare(insertCql(" USING TIMESTAMP ? AND TTL ?"));
            copyInsert = prepared;
        }
        return prepared;
    }

    /**
     * The one request that writes some rows of one table: a lone row's INSERT when it has no row
     * deletion before it, else an UNLOGGED batch of every row's statements in order (a row
     * deletion before its INSERT, for tables with optional columns), with the consistency level of
     * the first INSERT and routed by its partition key (the driver routes a batch by its first
     * statement; the key computed at bind time is given instead).
     *
     * @param writes rows bound from one table, not empty; one partition's, for a single-partition batch
     * @return the statement to execute, idempotent
     */
    public static Statement<?> request(List<Write> writes) {
        if (writes.size() == 1 && writes.get(0).statements().size() == 1) {
            return writes.get(0).insert();
        }
        List<BatchableStatement<?>> statements = new ArrayList<>(writes.size() * 2);
        for (Write write : writes) {
            statements.addAll(write.statements());
        }
        BoundStatement first = writes.get(0).insert();
        return BatchStatement.builder(BatchType.UNLOGGED)
                .addStatements(statements)
                .setIdempotence(true)
                .setConsistencyLevel(first.getConsistencyLevel())
                .setRoutingKeyspace(first.getRoutingKeyspace())
                .setRoutingKey(writes.get(0).routingKey())
                .build();
    }

    /**
     * @param instant an instant, not null
     * @return microseconds since the epoch, the unit of CQL write timestamps
     * @throws ArithmeticException past year 294,247
     */
    static long micros(java.time.Instant instant) {
        return Math.multiplyExact(instant.toEpochMilli(), 1000L);
    }

    /**
     * The size Cassandra counts for this row in a batch, the figure it compares with
     * {@code batch_size_warn_threshold}, bounded from above. It follows the shape of
     * {@code PartitionUpdate.dataSize()}: per row the clustering values plus
     * {@value #ROW_OVERHEAD_BYTES} bytes, and for each regular cell written its value plus
     * {@value #CELL_OVERHEAD_BYTES} bytes; the partition key is not counted. Unset values write
     * no cell.
     *
     * @param statement an INSERT bound from this table
     * @return the estimated server-side size in bytes
     */
    int serverBytes(BoundStatement statement) {
        int total = ROW_OVERHEAD_BYTES;
        int regularEnd = layout.columns().size();
        int clusteringEnd = layout.partitionKeys() + layout.clustering();
        for (int i = layout.partitionKeys(); i < regularEnd; i++) {
            if (!statement.isSet(i)) {
                continue;
            }
            ByteBuffer value = statement.getBytesUnsafe(i);
            int size = value == null ? 0 : value.remaining();
            total += i < clusteringEnd ? size : size + CELL_OVERHEAD_BYTES;
        }
        return total;
    }

    @Override
    public Object primaryKey(Write write) {
        return List.of(write.routingKey(), clusteringKey(write.insert()));
    }

    /**
     * The serialized clustering values of a bound INSERT of this table.
     *
     * @param insert an INSERT bound from this table
     * @return the clustering columns' values, each preceded by its length, as one buffer
     */
    public ByteBuffer clusteringKey(BoundStatement insert) {
        int from = layout.partitionKeys();
        int to = from + layout.clustering();
        int size = 0;
        for (int i = from; i < to; i++) {
            ByteBuffer value = insert.getBytesUnsafe(i);
            size += 4 + (value == null ? 0 : value.remaining());
        }
        ByteBuffer key = ByteBuffer.allocate(size);
        for (int i = from; i < to; i++) {
            ByteBuffer value = insert.getBytesUnsafe(i);
            key.putInt(value == null ? -1 : value.remaining());
            if (value != null) {
                key.put(value.duplicate());
            }
        }
        return key.flip();
    }

    /**
     * The hive_telemetry_v2 table ({@code cql/010-hive_telemetry_v2.cql}); rows of
     * {@code HiveTelemetryRow} version 1 (no sensor id) are read with the default sensor id.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable<HiveTelemetryRow> hiveTelemetry(CqlSession session, String keyspace, Options options) {
        return hiveTelemetry(session, keyspace, TableNames.HIVE_TELEMETRY, options);
    }

    /**
     * A table of hive_telemetry_v2's layout under another name (the target of {@code ingest-app
     * table copy}), bound as {@link #hiveTelemetry(CqlSession, String, Options)}.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param table    name of the table, without keyspace
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable<HiveTelemetryRow> hiveTelemetry(
            CqlSession session, String keyspace, String table, Options options) {
        Layout layout = new Layout(
                table,
                List.of(
                        "hive_id",
                        "day",
                        "shard",
                        "sensor_type",
                        "sensor_id",
                        "reading_time",
                        "gateway_id",
                        "value",
                        "unit"),
                3,
                3,
                false,
                false);
        return new SinkTable<>(
                session,
                keyspace,
                options,
                layout,
                HiveTelemetryRow.class,
                (row, statement) -> statement
                        .set(0, row.getHiveId(), TEXT)
                        .set(1, row.getDay(), TypeCodecs.DATE)
                        .set(2, row.getShard(), TypeCodecs.INT)
                        .set(3, row.getSensorType(), TEXT)
                        .set(4, row.getSensorId(), TEXT)
                        .set(5, row.getReadingTime(), TypeCodecs.TIMESTAMP)
                        .set(6, row.getGatewayId(), TEXT)
                        .set(7, row.getValue(), TypeCodecs.DOUBLE)
                        .set(8, row.getUnit(), TEXT),
                (row, fingerprint) -> WriteTimestamps.event(row.getReadingTime().toEpochMilli(), fingerprint));
    }

    /**
     * The hive_activity table ({@code cql/020-hive_activity.cql}).
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable<HourlyActivity> hiveActivity(CqlSession session, String keyspace, Options options) {
        Layout layout = new Layout(
                TableNames.HIVE_ACTIVITY,
                List.of("hive_id", "day", "hour", "bees_in", "bees_out", "samples"),
                1,
                2,
                false,
                true);
        return new SinkTable<>(
                session,
                keyspace,
                options,
                layout,
                HourlyActivity.class,
                (row, statement) -> statement
                        .set(0, row.getHiveId(), TEXT)
                        .set(1, row.getDay(), TypeCodecs.DATE)
                        .set(2, row.getHour(), TypeCodecs.INT)
                        .set(3, row.getEntries(), TypeCodecs.BIGINT)
                        .set(4, row.getExits(), TypeCodecs.BIGINT)
                        .set(5, row.getSamples(), TypeCodecs.INT),
                (row, fingerprint) -> WriteTimestamps.hourly(
                        row.getWindowStart().toEpochMilli(),
                        Math.addExact(row.getSamples(), row.getRevision()),
                        fingerprint));
    }

    /**
     * The weather_readings table ({@code cql/030-weather_readings.cql}). Absent measurements are
     * left unset (no cell, no tombstone); the row deletion before the INSERT clears an earlier
     * version's.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable<WeatherReadingRow> weatherReadings(CqlSession session, String keyspace, Options options) {
        return weatherReadings(session, keyspace, TableNames.WEATHER_READINGS, options);
    }

    /**
     * A table of weather_readings' layout under another name (the target of {@code ingest-app
     * table copy}), bound as {@link #weatherReadings(CqlSession, String, Options)}.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param table    name of the table, without keyspace
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable<WeatherReadingRow> weatherReadings(
            CqlSession session, String keyspace, String table, Options options) {
        Layout layout = new Layout(
                table,
                List.of(
                        "station_id",
                        "day",
                        "shard",
                        "reading_time",
                        "temperature_c",
                        "relative_humidity",
                        "pressure_hpa",
                        "wind_speed_ms",
                        "wind_direction_deg",
                        "rainfall_mm",
                        "solar_radiation_wm2"),
                3,
                1,
                true,
                false);
        return new SinkTable<>(
                session,
                keyspace,
                options,
                layout,
                WeatherReadingRow.class,
                (row, statement) -> {
                    BoundStatementBuilder bound = statement
                            .set(0, row.getStationId(), TEXT)
                            .set(1, row.getDay(), TypeCodecs.DATE)
                            .set(2, row.getShard(), TypeCodecs.INT)
                            .set(3, row.getReadingTime(), TypeCodecs.TIMESTAMP);
                    bound = setIfPresent(bound, 4, row.getTemperatureC());
                    bound = setIfPresent(bound, 5, row.getRelativeHumidity());
                    bound = setIfPresent(bound, 6, row.getPressureHpa());
                    bound = setIfPresent(bound, 7, row.getWindSpeedMs());
                    bound = setIfPresent(bound, 8, row.getWindDirectionDeg());
                    bound = setIfPresent(bound, 9, row.getRainfallMm());
                    return setIfPresent(bound, 10, row.getSolarRadiationWm2());
                },
                (row, fingerprint) -> WriteTimestamps.event(row.getReadingTime().toEpochMilli(), fingerprint));
    }

    /**
     * The agent_alerts_v2 table ({@code cql/040-agent_alerts_v2.cql}). An alert without hive leaves
     * hive_id unset; rows of {@code AgentAlertRow} version 1 (no alert id) get the id derived from
     * their content ({@link AlertIds}), as the topology derives it.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable<AgentAlertRow> agentAlerts(CqlSession session, String keyspace, Options options) {
        return agentAlerts(session, keyspace, TableNames.AGENT_ALERTS, options);
    }

    /**
     * A table of agent_alerts_v2's layout under another name (the target of {@code ingest-app
     * table copy}), bound as {@link #agentAlerts(CqlSession, String, Options)}.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param table    name of the table, without keyspace
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable<AgentAlertRow> agentAlerts(
            CqlSession session, String keyspace, String table, Options options) {
        Layout layout = new Layout(
                table,
                List.of("agent_id", "day", "alert_time", "alert_id", "hive_id", "severity", "alert_type", "message"),
                2,
                2,
                true,
                false);
        return new SinkTable<>(
                session,
                keyspace,
                options,
                layout,
                AgentAlertRow.class,
                (row, statement) -> {
                    BoundStatementBuilder bound = statement
                            .set(0, row.getAgentId(), TEXT)
                            .set(1, row.getDay(), TypeCodecs.DATE)
                            .set(2, row.getAlertTime(), TypeCodecs.TIMESTAMP)
                            .set(
                                    3,
                                    AlertIds.of(
                                            row.getAlertId(),
                                            row.getHiveId(),
                                            row.getSeverity(),
                                            row.getAlertType(),
                                            row.getMessage()),
                                    TEXT)
                            .set(5, row.getSeverity(), TEXT)
                            .set(6, row.getAlertType(), TEXT)
                            .set(7, row.getMessage(), TEXT);
                    return row.getHiveId() == null ? bound : bound.set(4, row.getHiveId(), TEXT);
                },
                (row, fingerprint) -> WriteTimestamps.event(row.getAlertTime().toEpochMilli(), fingerprint));
    }

    /** Binds a nullable double, leaving the marker unset when null. */
    private static BoundStatementBuilder setIfPresent(BoundStatementBuilder statement, int index, Double value) {
        return value == null ? statement : statement.set(index, value, TypeCodecs.DOUBLE);
    }
}
