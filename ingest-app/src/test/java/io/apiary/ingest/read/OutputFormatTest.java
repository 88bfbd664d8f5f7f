package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OutputFormatTest {

    @ParameterizedTest
    @CsvSource({"table,TABLE", "CSV,CSV", "Json,JSON", "' json ',JSON"})
    void should_parse_a_format_when_its_name_is_given_in_any_case(String text, OutputFormat expected) {
        // When
        OutputFormat format = OutputFormat.parse(text);

        // Then
        assertThat(format).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"xml", "''", "tsv"})
    void should_name_the_accepted_formats_when_the_name_is_unknown(String text) {
        // When / Then
        assertThatThrownBy(() -> OutputFormat.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'")
                .hasMessageContaining("table, csv, json");
    }
}
