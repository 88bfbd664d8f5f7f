package io.apiary.ingest.topology;

import io.apiary.ingest.identity.AlertIds;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.sink.WriteTimestamps;
import io.apiary.ingest.tables.TableCatalog;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.validation.AgentAlertValidator;
import io.apiary.ingest.validation.WeatherReadingValidator;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.AgentAlertsPartitionKey;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.WeatherReadingRow;
import io.apiary.schema.WeatherReadingsPartitionKey;
import java.util.List;

/**
 * The tables of {@code cql/}, one {@link TableSpec} each. To add a table like these: its
 * {@code CREATE TABLE} in {@code cql/}, its schemas in {@code schemas/}, its topics in
 * {@link Topics}, its row mapper and validator, and a spec here. Thread-safe (constants only).
 */
public final class BuiltInTables {

    /**
     * hive_telemetry_v2 ({@code cql/010-hive_telemetry_v2.cql}), fed by the gateway readings,
     * bucketed by UTC day and shard ({@code telemetry.shards}); every column from the row field of
     * its name, write time from reading_time. Rows of {@code HiveTelemetryRow} version 1 (no sensor
     * id) are read with the default sensor id.
     */
    public static final TableSpec<HiveTelemetryPartitionKey, HiveTelemetryRow> TELEMETRY = new TableSpec<>(
            SinkTable.Binding.forTable(
                    TableCatalog.bundled().table(TableNames.HIVE_TELEMETRY), HiveTelemetryRow.getClassSchema()),
            Topics::telemetryRowsTopic,
            new TableSpec.Input<>(
                    "telemetry",
                    Topics::telemetryTopic,
                    TopologySettings::telemetryValidator,
                    settings -> new RowMapper(settings.shardStrategy(), settings.shards())::telemetryRow));

    /**
     * hive_activity ({@code cql/020-hive_activity.cql}), fed by the hourly aggregation of the
     * entrance counts ({@link HourlyActivityProcessor}), so without input: the hour's sums from the
     * fields entries and exits; write time from the hour's start and its updates
     * ({@link WriteTimestamps#hourly}); a key's rows are updates.
     */
    public static final TableSpec<HiveActivityPartitionKey, HourlyActivity> ACTIVITY = new TableSpec<>(
            SinkTable.Binding.<HourlyActivity>forTable(
                            TableCatalog.bundled().table(TableNames.HIVE_ACTIVITY), HourlyActivity.getClassSchema())
                    .field("bees_in", "entries")
                    .field("bees_out", "exits")
                    .writeTime((row, fingerprint) -> WriteTimestamps.hourly(
                            row.getWindowStart().toEpochMilli(),
                            Math.addExact(row.getSamples(), row.getRevision()),
                            fingerprint))
                    .updates(),
            Topics::activityRowsTopic,
            null);

    /**
     * weather_readings ({@code cql/030-weather_readings.cql}), fed by the station readings,
     * bucketed by UTC day and shard ({@code weather.shards}); every column from the row field of
     * its name. Absent measurements are left unset (no cell, no tombstone); the row deletion before
     * the INSERT clears an earlier version's.
     */
    public static final TableSpec<WeatherReadingsPartitionKey, WeatherReadingRow> WEATHER = new TableSpec<>(
            SinkTable.Binding.forTable(
                    TableCatalog.bundled().table(TableNames.WEATHER_READINGS), WeatherReadingRow.getClassSchema()),
            Topics::weatherRowsTopic,
            new TableSpec.Input<>(
                    "weather",
                    Topics::weatherTopic,
                    settings -> new WeatherReadingValidator(settings.timeLimits(IngestTopology.WEATHER_RETENTION)),
                    settings -> new RowMapper(settings.shardStrategy(), settings.weatherShards())::weatherRow));

    /**
     * agent_alerts_v2 ({@code cql/040-agent_alerts_v2.cql}), fed by the agent alerts, bucketed by
     * UTC day. alert_id is the agent's, or for rows of {@code AgentAlertRow} version 1 (none) the id
     * derived from the alert's content ({@link AlertIds}), as the row mapper derives it; an alert
     * without hive leaves hive_id unset.
     */
    public static final TableSpec<AgentAlertsPartitionKey, AgentAlertRow> ALERTS = new TableSpec<>(
            SinkTable.Binding.<AgentAlertRow>forTable(
                            TableCatalog.bundled().table(TableNames.AGENT_ALERTS), AgentAlertRow.getClassSchema())
                    .computed(
                            "alert_id",
                            row -> AlertIds.of(
                                    row.getAlertId(),
                                    row.getHiveId(),
                                    row.getSeverity(),
                                    row.getAlertType(),
                                    row.getMessage())),
            Topics::alertRowsTopic,
            new TableSpec.Input<>(
                    "alerts",
                    Topics::alertsTopic,
                    settings -> new AgentAlertValidator(settings.timeLimits(IngestTopology.ALERTS_RETENTION)),
                    settings -> RowMapper::alertRow));

    /**
     * Every built-in table, in the order of {@code cql/} ({@link TableNames#CURRENT}). The topology
     * adds their streams in this order, which fixes the numbers of its sub-topologies (and so the
     * task ids and state folders of running deployments).
     */
    public static final List<TableSpec<?, ?>> ALL = List.of(TELEMETRY, ACTIVITY, WEATHER, ALERTS);

    private BuiltInTables() {}
}
