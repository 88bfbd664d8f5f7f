package io.apiary.ingest.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.serde.KafkaAvroSerializer;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The producer example of docs/gateway-developers.md (its bytes on the real stack: JavaRegistryClientIT). */
class GatewayProducerExampleTest {

    @Test
    void should_produce_to_the_telemetry_topic_keyed_by_hive() {
        TelemetryReading reading = new TelemetryReading(
                "3627", "gw-17", SensorType.LIGHT, "default", Instant.parse("2024-05-01T12:00:00Z"), 12000.0, "lx", 5L);

        ProducerRecord<String, TelemetryReading> record = GatewayProducerExample.toRecord(reading);

        assertThat(record.topic()).isEqualTo(Topics.TELEMETRY);
        assertThat(record.key()).isEqualTo("3627");
        assertThat(record.value()).isEqualTo(reading);
    }

    @Test
    void should_ask_for_every_replica_idempotence_and_the_registry_serializer_without_registering() {
        assertThat(GatewayProducerExample.producerSettings("b:9092", "http://r:8081"))
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true)
                .containsEntry("bootstrap.servers", "b:9092")
                .containsEntry("value.serializer", KafkaAvroSerializer.class.getName())
                .containsEntry("schema.registry.url", "http://r:8081")
                .containsEntry("auto.register.schemas", false);
    }

    @Test
    void should_give_settings_the_serializer_accepts() {
        Map<String, Object> settings = new HashMap<>();
        GatewayProducerExample.producerSettings("b:9092", "http://r:8081")
                .forEach((name, value) -> settings.put((String) name, value));

        new KafkaAvroSerializer<TelemetryReading>().configure(settings, false); // throws if a setting is wrong
    }
}
