package io.apiary.ingest.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.apiary.ingest.cassandra.RingWait;
import io.apiary.ingest.devstack.CassandraCluster;
import io.apiary.ingest.devstack.LocalStackOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real two-node Cassandra cluster on 127.0.0.1 (a {@link CassandraCluster}: child JVMs, heap
 * {@value #HEAP_INITIAL}/{@value #HEAP_MAX} each, work folder {@code target/two-node-cassandra-*}
 * of the module) and one driver session that has seen both nodes up with their tokens, for the
 * integration tests that need more than one replica. Always child JVMs, whatever
 * {@value SharedStack#PROPERTY} says, and not shared: each test class starts its own (25-30 s
 * on 2 cores, see {@link #startupTime()}) and closes it.
 *
 * <p>The session is the driver's defaults plus the project's {@code application.conf}, with
 * longer timeouts for a busy 2-core machine (requests 10 s, schema agreement 30 s). It has no
 * keyspace: statements name theirs.
 *
 * <p>The work folder is deleted by {@link #close()} when the start succeeded, and kept (with the
 * nodes' {@code logs/system.log}) when it failed. Thread-safe.
 */
public final class TwoNodeCassandra implements AutoCloseable {

    /** Initial heap of each node. */
    public static final String HEAP_INITIAL = "256m";
    /** Maximum heap of each node. */
    public static final String HEAP_MAX = "768m";
    /** How long the driver may take to see both nodes up with their tokens once both run. */
    public static final Duration RING_TIMEOUT = Duration.ofSeconds(90);

    private static final Logger LOG = LoggerFactory.getLogger(TwoNodeCassandra.class);

    private final CassandraCluster cluster;
    private final CqlSession session;
    private final Duration clusterStartupTime;
    private final Duration startupTime;

    private TwoNodeCassandra(
            CassandraCluster cluster, CqlSession session, Duration clusterStartupTime, Duration startupTime) {
        this.cluster = cluster;
        this.session = session;
        this.clusterStartupTime = clusterStartupTime;
        this.startupTime = startupTime;
    }

    /**
     * Starts node 1, then node 2 (which joins it), opens a session and waits until the session's
     * metadata has both nodes {@link NodeState#UP} with open connections and a token map that
     * gives each node tokens. Blocks meanwhile (25-30 s on 2 cores).
     *
     * @return the running cluster, to be closed by the caller
     * @throws io.apiary.ingest.devstack.LocalStackException if a node does not start
     * @throws IllegalStateException if the driver does not see the whole ring within
     *                               {@link #RING_TIMEOUT}; the nodes are stopped, their work
     *                               folder is kept and named in the message
     */
    public static TwoNodeCassandra start() {
        long t0 = System.nanoTime();
        Path workDir;
        try {
            Path target = Files.createDirectories(Path.of("target").toAbsolutePath());
            workDir = Files.createTempDirectory(target, "two-node-cassandra-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a work folder under target/", e);
        }
        LocalStackOptions options = LocalStackOptions.builder()
                .workDir(workDir)
                .keepWorkDir(true) // deleted by close() only after a successful start
                .cassandraHeap(HEAP_INITIAL, HEAP_MAX)
                .build();
        CassandraCluster cluster = CassandraCluster.start(options, 2);
        Duration clusterTime = Duration.ofNanos(System.nanoTime() - t0);
        CqlSession session = null;
        try {
            session = CqlSession.builder()
                    .addContactPoints(cluster.contactPoints())
                    .withLocalDatacenter(cluster.localDatacenter())
                    .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                            .withDuration(
                                    DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                            .build())
                    .withApplicationName("apiary-ingest-it")
                    .build();
            RingWait.await(session, 2, RING_TIMEOUT);
        } catch (RuntimeException e) {
            if (session != null) {
                session.close();
            }
            cluster.close();
            throw new IllegalStateException(
                    "The two-node Cassandra cluster started, but the driver"
                            + " did not see both nodes up with their tokens: " + e.getMessage()
                            + ". Work folder (kept for inspection): " + cluster.workDir(),
                    e);
        }
        Duration total = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info(
                "Two-node Cassandra ready in {} ({} for the nodes to accept CQL, then {} until"
                        + " the driver saw both up with tokens); CQL at {}",
                seconds(total),
                seconds(clusterTime),
                seconds(total.minus(clusterTime)),
                cluster.contactPoints());
        return new TwoNodeCassandra(cluster, session, clusterTime, total);
    }

    /** @return both nodes' CQL contact points, node 1 first; never null */
    public List<InetSocketAddress> contactPoints() {
        return cluster.contactPoints();
    }

    /** @return the cluster's data center, for the driver's load balancing; never null */
    public String localDatacenter() {
        return cluster.localDatacenter();
    }

    /** @return the open session (no keyspace); closed by {@link #close()}; never null */
    public CqlSession session() {
        return session;
    }

    /** @return the cluster, to inspect its nodes (pids, logs); never null */
    public CassandraCluster cluster() {
        return cluster;
    }

    /** @return how long the two nodes took until both accepted CQL, node 2 after node 1 */
    public Duration clusterStartupTime() {
        return clusterStartupTime;
    }

    /** @return how long {@link #start()} took in all, the driver's wait for the ring included */
    public Duration startupTime() {
        return startupTime;
    }

    /**
     * Closes the session, stops both nodes (see {@link CassandraCluster#close()}) and deletes the
     * work folder. Calling it again does nothing. Never throws: a folder that cannot be deleted is
     * logged.
     */
    @Override
    public void close() {
        session.close();
        cluster.close();
        Path dir = cluster.workDir();
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
            LOG.info("Deleted the two-node Cassandra work folder {}", dir);
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("Could not delete the two-node Cassandra work folder {}: {}", dir, e.toString());
        }
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
