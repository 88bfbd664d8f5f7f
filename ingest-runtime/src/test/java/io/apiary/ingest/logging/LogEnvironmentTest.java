package io.apiary.ingest.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The log level and format come from APIARY_LOG_LEVEL and APIARY_LOG_FORMAT, with defaults. */
class LogEnvironmentTest {

    @Test
    void without_the_variables_the_format_is_plain_and_the_level_the_command_default() {
        assertThat(LogEnvironment.systemProperties(Map.of(), "WARN"))
                .containsExactlyInAnyOrderEntriesOf(Map.of("apiary.log.level", "WARN", "apiary.log.format", "plain"));
    }

    @Test
    void the_variables_set_the_level_and_the_format_in_any_case() {
        assertThat(LogEnvironment.systemProperties(
                        Map.of("APIARY_LOG_LEVEL", "DEBUG", "APIARY_LOG_FORMAT", " JSON "), "INFO"))
                .containsExactlyInAnyOrderEntriesOf(Map.of("apiary.log.level", "DEBUG", "apiary.log.format", "json"));
    }

    @Test
    void an_unknown_format_is_refused_naming_the_variable_and_its_values() {
        assertThatThrownBy(() -> LogEnvironment.systemProperties(Map.of("APIARY_LOG_FORMAT", "xml"), "INFO"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("APIARY_LOG_FORMAT must be plain or json, was 'xml'");
    }
}
