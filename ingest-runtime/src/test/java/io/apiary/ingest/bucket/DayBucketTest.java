package io.apiary.ingest.bucket;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DayBucketTest {

    private final TimeZone original = TimeZone.getDefault();

    @AfterEach
    void restoreZone() {
        TimeZone.setDefault(original);
    }

    @Test
    void should_put_last_millisecond_of_a_day_and_first_of_the_next_in_different_buckets() {
        long last = Instant.parse("2021-06-19T23:59:59.999Z").toEpochMilli();
        long first = Instant.parse("2021-06-20T00:00:00.000Z").toEpochMilli();

        assertThat(DayBucket.of(last)).isEqualTo(LocalDate.of(2021, 6, 19));
        assertThat(DayBucket.of(first)).isEqualTo(LocalDate.of(2021, 6, 20));
        assertThat(DayBucket.millisOfDay(last)).isEqualTo(86_399_999L);
        assertThat(DayBucket.millisOfDay(first)).isZero();
    }

    @Test
    void should_round_instants_before_1970_down_to_their_utc_day() {
        long justBeforeEpoch = -1L;

        assertThat(DayBucket.of(justBeforeEpoch)).isEqualTo(LocalDate.of(1969, 12, 31));
        assertThat(DayBucket.millisOfDay(justBeforeEpoch)).isEqualTo(86_399_999L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTC", "Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu", "America/Montreal"})
    void should_not_depend_on_the_jvm_default_zone_when_bucketing(String zone) {
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        long instant = Instant.parse("2021-10-31T23:30:00Z").toEpochMilli();

        assertThat(DayBucket.of(instant)).isEqualTo(LocalDate.of(2021, 10, 31));
        assertThat(HourBucket.hourOfDay(instant)).isEqualTo(23);
    }

    @Test
    void should_put_last_millisecond_of_an_hour_and_first_of_the_next_in_different_hours() {
        long last = Instant.parse("2021-06-19T00:59:59.999Z").toEpochMilli();
        long first = Instant.parse("2021-06-19T01:00:00.000Z").toEpochMilli();

        assertThat(HourBucket.hourOfDay(last)).isZero();
        assertThat(HourBucket.hourOfDay(first)).isEqualTo(1);
        assertThat(HourBucket.hourStart(last))
                .isEqualTo(Instant.parse("2021-06-19T00:00:00Z").toEpochMilli());
        assertThat(HourBucket.hourStart(first)).isEqualTo(first);
    }
}
