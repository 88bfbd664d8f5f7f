package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The write times of {@code table copy --fresh-write-time}: the clock in microseconds, never repeated. */
class FreshWriteTimesTest {

    @Test
    void should_give_the_clocks_time_in_microseconds() {
        AtomicLong clock = new AtomicLong(1_800_000_000_000_000L);
        FreshWriteTimes times = new FreshWriteTimes(clock::get);

        assertThat(times.getAsLong()).isEqualTo(1_800_000_000_000_000L);
        clock.set(1_800_000_000_500_000L);
        assertThat(times.getAsLong()).isEqualTo(1_800_000_000_500_000L);
    }

    @Test
    void should_increase_by_one_microsecond_while_the_clock_stands_still_or_steps_back() {
        AtomicLong clock = new AtomicLong(1_000);
        FreshWriteTimes times = new FreshWriteTimes(clock::get);

        assertThat(times.getAsLong()).isEqualTo(1_000);
        assertThat(times.getAsLong()).isEqualTo(1_001);
        clock.set(900);
        assertThat(times.getAsLong()).isEqualTo(1_002);
    }

    @Test
    void should_read_the_system_clock_in_microseconds_by_default() {
        long before = Instant.now().toEpochMilli() * 1_000;
        long time = new FreshWriteTimes().getAsLong();
        long after = (Instant.now().toEpochMilli() + 1) * 1_000;

        assertThat(time).isBetween(before, after);
    }
}
