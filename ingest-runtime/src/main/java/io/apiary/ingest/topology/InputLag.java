package io.apiary.ingest.topology;

import org.apache.kafka.common.TopicPartition;

/**
 * Whether a stream task's input partition holds records the task has not processed yet: records
 * not fetched (the consumer's lag) or fetched and not yet processed (the task's input buffer). The
 * hourly quiet rule ({@link HourlyActivityProcessor}) never fires while it does. Implementations
 * are called on the stream thread that owns the partition.
 */
public interface InputLag {

    /** Every record is processed as soon as it is given, as in {@code TopologyTestDriver}. */
    InputLag SYNCHRONOUS = partition -> true;

    /**
     * Asked once per check of the quiet rule (every {@code activity.update.interval.ms}).
     *
     * @param partition an input partition of the calling stream thread's task, not null
     * @return true only if every record that was in the partition when this was last asked (up to
     *         its end then, the last stable offset under read_committed) has been processed; false
     *         when some of those records wait, and when that is not known (the first question, no
     *         fetch yet, restoring, after a rebalance). Records appended since the last question do
     *         not count: under steady traffic a partition is never empty, but it is caught up when
     *         the topology keeps pace with it.
     */
    boolean caughtUp(TopicPartition partition);

    /**
     * Tells that the topology has taken a record of {@code partition} into processing (the check step,
     * or a deserialization failure), so that it no longer waits in the task's input buffer. The
     * default does nothing.
     *
     * @param partition the record's partition, not null
     * @param offset    the record's offset
     */
    default void handled(TopicPartition partition, long offset) {}
}
