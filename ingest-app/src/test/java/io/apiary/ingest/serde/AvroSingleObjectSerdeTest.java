package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;

import io.apiary.schema.EntranceCount;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroSingleObjectSerdeTest {

    private final AvroSingleObjectSerde<TelemetryReading> serde = AvroSingleObjectSerde.of(TelemetryReading.class);
    private final TelemetryReading reading = new TelemetryReading("3627", "gw-1", SensorType.TEMPERATURE,
            Instant.parse("2021-06-19T00:04:58Z"), 26.24, "degC");

    @Test
    void should_round_trip_a_reading_in_single_object_encoding() {
        byte[] bytes = serde.encode(reading);

        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);
        assertThat(serde.decode(bytes)).isEqualTo(reading);
    }

    @Test
    void should_map_null_to_null_both_ways() {
        assertThat(serde.encode(null)).isNull();
        assertThat(serde.decode(null)).isNull();
    }

    @Test
    void should_say_the_payload_is_not_single_object_encoded_when_the_marker_is_missing() {
        assertThatThrownBy(() -> serde.decode("{\"hive\":\"3627\"}".getBytes()))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Not Avro single-object encoding");
    }

    @Test
    void should_say_the_writer_schema_is_unknown_when_the_fingerprint_matches_no_kept_version() {
        byte[] otherType = AvroSingleObjectSerde.of(EntranceCount.class).encode(
                new EntranceCount("3627", "gw-1", Instant.EPOCH, 1, 2, 60));

        assertThatThrownBy(() -> serde.decode(otherType))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Unknown writer schema for TelemetryReading");
    }

    @Test
    void should_say_the_body_is_corrupt_when_it_is_truncated() {
        byte[] bytes = serde.encode(reading);
        byte[] truncated = Arrays.copyOf(bytes, 14);

        assertThatThrownBy(() -> serde.decode(truncated))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Corrupt Avro body for TelemetryReading");
    }

    @Test
    void should_refuse_a_record_followed_by_extra_bytes() {
        byte[] bytes = serde.encode(reading);
        byte[] padded = Arrays.copyOf(bytes, bytes.length + 50);

        assertThatThrownBy(() -> serde.decode(padded))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("50 bytes follow the TelemetryReading record");
    }

    @Test
    void should_refuse_to_encode_a_record_with_a_null_in_a_required_field() {
        TelemetryReading broken = new TelemetryReading(null, "gw-1", SensorType.TEMPERATURE, Instant.EPOCH, 1.0, "degC");

        assertThatThrownBy(() -> serde.encode(broken))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Cannot encode TelemetryReading");
    }
}
