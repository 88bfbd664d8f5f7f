package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.identity.AlertIds;
import io.apiary.ingest.identity.Identifiers;
import io.apiary.ingest.read.ShardScheme;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.topology.BuiltInTables;
import io.apiary.ingest.topology.RowMapper;
import io.apiary.ingest.topology.TableSpec;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.WeatherReadingRow;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.avro.specific.SpecificRecord;

/**
 * How the rows of a source layout become rows of a target layout: each source row is read as
 * the row topic's record of the target (a legacy reading gets the default sensor id
 * {@link Identifiers#DEFAULT_SENSOR_ID}, a legacy alert the id derived from its content,
 * {@link AlertIds#derive}), then its day bucket and shard are computed again from its event time
 * with the functions the topology uses ({@link DayBucket}, the configured shard scheme), so that a
 * changed shard count re-buckets the rows, and it is bound by the target's {@link SinkTable}.
 * Immutable and thread-safe.
 *
 * @param <T>     the target's row record type
 * @param source  the source layout
 * @param target  the target layout
 * @param scheme  the shard scheme of the target's rows, or null for a table without shards (alerts)
 * @param read    a row of the source layout as a record, keys as stored
 * @param readTarget a row of the target layout as a record, keys as stored
 * @param rebucket the record with its day (and shard) computed from its event time
 * @param table   binds the target table: (session, keyspace, table, options)
 */
