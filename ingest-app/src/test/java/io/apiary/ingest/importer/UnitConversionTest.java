package io.apiary.ingest.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UnitConversionTest {

    @ParameterizedTest
    @CsvSource({
        "WEIGHT,g,1500,kg,1.5",
        "WEIGHT,g,39850.5,kg,39.8505",
        "WEIGHT,lb,100,kg,45.359237",
        "WEIGHT,oz,16,kg,0.45359237",
        "TEMPERATURE,degF,32,degC,0",
        "TEMPERATURE,degF,98.6,degC,37",
        "TEMPERATURE,degF,-40,degC,-40",
        "TEMPERATURE,K,273.15,degC,0",
        "TEMPERATURE,K,308.15,degC,35",
        "BATTERY,kV,0.0042,V,4.2",
        "VIBRATION,m/s,0.012,mm/s,12",
        "LIGHT,klx,12.5,lx,12500"
    })
    void converts_between_units_of_one_quantity(String type, String from, double value, String to, double expected) {
        UnitConversion conversion = UnitConversion.find(type, from);

        assertThat(conversion.isIdentity()).isFalse();
        assertThat(conversion.from()).isEqualTo(from);
        assertThat(conversion.to()).isEqualTo(to);
        assertThat(conversion.apply(value)).isCloseTo(expected, within(1e-9 * Math.max(1, Math.abs(expected))));
        assertThat(conversion).hasToString(to + " (converted from " + from + ")");
    }

    @org.junit.jupiter.api.Test
    void a_percent_humidity_column_is_renamed_not_converted() {
        UnitConversion conversion = UnitConversion.find("HUMIDITY", "%");

        assertThat(conversion.apply(100.1)).isEqualTo(100.1);
        assertThat(conversion).hasToString("%RH (written as %, value unchanged)");
    }

    @ParameterizedTest
    @CsvSource({"TEMPERATURE,degC", "WEIGHT,kg", "BATTERY,mV", "BATTERY,V", "HUMIDITY,%RH", "CO2,ppm"})
    void a_unit_the_pipeline_takes_passes_unchanged(String type, String unit) {
        UnitConversion conversion = UnitConversion.find(type, unit);

        assertThat(conversion.isIdentity()).isTrue();
        assertThat(conversion.apply(12.345)).isEqualTo(12.345);
    }

    @Test
    void humidity_in_percent_is_read_as_relative_humidity_and_no_dimensionless_unit_becomes_ppm() {
        UnitConversion percent = UnitConversion.find("HUMIDITY", "%");
        assertThat(percent.to()).isEqualTo("%RH");
        assertThat(percent.apply(56.5)).isEqualTo(56.5);
        for (String unit : new String[] {"rad", "sr", "one", "%"}) {
            assertThatThrownBy(() -> UnitConversion.find("CO2", unit))
                    .as(unit)
                    .hasMessageContaining("the pipeline takes CO2 in ppm");
        }
    }

    @Test
    void a_type_without_ranges_takes_any_unit_as_it_is() {
        assertThat(UnitConversion.find("ENTRANCE_COUNT_NOT_A_RANGE", "bees").isIdentity())
                .isTrue();
    }

    @Test
    void another_quantity_or_an_unknown_name_is_refused_naming_what_the_pipeline_takes() {
        assertThatThrownBy(() -> UnitConversion.find("WEIGHT", "V"))
                .hasMessage("the pipeline takes WEIGHT in kg, and 'V' is not a unit of the same quantity (units of one"
                        + " quantity are converted, e.g. g or lb to kg)");
        assertThatThrownBy(() -> UnitConversion.find("TEMPERATURE", "furlongs"))
                .hasMessageContaining("'furlongs' is not a unit the importer knows");
        assertThatThrownBy(() -> UnitConversion.find("HUMIDITY", "g/m3"))
                .hasMessageContaining("the pipeline takes HUMIDITY in %RH");
    }

    @ParameterizedTest
    @CsvSource({
        "WEIGHT,g,39850,kg,39.85",
        "WEIGHT,kg,0.5,g,500",
        "BATTERY,mV,3700,V,3.7",
        "BATTERY,V,3.7,mV,3700",
        "TEMPERATURE,degF,95,degC,35",
        "HUMIDITY,%,56.5,%RH,56.5"
    })
    void converts_a_line_unit_to_the_unit_its_sensor_was_given(
            String type, String from, double value, String to, double expected) {
        UnitConversion conversion = UnitConversion.find(type, from, to);

        assertThat(conversion.from()).isEqualTo(from);
        assertThat(conversion.to()).isEqualTo(to);
        assertThat(conversion.apply(value)).isCloseTo(expected, within(1e-9 * Math.max(1, Math.abs(expected))));
    }

    @Test
    void a_line_unit_that_is_the_sensor_unit_passes_unchanged_and_one_of_another_quantity_is_refused() {
        assertThat(UnitConversion.find("BATTERY", "mV", "mV").isIdentity()).isTrue();
        assertThatThrownBy(() -> UnitConversion.find("WEIGHT", "degC", "kg"))
                .hasMessage("'degC' is not a unit of the same quantity as kg (units of one quantity are converted, e.g."
                        + " g or lb to kg)");
        assertThatThrownBy(() -> UnitConversion.find("WEIGHT", "lbs", "kg"))
                .hasMessage("'lbs' is not a unit the importer knows (units of one quantity are converted, e.g. g or lb"
                        + " to kg)");
        assertThatThrownBy(() -> UnitConversion.find("CO2", "%", "ppm")).hasMessageContaining("'%' is not a unit");
    }
}
