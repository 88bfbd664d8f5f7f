package io.apiary.ingest.it;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cli.IngestApp;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.Pipeline;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The topology and the sink of one integration test running on the shared stack, with a session to
 * its keyspace and its settings as {@code --set} arguments, so that the test can run the commands
 * against it as a user would. Not thread-safe; close it in {@code @AfterAll}.
 */
public final class RunningPipeline implements AutoCloseable {

    private final IngestConfig config;
    private final CqlSession session;
    private final Pipeline pipeline;
    private final List<String> settings = new ArrayList<>();

    private RunningPipeline(IngestConfig config) {
        this.config = config;
        this.session = CassandraSessions.open(config);
        ItPipelineSettings.prepare(config, session);
        this.pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry());
        config.originals().forEach((key, value) -> settings.addAll(List.of("--set", key + "=" + value)));
    }

    /**
     * Prepares the keyspace and topics of a test and starts its topology and sink.
     *
     * @param name      the test's name, for its keyspace, topics and application id
     * @param overrides settings over {@link ItPipelineSettings}'
     * @return the running pipeline
     */
    public static RunningPipeline start(String name, Map<String, Object> overrides) {
        return new RunningPipeline(ItPipelineSettings.of(name, overrides));
    }

    /** @return the settings the pipeline runs with */
    public IngestConfig config() {
        return config;
    }

    /** @return a session to the stack's Cassandra */
    public CqlSession session() {
        return session;
    }

    /** @return the pipeline's settings as {@code --set key=value} arguments */
    public List<String> settings() {
        return List.copyOf(settings);
    }

    /**
     * Runs a command of {@code ingest-app} in this JVM with extra arguments after its own.
     *
     * @param out  receives its standard output
     * @param err  receives its standard error
     * @param with arguments after {@code args} (e.g. {@link #settings()})
     * @param args the command and its arguments
     * @return its exit code
     */
    public static int run(StringWriter out, StringWriter err, List<String> with, String... args) {
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(with);
        return cli.execute(all.toArray(String[]::new));
    }

    @Override
    public void close() {
        try {
            pipeline.close();
        } finally {
            session.close();
        }
    }
}
