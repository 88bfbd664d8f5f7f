package io.apiary.ingest.deadletter;

import io.apiary.ingest.serde.SchemaRegistryException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' own error hooks (KIP-1033, KIP-1034), configured to send the failing record to
 * the dead letter topic named by {@code errors.dead.letter.queue.topic.name} in the format of
 * {@link DeadLetterHeaders}, and to go on with the next record. Streams produces the dead letter
 * record itself, inside the task's transaction under exactly-once.
 *
 * <p>Per-record details are logged at DEBUG only; operators watch the dead-letter counter.
 */
public final class DeadLetterExceptionHandlers {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterExceptionHandlers.class);

    private DeadLetterExceptionHandlers() {}

    private static String deadLetterTopic(Map<String, ?> configs) {
        Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        if (topic == null || topic.toString().isBlank()) {
            throw new ConfigException(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG
                    + " must name the dead letter topic for " + DeadLetterExceptionHandlers.class.getSimpleName());
        }
        return topic.toString();
    }

    /** Records whose bytes cannot be decoded: stage {@code deserialize}, reason UNDECODABLE. */
    public static final class Deserialization implements DeserializationExceptionHandler {

        private String deadLetterTopic;

        @Override
        public void configure(Map<String, ?> configs) {
            deadLetterTopic = deadLetterTopic(configs);
        }

        @Override
        public Response handleError(
                ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
            if (SchemaRegistryException.unavailableIn(exception)) {
                LOG.error(
                        "Cannot read record {}-{}@{}: the schema registry is unavailable ({}); the stream thread"
                                + " stops and is replaced, resuming from the committed offsets",
                        context.topic(),
                        context.partition(),
                        context.offset(),
                        exception.getMessage());
                return Response.fail();
            }
            LOG.debug(
                    "Dead-lettering undecodable record {}-{}@{}: {}",
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    exception.getMessage());
            return Response.resume(List.of(DeadLetterHeaders.record(
                    Objects.requireNonNull(deadLetterTopic),
                    "deserialize",
                    RejectReason.UNDECODABLE,
                    exception,
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    record.key(),
                    record.value(),
                    record.headers())));
        }
    }

    /**
     * Output the topology cannot write: too large for Kafka (RecordTooLargeException) or not
     * serializable. The input record that produced it goes to the dead letter topic (stage
     * {@code produce}) and processing goes on; retriable errors are retried; anything else fails
     * the task as Kafka's default handler does. Under exactly-once a failed send has already
     * doomed the transaction, so there the topology's input checks (field lengths) are what keep
     * outputs small; this handler covers at-least-once and serialization errors.
     */
    public static final class Production implements ProductionExceptionHandler {

        private String deadLetterTopic;

        @Override
        public void configure(Map<String, ?> configs) {
            deadLetterTopic = deadLetterTopic(configs);
        }

        @Override
        public Response handleError(
                ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
            if (exception instanceof RecordTooLargeException) {
                return Response.resume(List.of(
                        fromSource(context, record.key(), record.value(), RejectReason.OUTPUT_TOO_LARGE, exception)));
            }
            return exception instanceof RetriableException ? Response.retry() : Response.fail();
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Response handleSerializationError(
                ErrorHandlerContext context,
                ProducerRecord record,
                Exception exception,
                SerializationExceptionOrigin origin) {
            if (SchemaRegistryException.unavailableIn(exception)) {
                LOG.error(
                        "Cannot write output of {}-{}@{}: the schema registry is unavailable ({}); the stream"
                                + " thread stops and is replaced, resuming from the committed offsets",
                        context.topic(),
                        context.partition(),
                        context.offset(),
                        exception.getMessage());
                return Response.fail();
            }
            return Response.resume(List.of(fromSource(context, null, null, RejectReason.PROCESSING_ERROR, exception)));
        }

        private ProducerRecord<byte[], byte[]> fromSource(
                ErrorHandlerContext context,
                byte[] outputKey,
                byte[] outputValue,
                RejectReason reason,
                Exception exception) {
            LOG.debug(
                    "Dead-lettering the input of unwritable output {}-{}@{}: {}",
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    exception.getMessage());
            boolean haveSource = context.sourceRawKey() != null || context.sourceRawValue() != null;
            return DeadLetterHeaders.record(
                    Objects.requireNonNull(deadLetterTopic),
                    "produce",
                    reason,
                    exception,
                    String.valueOf(context.topic()),
                    context.partition(),
                    context.offset(),
                    haveSource ? context.sourceRawKey() : outputKey,
                    haveSource ? context.sourceRawValue() : outputValue,
                    context.headers());
        }
    }

    /**
     * Records a processor rejected or failed on: stage {@code process}, reason from a
     * {@link RejectedRecordException}, else PROCESSING_ERROR.
     */
    public static final class Processing implements ProcessingExceptionHandler {

        private String deadLetterTopic;

        @Override
        public void configure(Map<String, ?> configs) {
            deadLetterTopic = deadLetterTopic(configs);
        }

        @Override
        public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
            RejectReason reason = exception instanceof RejectedRecordException rejected
                    ? rejected.reason()
                    : RejectReason.PROCESSING_ERROR;
            if (reason == RejectReason.PROCESSING_ERROR) {
                LOG.warn(
                        "Processor {} failed on record {}-{}@{}; it goes to the dead letter topic {}",
                        context.processorNodeId(),
                        context.topic(),
                        context.partition(),
                        context.offset(),
                        deadLetterTopic,
                        exception);
            } else {
                LOG.debug(
                        "Dead-lettering record {}-{}@{}: {} {}",
                        context.topic(),
                        context.partition(),
                        context.offset(),
                        reason,
                        exception.getMessage());
            }
            return Response.resume(List.of(DeadLetterHeaders.record(
                    Objects.requireNonNull(deadLetterTopic),
                    "process",
                    reason,
                    exception,
                    context.topic(),
                    context.partition(),
                    context.offset(),
                    context.sourceRawKey(),
                    context.sourceRawValue(),
                    context.headers())));
        }
    }
}
