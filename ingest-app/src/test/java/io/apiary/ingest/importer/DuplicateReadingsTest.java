package io.apiary.ingest.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.testing.RandomCases;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DuplicateReadingsTest {

    private static final Instant T = Instant.parse("2021-07-15T11:03:43Z");

    private final DuplicateReadings duplicates = new DuplicateReadings(1_000);

    @Test
    void should_count_an_exact_duplicate_without_reporting_it() {
        assertThat(duplicates.offer(reading("3627", "default", T, 35.04), 17)).isNull();
        assertThat(duplicates.offer(reading("3627", "default", T, 35.04), 230)).isNull();

        assertThat(duplicates.duplicates()).isEqualTo(1);
        assertThat(duplicates.conflicts()).isZero();
    }

    @Test
    void should_report_another_value_for_one_key_with_both_lines_and_values() {
        duplicates.offer(reading("3627", "default", T, 35.04), 17);

        DuplicateReadings.Conflict conflict = duplicates.offer(reading("3627", "default", T, 35.1), 230);

        assertThat(conflict)
                .hasToString("lines 17 and 230: hive 3627 TEMPERATURE sensor default at"
                        + " 2021-07-15T11:03:43Z: 35.04 degC and 35.1 degC");
        assertThat(duplicates.conflicts()).isEqualTo(1);
        assertThat(duplicates.duplicates()).isZero();
    }

    @Test
    void should_compare_later_readings_with_the_first_of_their_key() {
        duplicates.offer(reading("3627", "default", T, 35.04), 17);
        duplicates.offer(reading("3627", "default", T, 35.1), 230);

        assertThat(duplicates.offer(reading("3627", "default", T, 35.04), 300)).isNull();
        assertThat(duplicates.offer(reading("3627", "default", T, 35.1), 301))
                .extracting(DuplicateReadings.Conflict::firstLine)
                .isEqualTo(17L);
        assertThat(duplicates.duplicates()).isEqualTo(1);
        assertThat(duplicates.conflicts()).isEqualTo(2);
    }

    @Test
    void should_tell_apart_readings_that_differ_in_hive_sensor_id_type_or_millisecond() {
        duplicates.offer(reading("3627", "default", T, 1), 2);

        duplicates.offer(reading("3628", "default", T, 2), 3);
        duplicates.offer(reading("3627", "inside", T, 3), 4);
        duplicates.offer(new TelemetryReading("3627", "gw", SensorType.HUMIDITY, "default", T, 4.0, "%RH", null), 5);
        duplicates.offer(reading("3627", "default", T.plusMillis(1), 5), 6);

        assertThat(duplicates.held()).isEqualTo(5);
        assertThat(duplicates.duplicates() + duplicates.conflicts()).isZero();
    }

    @Test
    void should_keep_checking_the_keys_it_holds_after_its_limit_and_say_from_which_line_it_is_partial() {
        DuplicateReadings small = new DuplicateReadings(2);
        small.offer(reading("a", "default", T, 1), 2);
        small.offer(reading("b", "default", T, 1), 3);
        assertThat(small.partial()).isNull();

        assertThat(small.offer(reading("c", "default", T, 1), 4)).isNull();
        assertThat(small.offer(reading("c", "default", T, 2), 5)).isNull();
        assertThat(small.offer(reading("a", "default", T, 2), 6)).isNotNull();

        assertThat(small.held()).isEqualTo(2);
        assertThat(small.partial())
                .isEqualTo("the duplicate check holds its limit of 2 distinct readings; from line 4"
                        + " on, readings of other hives, sensors or times were not checked");
    }

    @Test
    void should_check_nothing_and_say_so_with_a_limit_of_zero() {
        DuplicateReadings off = new DuplicateReadings(0);
        off.offer(reading("a", "default", T, 1), 2);

        assertThat(off.offer(reading("a", "default", T, 2), 3)).isNull();
        assertThat(off.partial()).isEqualTo("the duplicate check is off (limit 0)");
    }

    @Test
    void should_refuse_a_limit_out_of_range_and_a_line_below_one() {
        assertThatThrownBy(() -> new DuplicateReadings(-1)).hasMessageContaining("must be 0 to 805306368");
        assertThatThrownBy(() -> new DuplicateReadings(DuplicateReadings.MAX_LIMIT + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> duplicates.offer(reading("a", "default", T, 1), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static Stream<Arguments> files() {
        // fewer than the default: a case offers up to 40,000 readings
        return RandomCases.cases(20, random -> new Object[] {random.nextInt(1, 40_000), random.nextInt(1, 50)});
    }

    /** Against a map of every key: the same duplicates and conflicts, through many doublings of the table. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void should_find_exactly_the_duplicates_and_conflicts_a_map_of_every_key_finds(
            String seed, int readings, int keysPerHundred) {
        SplittableRandom random = new SplittableRandom(Long.parseLong(seed.substring(5)));
        DuplicateReadings checked = new DuplicateReadings(DuplicateReadings.DEFAULT_LIMIT);
        Map<String, double[]> firsts = new HashMap<>();
        List<String> expected = new ArrayList<>();
        List<String> found = new ArrayList<>();
        long expectedDuplicates = 0;
        int keys = Math.max(1, readings * keysPerHundred / 100);
        for (long line = 2; line < readings + 2; line++) {
            String hive = "h" + random.nextInt(1 + keys / 100);
            String sensor = random.nextBoolean() ? "default" : "t_" + random.nextInt(3);
            Instant time = T.plusMillis(random.nextInt(1 + keys));
            TelemetryReading r = reading(hive, sensor, time, random.nextInt(3) / 2.0);
            double[] first = firsts.putIfAbsent(
                    hive + "|" + sensor + "|" + time.toEpochMilli(), new double[] {r.getValue(), line});
            if (first != null && first[0] == r.getValue()) {
                expectedDuplicates++;
            } else if (first != null) {
                expected.add((long) first[1] + "-" + line);
            }
            DuplicateReadings.Conflict conflict = checked.offer(r, line);
            if (conflict != null) {
                found.add(conflict.firstLine() + "-" + conflict.line());
            }
        }

        assertThat(found).isEqualTo(expected);
        assertThat(checked.duplicates()).isEqualTo(expectedDuplicates);
        assertThat(checked.held()).isEqualTo(firsts.size());
        assertThat(checked.partial()).isNull();
    }

    private static TelemetryReading reading(String hive, String sensorId, Instant time, double value) {
        return new TelemetryReading(hive, "gw", SensorType.TEMPERATURE, sensorId, time, value, "degC", null);
    }
}
