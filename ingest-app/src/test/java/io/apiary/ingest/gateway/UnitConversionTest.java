package io.apiary.ingest.gateway;

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
}
