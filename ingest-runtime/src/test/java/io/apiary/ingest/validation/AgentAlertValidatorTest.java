package io.apiary.ingest.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.schema.AgentAlert;
import io.apiary.schema.AlertSeverity;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AgentAlertValidatorTest {

    private static final long NOW = Instant.parse("2021-07-20T00:00:00Z").toEpochMilli();
    private final AgentAlertValidator validator =
            new AgentAlertValidator(new TimeLimits(Duration.ofMinutes(5), Duration.ofDays(365)));

    private static AgentAlert.Builder alert() {
        return AgentAlert.newBuilder()
                .setAgentId("agent-7")
                .setHiveId("3627")
                .setAlertTime(Instant.parse("2021-07-15T12:00:00Z"))
                .setSeverity(AlertSeverity.WARNING)
                .setAlertType("SWARMING_SUSPECTED")
                .setMessage("Sound level and weight drop suggest a swarm");
    }

    private RejectReason reason(String key, AgentAlert alert) {
        Rejection rejection = validator.check(key, alert, NOW);
        return rejection == null ? null : rejection.reason();
    }

    @Test
    void should_accept_a_valid_alert_with_or_without_hive_and_with_an_empty_message() {
        assertThat(validator.check("agent-7", alert().build(), NOW)).isNull();
        assertThat(validator.check(
                        "agent-7", alert().setHiveId(null).setMessage("").build(), NOW))
                .isNull();
        assertThat(validator.check(
                        "agent-7", alert().setSeverity(AlertSeverity.UNKNOWN).build(), NOW))
                .isNull();
    }

    @Test
    void should_refuse_a_missing_or_empty_key() {
        assertThat(reason(null, alert().build())).isEqualTo(RejectReason.NULL_KEY);
        assertThat(reason("", alert().build())).isEqualTo(RejectReason.NULL_KEY);
    }

    @Test
    void should_refuse_a_tombstone() {
        assertThat(reason("agent-7", null)).isEqualTo(RejectReason.NULL_VALUE);
    }

    @Test
    void should_refuse_ids_over_200_characters() {
        String longId = "a".repeat(Checks.MAX_ID_CHARS + 1);
        assertThat(reason(longId, alert().setAgentId(longId).build())).isEqualTo(RejectReason.FIELD_TOO_LONG);
        assertThat(validator
                        .check("agent-7", alert().setAgentId(longId).build(), NOW)
                        .message())
                .isEqualTo("agent_id is 201 characters long; at most 200 are accepted");
        assertThat(validator
                        .check("agent-7", alert().setHiveId(longId).build(), NOW)
                        .message())
                .isEqualTo("hive_id is 201 characters long; at most 200 are accepted");
    }

    @Test
    void should_refuse_an_alert_type_over_32_characters() {
        assertThat(validator.check(
                        "agent-7", alert().setAlertType("T".repeat(32)).build(), NOW))
                .isNull();
        Rejection rejection =
                validator.check("agent-7", alert().setAlertType("T".repeat(33)).build(), NOW);
        assertThat(rejection.reason()).isEqualTo(RejectReason.FIELD_TOO_LONG);
        assertThat(rejection.message()).isEqualTo("alert_type is 33 characters long; at most 32 are accepted");
    }

    @Test
    void should_refuse_a_message_over_4000_characters() {
        assertThat(validator.check(
                        "agent-7", alert().setMessage("m".repeat(4_000)).build(), NOW))
                .isNull();
        Rejection rejection =
                validator.check("agent-7", alert().setMessage("m".repeat(4_001)).build(), NOW);
        assertThat(rejection.reason()).isEqualTo(RejectReason.FIELD_TOO_LONG);
        assertThat(rejection.message()).startsWith("message is 4001 characters long");
    }

    @Test
    void should_refuse_a_key_that_differs_from_the_agent_id() {
        assertThat(reason("agent-8", alert().build())).isEqualTo(RejectReason.KEY_MISMATCH);
    }

    @Test
    void should_refuse_an_alert_time_at_or_before_the_epoch() {
        assertThat(reason("agent-7", alert().setAlertTime(Instant.EPOCH).build()))
                .isEqualTo(RejectReason.INVALID_TIMESTAMP);
    }

    @Test
    void should_refuse_an_alert_from_the_future_or_older_than_the_maximum_age() {
        assertThat(reason(
                        "agent-7",
                        alert().setAlertTime(Instant.ofEpochMilli(NOW).plus(Duration.ofMinutes(6)))
                                .build()))
                .isEqualTo(RejectReason.FUTURE_TIMESTAMP);
        assertThat(reason(
                        "agent-7",
                        alert().setAlertTime(Instant.ofEpochMilli(NOW).minus(Duration.ofDays(366)))
                                .build()))
                .isEqualTo(RejectReason.EXPIRED_TIMESTAMP);
        assertThat(reason(
                        "agent-7",
                        alert().setAlertTime(Instant.ofEpochMilli(NOW).plus(Duration.ofMinutes(5)))
                                .build()))
                .isNull();
    }
}
