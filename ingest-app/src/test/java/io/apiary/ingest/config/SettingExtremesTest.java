package io.apiary.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.partitionsize.PlanSettings;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.pipeline.StreamsProperties;
import io.apiary.ingest.pipeline.TopicProvisioner;
import io.apiary.ingest.read.ReadSettings;
import io.apiary.ingest.service.ServiceSettings;
import io.apiary.ingest.sink.RetryBackoff;
import io.apiary.ingest.sink.RowRateLimiter;
import io.apiary.ingest.sink.SinkSettings;
import io.apiary.ingest.topology.IngestTopology;
import io.apiary.ingest.topology.TopologySettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numeric setting of the definition at its extremes ({@link NumericSettings}: 0, 1, -1, its least and
 * greatest valid values and one beyond each, its type's bounds, a seeded random value inside): a value the
 * definition accepts loads and every component that reads a setting is built from it and does its
 * arithmetic (the sink's, the topology's with its processors, the service's, the registry client's, the
 * read path's and the planner's settings; the Kafka Streams, consumer and producer properties through
 * Kafka's own validation; the topics to create), without an overflow or an exception; a value it refuses is
 * refused at load naming the setting and the value. A setting added to the definition is swept with no
 * change here.
 */
class SettingExtremesTest {

    static Stream<Arguments> extremes() {
        return NumericSettings.all().stream()
                .flatMap(setting -> setting.values().stream().map(value -> Arguments.of(setting.name(), value)));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("extremes")
    void should_build_every_component_from_a_value_it_loads_and_name_the_setting_when_refused(
            String name, String value) {
        IngestConfig config;
        try {
            config = ConfigLoader.load(null, Map.of(), NumericSettings.withBase(name, value));
        } catch (ConfigException refused) {
            assertThat(refused.getMessage())
                    .as("the refusal of %s=%s", name, value)
                    .contains(name)
                    .contains(value);
            return;
        }
        buildEveryComponent(config);
    }

    @Test
    void should_sweep_every_numeric_setting_of_the_definition_with_its_bounds_and_beyond() {
        List<NumericSettings.Extremes> all = NumericSettings.all();

        assertThat(all)
                .extracting(NumericSettings.Extremes::name)
                .contains(
                        IngestConfig.ACTIVITY_GRACE_MS,
                        IngestConfig.SINK_DRAIN_TIMEOUT_MS,
                        IngestConfig.sinkTableTtl(IngestConfig.SINK_TABLES.get(0)),
                        "read.page.size",
                        "sink.hot.skew",
                        "http.port");
        for (NumericSettings.Extremes setting : all) {
            boolean decimal = setting.max() instanceof Double;
            assertThat(setting.values())
                    .as(setting.name())
                    .containsAll(decimal ? List.of("0.0", "1.0", "-1.0", "NaN", "Infinity") : List.of("0", "1", "-1"))
                    .contains(String.valueOf(setting.max()), String.valueOf(setting.min()));
        }
    }

    @Test
    void should_find_the_documented_range_of_a_narrowed_setting() {
        NumericSettings.Extremes grace = find(IngestConfig.ACTIVITY_GRACE_MS);
        NumericSettings.Extremes drain = find(IngestConfig.SINK_DRAIN_TIMEOUT_MS);
        NumericSettings.Extremes batchBytes = find(IngestConfig.SINK_BATCH_MAX_BYTES);

        assertThat(grace.min()).isEqualTo(0L);
        assertThat(grace.max()).isEqualTo(IngestConfig.ACTIVITY_GRACE_MAX_MS);
        assertThat(drain.max()).isEqualTo(IngestConfig.MAX_WAIT_MS);
        assertThat(batchBytes.min()).isEqualTo(100L);
        assertThat(batchBytes.max()).isEqualTo(IngestConfig.SINK_BATCH_MAX_BYTES_LIMIT);
        assertThat(batchBytes.values()).contains("-1", "99", "268435457", String.valueOf(Long.MAX_VALUE));
    }

    @Test
    void should_say_the_allowed_range_when_a_wait_is_beyond_a_day() {
        assertThatThrownBy(() -> ConfigLoader.load(
                        null, Map.of(), Map.of(IngestConfig.SINK_RETRY_BACKOFF_MAX_MS, String.valueOf(Long.MAX_VALUE))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(IngestConfig.SINK_RETRY_BACKOFF_MAX_MS)
                .hasMessageContaining(String.valueOf(Long.MAX_VALUE))
                .hasMessageContaining("86400000");
    }

    @Test
    void should_refuse_at_load_a_hot_partition_window_shorter_than_twice_the_linger_naming_both() {
        assertThatThrownBy(() -> ConfigLoader.load(
                        null, Map.of(), Map.of(IngestConfig.SINK_LINGER_MS, "60000", "sink.hot.window.ms", "119999")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("sink.hot.window.ms (119999) must be at least twice sink.linger.ms (60000)");
        assertThat(ConfigLoader.load(
                                null,
                                Map.of(),
                                Map.of(IngestConfig.SINK_LINGER_MS, "60000", "sink.hot.enabled", "false"))
                        .getLong(IngestConfig.SINK_LINGER_MS))
                .isEqualTo(60_000L);
    }

    private static NumericSettings.Extremes find(String name) {
        return NumericSettings.all().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /**
     * Builds what reads each numeric setting, as {@code run}, {@code query} and {@code partitions plan} do,
     * and does the arithmetic they do with it at run time (deadlines on the nanosecond clock, the retry
     * backoff's doublings, the rate limiter's waits).
     */
    private static void buildEveryComponent(IngestConfig config) {
        long now = System.nanoTime();

        SinkSettings sink = SinkSettings.from(config);
        for (Duration wait :
                List.of(sink.linger(), sink.commitInterval(), sink.drainTimeout(), sink.retryBackoffMax())) {
            Math.addExact(now, wait.toNanos());
        }
        RetryBackoff backoff = new RetryBackoff(sink.retryBackoff(), sink.retryBackoffMax());
        for (int attempt = 1; attempt <= 100; attempt++) {
            long delay = backoff.delayNanos(attempt, bound -> bound - 1);
            assertThat(delay).isBetween(0L, sink.retryBackoffMax().toNanos());
            Math.addExact(now, delay);
        }
        RowRateLimiter limiter = new RowRateLimiter(sink.maxRowsPerSecond(), now);
        limiter.tryAcquire(sink.batchMaxRows(), now);
        assertThat(limiter.nanosUntilAvailable(now)).isNotNegative();
        Map<String, Object> consumer = Pipeline.sinkConsumerSettings(config, sink);
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        new ConsumerConfig(consumer);
        Map<String, Object> producer = Pipeline.sinkProducerSettings(config);
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        new ProducerConfig(producer);
        for (String table : IngestConfig.SINK_TABLES) {
            Pipeline.tableOptions(config, table);
        }

        TopologySettings topology = TopologySettings.from(config);
        // builds the processors too: Kafka Streams asks each supplier for an instance to check it
        IngestTopology.build(topology);
        Properties streams = StreamsProperties.from(config);
        new StreamsConfig(streams);
        Math.addExact(now, topology.updateInterval().toNanos());

        ServiceSettings service = ServiceSettings.from(config);
        for (Duration wait : List.of(service.sinkStall(), service.livenessTimeout(), service.shutdownTimeout())) {
            Math.addExact(now, wait.toNanos());
        }
        service.shutdownCutsDrain(sink.drainTimeout(), Duration.ofSeconds(10));

        config.wireFormat();
        for (String topic : config.topics().all()) {
            TopicProvisioner.newTopic(topic, config);
        }
        ReadSettings.from(config);
        PlanSettings.from(config, Map.of());
    }
}
