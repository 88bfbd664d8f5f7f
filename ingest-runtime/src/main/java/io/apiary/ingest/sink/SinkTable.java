package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.driver.api.core.type.reflect.GenericType;
import io.apiary.ingest.cassandra.CqlTypes;
import io.apiary.ingest.tables.TableDescriptor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.common.serialization.Deserializer;

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
public final class SinkTable<T extends IndexedRecord> implements RowBinding {

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
            if (ttlSeconds < -1 || ttlSeconds > io.apiary.ingest.config.IngestConfig.MAX_TTL_SECONDS) {
                throw new IllegalArgumentException("ttlSeconds must be -1 (table default) or 0 to "
                        + io.apiary.ingest.config.IngestConfig.MAX_TTL_SECONDS + " (Cassandra's largest TTL): "
                        + ttlSeconds);
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

    /**
     * The write timestamp of a row from its fingerprint, in microseconds.
     *
     * @param <T> the row type
     */
    @FunctionalInterface
    public interface WriteTime<T> {
        /**
         * @param row         the row, not null
         * @param fingerprint the fingerprint of its regular values ({@link WriteTimestamps#fingerprint})
         * @return the write timestamp in microseconds since the epoch
         */
        long micros(T row, long fingerprint);
    }

    /**
     * How the rows of a table are bound: which field of the row record fills each column, which
     * columns are computed instead, how the write time is derived, and whether a key's rows are
     * updates. Built with {@link #forTable}; immutable.
     *
     * @param table       the table, not null
     * @param rowSchema   the row record's schema (the reader's schema of the row topic), not null
     * @param fields      field of the row record per column, where its name is not the column's; not null
     * @param computed    columns computed from the whole row instead of read from a field; not null
     * @param writeTime   the write timestamp rule, or null for {@link WriteTimestamps#event} of the
     *                    table's time column ({@link TableDescriptor#timeColumn()})
     * @param updated     whether a key's rows are successive updates of one thing (an hour's growing
     *                    sums), so that two rows of one key with different values are no conflict
     * @param <T>         the row type
     */
    public record Binding<T extends IndexedRecord>(
            TableDescriptor table,
            Schema rowSchema,
            Map<String, String> fields,
            Map<String, Function<T, Object>> computed,
            WriteTime<T> writeTime,
            boolean updated) {

        /** Copies the maps. */
        public Binding {
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(rowSchema, "rowSchema");
            fields = Map.copyOf(fields);
            computed = Map.copyOf(computed);
        }

        /**
         * A binding that fills each column from the row field of the same name, with the event time
         * rule on the table's time column, rows not updates.
         *
         * @param table     the table, not null
         * @param rowSchema the row record's schema, not null
         * @param <T>       the row type
         * @return the binding
         */
        public static <T extends IndexedRecord> Binding<T> forTable(TableDescriptor table, Schema rowSchema) {
            return new Binding<>(table, rowSchema, Map.of(), Map.of(), null, false);
        }

        /**
         * @param column a column of the table
         * @param field  the row field that fills it
         * @return this binding with the column read from that field
         */
        public Binding<T> field(String column, String field) {
            Map<String, String> more = new java.util.HashMap<>(fields);
            more.put(column, field);
            return new Binding<>(table, rowSchema, more, computed, writeTime, updated);
        }

        /**
         * @param column a column of the table
         * @param value  computes its value from the row (null leaves a regular column unset)
         * @return this binding with the column computed
         */
        public Binding<T> computed(String column, Function<T, Object> value) {
            Map<String, Function<T, Object>> more = new java.util.HashMap<>(computed);
            more.put(column, value);
            return new Binding<>(table, rowSchema, fields, more, writeTime, updated);
        }

        /**
         * @param rule the write timestamp rule, not null
         * @return this binding with that rule
         */
        public Binding<T> writeTime(WriteTime<T> rule) {
            return new Binding<>(table, rowSchema, fields, computed, Objects.requireNonNull(rule), updated);
        }

        /** @return this binding for a table whose rows of one key are updates of one thing */
        public Binding<T> updates() {
            return new Binding<>(table, rowSchema, fields, computed, writeTime, true);
        }

        /**
         * @param name a table name, without keyspace, not null
         * @return this binding for a table under another name (a copy target of the same layout)
         */
        public Binding<T> named(String name) {
            return new Binding<>(table.named(name), rowSchema, fields, computed, writeTime, updated);
        }
    }

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
     * Latin-1 strings) instead of the driver's {@code CharsetEncoder}, a hot spot of the sink
     * thread in a JFR profile of {@code ingest-app bench}. The bytes are the same: strings
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

