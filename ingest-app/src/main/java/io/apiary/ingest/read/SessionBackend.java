package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * {@link ReadBackend} on the driver's session: statements prepared once per reader and sent with
 * the read's consistency, page size and as idempotent. Thread-safe.
 */
final class SessionBackend implements ReadBackend {

    private final CqlSession session;
    private final ReadSettings settings;
    private final Map<String, PreparedStatement> prepared = new ConcurrentHashMap<>();

    /**
     * @param session  an open session, not null; the caller closes it
     * @param settings the keyspace and consistency, not null
     */
    SessionBackend(CqlSession session, ReadSettings settings) {
        this.session = Objects.requireNonNull(session, "session");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public Supplier<CompletionStage<AsyncResultSet>> request(String table, String cql, Object[] values, int pageSize) {
        PreparedStatement statement = prepared.computeIfAbsent(cql, text -> prepare(table, text));
        return () -> session.executeAsync(statement
                .bind(values)
                .setPageSize(pageSize)
                .setConsistencyLevel(settings.consistency())
                .setIdempotent(true));
    }

    /**
     * From the driver's schema metadata, which it keeps up to date from Cassandra's schema events
     * (no request). When the metadata does not know the keyspace (schema metadata disabled, or
     * limited to other keyspaces by the driver's configuration), the table's existence is asked by
     * preparing a statement on it.
     */
    @Override
    public boolean tableExists(String table) {
        Optional<KeyspaceMetadata> keyspace = session.isSchemaMetadataEnabled()
                ? session.getMetadata().getKeyspace(CqlIdentifier.fromCql(settings.keyspace()))
                : Optional.empty();
        if (keyspace.isPresent()) {
            return keyspace.get().getTable(CqlIdentifier.fromCql(table)).isPresent();
        }
        try {
            session.prepare("SELECT * FROM " + settings.keyspace() + "." + table + " LIMIT 1");
            return true;
        } catch (InvalidQueryException e) {
            return false;
        }
    }

    private PreparedStatement prepare(String table, String cql) {
        try {
            return session.prepare(cql);
        } catch (InvalidQueryException e) {
            throw new IllegalArgumentException(
                    settings.keyspace() + "." + table + " cannot be read: " + e.getMessage()
                            + " (is cassandra.keyspace right? 'schema apply' creates the tables)",
                    e);
        }
    }
}
