package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;

class WriteTimestampsTest {

    private static final long SECOND = Instant.parse("2021-07-15T11:03:43Z").toEpochMilli();

    @Test
    void should_stay_within_the_second_after_the_events_whatever_the_fingerprint() {
        Random random = new Random(17);
        for (int i = 0; i < 10_000; i++) {
            long event = SECOND + random.nextInt(1000);
            long micros = WriteTimestamps.event(event, random.nextLong());
            assertThat(micros).isBetween(SECOND * 1000 + 1_000_000, SECOND * 1000 + 1_999_999);
        }
    }

    @Test
    void should_beat_the_timestamp_the_first_sink_gave_any_row_of_the_same_key() {
        // the first sink wrote event rows at event ms * 1000: rows of weather_readings and copied legacy rows
        Random random = new Random(23);
        for (int i = 0; i < 10_000; i++) {
            long event = SECOND + random.nextInt(1000);
            assertThat(WriteTimestamps.event(event, random.nextLong()) - 1)
                    .as("the row delete, one µs before")
                    .isGreaterThan(event * 1000);
        }
        assertThat(WriteTimestamps.event(SECOND + 999, 0L) - 1).isGreaterThan((SECOND + 999) * 1000);
        assertThat(WriteTimestamps.event(-1L, 0L)).as("before 1970").isEqualTo(0L);
    }

    @Test
    void should_be_the_same_for_the_same_row_and_differ_for_different_rows_of_one_key() {
        long event = SECOND + 123;
        assertThat(WriteTimestamps.event(event, 42L)).isEqualTo(SECOND * 1000 + 1_000_042);
        Set<Long> seen = new HashSet<>();
        Random random = new Random(3);
        for (int i = 0; i < 1_000; i++) {
            seen.add(WriteTimestamps.event(event, random.nextLong()));
        }
        // 1,000 random fingerprints in 1,000,000 slots: a collision or two is expected at most
        assertThat(seen.size()).isGreaterThanOrEqualTo(995);
    }

    @Test
    void should_tell_its_own_event_timestamps_from_the_first_sinks_and_from_a_clock() {
        Random random = new Random(29);
        for (int i = 0; i < 10_000; i++) {
            long event = SECOND + random.nextInt(1000);
            assertThat(WriteTimestamps.isEventWrite(event, WriteTimestamps.event(event, random.nextLong())))
                    .isTrue();
            assertThat(WriteTimestamps.isEventWrite(event, event * 1000))
                    .as("the first sink's")
                    .isFalse();
        }
        assertThat(WriteTimestamps.isEventWrite(SECOND, SECOND * 1000 + 2_000_000))
                .isFalse();
        assertThat(WriteTimestamps.isEventWrite(SECOND, System.currentTimeMillis() * 1000))
                .as("now")
                .isFalse();
    }

    @Test
    void should_use_negative_fingerprints_too() {
        assertThat(WriteTimestamps.event(SECOND, -1L)).isEqualTo(SECOND * 1000 + 1_999_999);
        assertThat(WriteTimestamps.event(SECOND, Long.MIN_VALUE))
                .isBetween(SECOND * 1000 + 1_000_000, SECOND * 1000 + 1_999_999);
    }

    @Test
    void should_let_an_hours_update_with_more_samples_win_whatever_the_fingerprints() {
        long hour = Instant.parse("2021-07-15T11:00:00Z").toEpochMilli();
        Random random = new Random(5);
        for (int samples = 0; samples < 5_000; samples++) {
            long earlier = WriteTimestamps.hourly(hour, samples, random.nextLong());
            long later = WriteTimestamps.hourly(hour, samples + 1, random.nextLong());
            assertThat(later).isGreaterThan(earlier);
        }
    }

    @Test
    void should_refuse_times_beyond_what_microseconds_hold() {
        assertThatThrownBy(() -> WriteTimestamps.event(Long.MAX_VALUE / 10, 0)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void should_fingerprint_values_in_place_as_avros_crc64_of_their_lengths_and_bytes() {
        Random random = new Random(46);
        for (int round = 0; round < 200; round++) {
            int values = random.nextInt(6);
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            long fingerprint = WriteTimestamps.CRC64_EMPTY;
            for (int v = 0; v < values; v++) {
                byte[] bytes = new byte[random.nextInt(40)];
                random.nextBytes(bytes);
                boolean isNull = random.nextInt(5) == 0;
                ByteBuffer buffer = isNull ? null : ByteBuffer.wrap(new byte[bytes.length + 3], 2, bytes.length);
                if (buffer != null) {
                    buffer.duplicate().put(bytes);
                }
                int length = isNull ? -1 : bytes.length;
                all.writeBytes(ByteBuffer.allocate(4).putInt(length).array());
                if (!isNull) {
                    all.writeBytes(bytes);
                }
                fingerprint = WriteTimestamps.fingerprint(fingerprint, buffer);
            }
            assertThat(fingerprint).isEqualTo(SchemaNormalization.fingerprint64(all.toByteArray()));
        }
    }
}