    private final TableDescriptor table;
    private final RowBinder<T> binder;
    private final boolean deleteFirst;
    private final boolean updated;
    private final CqlSession session;
    private final String keyspace;
    private final PreparedStatement insert;
    private final PreparedStatement delete;
    private final ConsistencyLevel consistency;
    private final Deserializer<T> deserializer;
    private final WriteTime<T> writeTime;
    private volatile PreparedStatement copyInsert;

    private SinkTable(
            CqlSession session, String keyspace, Options options, Binding<T> binding, Deserializer<T> deserializer) {
        this.table = binding.table();
        this.binder = new RowBinder<>(binding);
        this.deleteFirst = binder.hasOptionalRegularColumn();
        this.updated = binding.updated();
        this.session = session;
        this.keyspace = keyspace;
        this.consistency = options.consistency();
        this.deserializer = Objects.requireNonNull(deserializer, "deserializer");
        this.writeTime = binding.writeTime() != null ? binding.writeTime() : eventTime(binding);
        this.insert = session.prepare(insertCql(options.usingClause()));
        this.delete = deleteFirst ? session.prepare(deleteCql()) : null;
    }

    /**
     * A table bound by a {@link Binding}: the sink's binding of any table, the four of {@code cql/}
     * and a table registered beside them ({@link ExtraTables}), each described by its spec
     * ({@code io.apiary.ingest.topology.TableSpec}).
     *
     * @param session      an open session, not null
     * @param keyspace     keyspace of the table
     * @param options      consistency level and TTL, not null
     * @param binding      how rows fill the table's columns, not null
     * @param deserializer reads the row topic's values, not null
     * @param <T>          the row type
     * @return the table binding
     * @throws IllegalArgumentException if a column has no row field of a type that fits it, or a key
     *                                  column's field may be null
     * @throws com.datastax.oss.driver.api.core.DriverException if Cassandra refuses to prepare the
     *         statements (e.g. the table does not exist)
     */
    public static <T extends IndexedRecord> SinkTable<T> of(
            CqlSession session, String keyspace, Options options, Binding<T> binding, Deserializer<T> deserializer) {
        return new SinkTable<>(session, keyspace, options, binding, deserializer);
    }

    private static <T extends IndexedRecord> WriteTime<T> eventTime(Binding<T> binding) {
        TableDescriptor table = binding.table();
        String column = table.timeColumn()
                .orElseThrow(() -> new IllegalArgumentException(
                        "table " + table.name() + " has no timestamp clustering column to derive the write time from"));
        Schema.Field field = binding.rowSchema().getField(binding.fields().getOrDefault(column, column));
        if (field == null) {
            throw new IllegalArgumentException("table " + table.name() + ": the row schema has no field for " + column);
        }
        int position = field.pos();
        return (row, fingerprint) -> WriteTimestamps.event(RowBinder.millis(row.get(position), column), fingerprint);
    }

    private String insertCql(String using) {
        List<String> markers = new ArrayList<>();
        table.columns().forEach(c -> markers.add("?"));
        return "INSERT INTO " + keyspace + "." + CqlTypes.name(table.name()) + " ("
                + String.join(", ", table.columns().stream().map(CqlTypes::name).toList()) + ") VALUES ("
                + String.join(", ", markers) + ")" + using;
    }

