package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The sink's throughput controls, with an injected clock: the concurrency limit, flow control, the
 * row rate limit, server limits and the outcome of failed writes.
 */
class FlowControlPartsTest {

    private static final long MS = 1_000_000L;

    @Test
    void overload_halves_the_in_flight_limit_once_per_interval_and_successes_raise_it_back() {
        ConcurrencyLimit concurrency = new ConcurrencyLimit(ConcurrencyLimit.Algorithm.AIMD, 64, 200 * MS);
        assertThat(concurrency.limit()).isEqualTo(64);

        assertThat(concurrency.onOverload(0, 0, 64)).isTrue();
        assertThat(concurrency.limit()).isEqualTo(32);
        assertThat(concurrency.onOverload(50 * MS, 100 * MS, 32))
                .as("same burst of failures")
                .isFalse();
        assertThat(concurrency.limit()).isEqualTo(32);
        for (long t = 200; t <= 2_000; t += 200) {
            concurrency.onOverload(t * MS, t * MS, 1);
        }
        assertThat(concurrency.limit()).as("never below 1").isEqualTo(1);

        int successes = 0;
        while (concurrency.limit() < 64) {
            concurrency.onSuccess(successes * MS, 2 * MS, concurrency.limit());
            successes++;
        }
        // +1 per acknowledged request while at least half the limit is in flight
        assertThat(successes).isEqualTo(63);
        for (int i = 0; i < 10_000; i++) {
            concurrency.onSuccess(i * MS, 2 * MS, 64);
        }
        assertThat(concurrency.limit()).as("never above the configured maximum").isEqualTo(64);
    }

    @Test
    void an_app_limited_sink_does_not_raise_its_limit() {
        ConcurrencyLimit concurrency = new ConcurrencyLimit(ConcurrencyLimit.Algorithm.AIMD, 64, 0);
        concurrency.onOverload(0, 1, 64);
        for (int i = 0; i < 1_000; i++) {
            concurrency.onSuccess(i * MS, 2 * MS, 4);
        }
        assertThat(concurrency.limit())
                .as("4 in flight of a limit of 32 is not a probe of more")
                .isEqualTo(32);
    }

    @Test
    void vegas_follows_the_latency_down_when_requests_queue_and_up_when_they_do_not() {
        ConcurrencyLimit concurrency = new ConcurrencyLimit(ConcurrencyLimit.Algorithm.VEGAS, 256, 200 * MS);
        int start = concurrency.limit();
        assertThat(start).as("starts at a quarter of the maximum").isEqualTo(64);
        long t = 0;
        // no queueing: every round trip is the unloaded one, with the limit in flight. Few samples in all:
        // Vegas re-probes its unloaded round trip at random, but never within 15 x limit (960) samples
        for (int i = 0; i < 500; i++, t += MS) {
            concurrency.onSuccess(t, 5 * MS, concurrency.limit());
        }
        int grown = concurrency.limit();
        assertThat(grown).as("grows while latency stays flat").isGreaterThan(start);
        // queueing at the server: round trips ten times the unloaded one
        int previous = grown;
        for (int i = 0; i < 20; i++, t += MS) {
            concurrency.onSuccess(t, 50 * MS, concurrency.limit());
            assertThat(concurrency.limit()).as("falls as latency rises").isLessThan(previous);
            previous = concurrency.limit();
        }
        assertThat(concurrency.limit()).isBetween(1, 256);
    }

    @Test
    void vegas_still_halves_on_overload() {
        ConcurrencyLimit concurrency = new ConcurrencyLimit(ConcurrencyLimit.Algorithm.VEGAS, 256, 200 * MS);
        int before = concurrency.limit();
        assertThat(concurrency.onOverload(0, 2_000 * MS, before)).isTrue();
        assertThat(concurrency.limit()).isLessThanOrEqualTo(before / 2 + 1);
        assertThat(ConcurrencyLimit.Algorithm.parse(" Gradient2 ")).isEqualTo(ConcurrencyLimit.Algorithm.GRADIENT2);
        assertThatThrownBy(() -> ConcurrencyLimit.Algorithm.parse("tcp")).hasMessageContaining("vegas, gradient2");
    }

