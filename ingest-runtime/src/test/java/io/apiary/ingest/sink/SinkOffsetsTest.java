package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SinkOffsetsTest {

    private final TopicPartition p0 = new TopicPartition("rows", 0);
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("none");
    private final SinkOffsets offsets = new SinkOffsets(consumer, new SimpleMeterRegistry());

    @BeforeEach
    void assign() {
        consumer.assign(List.of(p0));
        consumer.updateBeginningOffsets(Map.of(p0, 0L));
    }

    @Test
    void should_commit_only_up_to_the_first_unacknowledged_record() {
        consumer.seek(p0, 12);
        offsets.register(p0, 10);
        offsets.register(p0, 11);
        offsets.acknowledge(p0, 11);

        offsets.commit(List.of(p0), true);

        assertThat(consumer.committed(java.util.Set.of(p0))).containsEntry(p0, new OffsetAndMetadata(10));
    }

    @Test
    void should_commit_the_position_past_transaction_markers_when_nothing_is_pending() {
        offsets.register(p0, 10);
        offsets.acknowledge(p0, 10);
        consumer.seek(p0, 12); // offset 11 is a transaction marker the consumer skipped

        offsets.commit(List.of(p0), true);

        assertThat(consumer.committed(java.util.Set.of(p0))).containsEntry(p0, new OffsetAndMetadata(12));
    }
}