public record CopyMapping<T extends SpecificRecord>(
        TableShape source,
        TableShape target,
        ShardScheme scheme,
        Function<ColumnValues, T> read,
        Function<ColumnValues, T> readTarget,
        UnaryOperator<T> rebucket,
        TableBinding<T> table) {

    /** Binds a table of the target's layout. */
    @FunctionalInterface
    public interface TableBinding<T extends SpecificRecord> {
        /**
         * @param session  an open session
         * @param keyspace the table's keyspace
         * @param table    the table's name
         * @param options  consistency level (the TTL is each row's own)
         * @return the binding
         */
        SinkTable<T> bind(CqlSession session, String keyspace, String table, SinkTable.Options options);
    }

    /**
     * The mapping of a supported pair of layouts: either readings layout to the current readings
     * layout, either alerts layout to the current alerts layout, weather to weather.
     *
     * @param source           the source's layout, not null
     * @param target           the target's layout, not null
     * @param telemetryScheme  the shard scheme readings are written with (telemetry.shard.strategy, telemetry.shards)
     * @param weatherScheme    the shard scheme weather readings are written with (weather.shards)
     * @return the mapping, or empty for a pair that is not supported
     */
    public static Optional<CopyMapping<?>> of(
            TableShape source, TableShape target, ShardScheme telemetryScheme, ShardScheme weatherScheme) {
        return Optional.ofNullable(
                switch (target) {
                    case TELEMETRY ->
                        source == TableShape.LEGACY_TELEMETRY || source == TableShape.TELEMETRY
                                ? new CopyMapping<>(
                                        source,
                                        target,
                                        telemetryScheme,
                                        row -> telemetry(row, source == TableShape.TELEMETRY),
                                        row -> telemetry(row, true),
                                        row -> rebucket(row, telemetryScheme),
                                        target(BuiltInTables.TELEMETRY, HiveTelemetryRow.class))
                                : null;
                    case ALERTS ->
                        source == TableShape.LEGACY_ALERTS || source == TableShape.ALERTS
                                ? new CopyMapping<>(
                                        source,
                                        target,
                                        null,
                                        row -> alert(row, source == TableShape.ALERTS),
                                        row -> alert(row, true),
                                        CopyMapping::rebucket,
                                        target(BuiltInTables.ALERTS, AgentAlertRow.class))
                                : null;
                    case WEATHER ->
                        source == TableShape.WEATHER
                                ? new CopyMapping<>(
                                        source,
                                        target,
                                        weatherScheme,
                                        CopyMapping::weather,
                                        CopyMapping::weather,
                                        row -> rebucket(row, weatherScheme),
                                        target(BuiltInTables.WEATHER, WeatherReadingRow.class))
                                : null;
                    default -> null;
                });
    }

    /**
     * Binds a table of a built-in table's layout under the target's name, as the sink binds the
     * built-in table; rows are bound from records, never decoded, so the reader is single-object.
     */
    private static <T extends SpecificRecord> TableBinding<T> target(TableSpec<?, T> spec, Class<T> type) {
        return (session, keyspace, table, options) -> SinkTable.of(
                session,
                keyspace,
                options,
                spec.binding().named(table),
                AvroSingleObjectSerde.of(type).deserializer());
    }

    /**
     * @param row a source row
     * @return its target row, re-bucketed
     * @throws IllegalArgumentException naming the cause if the row cannot be a target row (a
     *                                  required value is null)
     */
    public T map(ColumnValues row) {
        try {
            return rebucket.apply(read.apply(row));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "cannot be mapped to the " + target.name().toLowerCase(java.util.Locale.ROOT) + " layout: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * A row of the target as stored, also when a column its record requires is null there (a
     * value deleted by hand: {@code DELETE value FROM ...}): such a column is read as a stand-in
     * (0, 0.0 or the empty text, which bind as any value does) and named in
     * {@link Stored#nullColumns}, so that the row can still be keyed, compared and named. Key
     * columns are never null in Cassandra.
     *
     * @param row a row of the target's layout
     * @return the row, and the columns that were null
     * @throws IllegalArgumentException if a null column has no stand-in (not a number or text)
     */
    public Stored<T> readStored(ColumnValues row) {
        try {
            return new Stored<>(readTarget.apply(row), List.of());
        } catch (IllegalArgumentException strict) {
            List<String> nulls = new ArrayList<>();
            ColumnValues filled = new ColumnValues() {
                @Override
                public <V> V get(String column, Class<V> type) {
                    V value = row.get(column, type);
                    if (value != null) {
                        return value;
                    }
                    nulls.add(column);
                    return type.cast(standIn(column, type));
                }
            };
            return new Stored<>(readTarget.apply(filled), List.copyOf(nulls));
        }
    }

    /**
     * A target row as read by {@link #readStored}.
     *
     * @param row         the row; a column of {@code nullColumns} holds a stand-in, not its value
     * @param nullColumns the columns null in the table (empty for a whole row), in read order
     * @param <T>         the row record type
     */
    public record Stored<T>(T row, List<String> nullColumns) {}

    private static Object standIn(String column, Class<?> type) {
        if (type == Double.class) {
            return 0.0;
        }
        if (type == Integer.class) {
            return 0;
        }
        if (type == String.class) {
            return "";
        }
        throw new IllegalArgumentException(column + " is null");
    }

    /** A reading of either readings layout; a legacy one (no sensor_id column) gets the default sensor id. */
    static HiveTelemetryRow telemetry(ColumnValues row, boolean hasSensorId) {
        String sensorId = hasSensorId ? row.get("sensor_id", String.class) : Identifiers.DEFAULT_SENSOR_ID;
        return new HiveTelemetryRow(
                required(row, "hive_id", String.class),
                required(row, "day", LocalDate.class),
                required(row, "shard", Integer.class),
                required(row, "sensor_type", String.class),
                required(sensorId, "sensor_id"),
                required(row, "reading_time", Instant.class),
                required(row, "gateway_id", String.class),
                required(row, "value", Double.class),
                required(row, "unit", String.class));
    }

    /** An alert of either alerts layout; a legacy one (no alert_id column) gets the id derived from its content. */
    static AgentAlertRow alert(ColumnValues row, boolean hasAlertId) {
        String hiveId = row.get("hive_id", String.class);
        String severity = required(row, "severity", String.class);
        String type = required(row, "alert_type", String.class);
        String message = required(row, "message", String.class);
        String alertId =
                hasAlertId ? required(row, "alert_id", String.class) : AlertIds.derive(hiveId, severity, type, message);
        return new AgentAlertRow(
                required(row, "agent_id", String.class),
                required(row, "day", LocalDate.class),
                required(row, "alert_time", Instant.class),
                alertId,
                hiveId,
                severity,
                type,
                message);
    }

    /** A weather reading; absent measurements stay null. */
    static WeatherReadingRow weather(ColumnValues row) {
        return new WeatherReadingRow(
                required(row, "station_id", String.class),
                required(row, "day", LocalDate.class),
                required(row, "shard", Integer.class),
                required(row, "reading_time", Instant.class),
                row.get("temperature_c", Double.class),
                row.get("relative_humidity", Double.class),
                row.get("pressure_hpa", Double.class),
                row.get("wind_speed_ms", Double.class),
                row.get("wind_direction_deg", Double.class),
                row.get("rainfall_mm", Double.class),
                row.get("solar_radiation_wm2", Double.class));
    }

    /** The reading in the day and shard of its reading time under the scheme. */
    static HiveTelemetryRow rebucket(HiveTelemetryRow row, ShardScheme scheme) {
        long time = row.getReadingTime().toEpochMilli();
        return new HiveTelemetryRow(
                row.getHiveId(),
                DayBucket.of(time),
                scheme.strategy().shard(row.getHiveId(), row.getSensorType(), time, scheme.shards()),
                row.getSensorType(),
                row.getSensorId(),
                row.getReadingTime(),
                row.getGatewayId(),
                row.getValue(),
                row.getUnit());
    }

    /** The alert in the day of its alert time. */
    static AgentAlertRow rebucket(AgentAlertRow row) {
        return new AgentAlertRow(
                row.getAgentId(),
                DayBucket.of(row.getAlertTime().toEpochMilli()),
                row.getAlertTime(),
                row.getAlertId(),
                row.getHiveId(),
                row.getSeverity(),
                row.getAlertType(),
                row.getMessage());
    }

    /** The weather reading in the day and shard of its reading time under the scheme, as the topology's {@link RowMapper} places it. */
    static WeatherReadingRow rebucket(WeatherReadingRow row, ShardScheme scheme) {
        long time = row.getReadingTime().toEpochMilli();
        return new WeatherReadingRow(
                row.getStationId(),
                DayBucket.of(time),
                scheme.strategy().shard(row.getStationId(), ShardStrategy.WEATHER_SHARD_SENSOR, time, scheme.shards()),
                row.getReadingTime(),
                row.getTemperatureC(),
                row.getRelativeHumidity(),
                row.getPressureHpa(),
                row.getWindSpeedMs(),
                row.getWindDirectionDeg(),
                row.getRainfallMm(),
                row.getSolarRadiationWm2());
    }

    private static <V> V required(ColumnValues row, String column, Class<V> type) {
        return required(row.get(column, type), column);
    }

    private static <V> V required(V value, String column) {
        if (value == null) {
            throw new IllegalArgumentException(column + " is null");
        }
        return value;
    }
}
