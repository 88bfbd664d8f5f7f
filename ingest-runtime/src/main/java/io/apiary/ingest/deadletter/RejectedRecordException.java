package io.apiary.ingest.deadletter;

import java.util.Objects;

/**
 * Thrown by the topology for a record that must go to the dead letter topic; carries the reason
 * code. Unchecked so that it travels through Kafka Streams to its processing exception handler.
 */
public final class RejectedRecordException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final RejectReason reason;

    /**
     * @param reason  why the record is rejected, not null
     * @param message what is wrong with the record, for operators
     */
    public RejectedRecordException(RejectReason reason, String message) {
        super(message, null, false, false);
        this.reason = Objects.requireNonNull(reason);
    }

    /** @return why the record is rejected */
    public RejectReason reason() {
        return reason;
    }
}
