package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryBackoffTest {

    private final RetryBackoff backoff = new RetryBackoff(Duration.ofMillis(100), Duration.ofSeconds(30));

    @Test
    void should_double_the_cap_per_attempt_and_wait_between_half_and_all_of_it() {
        assertThat(backoff.delayNanos(1, bound -> 0))
                .isEqualTo(Duration.ofMillis(50).toNanos());
        assertThat(backoff.delayNanos(1, bound -> bound - 1))
                .isEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(backoff.delayNanos(4, bound -> 0))
                .isEqualTo(Duration.ofMillis(400).toNanos());
        assertThat(backoff.delayNanos(4, bound -> bound - 1))
                .isEqualTo(Duration.ofMillis(800).toNanos());
    }

    @Test
    void should_never_exceed_the_maximum_however_many_attempts() {
        for (int attempt : new int[] {10, 30, 63, 64, 1_000, Integer.MAX_VALUE}) {
            assertThat(backoff.delayNanos(attempt, bound -> bound - 1))
                    .isEqualTo(Duration.ofSeconds(30).toNanos());
            assertThat(backoff.delayNanos(attempt, bound -> 0))
                    .isEqualTo(Duration.ofSeconds(15).toNanos());
        }
    }
}
