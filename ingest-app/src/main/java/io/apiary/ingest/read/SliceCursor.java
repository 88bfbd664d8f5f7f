package io.apiary.ingest.read;

/**
 * The rows of one partition's slice, in the read's order, as {@link MergedRows} consumes them.
 * Implementations are not thread-safe: one merge owns a cursor; the driver completes its futures on
 * its own threads.
 *
 * @param <R> the row type
 */
interface SliceCursor<R extends TimedRow> {

    /** @return the partition and the part of the range this cursor reads, not null */
    SeriesTable.Slice slice();

    /** @return whether the first request has been sent */
    boolean started();

    /**
     * Sends the first request, unless already done, so that its answer overlaps other work.
     *
     * @param requests where requests go; it bounds requests in flight
     */
    void start(PartitionCursor.Requests requests);

    /**
     * Moves to the next row in the read's order, waiting for answers if needed.
     *
     * @param requests where further requests go
     * @return whether there is a row; then {@link #head()} is it
     * @throws ReadException if Cassandra did not answer a request
     */
    boolean advance(PartitionCursor.Requests requests);

    /** @return the current row, after {@link #advance} returned true; otherwise undefined */
    R head();
}
