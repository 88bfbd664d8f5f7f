package io.apiary.ingest.read;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of {@code agent_alerts}: an alert raised by a hive gateway's monitoring agent.
 *
 * @param agentId   the agent (partition-key column {@code agent_id}), not null
 * @param alertTime when the alert was raised, millisecond precision, not null
 * @param hiveId    the hive concerned, null when the alert concerns the gateway itself
 * @param severity  the {@code AlertSeverity} symbol, e.g. {@code WARNING}; null if the column is empty
 * @param alertType the kind of alert, e.g. {@code SWARMING_SUSPECTED}; null if the column is empty
 * @param message   the agent's text, null if the column is empty
 */
public record AlertRow(String agentId, Instant alertTime, String hiveId, String severity, String alertType,
        String message) implements TimedRow {

    /** Checks the non-null fields. */
    public AlertRow {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(alertTime, "alertTime");
    }

    @Override
    public Instant time() {
        return alertTime;
    }

    @Override
    public String series() {
        return "";
    }
}
