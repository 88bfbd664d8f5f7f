package io.apiary.ingest.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.time.Instant;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The producer example of docs/gateway-developers.md writes what the pipeline reads. */
class GatewayProducerExampleTest {

    @Test
    void should_produce_to_the_telemetry_topic_keyed_by_hive_in_single_object_encoding() throws Exception {
        TelemetryReading reading = new TelemetryReading(
                "3627", "gw-17", SensorType.LIGHT, "default", Instant.parse("2024-05-01T12:00:00Z"), 12000.0, "lx", 5L);

        ProducerRecord<String, byte[]> record = GatewayProducerExample.toRecord(reading);

        assertThat(record.topic()).isEqualTo(Topics.TELEMETRY);
        assertThat(record.key()).isEqualTo("3627");
        assertThat(AvroSingleObjectSerde.of(TelemetryReading.class).decode(record.value()))
                .isEqualTo(reading);
    }

    @Test
    void should_ask_for_every_replica_and_idempotence() {
        assertThat(GatewayProducerExample.producerSettings("b:9092"))
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true)
                .containsEntry("bootstrap.servers", "b:9092");
    }
}
