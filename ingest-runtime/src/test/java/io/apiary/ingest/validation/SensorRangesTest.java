package io.apiary.ingest.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.RejectReason;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class SensorRangesTest {

    @Test
    void every_default_bound_accepts_its_value_and_rejects_the_next_one_outside_in_every_unit() {
        int checked = 0;
        for (String t : SensorRanges.defaults().keySet()) {
            for (String u : SensorRanges.units(t)) {
                SensorRanges.Range range = SensorRanges.DEFAULTS.range(t, u);
                assertThat(SensorRanges.DEFAULTS.check(t, u, range.min()))
                        .as("%s %s min", t, u)
                        .isNull();
                assertThat(SensorRanges.DEFAULTS.check(t, u, range.max()))
                        .as("%s %s max", t, u)
                        .isNull();
                assertThat(SensorRanges.DEFAULTS
                                .check(t, u, Math.nextDown(range.min()))
                                .reason())
                        .as("%s %s just below", t, u)
                        .isEqualTo(RejectReason.OUT_OF_RANGE);
                assertThat(SensorRanges.DEFAULTS
                                .check(t, u, Math.nextUp(range.max()))
                                .message())
                        .as("%s %s just above", t, u)
                        .contains(SensorRanges.settingName(t));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(9);
        assertThat(SensorRanges.DEFAULTS.range("BATTERY", "mV")).isEqualTo(new SensorRanges.Range(0, 60_000));
    }

    @Test
    void the_defaults_accept_what_working_sensors_report_and_refuse_loggers_markers() {
        assertThat(SensorRanges.DEFAULTS.check("HUMIDITY", "%RH", 100.2)).isNull();
        assertThat(SensorRanges.DEFAULTS.check("HUMIDITY", "%RH", 103)).isNull();
        assertThat(SensorRanges.DEFAULTS.check("WEIGHT", "kg", -4.5)).isNull();
        for (double marker : new double[] {-100, -999, 9999}) {
            assertThat(SensorRanges.DEFAULTS.check("TEMPERATURE", "degC", marker))
                    .isNotNull();
            assertThat(SensorRanges.DEFAULTS.check("HUMIDITY", "%RH", marker)).isNotNull();
        }
        assertThat(SensorRanges.DEFAULTS.check("TEMPERATURE", "degF", 20).reason())
                .isEqualTo(RejectReason.UNKNOWN_UNIT);
        assertThat(SensorRanges.DEFAULTS.check("UNKNOWN", "anything", 1e300)).isNull();
    }

    @Test
    void each_range_is_a_setting_with_the_default_as_its_default() {
        IngestConfig defaults = ConfigLoader.load(null, Map.of(), Map.of());
        assertThat(SensorRangeOptions.ranges(defaults)).isEqualTo(SensorRanges.DEFAULTS);

        IngestConfig set = ConfigLoader.load(
                null, Map.of(), Map.of("validation.range.weight", "-20, 250", "validation.range.battery", "0,5"));
        SensorRanges ranges = SensorRangeOptions.ranges(set);
        assertThat(ranges.range("WEIGHT", "kg")).isEqualTo(new SensorRanges.Range(-20, 250));
        assertThat(ranges.range("BATTERY", "V")).isEqualTo(new SensorRanges.Range(0, 5));
        assertThat(ranges.range("BATTERY", "mV")).as("scaled").isEqualTo(new SensorRanges.Range(0, 5000));
        assertThat(ranges.range("LIGHT", "lx")).isEqualTo(SensorRanges.DEFAULTS.range("LIGHT", "lx"));
        assertThat(ranges.check("WEIGHT", "kg", -19.9)).isNull();
        assertThat(ranges.check("WEIGHT", "kg", 250.1)).isNotNull();
    }

    @Test
    void a_range_setting_that_is_not_two_ordered_finite_numbers_is_refused_at_load() {
        for (String bad : new String[] {"5", "1,2,3", "10,0", "a,b", "NaN,1", "0,Infinity"}) {
            assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of("validation.range.humidity", bad)))
                    .as(bad)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("validation.range.humidity");
        }
    }
}
