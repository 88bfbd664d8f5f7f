package io.apiary.ingest.sink;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The narrow face of Cassandra that the sink's loop writes through: execute one request, and
 * look up the replicas of a partition. {@link DriverWriter} is the real one, over the java
 * driver's session; unit tests of the loop script one (acknowledge, refuse, time out, stall).
 *
 * <p>Thread-safety: {@link #execute} is called from the sink's poll thread; the returned stages
 * complete on any thread (the sink hands their results back to its poll thread). The look-ups
 * are called from the poll thread.
 */
public interface CassandraWriter {

    /**
     * What Cassandra answered to an acknowledged write.
     *
     * @param coordinator the node that coordinated it (an opaque node, named by
     *                    {@link CassandraWriter#nodeName}), or null if unknown
     * @param warnings    the server's warnings about the request, not null, usually empty
     */
    record Acknowledgement(Object coordinator, List<String> warnings) {

        /** Copies the warnings. */
        public Acknowledgement {
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * Sends one request writing some rows of one table: a lone row's statements, or an UNLOGGED
     * batch of them ({@link DriverWriter#request}).
     *
     * @param writes rows bound from one table, not empty; rows of one partition unless the sink
     *               combines partitions of the same replicas
     * @return completes with the acknowledgement, or exceptionally with the driver's error
     *         (classified by {@link WriteFailures}); never null
     */
    CompletionStage<Acknowledgement> execute(List<SinkTable.Write> writes);

    /**
     * @param keyspace   the keyspace, internal form, not null
     * @param routingKey a serialized partition key, not null
     * @return the replicas of that partition (opaque nodes), or null while the token map is unknown
     */
    Collection<?> replicas(String keyspace, ByteBuffer routingKey);

    /**
     * @param node a node returned by this writer
     * @return its address as {@code host:port}, for logs and metric tags
     */
    String nodeName(Object node);

    /** @return the server's batch thresholds (read once when the writer is made), not null */
    ServerBatchLimits serverLimits();
}
