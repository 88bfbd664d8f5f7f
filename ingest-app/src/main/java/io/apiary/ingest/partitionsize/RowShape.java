package io.apiary.ingest.partitionsize;

/**
 * The bytes and cells one partition of a table holds, per partition and per row, as the
 * partition-size formula of the DataStax data-modeling course (DS220, also in "Cassandra: The
 * Definitive Guide", "Calculating Partition Size") counts them:
 * <pre>
 *   Nv = Nr (Nc - Npk - Ns) + Ns                          cells (values) of a partition
 *   St = sum(size of partition-key columns) + sum(size of static columns)
 *      + Nr x (sum(size of clustering columns) + sum(size of regular columns))
 *      + Nv x 8                                           bytes; 8 = the per-cell timestamp
 * </pre>
 * with Nr rows, Nc columns, Npk partition-key columns and Ns static columns. It is an estimate
 * of the data before compression, not of the SSTables on disk. Immutable and thread-safe.
 *
 * @param partitionKeyBytes bytes of the partition-key columns, counted once per partition
 * @param staticBytes       bytes of the static columns, counted once per partition
 * @param rowBytes          bytes of one row's clustering and regular columns; for an
 *                          {@link #explicit} shape, the whole size of a row, overheads included
 * @param cellsPerRow       cells of one row: Nc - Npk - Ns
 * @param staticCells       cells of the static columns: Ns
 * @param explicit          whether {@code rowBytes} was given as a whole row's size, in which
 *                          case no per-cell timestamp bytes are added
 */
public record RowShape(
        long partitionKeyBytes, long staticBytes, long rowBytes, int cellsPerRow, int staticCells, boolean explicit) {

    /** Bytes of metadata counted per cell (its write timestamp), as in the formula above. */
    public static final int CELL_TIMESTAMP_BYTES = 8;

    /** Checks the values. */
    public RowShape {
        if (partitionKeyBytes < 0 || staticBytes < 0 || rowBytes < 0 || cellsPerRow < 0 || staticCells < 0) {
            throw new IllegalArgumentException("negative row shape");
        }
    }

    /**
     * A shape of a given size per row, everything included, as in "100 bytes per row".
     *
     * @param rowBytes    bytes per row, at least 0
     * @param cellsPerRow cells per row, at least 0
     * @return the shape, with no per-partition bytes
     */
    public static RowShape ofRowBytes(long rowBytes, int cellsPerRow) {
        return new RowShape(0, 0, rowBytes, cellsPerRow, 0, true);
    }

    /**
     * @param rows rows in the partition, at least 0
     * @return its cells, Nv
     * @throws ArithmeticException on overflow
     */
    public long cells(long rows) {
        return Math.addExact(Math.multiplyExact(rows, cellsPerRow), staticCells);
    }

    /**
     * @param rows rows in the partition, at least 0
     * @return its bytes, St (see the class comment)
     * @throws ArithmeticException on overflow
     */
    public long bytes(long rows) {
        long data = Math.addExact(partitionKeyBytes + staticBytes, Math.multiplyExact(rows, rowBytes));
        return explicit ? data : Math.addExact(data, Math.multiplyExact(cells(rows), (long) CELL_TIMESTAMP_BYTES));
    }

    /** @return bytes per row including its cells' timestamps: what one more row adds */
    public long bytesPerRow() {
        return explicit ? rowBytes : rowBytes + (long) cellsPerRow * CELL_TIMESTAMP_BYTES;
    }
}
