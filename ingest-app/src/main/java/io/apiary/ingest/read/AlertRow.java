package io.apiary.ingest.read;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of {@code agent_alerts_v2}: an alert raised by a hive gateway's monitoring agent. A row
 * of the legacy {@code agent_alerts} table (no alert id) reads with the id the pipeline derives
 * from its content ({@link io.apiary.ingest.identity.AlertIds#derive}), the id a migrated copy has.
 *
 * @param agentId   the agent (partition-key column {@code agent_id}), not null
 * @param alertTime when the alert was raised (clustering column {@code alert_time}), millisecond
 *                  precision, not null
 * @param alertId   the alert's id within the agent and millisecond (clustering column
 *                  {@code alert_id}): the agent's own, or {@code c-} and a fingerprint of the
 *                  content; not null
 * @param hiveId    the hive concerned, null when the alert concerns the gateway itself
 * @param severity  the {@code AlertSeverity} symbol, e.g. {@code WARNING}; null if the column is empty
 * @param alertType the kind of alert, e.g. {@code SWARMING_SUSPECTED}; null if the column is empty
 * @param message   the agent's text, null if the column is empty
 */
public record AlertRow(
        String agentId,
        Instant alertTime,
        String alertId,
        String hiveId,
        String severity,
        String alertType,
        String message)
        implements TimedRow {

    /** Checks the non-null fields. */
    public AlertRow {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(alertTime, "alertTime");
        Objects.requireNonNull(alertId, "alertId");
    }

    @Override
    public Instant time() {
        return alertTime;
    }

    @Override
    public String series() {
        return "";
    }

    /** @return the alert id: two alerts of one millisecond come out in the order of their ids */
    @Override
    public String seriesId() {
        return alertId;
    }
}
