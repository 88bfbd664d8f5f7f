package io.apiary.ingest.cli;

import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ingest-app} command line: {@code demo}, {@code run}, {@code import-csv},
 * {@code schema apply} and {@code topics create}. Errors are printed as one actionable line on
 * stderr (stack traces with {@code APIARY_LOG_LEVEL=DEBUG}); exit code 1 on error, 2 on bad usage.
 */
@Command(name = "ingest-app", mixinStandardHelpOptions = true, versionProvider = IngestApp.Version.class,
        description = "Apiary Ingest: hive gateway telemetry from Kafka to Cassandra.",
        subcommands = {DemoCommand.class, RunCommand.class, ImportCsvCommand.class, SchemaCommand.class,
                TopicsCommand.class, CommandLine.HelpCommand.class})
public final class IngestApp {

    /**
     * Runs the command line.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** @return the configured command line (also used by tests) */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new IngestApp());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            String message = e instanceof ConfigException || e instanceof IllegalArgumentException
                    ? e.getMessage() : e.toString();
            commandLine.getErr().println("error: " + message);
            if (org.slf4j.LoggerFactory.getLogger(IngestApp.class).isDebugEnabled()) {
                e.printStackTrace(commandLine.getErr());
            }
            return 1;
        });
        return cli;
    }

    /** Reads the version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = IngestApp.class.getPackage().getImplementationVersion();
            return new String[] {"ingest-app " + (version == null ? "(development build)" : version)};
        }
    }
}
