package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.TelemetryReading;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PassThroughTopologyTest {

    private static final String APPLICATION_ID = "bench-pass-through";

    @TempDir
    Path stateDir;

    private final Topics topics = Topics.defaults(); // single-object encoding: no registry needed
    private final BenchWorkload workload = new BenchWorkload(3, 4, ShardStrategy.TIME);

    private Properties properties() {
        Properties properties = new Properties();
        properties.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return properties;
    }

    @Test
    void each_gateway_record_reaches_its_output_topic_unchanged_with_its_key() {
        Properties properties = properties();
        try (TopologyTestDriver driver =
                new TopologyTestDriver(PassThroughTopology.build(topics, APPLICATION_ID, properties), properties)) {
            TelemetryReading reading = workload.reading(4);
            EntranceCount sample = workload.entranceCountAfter(0);
            input(driver, topics.telemetryTopic()).pipeInput(reading.getHiveId(), reading);
            input(driver, topics.entranceCountsTopic()).pipeInput(sample.getHiveId(), sample);

            TestOutputTopic<String, TelemetryReading> readings = output(driver, topics.telemetryTopic());
            TestOutputTopic<String, EntranceCount> samples = output(driver, topics.entranceCountsTopic());
            assertThat(readings.readRecordsToList())
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(reading.getHiveId(), reading));
            assertThat(samples.readRecordsToList())
                    .extracting(TestRecord::key, TestRecord::value)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(sample.getHiveId(), sample));
        }
    }

    @Test
    void it_has_a_source_and_a_sink_per_gateway_topic_and_no_state_store() {
        Topology topology = PassThroughTopology.build(topics, APPLICATION_ID, properties());
        String description = topology.describe().toString();
        assertThat(description)
                .contains(
                        "telemetry-source",
                        "telemetry-sink",
                        "entrance-counts-source",
                        "entrance-counts-sink",
                        PassThroughTopology.outputTopic(APPLICATION_ID, topics.telemetry()),
                        PassThroughTopology.outputTopic(APPLICATION_ID, topics.entranceCounts()))
                .doesNotContain("Processor:", "stores: [");
        assertThat(topology.describe().subtopologies()).hasSize(2);
    }

    @Test
    void output_topics_are_named_under_the_application_id_so_they_go_with_its_internal_topics() {
        assertThat(PassThroughTopology.outputTopic(APPLICATION_ID, "t.hive.telemetry.v1"))
                .startsWith(APPLICATION_ID + "-")
                .isEqualTo(APPLICATION_ID + "-t.hive.telemetry.v1" + PassThroughTopology.OUTPUT_SUFFIX);
    }

    private static <V> TestInputTopic<String, V> input(TopologyTestDriver driver, Topic<String, V> topic) {
        return driver.createInputTopic(
                topic.name(), topic.keySerde().serializer(), topic.valueSerde().serializer());
    }

    private static <V> TestOutputTopic<String, V> output(TopologyTestDriver driver, Topic<String, V> topic) {
        return driver.createOutputTopic(
                PassThroughTopology.outputTopic(APPLICATION_ID, topic.name()),
                topic.keySerde().deserializer(),
                topic.valueSerde().deserializer());
    }
}
