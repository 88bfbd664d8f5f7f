package io.apiary.ingest.examples;

import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * How a hive gateway produces a reading (quoted in docs/gateway-developers.md;
 * compiled and tested so that it cannot rot). Needs kafka-clients and avro, and the class
 * generated from {@code schemas/TelemetryReading.avsc} by avro-maven-plugin (or any Avro code
 * generator).
 *
 * <p>Usage: {@code GatewayProducerExample [bootstrap servers]}, default {@code localhost:9092}.
 */
public final class GatewayProducerExample {

    private GatewayProducerExample() {}

    /**
     * Produces one temperature reading of hive 3627.
     *
     * @param args optional: bootstrap servers
     * @throws Exception if Kafka does not acknowledge the record
     */
    public static void main(String[] args) throws Exception {
        String bootstrapServers = args.length > 0 ? args[0] : "localhost:9092";
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                producerSettings(bootstrapServers), new StringSerializer(), new ByteArraySerializer())) {
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
     * @return producer settings: every replica acknowledges, retries cannot duplicate or reorder
     */
    static Properties producerSettings(String bootstrapServers) {
        Properties settings = new Properties();
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return settings;
    }

    /**
     * @param reading a reading, not null
     * @return the record: topic hive.telemetry.v1, key the hive id (UTF-8, by StringSerializer),
     *         value the reading in Avro single-object encoding
     * @throws IOException if the reading cannot be encoded
     */
    static ProducerRecord<String, byte[]> toRecord(TelemetryReading reading) throws IOException {
        ByteBuffer encoded = TelemetryReading.getEncoder().encode(reading); // C3 01, fingerprint, body
        byte[] value = new byte[encoded.remaining()];
        encoded.get(value);
        return new ProducerRecord<>("hive.telemetry.v1", reading.getHiveId(), value);
    }
}
