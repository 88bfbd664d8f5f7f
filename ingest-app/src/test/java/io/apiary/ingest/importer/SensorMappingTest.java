package io.apiary.ingest.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.schema.SensorType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SensorMappingTest {

    @Test
    void should_give_the_default_sensor_id_to_the_only_column_of_each_type() {
        assertThat(resolve("temperature=TEMPERATURE:degC", "humidity=HUMIDITY:%RH"))
                .containsExactly(
                        new SensorColumn("temperature", SensorType.TEMPERATURE, "degC", "default"),
                        new SensorColumn("humidity", SensorType.HUMIDITY, "%RH", "default"));
    }

    @Test
    void should_derive_each_id_from_the_column_name_when_a_type_has_several_columns() {
        assertThat(resolve("Temp (inside)=TEMPERATURE:degC", "t_0=TEMPERATURE:degC", "rh=HUMIDITY:%RH"))
                .extracting(SensorColumn::sensorId)
                .containsExactly("Temp_inside", "t_0", "default");
    }

    @Test
    void should_keep_an_explicit_id_and_count_its_column_among_the_columns_of_its_type() {
        assertThat(resolve("inside=TEMPERATURE:degC:brood", "outside=TEMPERATURE:degC", "rh=HUMIDITY:%RH:box"))
                .extracting(SensorColumn::sensorId)
                .containsExactly("brood", "outside", "box");
    }

    @Test
    void should_accept_an_underivable_column_name_when_its_type_has_no_other_column() {
        assertThat(resolve("°=TEMPERATURE:degC"))
                .extracting(SensorColumn::sensorId)
                .containsExactly("default");
    }

    @Test
    void should_refuse_an_underivable_column_name_when_an_id_is_needed_and_suggest_one() {
        assertThatThrownBy(() -> resolve("温度=TEMPERATURE:degC", "t2=TEMPERATURE:degC"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Sensor column '温度': 2 columns hold TEMPERATURE, so each needs its own sensor id, and none"
                        + " can be derived from this column's name (it has no ASCII letter or digit); give one:"
                        + " '温度=TEMPERATURE:degC:SENSOR_ID'");
    }

    @Test
    void should_refuse_two_columns_whose_names_derive_to_one_id_naming_both() {
        assertThatThrownBy(() -> resolve("Temp (in)=TEMPERATURE:degC", "Temp in=TEMPERATURE:degC"))
                .hasMessage("Sensor columns 'Temp (in)' and 'Temp in' would both be TEMPERATURE sensor 'Temp_in', so"
                        + " their readings would overwrite each other; give one of them its own id, e.g."
                        + " 'Temp in=TEMPERATURE:degC:SENSOR_ID'");
    }

    @Test
    void should_refuse_an_explicit_id_that_another_column_has() {
        assertThatThrownBy(() -> resolve("a=TEMPERATURE:degC:probe", "b=TEMPERATURE:degC:probe"))
                .hasMessageContaining("Sensor columns 'a' and 'b' would both be TEMPERATURE sensor 'probe'");
        assertThatThrownBy(() -> resolve("a=TEMPERATURE:degC:b", "b=TEMPERATURE:degC"))
                .hasMessageContaining("Sensor columns 'a' and 'b' would both be TEMPERATURE sensor 'b'");
    }

    @Test
    void should_allow_one_id_for_two_types() {
        assertThat(resolve("t=TEMPERATURE:degC:probe1", "h=HUMIDITY:%RH:probe1"))
                .hasSize(2);
    }

    @Test
    void should_refuse_a_column_named_twice() {
        assertThatThrownBy(() -> resolve("t=TEMPERATURE:degC", "t=HUMIDITY:%RH"))
                .hasMessage("Sensor column 't' is named twice; a column holds one sensor");
    }

    @Test
    void should_drop_a_unit_in_square_brackets_from_a_derived_id_by_one_rule() {
        assertThat(resolve(
                        "Ref.roof [deg]=TEMPERATURE:degC",
                        "Ref.body.top.HR [%]=HUMIDITY:%",
                        "Ref.body.low.HR [%RH]=HUMIDITY:%RH",
                        "Temp (inside) [degC]=TEMPERATURE:degC",
                        "[degC]=TEMPERATURE:degC"))
                .extracting(SensorColumn::sensorId)
                .containsExactly("Ref.roof", "Ref.body.top.HR", "Ref.body.low.HR", "Temp_inside", "degC");
        assertThat(SensorMapping.idFromColumn("T [a] [b]")).isEqualTo("T_a");
        assertThat(SensorMapping.idFromColumn("° [°]")).isNull();
    }

    @Test
    void should_print_the_mapping_of_a_column() {
        assertThat(resolve("Temp (inside)=TEMPERATURE:degC", "t2=TEMPERATURE:degC")
                        .get(0)
                        .describe())
                .isEqualTo("column 'Temp (inside)' -> TEMPERATURE, sensor Temp_inside, degC");
    }

    private static List<SensorColumn> resolve(String... specs) {
        return SensorMapping.resolve(
                Arrays.stream(specs).map(SensorColumnSpec::parse).toList());
    }
}
