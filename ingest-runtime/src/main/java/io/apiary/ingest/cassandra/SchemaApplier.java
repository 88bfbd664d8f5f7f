package io.apiary.ingest.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.tables.CqlFiles;
import io.apiary.ingest.tables.CqlScript;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the project's {@code cql/} files in name order. Every statement in them is idempotent
 * ({@code IF NOT EXISTS}), so applying twice is harmless. The files come from a folder, or from
 * the application's own jar (where the build puts {@code cql/}). Each DDL statement waits for
 * schema agreement (the driver's default). Thread-safe (stateless).
 */
public final class SchemaApplier {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaApplier.class);
    /** Replication of the local dev stack's single node. */
    public static final String DEV_REPLICATION = "{'class': 'SimpleStrategy', 'replication_factor': 1}";
    /** What a keyspace name may be here: a letter, then up to 47 letters, digits or underscores. */
    public static final Pattern NAME = CqlFiles.KEYSPACE_NAME;

    private SchemaApplier() {}

    /**
     * Reads the CQL files: {@link CqlFiles#load}.
     *
     * @param folder      folder of {@code .cql} files, or null for the bundled copy
     * @param keyspace    value of {@code ${keyspace}}: a valid unquoted CQL identifier
     * @param replication value of {@code ${replication}}: a CQL replication map
     * @return the parsed scripts in name order
     * @throws IllegalArgumentException if the keyspace name is invalid or a file is malformed
     * @throws java.io.UncheckedIOException if a file cannot be read
     */
    public static List<CqlScript> load(Path folder, String keyspace, String replication) {
        return CqlFiles.load(folder, keyspace, replication);
    }

    /**
     * Executes the scripts' statements in order.
     *
     * @param session an open session, not null
     * @param scripts scripts from {@link #load}
     * @return the number of statements executed
     * @throws com.datastax.oss.driver.api.core.DriverException if Cassandra refuses a statement
     */
    public static int apply(CqlSession session, List<CqlScript> scripts) {
        int count = 0;
        for (CqlScript script : scripts) {
            for (String statement : script.statements()) {
                LOG.debug("{}: {}", script.name(), statement);
                session.execute(SimpleStatement.newInstance(statement).setTimeout(java.time.Duration.ofSeconds(60)));
                count++;
            }
            LOG.info(
                    "Applied {} ({} statements)",
                    script.name(),
                    script.statements().size());
        }
        return count;
    }
}
