package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.NumericSettings;
import java.math.BigInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code config show}: a setting outside its range is refused in one line naming it, its value and its range. */
class ConfigCommandTest {

    /** @return every numeric setting with the first value beyond its greatest valid one */
    static Stream<Arguments> beyondTheMaximum() {
        return NumericSettings.all().stream().map(setting -> {
            String beyond = setting.max() instanceof Double max
                    ? String.valueOf(max == Double.MAX_VALUE ? Double.POSITIVE_INFINITY : Math.nextUp(max))
                    : BigInteger.valueOf(setting.max().longValue())
                            .add(BigInteger.ONE)
                            .toString();
            return Arguments.of(setting.name(), beyond);
        });
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("beyondTheMaximum")
    void show_refuses_a_value_beyond_a_settings_maximum_naming_the_setting_and_the_value(String name, String value) {
        CliRun run = CliRun.of("config", "show", "--set", name + "=" + value);

        assertThat(run.exit()).as(run.out()).isEqualTo(2);
        assertThat(run.err())
                .startsWith("error: Invalid value " + value + " for configuration " + name)
                .contains("deploy/configuration.md");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void show_reads_the_extra_table_registrations_and_refuses_a_broken_one_with_exit_2(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path missing = dir.resolve("nowhere.properties");
        java.nio.file.Path broken = java.nio.file.Files.writeString(dir.resolve("broken.properties"), "table=\n");

        for (java.nio.file.Path file : java.util.List.of(missing, broken)) {
            CliRun run = CliRun.of("config", "show", "--set", IngestConfig.SINK_EXTRA_TABLES + "=" + file);

            assertThat(run.exit()).as(run.err()).isEqualTo(2);
            assertThat(run.err())
                    .contains(IngestConfig.SINK_EXTRA_TABLES, file.getFileName().toString());
        }
    }

    @Test
    void show_gives_the_allowed_range_of_a_drain_timeout_of_292_million_years() {
        CliRun run = CliRun.of("config", "show", "--set", IngestConfig.SINK_DRAIN_TIMEOUT_MS + "=" + Long.MAX_VALUE);

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err())
                .contains(IngestConfig.SINK_DRAIN_TIMEOUT_MS, String.valueOf(Long.MAX_VALUE), "no more than 86400000");
    }

    @Test
    void show_gives_both_bounds_and_the_special_value_of_a_combined_batch_s_partitions() {
        CliRun run = CliRun.of("config", "show", "--set", IngestConfig.SINK_COMBINE_MAX_PARTITIONS + "=10001");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err())
                .contains(IngestConfig.SINK_COMBINE_MAX_PARTITIONS, "10001", "must be -1 or in [2, 10000]");
    }

    @Test
    void show_prints_the_settings_at_the_greatest_valid_wait() {
        CliRun run = CliRun.of(
                "config",
                "show",
                "--set",
                IngestConfig.SINK_DRAIN_TIMEOUT_MS + "=" + IngestConfig.MAX_WAIT_MS,
                "--set",
                "shutdown.timeout.ms=" + IngestConfig.MAX_WAIT_MS);

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains(IngestConfig.SINK_DRAIN_TIMEOUT_MS + "=86400000");
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {
                "schema.registry.url=ftp://registry:8081",
                "schema.registry.url=http://a b",
                "schema.registry.url= , ",
                "schema.registry.basic.auth.user.info=nocolon",
            })
    void show_refuses_registry_settings_that_run_refuses(String setting) {
        CliRun run = CliRun.of("config", "show", "--set", setting);

        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).startsWith("error: ").contains("schema.registry.");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void show_refuses_a_registry_trust_store_that_cannot_be_read() {
        CliRun run = CliRun.of(
                "config",
                "show",
                "--set",
                "schema.registry.url=https://registry:8081",
                "--set",
                "schema.registry.ssl.truststore.path=/nonexistent/registry-truststore.p12");

        assertThat(run.exit()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("/nonexistent/registry-truststore.p12");
    }
}
