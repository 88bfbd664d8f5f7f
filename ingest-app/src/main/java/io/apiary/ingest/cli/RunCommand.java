package io.apiary.ingest.cli;

import java.util.concurrent.Callable;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.Pipeline;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code run}: the topology, the sink, or both, against a configured Kafka and Cassandra, until
 * SIGTERM or Ctrl-C (then the sink drains and commits, and the topology closes cleanly) or until a
 * component fails (exit code 1).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the topology and/or the Cassandra sink against the configured Kafka and Cassandra.")
public final class RunCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    /** Which parts to run. */
    enum Component { all, topology, sink }

    @Mixin
    ConfigOptions config;

    @Option(names = "--component", defaultValue = "all",
            description = "What to run: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Component component;

    @Override
    public Integer call() throws InterruptedException {
        IngestConfig cfg = config.load();
        LOG.info("Starting {} with {}", component, cfg.describe());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        Pipeline pipeline = Pipeline.start(cfg, component != Component.sink, component != Component.topology, registry);
        Thread hook = new Thread(pipeline::close, "apiary-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        String failure = pipeline.awaitTermination();
        if (failure != null) {
            LOG.error("Stopping: {}", failure);
            pipeline.close();
            return 1;
        }
        return 0;
    }
}
