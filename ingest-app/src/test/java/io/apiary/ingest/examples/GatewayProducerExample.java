package io.apiary.ingest.examples;

import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * How a hive gateway produces a reading (quoted in docs/gateway-developers.md; compiled and tested
 * so that it cannot rot, and its settings run on the real stack in {@code JavaRegistryClientIT}).
 * Needs kafka-clients, the module {@code io.apiary:ingest-runtime} (the serializer and the class
 * generated from {@code schemas/TelemetryReading.avsc}), and a schema registry where the pipeline
 * has registered the topics' subjects.
 *
 * <p>Usage: {@code GatewayProducerExample [bootstrap servers] [registry URL]}, defaults
 * {@code localhost:9092} and {@code http://localhost:8081}.
 */
public final class GatewayProducerExample {

    private GatewayProducerExample() {}

    /**
     * Produces one temperature reading of hive 3627.
     *
     * @param args optional: bootstrap servers, registry URL
     * @throws Exception if Kafka does not acknowledge the record
     */
    public static void main(String[] args) throws Exception {
        String bootstrapServers = args.length > 0 ? args[0] : "localhost:9092";
        String registryUrl = args.length > 1 ? args[1] : "http://localhost:8081";
        try (KafkaProducer<String, TelemetryReading> producer =
                new KafkaProducer<>(producerSettings(bootstrapServers, registryUrl))) {
            TelemetryReading reading = TelemetryReading.newBuilder()
                    .setHiveId("3627")
                    .setGatewayId("gw-17")
                    .setSensorType(SensorType.TEMPERATURE)
                    .setSensorId("brood") // since version 3; "default" if left out
                    .setReadingTime(Instant.now()) // UTC instant; stored as milliseconds
                    .setValue(34.6)
                    .setUnit("degC")
                    .setSequenceNumber(1L) // optional since version 2; may be null
                    .build();
            producer.send(toRecord(reading)).get(); // a real gateway would send asynchronously
        }
    }

    /**
     * @param bootstrapServers Kafka brokers, host:port, comma-separated
     * @param registryUrl      the schema registry (Confluent's REST API), e.g. Apicurio's
     *                         {@code http://host:8080/apis/ccompat/v7}
     * @return producer settings: every replica acknowledges, retries cannot duplicate or reorder;
     *         values in registry framing under the subjects the pipeline registered
     */
    static Properties producerSettings(String bootstrapServers, String registryUrl) {
        Properties settings = new Properties();
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        settings.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, "io.apiary.ingest.serde.KafkaAvroSerializer");
        settings.put("schema.registry.url", registryUrl);
        settings.put("auto.register.schemas", false); // the pipeline registers the subjects
        return settings;
    }

    /**
     * @param reading a reading, not null
     * @return the record: topic hive.telemetry.v1, key the hive id (UTF-8), value the reading
     */
    static ProducerRecord<String, TelemetryReading> toRecord(TelemetryReading reading) {
        return new ProducerRecord<>("hive.telemetry.v1", reading.getHiveId(), reading);
    }
}