    private String deleteCql() {
        List<String> key = new ArrayList<>();
        for (String column : table.columns().subList(0, table.primaryKeySize())) {
            key.add(CqlTypes.name(column) + " = ?");
        }
        return "DELETE FROM " + keyspace + "." + CqlTypes.name(table.name()) + " USING TIMESTAMP ? WHERE "
                + String.join(" AND ", key);
    }

    /** @return the table name, without keyspace */
    @Override
    public String table() {
        return table.name();
    }

    /** @return the table's descriptor */
    public TableDescriptor descriptor() {
        return table;
    }

    /**
     * @return whether rows of one primary key with different values are successive updates
     *         (hive_activity: an hour's sums, written again as they grow) rather than conflicting
     *         inputs; the sink counts no conflicts for such a table (the topology counts its own)
     */
    @Override
    public boolean rowsAreUpdates() {
        return updated;
    }

    /** @return the keyspace of the table, as Cassandra stores it (internal form) */
    @Override
    public String keyspace() {
        return insert.getVariableDefinitions().get(0).getKeyspace().asInternal();
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
        return bindRow(decode(value), Long.MIN_VALUE, -1);
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
        return bindRow(row, Long.MIN_VALUE, -1);
    }

    /**
     * Binds a row with a given write time and time to live, {@code USING TIMESTAMP ? AND TTL ?},
     * rather than those derived from the row and the table (a copy keeps its source cells' write
     * time and remaining TTL).
     *
     * @param row             the row in this table's layout, not null
     * @param writeTimeMicros the source cells' write time, microseconds
     * @param ttlSeconds      the source cells' remaining time to live in seconds, 0 for none
     * @return the row's statements
     * @throws IllegalArgumentException if {@code ttlSeconds} is negative
     */
    public Write bind(T row, long writeTimeMicros, int ttlSeconds) {
        if (ttlSeconds < 0) {
            throw new IllegalArgumentException("ttlSeconds must be 0 (none) or more: " + ttlSeconds);
        }
        return bindRow(row, writeTimeMicros, ttlSeconds);
    }

    private Write bindRow(T row, long writeTimeMicros, int ttlSeconds) {
        boolean copy = writeTimeMicros != Long.MIN_VALUE;
        PreparedStatement statement = copy ? copyInsert() : insert;
        BoundStatementBuilder builder = binder.bind(row, statement.boundStatementBuilder());
        int regularStart = table.primaryKeySize();
        int columns = table.columns().size();
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
        int regularEnd = table.columns().size();
        int clusteringEnd = table.primaryKeySize();
        for (int i = table.partitionKey().size(); i < regularEnd; i++) {
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
        // the bound values themselves, not a copy: equal by their bytes (ByteBuffer)
        BoundStatement insert = write.insert();
        int from = table.partitionKey().size();
        ByteBuffer[] key = new ByteBuffer[1 + table.primaryKeySize() - from];
        key[0] = write.routingKey();
        for (int i = 1; i < key.length; i++) {
            key[i] = insert.getBytesUnsafe(from + i - 1);
        }
        return new PrimaryKey(key);
    }

    /**
     * A primary key: the routing key, then the clustering values. Equal by all of them; hashed by
     * the clustering values only (the routing key when there are none), since the rows compared (one batch's) nearly always share their
     * partition, whose bytes would cost as much to hash again as they tell apart.
     */
    private static final class PrimaryKey {
        private final ByteBuffer[] values;
        private final int hash;

        PrimaryKey(ByteBuffer[] values) {
            this.values = values;
            int h = 1;
            for (int i = values.length > 1 ? 1 : 0; i < values.length; i++) {
                h = 31 * h + java.util.Objects.hashCode(values[i]);
            }
            this.hash = h;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof PrimaryKey key && hash == key.hash && java.util.Arrays.equals(values, key.values);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return java.util.Arrays.toString(values);
        }
    }
}
