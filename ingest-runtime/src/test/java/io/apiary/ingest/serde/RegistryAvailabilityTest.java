package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RegistryAvailabilityTest {

    private final AtomicLong now = new AtomicLong(TimeUnit.HOURS.toNanos(1));
    private final RegistryAvailability availability = new RegistryAvailability(Duration.ofMinutes(2), now::get);

    private static SchemaRegistryException down(String message) {
        return new SchemaRegistryException(message, 0, 0, null);
    }

    private void advanceSeconds(long seconds) {
        now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
    }

    @Test
    void no_outage_before_any_request() {
        assertThat(availability.outage()).isEmpty();
    }

    @Test
    void an_outage_begins_with_a_failed_request_and_keeps_its_start_and_last_error() {
        long start = now.get();
        availability.failed(down("first"));
        advanceSeconds(30);
        availability.failed(down("second"));

        assertThat(availability.outage()).hasValueSatisfying(outage -> {
            assertThat(outage.sinceNanos()).isEqualTo(start);
            assertThat(outage.lastNanos()).isEqualTo(now.get());
            assertThat(outage.failures()).isEqualTo(2);
            assertThat(outage.lastError()).isEqualTo("second");
        });
    }

    @Test
    void an_answered_request_ends_the_outage() {
        availability.failed(down("refused"));
        availability.answered();
        assertThat(availability.outage()).isEmpty();
    }

    @Test
    void an_outage_no_request_confirms_within_the_stale_time_is_over() {
        availability.failed(down("refused"));
        advanceSeconds(120);
        assertThat(availability.outage()).as("at the stale time").isPresent();
        advanceSeconds(1);
        assertThat(availability.outage()).isEmpty();
    }

    @Test
    void a_failure_after_a_stale_outage_starts_a_new_one() {
        availability.failed(down("old"));
        advanceSeconds(121);
        long start = now.get();
        availability.failed(down("new"));
        assertThat(availability.outage()).hasValueSatisfying(outage -> {
            assertThat(outage.sinceNanos()).isEqualTo(start);
            assertThat(outage.failures()).isEqualTo(1);
        });
    }

    @Test
    void refuses_a_stale_time_that_is_not_positive() {
        assertThatThrownBy(() -> new RegistryAvailability(Duration.ZERO, now::get))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({
        "0,true",
        "500,true",
        "503,true",
        "408,true",
        "429,true",
        "401,false",
        "403,false",
        "404,false",
        "409,false",
        "422,false"
    })
    void a_server_that_cannot_serve_is_told_from_a_refusal(int status, boolean serverUnavailable) {
        assertThat(new SchemaRegistryException("x", status, 0, null).serverUnavailable())
                .isEqualTo(serverUnavailable);
    }
}
