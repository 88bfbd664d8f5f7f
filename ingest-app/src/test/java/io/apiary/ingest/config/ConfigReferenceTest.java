package io.apiary.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.sink.HotPartitionSettings;
import io.apiary.ingest.topology.StateStoreOptions;
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
 * ({@code deploy/apiary.sample.properties}) are generated from {@link IngestConfig#definition()}
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
        for (String option : IngestConfig.definition().names()) {
            assertThat(reference).contains("`" + option + "`<br>`" + ConfigReference.environmentVariable(option) + "`");
        }
    }

    @Test
    void should_load_every_option_of_the_sample_at_its_default_when_uncommented() throws IOException {
        Properties sample = new Properties();
        sample.load(new StringReader(ConfigReference.sampleProperties().replaceAll("(?m)^#(?=[a-z][a-z0-9_.]*=)", "")));
        Map<String, Object> settings = new HashMap<>();
        sample.forEach((key, value) -> settings.put(key.toString(), value.toString()));

        IngestConfig fromSample = new IngestConfig(settings);

        assertThat(settings.keySet()).containsAll(IngestConfig.definition().names());
        assertThat(fromSample.unknownSettings()).isEmpty();
        assertThat(fromSample.values()).isEqualTo(new IngestConfig(Map.of()).values());
    }

    @Test
    void should_print_the_whole_sample_and_reference_from_the_command_line() throws Exception {
        for (String what : new String[] {"sample", "reference"}) {
            Process process = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            io.apiary.ingest.cli.IngestApp.class.getName(),
                            "config",
                            what)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(process.waitFor()).isZero();
            assertThat(printed)
                    .isEqualTo("sample".equals(what) ? ConfigReference.sampleProperties() : ConfigReference.markdown());
        }
    }

    @Test
    void should_refuse_a_write_buffer_ratio_that_is_not_a_number() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new IngestConfig(Map.of(StateStoreOptions.TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO, "NaN")))
                .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                .hasMessageContaining(StateStoreOptions.TOPOLOGY_ROCKSDB_WRITE_BUFFER_RATIO);
    }

    @Test
    void should_refuse_hot_partition_shares_that_are_not_above_0_and_at_most_1() {
        for (String bad : new String[] {"NaN", "0", "1.5", "-0.1"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> new IngestConfig(Map.of(HotPartitionSettings.SINK_HOT_PARTITION_SHARE, bad)))
                    .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
                    .hasMessageContaining(HotPartitionSettings.SINK_HOT_PARTITION_SHARE);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new IngestConfig(Map.of(HotPartitionSettings.SINK_HOT_NODE_SKEW, "NaN")))
                .isInstanceOf(org.apache.kafka.common.config.ConfigException.class);
    }

    @Test
    void should_read_each_options_environment_variable_back_as_that_option() {
        for (String option : IngestConfig.definition().names()) {
            assertThat(ConfigLoader.fromEnvironment(Map.of(ConfigReference.environmentVariable(option), "x")))
                    .containsOnlyKeys(option);
        }
    }
}
