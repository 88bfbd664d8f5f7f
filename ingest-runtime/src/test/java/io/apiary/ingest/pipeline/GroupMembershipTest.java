package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.sink.SinkSettings;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class GroupMembershipTest {

    private static IngestConfig config(Map<String, Object> settings) {
        return ConfigLoader.load(null, Map.of(), settings);
    }

    private static Object mainConsumerInstanceId(Properties streams, int thread) {
        return new StreamsConfig(streams)
                .getMainConsumerConfigs("group", "client", thread)
                .get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }

    @Test
    void should_make_each_stream_thread_a_static_member_that_stays_on_close_when_an_instance_id_is_set() {
        Properties streams =
                StreamsProperties.from(config(Map.of(GroupMembership.INSTANCE_ID, "apiary-ingest-topology-0")));

        assertThat(mainConsumerInstanceId(streams, 1)).isEqualTo("apiary-ingest-topology-0-1");
        assertThat(mainConsumerInstanceId(streams, 2)).isEqualTo("apiary-ingest-topology-0-2");
        assertThat(GroupMembership.onClose(streams)).isEqualTo(GroupMembershipOperation.REMAIN_IN_GROUP);
    }

    @Test
    void should_leave_the_group_on_close_when_the_topology_has_no_instance_id() {
        Properties streams = StreamsProperties.from(config(Map.of()));

        assertThat(mainConsumerInstanceId(streams, 1)).isNull();
        assertThat(GroupMembership.onClose(streams)).isEqualTo(GroupMembershipOperation.LEAVE_GROUP);
    }

    @Test
    void should_count_a_passed_through_group_instance_id_as_static_when_closing_the_topology() {
        Properties streams = StreamsProperties.from(config(Map.of("streams.main.consumer.group.instance.id", "pod-3")));

        assertThat(mainConsumerInstanceId(streams, 1)).isEqualTo("pod-3-1");
        assertThat(GroupMembership.onClose(streams)).isEqualTo(GroupMembershipOperation.REMAIN_IN_GROUP);
    }

    @Test
    void should_give_the_sink_consumer_the_instance_id_as_is_when_one_is_set() {
        IngestConfig config = config(Map.of(GroupMembership.INSTANCE_ID, "sink-0"));

        assertThat(Pipeline.sinkConsumerSettings(config, SinkSettings.from(config)))
                .containsEntry(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "sink-0");
    }

    @Test
    void should_keep_the_sink_consumer_dynamic_when_no_instance_id_is_set() {
        IngestConfig config = config(Map.of());

        assertThat(Pipeline.sinkConsumerSettings(config, SinkSettings.from(config)))
                .doesNotContainKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    }

    @Test
    void should_refuse_an_instance_id_kafka_would_refuse_naming_the_option() {
        assertThatThrownBy(() -> config(Map.of(GroupMembership.INSTANCE_ID, "pod/0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(GroupMembership.INSTANCE_ID)
                .hasMessageContaining("letters, digits");
    }
}