    @Test
    void a_burst_of_timeouts_lowers_vegas_once() {
        ConcurrencyLimit concurrency = new ConcurrencyLimit(ConcurrencyLimit.Algorithm.VEGAS, 256, 200 * MS);
        long t = 0;
        for (int i = 0; i < 500; i++, t += MS) {
            concurrency.onSuccess(t, 5 * MS, concurrency.limit());
        }
        int before = concurrency.limit();
        for (int i = 0; i < 256; i++) {
            concurrency.onOverload(t, t + 100 * MS + i * 1_000, before);
        }
        assertThat(concurrency.limit())
                .as("256 timeouts within 200 ms halve the limit once")
                .isEqualTo(before / 2);
    }

    @Test
    void fixed_keeps_the_maximum() {
        ConcurrencyLimit concurrency = new ConcurrencyLimit(ConcurrencyLimit.Algorithm.FIXED, 16, 0);
        assertThat(concurrency.onOverload(0, 5_000 * MS, 16)).isFalse();
        assertThat(concurrency.limit()).isEqualTo(16);
    }

    @Test
    void flow_control_pauses_at_the_bounds_and_resumes_at_half_of_them() {
        FlowControl flow = new FlowControl(1_000, 1_000_000);
        assertThat(flow.paused(false, 999, 10, 0)).isFalse();
        assertThat(flow.paused(false, 1_000, 10, 0)).isTrue();
        assertThat(flow.paused(false, 10, 1_000_000, 0)).isTrue();
        assertThat(flow.paused(false, 10, 10, 4_000))
                .as("acknowledged rows behind a slow one")
                .isTrue();
        assertThat(flow.paused(true, 501, 10, 0)).as("hysteresis").isTrue();
        assertThat(flow.paused(true, 500, 500_000, 2_000)).isFalse();
        assertThat(flow.paused(true, 500, 500_001, 0)).isTrue();
        assertThat(flow.earlyRows()).isEqualTo(750);
        assertThat(flow.earlyBytes()).isEqualTo(750_000);
        assertThatThrownBy(() -> new FlowControl(0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_refused_batch_is_split_and_a_refused_row_dead_lettered() {
        var refused = new com.datastax.oss.driver.api.core.servererrors.InvalidQueryException(
                null, "Key length of 70008 is longer than maximum of 65535");
        var timeout = new com.datastax.oss.driver.api.core.DriverTimeoutException("t");
        assertThat(WriteFailures.outcome(refused, 5)).isEqualTo(WriteFailures.Outcome.SPLIT);
        assertThat(WriteFailures.outcome(refused, 1)).isEqualTo(WriteFailures.Outcome.DEAD_LETTER);
        assertThat(WriteFailures.outcome(timeout, 5)).isEqualTo(WriteFailures.Outcome.RETRY);
        assertThat(WriteFailures.outcome(timeout, 1)).isEqualTo(WriteFailures.Outcome.RETRY);
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
        assertThat(small.tryAcquire(500, 0))
                .as("a batch larger than the rate is not blocked forever")
                .isTrue();
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
        assertThat(WriteFailures.overload(new com.datastax.oss.driver.api.core.DriverTimeoutException("t")))
                .isTrue();
        assertThat(WriteFailures.overload(new java.util.concurrent.CompletionException(
                        new com.datastax.oss.driver.api.core.RequestThrottlingException("busy"))))
                .isTrue();
        assertThat(WriteFailures.overload(new IllegalArgumentException("bad"))).isFalse();
    }

    @Test
    void a_refusal_of_the_statement_is_retried_and_a_refusal_of_the_row_is_not() {
        var dropped = new com.datastax.oss.driver.api.core.servererrors.InvalidQueryException(
                null, "table hive_telemetry does not exist");
        var ttl = new com.datastax.oss.driver.api.core.servererrors.InvalidQueryException(
                null, "ttl is too large. requested (999999999) maximum (630720000)");
        var keyTooLong = new com.datastax.oss.driver.api.core.servererrors.InvalidQueryException(
                null, "Key length of 70008 is longer than maximum of 65535");
        assertThat(WriteFailures.statementError(dropped)).isTrue();
        assertThat(WriteFailures.retryable(dropped)).isTrue();
        assertThat(WriteFailures.retryable(ttl)).isTrue();
        assertThat(WriteFailures.statementError(keyTooLong)).isFalse();
        assertThat(WriteFailures.retryable(keyTooLong))
                .as("goes to the dead letter topic")
                .isFalse();
    }
}
