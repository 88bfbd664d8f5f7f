package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The sink's throughput controls, with an injected clock: adaptive concurrency, row rate limit, server limits. */
class FlowControlPartsTest {

    private static final long MS = 1_000_000L;

    @Test
    void overload_halves_the_in_flight_limit_once_per_interval_and_successes_raise_it_back() {
        AdaptiveConcurrency concurrency = new AdaptiveConcurrency(64, 200 * MS);
        assertThat(concurrency.limit()).isEqualTo(64);

        assertThat(concurrency.onOverload(0)).isTrue();
        assertThat(concurrency.limit()).isEqualTo(32);
        assertThat(concurrency.onOverload(100 * MS)).as("same burst of failures").isFalse();
        assertThat(concurrency.limit()).isEqualTo(32);
        for (long t = 200; t <= 2_000; t += 200) {
            concurrency.onOverload(t * MS);
        }
        assertThat(concurrency.limit()).as("never below 1").isEqualTo(1);

        int successes = 0;
        while (concurrency.limit() < 64) {
            concurrency.onSuccess();
            successes++;
        }
        // additive increase: about limit successes per +1, i.e. sum(1..63) ~ 2,000
        assertThat(successes).isBetween(1_900, 2_100);
        for (int i = 0; i < 10_000; i++) {
            concurrency.onSuccess();
        }
        assertThat(concurrency.limit()).as("never above the configured maximum").isEqualTo(64);
    }

    @Test
    void the_rate_limiter_holds_the_long_run_rate_and_lets_a_batch_larger_than_the_rate_through() {
        RowRateLimiter limiter = new RowRateLimiter(1_000, 0);
        long now = 0;
        long sent = 0;
        while (now < 10_000 * MS) {
            if (limiter.tryAcquire(100, now)) {
                sent += 100;
            } else {
                now += Math.max(1, limiter.nanosUntilAvailable(now));
            }
        }
        // 10 s at 1,000 rows/s, plus the first second's full bucket, plus one batch on credit
        assertThat(sent).isBetween(10_000L, 11_100L);

        RowRateLimiter small = new RowRateLimiter(10, 0);
        assertThat(small.tryAcquire(500, 0)).as("a batch larger than the rate is not blocked forever").isTrue();
        assertThat(small.tryAcquire(1, 1)).isFalse();
        assertThat(small.nanosUntilAvailable(1)).isGreaterThan(40_000 * MS);
    }

    @Test
    void zero_rows_per_second_means_no_limit() {
        RowRateLimiter none = new RowRateLimiter(0, 0);
        for (int i = 0; i < 1_000; i++) {
            assertThat(none.tryAcquire(1_000_000, 0)).isTrue();
        }
        assertThat(none.nanosUntilAvailable(0)).isZero();
        assertThatThrownBy(() -> new RowRateLimiter(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void server_data_sizes_parse_as_cassandra_writes_them() {
        assertThat(ServerBatchLimits.parseSize("5KiB")).isEqualTo(5_120);
        assertThat(ServerBatchLimits.parseSize("50KiB")).isEqualTo(51_200);
        assertThat(ServerBatchLimits.parseSize("5120B")).isEqualTo(5_120);
        assertThat(ServerBatchLimits.parseSize("5120")).isEqualTo(5_120);
        assertThat(ServerBatchLimits.parseSize("1MiB")).isEqualTo(1_048_576);
        assertThatThrownBy(() -> ServerBatchLimits.parseSize("five")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void overload_failures_are_told_apart_from_invalid_writes() {
        assertThat(WriteFailures.overload(new com.datastax.oss.driver.api.core.DriverTimeoutException("t"))).isTrue();
        assertThat(WriteFailures.overload(new java.util.concurrent.CompletionException(
                new com.datastax.oss.driver.api.core.RequestThrottlingException("busy")))).isTrue();
        assertThat(WriteFailures.overload(new IllegalArgumentException("bad"))).isFalse();
    }

    @Test
    void a_refusal_of_the_statement_is_retried_and_a_refusal_of_the_row_is_not() {
        var dropped = new com.datastax.oss.driver.api.core.servererrors.InvalidQueryException(null,
                "table hive_telemetry does not exist");
        var ttl = new com.datastax.oss.driver.api.core.servererrors.InvalidQueryException(null,
                "ttl is too large. requested (999999999) maximum (630720000)");
        var keyTooLong = new com.datastax.oss.driver.api.core.servererrors.InvalidQueryException(null,
                "Key length of 70008 is longer than maximum of 65535");
        assertThat(WriteFailures.statementError(dropped)).isTrue();
        assertThat(WriteFailures.retryable(dropped)).isTrue();
        assertThat(WriteFailures.retryable(ttl)).isTrue();
        assertThat(WriteFailures.statementError(keyTooLong)).isFalse();
        assertThat(WriteFailures.retryable(keyTooLong)).as("goes to the dead letter topic").isFalse();
    }
}
