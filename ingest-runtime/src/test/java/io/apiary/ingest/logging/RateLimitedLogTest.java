package io.apiary.ingest.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimitedLogTest {

    private static final long MS = 1_000_000L;

    private final List<String> lines = new ArrayList<>();
    private final List<Throwable> causes = new ArrayList<>();

    private RateLimitedLog log(int permits, Duration interval, boolean notice) {
        return new RateLimitedLog(
                (level, message, cause) -> {
                    lines.add(level + " " + message);
                    causes.add(cause);
                },
                permits,
                interval,
                notice ? key -> "more about " + key + " held back" : null);
    }

    @Test
    void one_line_per_interval_the_first_always() {
        RateLimitedLog log = log(1, Duration.ofMillis(10), false);
        assertThat(log.warn("", -1_000 * MS, "a")).as("the first always").isTrue();
        assertThat(log.warn("", -995 * MS, "b")).isFalse();
        assertThat(log.warn("", -990 * MS, "c")).isTrue();
        assertThat(lines).containsExactly("WARN a", "WARN c (1 similar line held back in the last 1 s)");
    }

    @Test
    void keys_have_their_own_windows_and_warn_and_error_share_one() {
        RateLimitedLog log = log(1, Duration.ofSeconds(60), false);
        assertThat(log.warn("t1", 0, "x {}", 1)).isTrue();
        assertThat(log.error("t1", 1 * MS, "y")).isFalse();
        assertThat(log.error("t2", 2 * MS, "z {} {}", "a", 2)).isTrue();
        assertThat(log.heldBack("t1")).isEqualTo(1);
        assertThat(log.heldBack("t2")).isZero();
        assertThat(log.heldBack("never")).isZero();
        assertThat(lines).containsExactly("WARN x 1", "ERROR z a 2");
    }

    @Test
    void several_permits_a_window_and_one_notice_when_the_list_is_cut() {
        RateLimitedLog log = log(3, Duration.ofMinutes(1), true);
        int written = 0;
        for (int i = 0; i < 10; i++) {
            if (log.warn("hive_telemetry_v2", i * MS, "hot {}", i)) {
                written++;
            }
        }
        assertThat(written).isEqualTo(3);
        assertThat(lines)
                .containsExactly(
                        "WARN hot 0", "WARN hot 1", "WARN hot 2", "WARN more about hive_telemetry_v2 held back");
        lines.clear();
        // the next minute: a new window, the count of what was held back on its first line, a new notice if cut again
        assertThat(log.warn("hive_telemetry_v2", 61_000 * MS, "hot {}", 10)).isTrue();
        assertThat(lines).containsExactly("WARN hot 10 (7 similar lines held back in the last 60 s)");
    }

    @Test
    void a_last_throwable_is_the_cause_and_placeholders_are_filled() {
        RateLimitedLog log = log(1, Duration.ZERO, false);
        IllegalStateException boom = new IllegalStateException("boom");
        assertThat(log.error("", 0, "write to {} failed", "t", boom)).isTrue();
        assertThat(log.error("", 0, "a message with {} but no argument"))
                .as("zero interval: every line")
                .isTrue();
        assertThat(lines).containsExactly("ERROR write to t failed", "ERROR a message with {} but no argument");
        assertThat(causes).containsExactly(boom, null);
    }

    @Test
    void a_command_output_gets_warning_and_error_prefixes() {
        StringWriter text = new StringWriter();
        RateLimitedLog log = new RateLimitedLog(RateLimitedLog.to(new PrintWriter(text, true)), 1, Duration.ZERO, null);
        log.warn("", 0, "reading {} failed; retrying", "hive_telemetry");
        log.error("", 0, "gave up");
        assertThat(text.toString().lines())
                .containsExactly("warning: reading hive_telemetry failed; retrying", "error: gave up");
    }

    @Test
    void bad_settings_are_refused() {
        assertThatThrownBy(() -> log(0, Duration.ofSeconds(1), false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> log(1, Duration.ofSeconds(-1), false)).isInstanceOf(IllegalArgumentException.class);
    }
}
