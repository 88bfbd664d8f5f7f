package io.apiary.ingest.tables;

import java.util.List;

/**
 * The names of the Cassandra tables of {@code cql/} (and of the legacy layouts in
 * {@code cql/legacy/}), defined once for the sink, the read path, the migration command, the
 * partition planner and the configuration. A leaf of the package graph: it imports nothing of the
 * application. Thread-safe (constants only).
 */
public final class TableNames {

    /** Readings per hive, sensor type and sensor: {@code cql/010-hive_telemetry_v2.cql}. */
    public static final String HIVE_TELEMETRY = "hive_telemetry_v2";
    /** Hourly entries and exits per hive: {@code cql/020-hive_activity.cql}. */
    public static final String HIVE_ACTIVITY = "hive_activity";
    /** Weather station readings: {@code cql/030-weather_readings.cql}. */
    public static final String WEATHER_READINGS = "weather_readings";
    /** Alerts of monitoring agents: {@code cql/040-agent_alerts_v2.cql}. */
    public static final String AGENT_ALERTS = "agent_alerts_v2";
    /**
     * The first layout of the readings ({@code cql/legacy/010-hive_telemetry.cql}): no sensor_id,
     * so two sensors of one type at one instant shared a row. Read during a migration, never written.
     */
    public static final String LEGACY_HIVE_TELEMETRY = "hive_telemetry";
    /**
     * The first layout of the alerts ({@code cql/legacy/040-agent_alerts.cql}): no alert_id, so two
     * alerts of one agent in one millisecond shared a row. Read during a migration, never written.
     */
    public static final String LEGACY_AGENT_ALERTS = "agent_alerts";

    /**
     * Where {@code ingest-app table copy} keeps how far each token range of a copy has come, so
     * that a killed copy resumes; created by the command itself, not part of {@code cql/}.
     */
    public static final String TABLE_COPY_PROGRESS = "table_copy_progress";

    /**
     * Where {@code ingest-app table verify} keeps the rows it last named as missing or different,
     * so that {@code table copy} can check that copying them again restored them; created by the
     * command itself, not part of {@code cql/}.
     */
    public static final String TABLE_VERIFY_FINDINGS = "table_verify_findings";

    /** The tables the sink writes, in the order of {@code cql/}. */
    public static final List<String> CURRENT = List.of(HIVE_TELEMETRY, HIVE_ACTIVITY, WEATHER_READINGS, AGENT_ALERTS);

    private TableNames() {}
}
