package io.apiary.ingest.tables;

/**
 * The counter of conflicting writes: two different records for one primary key of a table, of
 * which one row is kept whole (the rule per table is in the README, "Conflicting writes"). The
 * pipeline counts the conflicts it can see without reading before each write: the topology
 * within its duplicate window of entrance-counter samples (an open hour), the sink among the rows
 * of one partition that wait in one batch (within {@code sink.linger.ms} of each other at one sink
 * instance). Thread-safe (constants only).
 */
public final class WriteConflicts {

    /**
     * Counter name, {@code apiary.write.conflicts}; tags {@value #TABLE_TAG} (the table written)
     * and {@value #STAGE_TAG} ({@code topology} or {@code sink}).
     */
    public static final String COUNTER = "apiary.write.conflicts";
    /** Tag naming the table. */
    public static final String TABLE_TAG = "table";
    /** Tag naming where the conflict was seen. */
    public static final String STAGE_TAG = "stage";

    private WriteConflicts() {}
}
