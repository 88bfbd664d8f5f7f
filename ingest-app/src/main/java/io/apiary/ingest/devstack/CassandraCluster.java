package io.apiary.ingest.devstack;

import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Cassandra cluster of several real nodes on 127.0.0.1, for tests that need more than one
 * replica (e.g. of token-aware routing) and for {@code bench --cassandra-nodes N} (replication
 * factor 3 measured on one machine). Each node is a {@link CassandraNode} in its own child JVM
 * with its own free CQL, storage, SSL storage and JMX ports and its own folder
 * {@code <work folder>/cassandra-N}, N = 1, 2, ... No Kafka: the dev stack is {@link LocalStack}.
 *
 * <p><b>Topology.</b> One data center ({@value CassandraNode#LOCAL_DATACENTER}, SimpleSnitch),
 * 16 random tokens per node. Node 1 is the only seed; the others name it
 * ({@code seeds: "127.0.0.1:<node 1's storage port>"}) and join with {@code auto_bootstrap:
 * false}: the cluster is new and empty, so there is nothing to stream. The nodes start one after
 * the other, each once the one before accepts CQL.
 *
 * <p><b>Ready.</b> {@link #start} returns once every node accepts CQL connections. Gossip may
 * take a few more seconds to show each node to the others as up with its tokens: a client that
 * needs the whole ring waits for it in its own metadata.
 *
 * <p><b>Options.</b> Each node runs with the Cassandra heap, Cassandra JVM options, start and stop
 * timeouts, Java and classpath files of its {@link LocalStackOptions} (the Kafka ones are
 * ignored; the Kafka classpath file must still exist). The work folder is handled as by
 * {@link LocalStack}.
 *
 * <p><b>No orphans.</b> {@link #close()} stops every node; a shutdown hook does the same when the
 * JVM exits; and each node runs under {@link ParentWatchdog}, which ends it within about a second
 * of this JVM's death, even after {@code kill -9}.
 *
 * <p>Thread-safe. Typical use: {@code try (CassandraCluster cluster =
 * CassandraCluster.start(options, 2)) { ... cluster.contactPoints() ... }}.
 */
public final class CassandraCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CassandraCluster.class);

    private final LocalStackOptions options;
    private final Path workDir;
    private final List<CassandraNode> nodes;
    private final Thread shutdownHook;
    private boolean closed; // guarded by this

    private CassandraCluster(LocalStackOptions options, Path workDir, List<CassandraNode> nodes) {
        this.options = options;
        this.workDir = workDir;
        this.nodes = List.copyOf(nodes);
        this.shutdownHook = new Thread(this::close, "apiary-devstack-cluster-shutdown");
    }

    /**
     * Starts the nodes one after the other and returns once each accepts CQL connections. Blocks
     * for about as many start times of one node as there are nodes.
     *
     * @param options how to start each node; not null
     * @param size    how many nodes, at least 1
     * @return the running cluster, to be closed by the caller
     * @throws IllegalArgumentException if {@code size} is less than 1
     * @throws LocalStackException      if Java or the server classpaths cannot be found, the work
     *                                  folder cannot be prepared, or a node does not start in
     *                                  time; the nodes that had started are stopped and the work
     *                                  folder is kept
     */
    public static CassandraCluster start(LocalStackOptions options, int size) {
        Objects.requireNonNull(options, "options");
        if (size < 1) {
            throw new IllegalArgumentException("a cluster needs at least 1 node, got " + size);
        }
        long t0 = System.nanoTime();
        ServerRuntime runtime = ServerRuntime.resolve(options);
        Path workDir = LocalStack.createWorkDir(options);
        Path watchdogDir = LocalStack.installWatchdog(workDir);
        int[] ports = StackFiles.freePorts(4 * size);
        List<CassandraNode> nodes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            InetSocketAddress seed = i == 0 ? null : nodes.get(0).storageAddress();
            nodes.add(new CassandraNode(
                    runtime,
                    options,
                    workDir,
                    watchdogDir,
                    "cassandra-" + (i + 1),
                    "node " + (i + 1),
                    seed,
                    ports[4 * i],
                    ports[4 * i + 1],
                    ports[4 * i + 2],
                    ports[4 * i + 3],
                    null));
        }
        CassandraCluster cluster = new CassandraCluster(options, workDir, nodes);
        LOG.info(
                "Starting a {}-node Cassandra {} cluster with {} in {}",
                size,
                nodes.get(0).version(),
                runtime.javaSource(),
                workDir);
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try {
            for (CassandraNode node : nodes) {
                node.start();
            }
        } catch (RuntimeException e) {
            cluster.close(); // a node failed, so the work folder is kept
            LOG.error("The Cassandra cluster failed to start; its work folder is kept: {}", workDir);
            throw e instanceof LocalStackException
                    ? e
                    : new LocalStackException(
                            "The Cassandra"
                                    + " cluster failed to start: " + e + ". Work folder (kept for inspection): "
                                    + workDir,
                            workDir,
                            e);
        }
        LOG.info(
                "Cassandra cluster ready in {}: CQL at {} (work folder {})",
                ServerProcess.seconds(Duration.ofNanos(System.nanoTime() - t0)),
                cluster.contactPoints().stream()
                        .map(a -> "127.0.0.1:" + a.getPort())
                        .collect(Collectors.joining(", ")),
                workDir);
        return cluster;
    }

    /** @return the nodes in start order, node 1 (the seed) first; unmodifiable, never null */
    public List<CassandraNode> nodes() {
        return nodes;
    }

    /** @return every node's CQL contact point, in start order; unmodifiable, never null */
    public List<InetSocketAddress> contactPoints() {
        return nodes.stream().map(CassandraNode::contactPoint).collect(Collectors.toUnmodifiableList());
    }

    /** @return the cluster's only data center, {@value CassandraNode#LOCAL_DATACENTER} */
    public String localDatacenter() {
        return CassandraNode.LOCAL_DATACENTER;
    }

    /** @return the work folder holding every node's folder; never null */
    public Path workDir() {
        return workDir;
    }

    /** @return the options this cluster was started with; never null */
    public LocalStackOptions options() {
        return options;
    }

    /**
     * Stops every node (in parallel: SIGTERM, then SIGKILL after the stop timeout), removes the
     * shutdown hook and deletes the work folder, unless {@link LocalStackOptions#keepWorkDir()}
     * or a node failed to start. Blocks until done; calling it again does nothing. Never throws:
     * a folder that cannot be deleted is logged.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            List<CompletableFuture<Void>> stops = new ArrayList<>();
            for (CassandraNode node : nodes) {
                stops.add(CompletableFuture.runAsync(node::stop, LocalStack.daemonExecutor("cassandra-stop")));
            }
            for (CompletableFuture<Void> stop : stops) {
                try {
                    stop.join();
                } catch (CompletionException e) {
                    LOG.warn("Stopping a Cassandra node failed", e.getCause());
                }
            }
            if (options.keepWorkDir() || nodes.stream().anyMatch(CassandraNode::startFailed)) {
                LOG.info("Cassandra cluster stopped; its work folder is kept: {}", workDir);
            } else {
                try {
                    StackFiles.deleteRecursively(workDir);
                    LOG.info("Cassandra cluster stopped; deleted {}", workDir);
                } catch (UncheckedIOException e) {
                    LOG.warn(
                            "Cassandra cluster stopped, but its work folder {} could not be" + " deleted: {}",
                            workDir,
                            e.getCause().toString());
                }
            }
        }
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down
            }
        }
    }
}
