package io.apiary.ingest.validation;

import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.deadletter.RejectedRecordException;
import java.util.Objects;

/**
 * Why a validator refused a record: a reason code for machines and a message for people.
 * Immutable and thread-safe.
 *
 * @param reason  the reason code (the dead letter header and the counter tag), not null
 * @param message what is wrong with the record, naming the field and value, not null
 */
public record Rejection(RejectReason reason, String message) {

    /** Checks the values. */
    public Rejection {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }

    /** @return the exception that carries this rejection to Kafka Streams' processing exception handler */
    public RejectedRecordException toException() {
        return new RejectedRecordException(reason, message);
    }
}
