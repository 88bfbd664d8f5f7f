package io.apiary.ingest.cli;

import io.apiary.ingest.cassandra.CassandraTls;
import io.apiary.ingest.config.ConfigReference;
import io.apiary.ingest.config.IngestConfig;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code config reference | sample | show}: the configuration reference (Markdown), a settings
 * file with every option at its default, and the effective settings of a file, the
 * environment and {@code --set} (validated, secrets masked).
 */
@Command(
        name = "config",
        mixinStandardHelpOptions = true,
        description = "Configuration reference, sample and check.",
        subcommands = {ConfigCommand.Reference.class, ConfigCommand.Sample.class, ConfigCommand.Show.class})
public final class ConfigCommand {

    /** Prints the reference. */
    @Command(
            name = "reference",
            mixinStandardHelpOptions = true,
            description = "Prints the configuration reference (Markdown), generated from the code.")
    static final class Reference implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().print(ConfigReference.markdown());
            return 0;
        }
    }

    /** Prints the sample settings file. */
    @Command(
            name = "sample",
            mixinStandardHelpOptions = true,
            description = "Prints a settings file with every option commented out at its default.")
    static final class Sample implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().print(ConfigReference.sampleProperties());
            return 0;
        }
    }

    /** Validates and prints the effective settings. */
    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description =
                    "Validates the settings of --config, APIARY_* variables and --set (and reads the "
                            + "Cassandra trust and key stores when TLS is on, and the sink.extra.tables registrations) and prints every effective value (passwords, "
                            + "secrets and JAAS configs masked). Exit 2 if one is invalid or unknown (a pass-through "
                            + "kafka.*, streams.* or sink.consumer.* setting its Kafka client does not know counts as unknown).")
    static final class Show implements Callable<Integer> {
        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            IngestConfig cfg = config.load();
            CassandraTls.check(cfg);
            try {
                // the checks that span several settings, as run builds them
                io.apiary.ingest.sink.SinkSettings.from(cfg);
                io.apiary.ingest.service.ServiceSettings.from(cfg);
                io.apiary.ingest.topology.TopologySettings.from(cfg);
                if (cfg.originals().keySet().stream().anyMatch(key -> key.startsWith("schema.registry."))) {
                    // the registry's URLs, credentials and TLS stores, as run reads them; with none
                    // given, show still prints the defaults (run then asks for the URL)
                    cfg.wireFormat();
                }
            } catch (IllegalArgumentException e) {
                throw new org.apache.kafka.common.config.ConfigException(e.getMessage());
            }
            RunCommand.checkExtraTables(cfg); // the registration files, read and checked as run reads them
            for (Map.Entry<String, String> setting : cfg.describe().entrySet()) {
                spec.commandLine().getOut().println(setting.getKey() + "=" + setting.getValue());
            }
            if (!cfg.unknownSettings().isEmpty()) {
                spec.commandLine()
                        .getErr()
                        .println("error: unknown settings (misspelt? `run` would ignore them): "
                                + cfg.unknownSettings());
                return 2;
            }
            return 0;
        }
    }
}
