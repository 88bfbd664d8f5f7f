package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.testing.RandomCases;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AvroSingleObjectSerdeTest {

    private final AvroSingleObjectSerde<TelemetryReading> serde = AvroSingleObjectSerde.of(TelemetryReading.class);
    private final TelemetryReading reading = new TelemetryReading(
            "3627",
            "gw-1",
            SensorType.TEMPERATURE,
            "default",
            Instant.parse("2021-06-19T00:04:58Z"),
            26.24,
            "degC",
            null);

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
        byte[] otherType = AvroSingleObjectSerde.of(EntranceCount.class)
                .encode(new EntranceCount("3627", "gw-1", Instant.EPOCH, 1, 2, 60));

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
        TelemetryReading broken =
                new TelemetryReading(null, "gw-1", SensorType.TEMPERATURE, "default", Instant.EPOCH, 1.0, "degC", null);

        assertThatThrownBy(() -> serde.encode(broken))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Cannot encode TelemetryReading");
    }

    // Schema evolution: data written with any kept version is read (see schemas/README.md).

    private static final List<Schema> TELEMETRY_VERSIONS =
            SchemaVersions.load("TelemetryReading", AvroSingleObjectSerdeTest.class.getClassLoader());

    private static Schema telemetryV1() {
        return TELEMETRY_VERSIONS.get(0);
    }

    private static byte[] encodeGeneric(Schema writer, GenericRecord record) throws IOException {
        ByteBuffer buffer = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    @Test
    void should_keep_versions_1_and_2_and_write_the_current_version_3_of_telemetry_reading() {
        assertThat(TELEMETRY_VERSIONS).hasSize(3);
        // The generated class's schema carries avro.java.string properties: compare canonical forms.
        assertThat(SchemaNormalization.parsingFingerprint64(TELEMETRY_VERSIONS.get(2)))
                .isEqualTo(SchemaNormalization.parsingFingerprint64(TelemetryReading.getClassSchema()));
        assertThat(telemetryV1().getField("sequence_number")).isNull();
        assertThat(TELEMETRY_VERSIONS.get(1).getField("sensor_id")).isNull();
    }

    @Test
    void should_read_a_version_2_reading_with_the_default_sensor_id_and_let_a_version_2_reader_skip_it()
            throws IOException {
        Schema v2 = TELEMETRY_VERSIONS.get(1);
        GenericRecord old = new GenericRecordBuilder(v2)
                .set("hive_id", "3627")
                .set("gateway_id", "gw-2")
                .set(
                        "sensor_type",
                        new GenericData.EnumSymbol(v2.getField("sensor_type").schema(), "TEMPERATURE"))
                .set("reading_time", Instant.parse("2021-06-19T00:04:58Z").toEpochMilli())
                .set("value", 34.5)
                .set("unit", "degC")
                .set("sequence_number", 7L)
                .build();
        assertThat(serde.decode(encodeGeneric(v2, old)).getSensorId()).isEqualTo("default");

        TelemetryReading current = new TelemetryReading(
                "3627",
                "gw-3",
                SensorType.TEMPERATURE,
                "brood",
                Instant.parse("2021-06-19T00:04:58Z"),
                34.5,
                "degC",
                8L);
        byte[] bytes = serde.encode(current);
        org.apache.avro.message.BinaryMessageDecoder<GenericRecord> v2Reader =
                new org.apache.avro.message.BinaryMessageDecoder<>(GenericData.get(), v2);
        v2Reader.addSchema(TelemetryReading.getClassSchema());
        GenericRecord seenByV2 = v2Reader.decode(bytes);
        assertThat(seenByV2.get("value")).isEqualTo(34.5);
        assertThat(seenByV2.getSchema().getField("sensor_id")).isNull();
    }

    @Test
    void should_read_a_reading_written_with_version_1_into_the_current_class_with_the_new_field_defaulted()
            throws IOException {
        GenericRecord v1 = new GenericRecordBuilder(telemetryV1())
                .set("hive_id", "3627")
                .set("gateway_id", "gw-old")
                .set(
                        "sensor_type",
                        new GenericData.EnumSymbol(
                                telemetryV1().getField("sensor_type").schema(), "CO2"))
                .set("reading_time", Instant.parse("2021-06-19T00:04:58Z").toEpochMilli())
                .set("value", 412.0)
                .set("unit", "ppm")
                .build();

        TelemetryReading read = serde.decode(encodeGeneric(telemetryV1(), v1));

        assertThat(read)
                .isEqualTo(new TelemetryReading(
                        "3627",
                        "gw-old",
                        SensorType.CO2,
                        "default",
                        Instant.parse("2021-06-19T00:04:58Z"),
                        412.0,
                        "ppm",
                        null));
        assertThat(read.getSequenceNumber()).isNull();
    }

    @Test
    void should_let_a_version_1_reader_read_a_version_2_reading_with_a_new_sensor_type_as_unknown() throws IOException {
        TelemetryReading v2 = new TelemetryReading(
                "3627",
                "gw-new",
                SensorType.VIBRATION,
                "default",
                Instant.parse("2024-05-01T12:00:00Z"),
                3.5,
                "mm/s",
                17L);
        byte[] bytes = serde.encode(v2);

        BinaryMessageDecoder<GenericRecord> v1Reader = new BinaryMessageDecoder<>(GenericData.get(), telemetryV1());
        v1Reader.addSchema(TelemetryReading.getClassSchema());
        GenericRecord read = v1Reader.decode(bytes, null);

        assertThat(read.getSchema()).isEqualTo(telemetryV1());
        assertThat(read.get("sensor_type")).hasToString("UNKNOWN");
        assertThat(read.get("hive_id")).hasToString("3627");
        assertThat(read.get("reading_time"))
                .isEqualTo(Instant.parse("2024-05-01T12:00:00Z").toEpochMilli());
        assertThat(read.get("value")).isEqualTo(3.5);
        assertThat(read.hasField("sequence_number")).isFalse();
    }

    static Stream<Arguments> randomV1Readings() {
        List<String> v1Symbols = telemetryV1().getField("sensor_type").schema().getEnumSymbols();
        return RandomCases.cases(random -> new Object[] {
            RandomCases.letters(random, 1 + random.nextInt(12)),
            RandomCases.letters(random, random.nextInt(8)),
            v1Symbols.get(random.nextInt(v1Symbols.size())),
            random.nextLong(0, 253_402_300_800_000L),
            random.nextDouble(-1e6, 1e6),
            RandomCases.letters(random, random.nextInt(5))
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("randomV1Readings")
    void should_read_every_version_1_reading_as_the_same_current_reading(
            String seed, String hive, String gateway, String sensor, long millis, double value, String unit)
            throws IOException {
        GenericRecord v1 = new GenericRecordBuilder(telemetryV1())
                .set("hive_id", hive)
                .set("gateway_id", gateway)
                .set(
                        "sensor_type",
                        new GenericData.EnumSymbol(
                                telemetryV1().getField("sensor_type").schema(), sensor))
                .set("reading_time", millis)
                .set("value", value)
                .set("unit", unit)
                .build();

        assertThat(serde.decode(encodeGeneric(telemetryV1(), v1)))
                .isEqualTo(new TelemetryReading(
                        hive,
                        gateway,
                        SensorType.valueOf(sensor),
                        "default",
                        Instant.ofEpochMilli(millis),
                        value,
                        unit,
                        null));
    }

    static Stream<Arguments> randomV2Readings() {
        SensorType[] types = SensorType.values();
        return RandomCases.cases(random -> new Object[] {
            types[random.nextInt(types.length)],
            random.nextBoolean() ? null : random.nextLong(0, Long.MAX_VALUE),
            random.nextLong(0, 253_402_300_800_000L)
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("randomV2Readings")
    void should_let_a_version_1_reader_read_every_version_2_reading(
            String seed, SensorType type, Long sequence, long millis) throws IOException {
        byte[] bytes = serde.encode(
                new TelemetryReading("h", "gw", type, "default", Instant.ofEpochMilli(millis), 1.0, "u", sequence));
        BinaryMessageDecoder<GenericRecord> v1Reader = new BinaryMessageDecoder<>(GenericData.get(), telemetryV1());
        v1Reader.addSchema(TelemetryReading.getClassSchema());

        GenericRecord read = v1Reader.decode(bytes, null);

        List<String> v1Symbols = telemetryV1().getField("sensor_type").schema().getEnumSymbols();
        assertThat(read.get("sensor_type")).hasToString(v1Symbols.contains(type.name()) ? type.name() : "UNKNOWN");
        assertThat(read.get("reading_time")).isEqualTo(millis);
    }

    @org.junit.jupiter.api.Test
    void a_corrupt_length_prefix_fails_the_record_instead_of_allocating_gigabytes() {
        // a valid header, then hive_id's length as 2,000,000,000 (zigzag varint), then one byte
        byte[] valid = serde.encode(
                new TelemetryReading("h", "g", SensorType.WEIGHT, "default", Instant.EPOCH, 1.0, "kg", null));
        java.io.ByteArrayOutputStream bomb = new java.io.ByteArrayOutputStream();
        bomb.write(valid, 0, 10);
        long zigzag = 2_000_000_000L << 1;
        while ((zigzag & ~0x7FL) != 0) {
            bomb.write((int) ((zigzag & 0x7F) | 0x80));
            zigzag >>>= 7;
        }
        bomb.write((int) zigzag);
        bomb.write('x');

        assertThat(bomb.size()).isLessThan(20);
        assertThatThrownBy(() -> serde.decode(bomb.toByteArray()))
                .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class);
        // the limit Avro applies is the serde's 1 MiB, not Avro's default of about 2 GiB
        assertThatThrownBy(() -> org.apache.avro.SystemLimitException.checkMaxStringLength(
                        AvroSingleObjectSerde.MAX_VALUE_BYTES + 1L))
                .isInstanceOf(org.apache.avro.SystemLimitException.class);
    }
}
