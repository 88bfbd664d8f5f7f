package io.apiary.ingest.cli;

import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Options shared by the commands that talk to a configured Kafka and Cassandra: a properties
 * file, environment variables ({@code APIARY_*}) and {@code --set key=value} overrides, in
 * increasing precedence.
 */
public final class ConfigOptions {

    @Option(
            names = {"-c", "--config"},
            paramLabel = "FILE",
            description =
                    "Properties file with the settings (see the configuration reference, deploy/configuration.md).")
    Path configFile;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = "Overrides one setting (see deploy/configuration.md). Repeatable.")
    Map<String, String> overrides = new LinkedHashMap<>();

    /**
     * @return the validated configuration
     * @throws org.apache.kafka.common.config.ConfigException naming an invalid option
     */
    IngestConfig load() {
        return ConfigLoader.load(configFile, System.getenv(), overrides);
    }

    /**
     * @param extra settings that win over file and environment but lose to {@code --set}
     * @return the validated configuration
     */
    IngestConfig load(Map<String, ?> extra) {
        Map<String, Object> merged = new LinkedHashMap<>(extra);
        merged.putAll(overrides);
        return ConfigLoader.load(configFile, System.getenv(), merged);
    }
}
