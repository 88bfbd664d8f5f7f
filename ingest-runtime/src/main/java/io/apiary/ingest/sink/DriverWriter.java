package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The sink's writer over a java driver session: the rows of one write group become one
 * statement ({@link #request}), which goes out with {@link CqlSession#executeAsync}, routed by the
 * driver's token-aware load balancing to a replica of its partition key; replicas come from the
 * driver's token map. Thread-safe (the driver's session and metadata are).
 */
public final class DriverWriter implements CassandraWriter {

    private final CqlSession session;
    private final ServerBatchLimits serverLimits;

    /**
     * Reads the server's batch thresholds ({@link ServerBatchLimits#read}) once.
     *
     * @param session an open session, not null; not closed by the writer
     */
    public DriverWriter(CqlSession session) {
        this.session = Objects.requireNonNull(session);
        this.serverLimits = ServerBatchLimits.read(session);
    }

    @Override
    public CompletionStage<Acknowledgement> execute(List<SinkTable.Write> writes) {
        return session.executeAsync(request(writes))
                .thenApply(result -> new Acknowledgement(
                        result.getExecutionInfo().getCoordinator(),
                        result.getExecutionInfo().getWarnings()));
    }

    /**
     * The one request that writes some rows of one table: a lone row's INSERT when it has no row
     * deletion before it, else an UNLOGGED batch of every row's statements in order (a row
     * deletion before its INSERT, for tables with optional columns), with the consistency level of
     * the first INSERT and routed by its partition key (the driver routes a batch by its first
     * statement; the key computed at bind time is given instead). Thread-safe (stateless).
     *
     * @param writes rows bound from one table ({@link SinkTable#bind(byte[])}), not empty; one
     *               partition's, for a single-partition batch
     * @return the statement to execute, idempotent, not null
     * @throws IndexOutOfBoundsException if {@code writes} is empty
     */
    public static Statement<?> request(List<SinkTable.Write> writes) {
        if (writes.size() == 1 && writes.get(0).statements().size() == 1) {
            return writes.get(0).insert();
        }
        List<BatchableStatement<?>> statements = new ArrayList<>(writes.size() * 2);
        for (SinkTable.Write write : writes) {
            statements.addAll(write.statements());
        }
        BoundStatement first = writes.get(0).insert();
        return BatchStatement.builder(BatchType.UNLOGGED)
                .addStatements(statements)
                .setIdempotence(true)
                .setConsistencyLevel(first.getConsistencyLevel())
                .setRoutingKeyspace(first.getRoutingKeyspace())
                .setRoutingKey(writes.get(0).routingKey())
                .build();
    }

    @Override
    public Collection<?> replicas(String keyspace, ByteBuffer routingKey) {
        Optional<TokenMap> tokenMap = session.getMetadata().getTokenMap();
        return tokenMap.isEmpty() ? null : tokenMap.get().getReplicas(CqlIdentifier.fromInternal(keyspace), routingKey);
    }

    /**
     * @param keyspace a keyspace, internal form
     * @return how many nodes own token ranges of it, 0 while the token map is unknown
     */
    public int tokenOwners(String keyspace) {
        return session.getMetadata()
                .getTokenMap()
                .map(map -> (int) session.getMetadata().getNodes().values().stream()
                        .filter(node -> !map.getTokenRanges(CqlIdentifier.fromInternal(keyspace), node)
                                .isEmpty())
                        .count())
                .orElse(0);
    }

    @Override
    public String nodeName(Object node) {
        return node instanceof Node n ? name(n) : String.valueOf(node);
    }

    @Override
    public ServerBatchLimits serverLimits() {
        return serverLimits;
    }

    /** @return the session this writer sends through */
    CqlSession session() {
        return session;
    }

    /**
     * @param node a driver node, not null
     * @return its address as {@code host:port}
     */
    static String name(Node node) {
        return node.getEndPoint().resolve() instanceof InetSocketAddress address
                ? address.getHostString() + ":" + address.getPort()
                : node.getEndPoint().toString();
    }
}
