package io.apiary.ingest.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.schema.SensorType;
import org.junit.jupiter.api.Test;

class SensorColumnSpecTest {

    @Test
    void should_read_column_type_and_unit_and_leave_the_id_to_the_mapping() {
        assertThat(SensorColumnSpec.parse("Temp (inside) = temperature : degC"))
                .isEqualTo(new SensorColumnSpec("Temp (inside)", SensorType.TEMPERATURE, "degC", null));
    }

    @Test
    void should_read_an_explicit_sensor_id() {
        assertThat(SensorColumnSpec.parse("t=TEMPERATURE:degC:brood-1").sensorId())
                .isEqualTo("brood-1");
    }

    @Test
    void should_take_units_with_slash_and_percent_and_a_column_name_with_equals_and_colon() {
        assertThat(SensorColumnSpec.parse("rh=HUMIDITY:%RH:box"))
                .extracting(SensorColumnSpec::unit, SensorColumnSpec::sensorId)
                .containsExactly("%RH", "box");
        assertThat(SensorColumnSpec.parse("a=b:c=VIBRATION:mm/s"))
                .extracting(SensorColumnSpec::column, SensorColumnSpec::unit)
                .containsExactly("a=b:c", "mm/s");
    }

    @Test
    void should_refuse_an_invalid_sensor_id_saying_why() {
        assertThatThrownBy(() -> SensorColumnSpec.parse("t=TEMPERATURE:degC:in side"))
                .hasMessage("Sensor column 't=TEMPERATURE:degC:in side': the sensor id 'in side' has the character"
                        + " U+0020 at position 3; only ASCII letters, digits, '_', '-' and '.' are accepted");
        assertThatThrownBy(() -> SensorColumnSpec.parse("t=TEMPERATURE:degC:"))
                .hasMessageContaining("the sensor id '' is empty");
        assertThatThrownBy(() -> SensorColumnSpec.parse("t=TEMPERATURE:degC:" + "x".repeat(65)))
                .hasMessageContaining("is 65 characters long; at most 64");
    }

    @Test
    void should_explain_the_expected_form_of_a_sensor_column() {
        for (String bad : new String[] {
            "temperature", "=TEMPERATURE:degC", "t=TEMPERATURE", "t=TEMPERATURE:", "t=:degC", "t=TEMPERATURE:degC:a:b"
        }) {
            assertThatThrownBy(() -> SensorColumnSpec.parse(bad))
                    .as(bad)
                    .hasMessageContaining("expected COLUMN=SENSOR_TYPE:UNIT[:SENSOR_ID]");
        }
        assertThatThrownBy(() -> SensorColumnSpec.parse("t=HEAT:degC"))
                .hasMessageContaining("unknown sensor type 'HEAT'; known types: TEMPERATURE, HUMIDITY, WEIGHT,")
                .hasMessageNotContaining("UNKNOWN");
    }

    @Test
    void should_refuse_the_unknown_type_whose_readings_the_pipeline_dead_letters() {
        assertThatThrownBy(() -> SensorColumnSpec.parse("x=UNKNOWN:furlongs"))
                .hasMessageContaining(
                        "Sensor column 'x=UNKNOWN:furlongs': UNKNOWN is what a reader of an older schema" + " sees")
                .hasMessageContaining("UNKNOWN_SENSOR_TYPE");
        assertThatThrownBy(() -> SensorColumnSpec.parse("x=unknown:degC")).hasMessageContaining("cannot be imported");
    }

    @Test
    void should_refuse_a_unit_the_pipeline_would_dead_letter_and_name_the_accepted_ones() {
        assertThatThrownBy(() -> SensorColumnSpec.parse("t=TEMPERATURE:V"))
                .hasMessageContaining(
                        "the pipeline takes TEMPERATURE in degC, and 'V' is not a unit of the same quantity")
                .hasMessageContaining("dead-lettered as UNKNOWN_UNIT");
        assertThat(SensorColumnSpec.parse("t=TEMPERATURE:degF").unit())
                .as("converted, see UnitConversion")
                .isEqualTo("degF");
        assertThatThrownBy(() -> SensorColumnSpec.parse("b=BATTERY:volts")).hasMessageContaining("V or mV");
    }

    @Test
    void should_refuse_an_invalid_sensor_id_of_a_resolved_column() {
        assertThatThrownBy(() -> new SensorColumn("t", SensorType.TEMPERATURE, "degC", "a/b"))
                .hasMessageContaining("Sensor column 't': the sensor id 'a/b' has the character '/'");
    }
}
