package io.apiary.ingest.validation;

import io.apiary.schema.AgentAlert;
import java.util.Objects;

/**
 * Checks agent alerts, in this order (the first failure is reported): key present and not empty
 * (NULL_KEY), value present (NULL_VALUE), text lengths (FIELD_TOO_LONG: key, {@code agent_id} and
 * {@code hive_id} at most {@value Checks#MAX_ID_CHARS} characters, {@code alert_type} at most
 * {@value Checks#MAX_UNIT_CHARS}, {@code message} at most {@value Checks#MAX_TEXT_CHARS}), an
 * {@code alert_id} the agent sent a valid identifier (INVALID_IDENTIFIER), key
 * equals {@code agent_id} (KEY_MISMATCH), alert time set and inside 1970..9999
 * (INVALID_TIMESTAMP), alert time not too far ahead of the wall clock (FUTURE_TIMESTAMP) nor older
 * than the maximum age (EXPIRED_TIMESTAMP). An alert carries no numbers, so there are no range
 * checks; a severity this reader does not know arrives as UNKNOWN (the enum's default) and is
 * accepted. Thread-safe (immutable).
 */
public final class AgentAlertValidator implements RecordValidator<AgentAlert> {

    private final TimeLimits limits;

    /** @param limits the event times accepted, not null */
    public AgentAlertValidator(TimeLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    @Override
    public Class<AgentAlert> valueType() {
        return AgentAlert.class;
    }

    @Override
    public long eventTime(AgentAlert value) {
        return value.getAlertTime() == null ? -1L : value.getAlertTime().toEpochMilli();
    }

    @Override
    public Rejection check(String key, AgentAlert alert, long nowMillis) {
        Rejection rejection = Checks.present(key, alert, "agent id");
        if (rejection == null) {
            rejection = Checks.first(
                    Checks.length("key", key, Checks.MAX_ID_CHARS),
                    Checks.length("agent_id", alert.getAgentId(), Checks.MAX_ID_CHARS),
                    Checks.length("hive_id", alert.getHiveId(), Checks.MAX_ID_CHARS),
                    Checks.length("alert_type", alert.getAlertType(), Checks.MAX_UNIT_CHARS),
                    Checks.length("message", alert.getMessage(), Checks.MAX_TEXT_CHARS),
                    alert.getAlertId() == null ? null : Checks.identifier("alert_id", alert.getAlertId()));
        }
        if (rejection == null) {
            rejection = Checks.keyMatches(key, "agent_id", alert.getAgentId());
        }
        if (rejection == null) {
            rejection = TimeLimits.checkRange("alert_time", eventTime(alert));
        }
        if (rejection == null) {
            rejection = limits.check("alert_time", eventTime(alert), nowMillis);
        }
        return rejection;
    }
}
