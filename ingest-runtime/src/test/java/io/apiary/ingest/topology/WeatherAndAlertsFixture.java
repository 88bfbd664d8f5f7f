package io.apiary.ingest.topology;

import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.StreamsProperties;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.AgentAlert;
import io.apiary.schema.AgentAlertRow;
import io.apiary.schema.AgentAlertsPartitionKey;
import io.apiary.schema.AlertSeverity;
import io.apiary.schema.WeatherReading;
import io.apiary.schema.WeatherReadingRow;
import io.apiary.schema.WeatherReadingsPartitionKey;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * A TopologyTestDriver over the real topology and Streams settings for the weather and alert
 * streams, with a fixed validation wall clock ({@link #NOW}) so the 2021 test data is not expired.
 */
final class WeatherAndAlertsFixture implements AutoCloseable {

    /** The driver's state folder (its RocksDB stores), deleted by {@link #close()}. */
    private final java.nio.file.Path stateDir =
            java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "apiary-ttd-wa-" + System.nanoTime());

    /** The wall clock of the validation checks: 2021-07-20T00:00:00Z. */
    static final long NOW = Instant.parse("2021-07-20T00:00:00Z").toEpochMilli();

    final Topics topics;
    final TopologyTestDriver driver;
    final TestInputTopic<String, WeatherReading> weather;
    final TestInputTopic<String, AgentAlert> alerts;
    final TestOutputTopic<WeatherReadingsPartitionKey, WeatherReadingRow> weatherRows;
    final TestOutputTopic<AgentAlertsPartitionKey, AgentAlertRow> alertRows;
    final TestOutputTopic<byte[], byte[]> deadLetter;

    WeatherAndAlertsFixture(Map<String, Object> overrides) {
        IngestConfig config = ConfigLoader.load(null, Map.of(), singleObject(overrides));
        topics = config.topics();
        Properties props = StreamsProperties.from(config);
        props.put("state.dir", stateDir.toString());
        driver = new TopologyTestDriver(
                IngestTopology.build(TopologySettings.from(config, () -> NOW)), props, Instant.ofEpochMilli(NOW));
        weather = input(topics.weatherTopic());
        alerts = input(topics.alertsTopic());
        weatherRows = output(topics.weatherRowsTopic());
        alertRows = output(topics.alertRowsTopic());
        deadLetter =
                driver.createOutputTopic(topics.deadLetter(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private <K, V> TestInputTopic<K, V> input(Topic<K, V> topic) {
        return driver.createInputTopic(
                topic.name(), topic.keySerde().serializer(), topic.valueSerde().serializer());
    }

    private <K, V> TestOutputTopic<K, V> output(Topic<K, V> topic) {
        return driver.createOutputTopic(
                topic.name(),
                topic.keySerde().deserializer(),
                topic.valueSerde().deserializer());
    }

    /** A reading with temperature and humidity only. */
    static WeatherReading reading(String station, String time, double temperatureC) {
        return WeatherReading.newBuilder()
                .setStationId(station)
                .setReadingTime(Instant.parse(time))
                .setTemperatureC(temperatureC)
                .setRelativeHumidity(55.0)
                .build();
    }

    static AgentAlert alert(String agent, String hive, String time, String type) {
        return new AgentAlert(
                agent, hive, Instant.parse(time), null, AlertSeverity.WARNING, type, "details of " + type);
    }

    @Override
    public void close() {
        driver.close();
        try {
            org.apache.kafka.common.utils.Utils.delete(stateDir.toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("could not delete " + stateDir, e);
        }
    }

    /** Tests of the topology's logic run without a registry: single-object encoding, unless overridden. */
    static Map<String, Object> singleObject(Map<String, ?> overrides) {
        Map<String, Object> settings = new java.util.HashMap<>();
        settings.put(io.apiary.ingest.serde.RegistrySettings.WIRE_FORMAT_WRITE, "single-object");
        settings.putAll(overrides);
        return settings;
    }
}
