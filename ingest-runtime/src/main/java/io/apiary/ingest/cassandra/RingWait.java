package io.apiary.ingest.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Metadata;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Waits until a driver session sees a whole new cluster: a node that has just joined accepts CQL
 * a few seconds before gossip shows it to the others (and to the driver's control connection) as
 * up with its tokens, and until then token-aware routing and replica-set grouping see fewer
 * replicas than the keyspace has. Used by the local multi-node clusters of the benchmark and the
 * integration tests. Stateless and thread-safe.
 */
public final class RingWait {

    private static final long POLL_MILLIS = 250;

    private RingWait() {}

    /**
     * Polls the session's metadata every 250 ms until it holds exactly {@code nodes} nodes, each
     * {@link NodeState#UP} with at least one open connection and tokens in the token map.
     *
     * @param session an open session; not null
     * @param nodes   how many nodes the cluster has, at least 1
     * @param timeout longest wait; not null
     * @throws IllegalStateException if the ring is not seen whole within {@code timeout} (the
     *                               message says what the driver saw, node by node) or the
     *                               thread is interrupted (its flag is set again)
     */
    public static void await(CqlSession session, int nodes, Duration timeout) {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(timeout, "timeout");
        if (nodes < 1) {
            throw new IllegalArgumentException("a cluster has at least 1 node, got " + nodes);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Metadata metadata = session.getMetadata();
            Optional<TokenMap> tokenMap = metadata.getTokenMap();
            List<Node> seen = List.copyOf(metadata.getNodes().values());
            boolean whole = seen.size() == nodes
                    && tokenMap.isPresent()
                    && seen.stream()
                            .allMatch(n -> n.getState() == NodeState.UP
                                    && n.getOpenConnections() > 0
                                    && !tokenMap.get().getTokens(n).isEmpty());
            if (whole) {
                return;
            }
            String described = seen.stream()
                            .map(n -> n.getEndPoint() + " " + n.getState() + " ("
                                    + n.getOpenConnections() + " connections, "
                                    + tokenMap.map(t -> t.getTokens(n).size()).orElse(0) + " tokens)")
                            .collect(Collectors.joining(", ", "[", "]"))
                    + (tokenMap.isPresent() ? "" : ", no token map");
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(String.format(
                        Locale.ROOT,
                        "after %.1f s the driver sees %d of" + " %d nodes: %s",
                        timeout.toMillis() / 1000.0,
                        seen.size(),
                        nodes,
                        described));
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(
                        "interrupted while waiting for the ring; the driver saw " + described, e);
            }
        }
    }
}
