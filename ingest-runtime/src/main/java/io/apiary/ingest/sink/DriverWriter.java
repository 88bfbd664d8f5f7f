package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The sink's writer over a java driver session: requests go out with
 * {@link CqlSession#executeAsync}, routed by the driver's token-aware load balancing to a replica
 * of their partition key; replicas come from the driver's token map. Thread-safe (the driver's
 * session and metadata are).
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
        return session.executeAsync(SinkTable.request(writes))
                .thenApply(result -> new Acknowledgement(
                        result.getExecutionInfo().getCoordinator(),
                        result.getExecutionInfo().getWarnings()));
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
