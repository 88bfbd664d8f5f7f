package io.apiary.ingest.read;

/**
 * A read that Cassandra could not answer (after the driver's own retries): names the table and
 * the partition, and carries the driver's exception as its cause. Also a read stopped because its
 * output was closed.
 */
public final class ReadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, naming the table and partition
     * @param cause   the driver's exception, or null when the read was stopped for another reason
     */
    public ReadException(String message, Throwable cause) {
        super(message, cause);
    }
}
