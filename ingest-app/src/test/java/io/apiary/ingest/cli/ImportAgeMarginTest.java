package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.validation.Rejection;
import io.apiary.ingest.validation.TimeLimits;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ImportAgeMarginTest {

    private static final TimeLimits LIMITS = new TimeLimits(Duration.ofMinutes(5), Duration.ofDays(1));
    private static final long NOW = Instant.parse("2026-12-07T12:00:00Z").toEpochMilli();
    private static final long MAX_AGE = Duration.ofDays(1).toMillis();

    @Test
    void a_record_the_maximum_age_reaches_within_the_margin_is_refused_as_the_topology_would_refuse_it_later() {
        long almostExpired = NOW - MAX_AGE + Duration.ofMinutes(30).toMillis();

        Rejection refused = ImportCsvCommand.withMargin(null, LIMITS, "event_time", almostExpired, NOW);

        assertThat(refused.reason()).isEqualTo(RejectReason.EXPIRED_TIMESTAMP);
        assertThat(refused.message())
                .contains("older than the maximum age of 1 day", "by the time the topology reads it");
    }

    @Test
    void a_record_beyond_the_margin_and_the_validators_own_verdicts_pass_unchanged() {
        long safe = NOW - MAX_AGE + ImportCsvCommand.AGE_MARGIN.toMillis() + 1;
        long soon = NOW + Duration.ofMinutes(4).toMillis();
        Rejection other = new Rejection(RejectReason.OUT_OF_RANGE, "too humid");

        assertThat(ImportCsvCommand.withMargin(null, LIMITS, "event_time", safe, NOW))
                .isNull();
        assertThat(ImportCsvCommand.withMargin(null, LIMITS, "event_time", soon, NOW))
                .as("not from the future")
                .isNull();
        assertThat(ImportCsvCommand.withMargin(other, LIMITS, "event_time", safe, NOW))
                .isSameAs(other);
    }
}
