package io.apiary.ingest.sink;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Objects;

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
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.WeatherReadingRow;

/**
 * How the rows of one row topic become idempotent INSERTs of one Cassandra table.
 *
 * <p>Every partition-key column is a bind marker, so the driver computes each statement's routing
 * token and sends it to a replica. The write timestamp ({@code USING TIMESTAMP}, microseconds) is
 * derived from the row, so retries and replays converge to the same cells:
 * <ul>
 *   <li>hive_telemetry: reading_time in microseconds;</li>
 *   <li>hive_activity: window_start in microseconds plus the number of samples summed, which
 *       grows with every update of an hour, so the final sums win over earlier updates;</li>
 *   <li>weather_readings: reading_time in microseconds;</li>
 *   <li>agent_alerts: alert_time in microseconds.</li>
 * </ul>
 * Optional values that are null (a measurement a station does not take, an alert without hive)
 * are left unset rather than bound to null, so they write nothing instead of a tombstone.
 * Values are set with the codec of their column type named directly ({@link TypeCodecs}), which
 * skips the driver's codec-registry lookup per value.
 *
 * <p>Thread-safe: prepared statements and serdes are.
 */
public abstract class SinkTable {

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
            java.util.Objects.requireNonNull(consistency, "consistency");
            if (ttlSeconds < -1) {
                throw new IllegalArgumentException("ttlSeconds must be -1 (table default) or at least 0: " + ttlSeconds);
            }
        }

        /** @return the CQL USING clause: {@code USING TIMESTAMP ?}, plus {@code AND TTL n} when set */
        String usingClause() {
            return ttlSeconds < 0 ? " USING TIMESTAMP ?" : " USING TIMESTAMP ? AND TTL " + ttlSeconds;
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

    private final String table;
    private final PreparedStatement insert;
    private final ConsistencyLevel consistency;
    private final int partitionKeyColumns;
    private final int clusteringColumns;

    /**
     * @param insert the INSERT; its bind markers are the partition-key columns, then the
     *               clustering columns, then the regular columns, then the write timestamp
     */
    private SinkTable(String table, PreparedStatement insert, Options options, int partitionKeyColumns,
            int clusteringColumns) {
        this.table = table;
        this.insert = insert;
        this.consistency = options.consistency();
        this.partitionKeyColumns = partitionKeyColumns;
        this.clusteringColumns = clusteringColumns;
    }

    /** @return the table name, without keyspace */
    public String table() {
        return table;
    }

    /** @return the keyspace of the table, as Cassandra stores it (internal form) */
    public String keyspace() {
        return insert.getVariableDefinitions().get(0).getKeyspace().asInternal();
    }

    /**
     * Decodes a row topic value and binds it.
     *
     * @param value the record value (Avro single-object encoding), not null
     * @return an idempotent bound statement with its write timestamp
     * @throws org.apache.kafka.common.errors.SerializationException if the value cannot be decoded
     */
    public abstract BoundStatement bind(byte[] value);

    /**
     * @param instant an instant, not null
     * @return microseconds since the epoch, the unit of CQL write timestamps
     * @throws ArithmeticException past year 294,247
     */
    static long micros(java.time.Instant instant) {
        return Math.multiplyExact(instant.toEpochMilli(), 1000L);
    }

    BoundStatementBuilder builder() {
        return insert.boundStatementBuilder().setIdempotence(true).setConsistencyLevel(consistency);
    }

    /**
     * The size Cassandra counts for this row in a batch, the figure it compares with
     * {@code batch_size_warn_threshold}, bounded from above. It follows the shape of
     * {@code PartitionUpdate.dataSize()}: per row the clustering values plus
     * {@value #ROW_OVERHEAD_BYTES} bytes, and for each regular cell written its value plus
     * {@value #CELL_OVERHEAD_BYTES} bytes; the partition key is not counted. Unset values write
     * no cell.
     *
     * @param statement a statement bound from this table's insert
     * @return the estimated server-side size in bytes
     */
    int serverBytes(BoundStatement statement) {
        int total = ROW_OVERHEAD_BYTES;
        int regularEnd = statement.size() - 1; // the last marker is the write timestamp
        for (int i = partitionKeyColumns; i < regularEnd; i++) {
            if (!statement.isSet(i)) {
                continue;
            }
            ByteBuffer value = statement.getBytesUnsafe(i);
            int size = value == null ? 0 : value.remaining();
            total += i < partitionKeyColumns + clusteringColumns ? size : size + CELL_OVERHEAD_BYTES;
        }
        return total;
    }

    /**
     * The hive_telemetry table.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable hiveTelemetry(CqlSession session, String keyspace, Options options) {
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".hive_telemetry"
                + " (hive_id, day, shard, sensor_type, reading_time, gateway_id, value, unit)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)" + options.usingClause());
        AvroSingleObjectSerde<HiveTelemetryRow> serde = AvroSingleObjectSerde.of(HiveTelemetryRow.class);
        return new SinkTable("hive_telemetry", insert, options, 3, 2) {
            @Override
            public BoundStatement bind(byte[] value) {
                HiveTelemetryRow row = Objects.requireNonNull(serde.decode(value));
                return builder()
                        .set(0, row.getHiveId(), TEXT)
                        .set(1, row.getDay(), TypeCodecs.DATE)
                        .set(2, row.getShard(), TypeCodecs.INT)
                        .set(3, row.getSensorType(), TEXT)
                        .set(4, row.getReadingTime(), TypeCodecs.TIMESTAMP)
                        .set(5, row.getGatewayId(), TEXT)
                        .set(6, row.getValue(), TypeCodecs.DOUBLE)
                        .set(7, row.getUnit(), TEXT)
                        .set(8, micros(row.getReadingTime()), TypeCodecs.BIGINT)
                        .build();
            }
        };
    }

    /**
     * The hive_activity table.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable hiveActivity(CqlSession session, String keyspace, Options options) {
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".hive_activity"
                + " (hive_id, day, hour, bees_in, bees_out, samples) VALUES (?, ?, ?, ?, ?, ?)"
                + options.usingClause());
        AvroSingleObjectSerde<HourlyActivity> serde = AvroSingleObjectSerde.of(HourlyActivity.class);
        return new SinkTable("hive_activity", insert, options, 1, 2) {
            @Override
            public BoundStatement bind(byte[] value) {
                HourlyActivity row = Objects.requireNonNull(serde.decode(value));
                LocalDate day = row.getDay();
                long writeTime = Math.addExact(micros(row.getWindowStart()),
                        row.getSamples());
                return builder()
                        .set(0, row.getHiveId(), TEXT)
                        .set(1, day, TypeCodecs.DATE)
                        .set(2, row.getHour(), TypeCodecs.INT)
                        .set(3, row.getEntries(), TypeCodecs.BIGINT)
                        .set(4, row.getExits(), TypeCodecs.BIGINT)
                        .set(5, row.getSamples(), TypeCodecs.INT)
                        .set(6, writeTime, TypeCodecs.BIGINT)
                        .build();
            }
        };
    }

    /**
     * The weather_readings table. Absent measurements are left unset (no cell, no tombstone).
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable weatherReadings(CqlSession session, String keyspace, Options options) {
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".weather_readings"
                + " (station_id, day, shard, reading_time, temperature_c, relative_humidity, pressure_hpa,"
                + " wind_speed_ms, wind_direction_deg, rainfall_mm, solar_radiation_wm2)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" + options.usingClause());
        AvroSingleObjectSerde<WeatherReadingRow> serde = AvroSingleObjectSerde.of(WeatherReadingRow.class);
        return new SinkTable("weather_readings", insert, options, 3, 1) {
            @Override
            public BoundStatement bind(byte[] value) {
                WeatherReadingRow row = Objects.requireNonNull(serde.decode(value));
                BoundStatementBuilder statement = builder()
                        .set(0, row.getStationId(), TEXT)
                        .set(1, row.getDay(), TypeCodecs.DATE)
                        .set(2, row.getShard(), TypeCodecs.INT)
                        .set(3, row.getReadingTime(), TypeCodecs.TIMESTAMP)
                        .set(11, micros(row.getReadingTime()), TypeCodecs.BIGINT);
                statement = setIfPresent(statement, 4, row.getTemperatureC());
                statement = setIfPresent(statement, 5, row.getRelativeHumidity());
                statement = setIfPresent(statement, 6, row.getPressureHpa());
                statement = setIfPresent(statement, 7, row.getWindSpeedMs());
                statement = setIfPresent(statement, 8, row.getWindDirectionDeg());
                statement = setIfPresent(statement, 9, row.getRainfallMm());
                statement = setIfPresent(statement, 10, row.getSolarRadiationWm2());
                return statement.build();
            }
        };
    }

    /**
     * The agent_alerts table. An alert without hive leaves hive_id unset (no cell, no tombstone).
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @return the table binding
     */
    public static SinkTable agentAlerts(CqlSession session, String keyspace, Options options) {
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".agent_alerts"
                + " (agent_id, day, alert_time, hive_id, severity, alert_type, message)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)" + options.usingClause());
        AvroSingleObjectSerde<AgentAlertRow> serde = AvroSingleObjectSerde.of(AgentAlertRow.class);
        return new SinkTable("agent_alerts", insert, options, 2, 1) {
            @Override
            public BoundStatement bind(byte[] value) {
                AgentAlertRow row = Objects.requireNonNull(serde.decode(value));
                BoundStatementBuilder statement = builder()
                        .set(0, row.getAgentId(), TEXT)
                        .set(1, row.getDay(), TypeCodecs.DATE)
                        .set(2, row.getAlertTime(), TypeCodecs.TIMESTAMP)
                        .set(4, row.getSeverity(), TEXT)
                        .set(5, row.getAlertType(), TEXT)
                        .set(6, row.getMessage(), TEXT)
                        .set(7, micros(row.getAlertTime()), TypeCodecs.BIGINT);
                if (row.getHiveId() != null) {
                    statement = statement.set(3, row.getHiveId(), TEXT);
                }
                return statement.build();
            }
        };
    }

    /** Binds a nullable double, leaving the marker unset when null. */
    private static BoundStatementBuilder setIfPresent(BoundStatementBuilder statement, int index, Double value) {
        return value == null ? statement : statement.set(index, value, TypeCodecs.DOUBLE);
    }
}
