package io.apiary.ingest.cli;

import io.apiary.ingest.logging.LogEnvironment;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ingest-app} command line: {@code demo}, {@code run}, {@code import-csv}, {@code import-counts},
 * {@code schema apply}, {@code topics create}, {@code devstack}, {@code dump}, {@code table copy} and
 * {@code table verify}, among others. Errors are printed as one
 * actionable line on stderr (stack traces with {@code APIARY_LOG_LEVEL=DEBUG}); exit code 1 on
 * error, 2 on bad usage or invalid configuration (nothing was started), an invalid
 * {@code APIARY_LOG_FORMAT} included.
 */
@Command(
        name = "ingest-app",
        mixinStandardHelpOptions = true,
        versionProvider = IngestApp.Version.class,
        description = "Apiary Ingest: hive gateway telemetry from Kafka to Cassandra.",
        subcommands = {
            DemoCommand.class,
            RunCommand.class,
            ImportCsvCommand.class,
            ImportCountsCommand.class,
            SchemaCommand.class,
            RegistryCommand.class,
            TopicsCommand.class,
            DevStackCommand.class,
            DumpCommand.class,
            BenchCommand.class,
            ConfigCommand.class,
            PartitionsCommand.class,
            QueryCommand.class,
            ReportCommand.class,
            TableCommand.class,
            CommandLine.HelpCommand.class
        })
public final class IngestApp {

    /**
     * Runs the command line.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        io.apiary.ingest.serde.AvroSingleObjectSerde.limitValueSizes();
        // Before any logger exists: demo and bench print their own progress, so their logs start at WARN.
        String defaultLevel = args.length > 0 && ("demo".equals(args[0]) || "bench".equals(args[0])) ? "WARN" : "INFO";
        try {
            LogEnvironment.systemProperties(System.getenv(), defaultLevel).forEach(System::setProperty);
        } catch (IllegalArgumentException e) { // nothing started, no logger yet
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        }
        CommandLine cli = commandLine();
        int exitCode = cli.execute(args);
        // picocli's writers buffer: without this, output past 8 KiB is lost at System.exit
        cli.getOut().flush();
        cli.getErr().flush();
        System.exit(exitCode);
    }

    /** @return the configured command line (also used by tests) */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new IngestApp());
        cli.setUsageHelpAutoWidth(true);
        cli.setParameterExceptionHandler((e, args) -> {
            // the message and where to read on: the full usage would bury the one line that matters
            CommandLine failed = e.getCommandLine();
            java.io.PrintWriter err = failed.getErr();
            err.println("error: " + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
            err.println("Run '" + failed.getCommandSpec().qualifiedName() + " --help' for its options.");
            return failed.getCommandSpec().exitCodeOnInvalidInput();
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            boolean badConfig = e instanceof ConfigException;
            String message = badConfig
                    ? e.getMessage() + " (settings come from --config, APIARY_* environment"
                            + " variables and --set; see deploy/configuration.md)"
                    : e instanceof com.datastax.oss.driver.api.core.AllNodesFailedException
                            ? "no Cassandra node accepted a connection: " + e.getMessage() + " (check "
                                    + "cassandra.contact.points and the credentials; for a local stack, pass --config"
                                    + " with the settings file that 'devstack' or 'demo --keep-running' printed)"
                            : e instanceof IllegalArgumentException
                                            || e instanceof IllegalStateException
                                            || e instanceof io.apiary.ingest.serde.SchemaRegistryException
                                            || e instanceof io.apiary.ingest.read.ReadException
                                            || e instanceof io.apiary.ingest.devstack.LocalStackException
                                    ? e.getMessage()
                                    : e.toString();
            commandLine.getErr().println("error: " + message);
            if (org.slf4j.LoggerFactory.getLogger(IngestApp.class).isDebugEnabled()) {
                e.printStackTrace(commandLine.getErr());
            }
            return badConfig ? 2 : 1;
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
