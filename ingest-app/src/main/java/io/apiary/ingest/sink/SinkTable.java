package io.apiary.ingest.sink;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.Objects;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
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
 * Thread-safe: prepared statements and serdes are.
 */
public abstract class SinkTable {

    private final String table;
    private final PreparedStatement insert;
    private final ConsistencyLevel consistency;

    private SinkTable(String table, PreparedStatement insert, ConsistencyLevel consistency) {
        this.table = table;
        this.insert = insert;
        this.consistency = consistency;
    }

    /** @return the table name, without keyspace */
    public String table() {
        return table;
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
     * Bytes of the bound values of a statement (what the byte cap counts).
     *
     * @param statement a statement bound from this table's insert
     * @return the sum of the serialized values' sizes
     */
    static int boundBytes(BoundStatement statement) {
        int total = 0;
        for (ByteBuffer value : statement.getValues()) {
            total += value == null ? 0 : value.remaining();
        }
        return total;
    }

    /**
     * The hive_telemetry table.
     *
     * @param session     an open session, not null
     * @param keyspace    keyspace of the table
     * @param consistency write consistency level
     * @return the table binding
     */
    public static SinkTable hiveTelemetry(CqlSession session, String keyspace, ConsistencyLevel consistency) {
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".hive_telemetry"
                + " (hive_id, day, shard, sensor_type, reading_time, gateway_id, value, unit)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
        AvroSingleObjectSerde<HiveTelemetryRow> serde = AvroSingleObjectSerde.of(HiveTelemetryRow.class);
        return new SinkTable("hive_telemetry", insert, consistency) {
            @Override
            public BoundStatement bind(byte[] value) {
                HiveTelemetryRow row = Objects.requireNonNull(serde.decode(value));
                return builder()
                        .setString(0, row.getHiveId())
                        .setLocalDate(1, row.getDay())
                        .setInt(2, row.getShard())
                        .setString(3, row.getSensorType())
                        .setInstant(4, row.getReadingTime())
                        .setString(5, row.getGatewayId())
                        .setDouble(6, row.getValue())
                        .setString(7, row.getUnit())
                        .setLong(8, micros(row.getReadingTime()))
                        .build();
            }
        };
    }

    /**
     * The hive_activity table.
     *
     * @param session     an open session, not null
     * @param keyspace    keyspace of the table
     * @param consistency write consistency level
     * @return the table binding
     */
    public static SinkTable hiveActivity(CqlSession session, String keyspace, ConsistencyLevel consistency) {
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".hive_activity"
                + " (hive_id, day, hour, bees_in, bees_out, samples) VALUES (?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
        AvroSingleObjectSerde<HourlyActivity> serde = AvroSingleObjectSerde.of(HourlyActivity.class);
        return new SinkTable("hive_activity", insert, consistency) {
            @Override
            public BoundStatement bind(byte[] value) {
                HourlyActivity row = Objects.requireNonNull(serde.decode(value));
                LocalDate day = row.getDay();
                long writeTime = Math.addExact(micros(row.getWindowStart()),
                        row.getSamples());
                return builder()
                        .setString(0, row.getHiveId())
                        .setLocalDate(1, day)
                        .setInt(2, row.getHour())
                        .setLong(3, row.getEntries())
                        .setLong(4, row.getExits())
                        .setInt(5, row.getSamples())
                        .setLong(6, writeTime)
                        .build();
            }
        };
    }

    /**
     * The weather_readings table. Absent measurements are left unset (no cell, no tombstone).
     *
     * @param session     an open session, not null
     * @param keyspace    keyspace of the table
     * @param consistency write consistency level
     * @return the table binding
     */
    public static SinkTable weatherReadings(CqlSession session, String keyspace, ConsistencyLevel consistency) {
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".weather_readings"
                + " (station_id, day, shard, reading_time, temperature_c, relative_humidity, pressure_hpa,"
                + " wind_speed_ms, wind_direction_deg, rainfall_mm, solar_radiation_wm2)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
        AvroSingleObjectSerde<WeatherReadingRow> serde = AvroSingleObjectSerde.of(WeatherReadingRow.class);
        return new SinkTable("weather_readings", insert, consistency) {
            @Override
            public BoundStatement bind(byte[] value) {
                WeatherReadingRow row = Objects.requireNonNull(serde.decode(value));
                BoundStatementBuilder statement = builder()
                        .setString(0, row.getStationId())
                        .setLocalDate(1, row.getDay())
                        .setInt(2, row.getShard())
                        .setInstant(3, row.getReadingTime())
                        .setLong(11, micros(row.getReadingTime()));
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
     * @param session     an open session, not null
     * @param keyspace    keyspace of the table
     * @param consistency write consistency level
     * @return the table binding
     */
    public static SinkTable agentAlerts(CqlSession session, String keyspace, ConsistencyLevel consistency) {
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".agent_alerts"
                + " (agent_id, day, alert_time, hive_id, severity, alert_type, message)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
        AvroSingleObjectSerde<AgentAlertRow> serde = AvroSingleObjectSerde.of(AgentAlertRow.class);
        return new SinkTable("agent_alerts", insert, consistency) {
            @Override
            public BoundStatement bind(byte[] value) {
                AgentAlertRow row = Objects.requireNonNull(serde.decode(value));
                BoundStatementBuilder statement = builder()
                        .setString(0, row.getAgentId())
                        .setLocalDate(1, row.getDay())
                        .setInstant(2, row.getAlertTime())
                        .setString(4, row.getSeverity())
                        .setString(5, row.getAlertType())
                        .setString(6, row.getMessage())
                        .setLong(7, micros(row.getAlertTime()));
                if (row.getHiveId() != null) {
                    statement = statement.setString(3, row.getHiveId());
                }
                return statement.build();
            }
        };
    }

    /** Binds a nullable double, leaving the marker unset when null. */
    private static BoundStatementBuilder setIfPresent(BoundStatementBuilder statement, int index, Double value) {
        return value == null ? statement : statement.setDouble(index, value);
    }
}
