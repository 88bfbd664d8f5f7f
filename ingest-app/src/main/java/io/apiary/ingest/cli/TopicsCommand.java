package io.apiary.ingest.cli;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.TopicProvisioner;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code topics create}: creates the pipeline's topics that are missing. */
@Command(
        name = "topics",
        mixinStandardHelpOptions = true,
        description = "Kafka topic commands.",
        subcommands = TopicsCommand.Create.class)
public final class TopicsCommand {

    /** Creates missing topics. */
    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = "Creates the gateway, row, result and dead letter topics that do not exist yet "
                    + "(topic.partitions, topic.replication.factor).")
    static final class Create implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            IngestConfig cfg = config.load();
            try (Admin admin = Admin.create(cfg.kafkaClientSettings())) {
                List<String> created = TopicProvisioner.createMissing(admin, cfg);
                spec.commandLine()
                        .getOut()
                        .println(
                                created.isEmpty()
                                        ? "All topics exist already"
                                        : "Created " + String.join(", ", created));
            }
            return 0;
        }
    }
}
