package io.apiary.ingest.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.tables.CqlScript;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code schema apply}: applies cql/ to the configured Cassandra, idempotently. */
@Command(
        name = "schema",
        mixinStandardHelpOptions = true,
        description = "Cassandra schema commands.",
        subcommands = SchemaCommand.Apply.class)
public final class SchemaCommand {

    /** Applies the keyspace and tables. */
    @Command(
            name = "apply",
            mixinStandardHelpOptions = true,
            description = "Creates the keyspace and tables of cql/ where missing. Running it twice is harmless.")
    static final class Apply implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Option(
                names = "--cql-dir",
                paramLabel = "DIR",
                description = "Folder of .cql files to apply instead of the copy bundled in the application.")
        Path cqlDir;

        @Option(
                names = "--replication",
                paramLabel = "MAP",
                defaultValue = SchemaApplier.DEV_REPLICATION,
                description = "Keyspace replication, e.g. \"{'class': 'NetworkTopologyStrategy', 'dc1': 3}\". "
                        + "Default: ${DEFAULT-VALUE} (one development node).")
        String replication;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            IngestConfig cfg = config.load();
            String keyspace = cfg.getString(IngestConfig.CASSANDRA_KEYSPACE);
            List<CqlScript> scripts = SchemaApplier.load(cqlDir, keyspace, replication);
            try (CqlSession session = CassandraSessions.open(cfg)) {
                int statements = SchemaApplier.apply(session, scripts);
                spec.commandLine()
                        .getOut()
                        .printf(
                                "Applied %d statements from %d files to keyspace %s%n",
                                statements, scripts.size(), keyspace);
            }
            return 0;
        }
    }
}
