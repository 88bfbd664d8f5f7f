package io.apiary.ingest.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.junit.jupiter.api.Test;

/** What a partition's consumer lag and the topology's input buffer tell the quiet rule. */
class InputProgressTest {

    private static final TopicPartition PARTITION = new TopicPartition("hive.activity.v1", 0);

    private final InputProgress progress = new InputProgress();
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
    private final Consumer<byte[], byte[]> tracked = progress.tracked(consumer);

    private void records(long first, long last, long end) {
        consumer.assign(List.of(PARTITION));
        consumer.updateBeginningOffsets(Map.of(PARTITION, 0L));
        consumer.updateEndOffsets(Map.of(PARTITION, end));
        for (long offset = first; offset <= last; offset++) {
            consumer.addRecord(new ConsumerRecord<>(PARTITION.topic(), 0, offset, new byte[0], new byte[0]));
        }
    }

    @Test
    void a_thread_whose_consumer_never_polled_is_not_caught_up() {
        assertThat(progress.caughtUp(PARTITION)).isFalse();
    }

    @Test
    void caught_up_once_everything_that_was_there_at_the_last_question_was_polled_and_handled() {
        records(0, 9, 10);
        assertThat(tracked.poll(Duration.ZERO)).hasSize(10);
        assertThat(progress.caughtUp(PARTITION))
                .as("the first question notes the end only")
                .isFalse();

        progress.handled(PARTITION, 8);
        assertThat(progress.caughtUp(PARTITION)).as("one record still buffered").isFalse();
        progress.handled(PARTITION, 9);
        assertThat(progress.caughtUp(PARTITION)).isTrue();
    }

    @Test
    void records_appended_since_the_last_question_do_not_count_so_steady_traffic_is_caught_up() {
        records(0, 9, 10);
        tracked.poll(Duration.ZERO);
        progress.handled(PARTITION, 9);
        progress.caughtUp(PARTITION); // notes end 10

        for (long offset = 10; offset < 15; offset++) {
            consumer.addRecord(new ConsumerRecord<>(PARTITION.topic(), 0, offset, new byte[0], new byte[0]));
        }
        consumer.updateEndOffsets(Map.of(PARTITION, 15L));
        assertThat(tracked.poll(Duration.ZERO)).hasSize(5);
        assertThat(progress.caughtUp(PARTITION))
                .as("all 10 records there at the last question handled; 5 newer ones buffered")
                .isTrue();
        assertThat(progress.caughtUp(PARTITION))
                .as("those 5 were there at the last question and still wait")
                .isFalse();
        progress.handled(PARTITION, 14);
        assertThat(progress.caughtUp(PARTITION)).isTrue();
    }

    @Test
    void records_not_fetched_yet_are_lag() {
        records(0, 4, 10);
        tracked.poll(Duration.ZERO);
        progress.handled(PARTITION, 4);
        progress.caughtUp(PARTITION);
        assertThat(progress.caughtUp(PARTITION)).as("5 records on the broker").isFalse();
    }

    @Test
    void another_thread_does_not_see_this_threads_consumer() throws Exception {
        records(0, 0, 1);
        tracked.poll(Duration.ZERO);
        progress.handled(PARTITION, 0);
        progress.caughtUp(PARTITION);
        AtomicBoolean elsewhere = new AtomicBoolean(true);
        Thread other = new Thread(() -> elsewhere.set(progress.caughtUp(PARTITION)));
        other.start();
        other.join();
        assertThat(elsewhere).isFalse();
        assertThat(progress.caughtUp(PARTITION)).isTrue();
    }

    @Test
    void a_record_that_cannot_be_read_is_handled_once_it_is_dead_lettered() {
        records(0, 2, 3);
        tracked.poll(Duration.ZERO);
        progress.handled(PARTITION, 1);
        progress.caughtUp(PARTITION);
        InputProgress.DeserializationFailures handler = new InputProgress.DeserializationFailures();
        handler.configure(Map.of(
                StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, "dlq", InputProgress.CONFIG_KEY, progress));
        assertThat(progress.caughtUp(PARTITION)).as("record 2 waits").isFalse();

        DeserializationExceptionHandler.Response response = handler.handleError(
                context(2),
                new ConsumerRecord<>(PARTITION.topic(), 0, 2, new byte[0], "x".getBytes(StandardCharsets.UTF_8)),
                new IllegalArgumentException("not Avro"));

        assertThat(response.result()).isEqualTo(DeserializationExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).hasSize(1);
        assertThat(progress.caughtUp(PARTITION)).isTrue();
    }

    private static ErrorHandlerContext context(long offset) {
        return new ErrorHandlerContext() {
            @Override
            public String topic() {
                return PARTITION.topic();
            }

            @Override
            public int partition() {
                return PARTITION.partition();
            }

            @Override
            public long offset() {
                return offset;
            }

            @Override
            public org.apache.kafka.common.header.Headers headers() {
                return new RecordHeaders();
            }

            @Override
            public String processorNodeId() {
                return "entrance-counts-source";
            }

            @Override
            public org.apache.kafka.streams.processor.TaskId taskId() {
                return new org.apache.kafka.streams.processor.TaskId(0, 0);
            }

            @Override
            public long timestamp() {
                return 0;
            }

            @Override
            public byte[] sourceRawKey() {
                return new byte[0];
            }

            @Override
            public byte[] sourceRawValue() {
                return new byte[0];
            }
        };
    }
}
