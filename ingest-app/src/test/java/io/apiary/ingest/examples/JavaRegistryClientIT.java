package io.apiary.ingest.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A Java gateway and analyst with plain Kafka clients and this project's registry-aware serdes set
 * by class name ({@code io.apiary.ingest.serde.KafkaAvroSerializer} / {@code KafkaAvroDeserializer}),
 * with the settings of {@link GatewayProducerExample}: the gateway produces readings and entrance counts
 * in registry framing to the pipeline's topics, looking up the subjects the pipeline registered
 * ({@code auto.register.schemas=false}); the pipeline writes the readings to Cassandra and the hourly
 * results; the analyst reads the results back, read committed.
 */
class JavaRegistryClientIT {

    private static final int HIVES = RegistryClientChecks.HIVES;
    private static final int SAMPLES = RegistryClientChecks.SAMPLES;
    private static final Instant HOUR = Instant.parse("2021-07-15T10:00:00Z");

    private static int beesIn(int hive, int sample) {
        return (hive * 7 + sample * 3) % 13;
    }

    private static int beesOut(int hive, int sample) {
        return (hive * 5 + sample * 2) % 11;
    }

    @Test
    void a_java_gateway_and_analyst_write_and_read_the_topics_by_class_name_with_exact_sums() throws Exception {
        IngestConfig config = ItPipelineSettings.of(
                "java-client",
                Map.of(
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                        5_000L,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS,
                        1_000L));
        Topics topics = config.topics();
        String bootstrap = String.join(",", config.getList(IngestConfig.KAFKA_BOOTSTRAP_SERVERS));
        String registryUrl = config.getString(RegistrySettings.REGISTRY_URL);

        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session); // registers the subjects the gateway looks up
            try (Pipeline pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry())) {
                produce(bootstrap, registryUrl, topics);

                Map<String, HourlyActivity> hours = consume(bootstrap, registryUrl, topics.hourlyActivity());

                assertThat(hours).hasSize(HIVES);
                for (int h = 0; h < HIVES; h++) {
                    String hive = "java-" + h;
                    long entries = 0;
                    long exits = 0;
                    for (int s = 0; s < SAMPLES; s++) {
                        entries += beesIn(h, s);
                        exits += beesOut(h, s);
                    }
                    HourlyActivity hour = hours.get(hive);
                    assertThat(hour).as("hourly result of %s: %s", hive, hours).isNotNull();
                    assertThat(hour.getWindowStart()).isEqualTo(HOUR);
                    assertThat(hour.getEntries()).as(hive).isEqualTo(entries);
                    assertThat(hour.getExits()).as(hive).isEqualTo(exits);
                    assertThat(hour.getSamples()).as(hive).isEqualTo(SAMPLES);
                }
                RegistryClientChecks.assertTelemetryRows(session, config);
            }
        }
    }

    private static void produce(String bootstrap, String registryUrl, Topics topics) throws Exception {
        Properties settings = GatewayProducerExample.producerSettings(bootstrap, registryUrl);
        try (KafkaProducer<String, Object> producer = new KafkaProducer<>(settings)) {
            for (int h = 0; h < HIVES; h++) {
                String hive = "java-" + h;
                for (int s = 0; s < SAMPLES; s++) {
                    Instant time = HOUR.plus(Duration.ofMinutes(5L * s));
                    producer.send(new ProducerRecord<>(
                            topics.telemetry(),
                            hive,
                            TelemetryReading.newBuilder()
                                    .setHiveId(hive)
                                    .setGatewayId("java-gw")
                                    .setSensorType(SensorType.TEMPERATURE)
                                    .setSensorId("brood")
                                    .setReadingTime(time)
                                    .setValue(30 + h + s / 10.0)
                                    .setUnit("degC")
                                    .setSequenceNumber((long) s)
                                    .build()));
                    producer.send(new ProducerRecord<>(
                            topics.entranceCounts(),
                            hive,
                            EntranceCount.newBuilder()
                                    .setHiveId(hive)
                                    .setGatewayId("java-gw")
                                    .setEventTime(time)
                                    .setBeesIn(beesIn(h, s))
                                    .setBeesOut(beesOut(h, s))
                                    .setIntervalSeconds(300)
                                    .build()));
                }
            }
            producer.flush();
        }
    }

    private static Map<String, HourlyActivity> consume(String bootstrap, String registryUrl, String topic) {
        Properties settings = new Properties();
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "java-analyst-" + UUID.randomUUID());
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "io.apiary.ingest.serde.KafkaAvroDeserializer");
        settings.put("schema.registry.url", registryUrl);
        settings.put("specific.avro.value.type", HourlyActivity.class.getName());
        Map<String, HourlyActivity> hours = new HashMap<>();
        try (KafkaConsumer<String, HourlyActivity> consumer = new KafkaConsumer<>(settings)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (hours.size() < HIVES && System.nanoTime() - deadline < 0) {
                for (ConsumerRecord<String, HourlyActivity> record : consumer.poll(Duration.ofSeconds(1))) {
                    assertThat(record.key()).isEqualTo(record.value().getHiveId());
                    HourlyActivity previous = hours.put(record.key(), record.value());
                    assertThat(previous)
                            .as("a second result for %s: %s", record.key(), record.value())
                            .isNull();
                }
            }
        }
        return hours;
    }
}
