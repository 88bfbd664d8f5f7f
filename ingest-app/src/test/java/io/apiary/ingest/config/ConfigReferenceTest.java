package io.apiary.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

/**
 * The configuration reference ({@code deploy/configuration.md}) and the sample settings file
 * ({@code deploy/apiary.sample.properties}) are generated from {@link IngestConfig#DEFINITION}
 * and committed. When an option changes, regenerate them with
 * {@code ./mvnw test -pl ingest-app -Dtest=ConfigReferenceTest -Dapiary.config.update=true} and commit them.
 */
class ConfigReferenceTest {

    private static final Path REFERENCE = Path.of("..", "deploy", "configuration.md");
    private static final Path SAMPLE = Path.of("..", "deploy", "apiary.sample.properties");

    @Test
    void should_match_the_committed_reference_and_sample_when_the_options_are_unchanged() throws IOException {
        if (Boolean.getBoolean("apiary.config.update")) {
            Files.writeString(REFERENCE, ConfigReference.markdown(), StandardCharsets.UTF_8);
            Files.writeString(SAMPLE, ConfigReference.sampleProperties(), StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(REFERENCE, StandardCharsets.UTF_8))
                .as("options changed: regenerate %s (see this test's javadoc)", REFERENCE)
                .isEqualTo(ConfigReference.markdown());
        assertThat(Files.readString(SAMPLE, StandardCharsets.UTF_8))
                .as("options changed: regenerate %s (see this test's javadoc)", SAMPLE)
                .isEqualTo(ConfigReference.sampleProperties());
    }

    @Test
    void should_list_every_option_with_its_environment_variable_in_the_reference() {
        String reference = ConfigReference.markdown();
        for (String option : IngestConfig.DEFINITION.names()) {
            assertThat(reference).contains("`" + option + "`<br>`" + ConfigReference.environmentVariable(option) + "`");
        }
    }

    @Test
    void should_load_every_option_of_the_sample_at_its_default_when_uncommented() throws IOException {
        Properties sample = new Properties();
        sample.load(new StringReader(ConfigReference.sampleProperties().replaceAll("(?m)^#(?=[a-z][a-z_.]*=)", "")));
        Map<String, Object> settings = new HashMap<>();
        sample.forEach((key, value) -> settings.put(key.toString(), value.toString()));

        IngestConfig fromSample = new IngestConfig(settings);

        assertThat(settings.keySet()).containsAll(IngestConfig.DEFINITION.names());
        assertThat(fromSample.unknownSettings()).isEmpty();
        assertThat(fromSample.values()).isEqualTo(new IngestConfig(Map.of()).values());
    }

    @Test
    void should_read_each_options_environment_variable_back_as_that_option() {
        for (String option : IngestConfig.DEFINITION.names()) {
            assertThat(ConfigLoader.fromEnvironment(Map.of(ConfigReference.environmentVariable(option), "x")))
                    .containsOnlyKeys(option);
        }
    }
}
