package io.apiary.ingest.dump;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.serde.SchemaVersions;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Base64;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class RecordJsonFormatterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Topics topics = Topics.defaults();
    private final HourlyActivity hour = new HourlyActivity(
            "3627",
            LocalDate.parse("2021-07-15"),
            17,
            Instant.parse("2021-07-15T17:00:00Z"),
            Instant.parse("2021-07-15T18:00:00Z"),
            2315L,
            2457L,
            60,
            0,
            io.apiary.schema.ResultTiming.ON_TIME,
            0);

    private static ConsumerRecord<byte[], byte[]> record(
            String topic, byte[] key, byte[] value, RecordHeaders headers) {
        return new ConsumerRecord<>(
                topic,
                2,
                42L,
                1_626_372_000_123L,
                TimestampType.LOG_APPEND_TIME,
                key == null ? -1 : key.length,
                value == null ? -1 : value.length,
                key,
                value,
                headers,
                Optional.empty());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private JsonNode format(String topic, byte[] key, byte[] value, RecordHeaders headers) throws Exception {
        String line =
                RecordJsonFormatter.forTopic(topics, topic).orElseThrow().format(record(topic, key, value, headers));
        assertThat(line).doesNotContain("\n");
        return JSON.readTree(line);
    }

    @Test
    void should_print_an_hourly_result_as_one_json_line_in_avro_json_encoding() throws Exception {
        byte[] value = AvroSingleObjectSerde.of(HourlyActivity.class).encode(hour);

        String line = RecordJsonFormatter.forTopic(topics, Topics.HOURLY_ACTIVITY)
                .orElseThrow()
                .format(record(Topics.HOURLY_ACTIVITY, utf8("3627"), value, new RecordHeaders()));

        assertThat(JSON.readTree(line)).isEqualTo(JSON.readTree("""
                {"topic":"hive.activity.hourly.v1","partition":2,"offset":42,"timestamp":1626372000123,
                 "key":"3627",
                 "value":{"hive_id":"3627","day":18823,"hour":17,"window_start":1626368400000,
                          "window_end":1626372000000,"entries":2315,"exits":2457,"samples":60,"revision":0,"timing":"ON_TIME","pane_index":0}}
                """));
    }

    @Test
    void should_print_a_union_the_avro_json_way_and_read_a_version_1_reading_in_the_current_schema() throws Exception {
        byte[] v2 = AvroSingleObjectSerde.of(TelemetryReading.class)
                .encode(new TelemetryReading(
                        "3627", "gw", SensorType.VIBRATION, "frame-3", Instant.ofEpochMilli(1000), 3.5, "mm/s", 17L));
        Schema v1Schema = SchemaVersions.load("TelemetryReading", getClass().getClassLoader())
                .get(0);
        GenericRecord v1 = new GenericRecordBuilder(v1Schema)
                .set("hive_id", "3627")
                .set("gateway_id", "gw")
                .set(
                        "sensor_type",
                        new GenericData.EnumSymbol(
                                v1Schema.getField("sensor_type").schema(), "WEIGHT"))
                .set("reading_time", 2000L)
                .set("value", 41.5)
                .set("unit", "kg")
                .build();
        ByteBuffer v1Bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1Schema).encode(v1);

        JsonNode newer =
                format(Topics.TELEMETRY, utf8("3627"), v2, new RecordHeaders()).get("value");
        JsonNode older = format(Topics.TELEMETRY, utf8("3627"), v1Bytes.array(), new RecordHeaders())
                .get("value");

        assertThat(newer.get("sensor_type").asText()).isEqualTo("VIBRATION");
        assertThat(newer.get("sequence_number")).isEqualTo(JSON.readTree("{\"long\":17}"));
        assertThat(newer.get("reading_time").asLong()).isEqualTo(1000);
        assertThat(older.get("sensor_type").asText()).isEqualTo("WEIGHT");
        assertThat(older.get("sequence_number").isNull()).isTrue();
        assertThat(newer.get("sensor_id").asText()).isEqualTo("frame-3");
        assertThat(older.get("sensor_id").asText())
                .as("a version 1 reading's default")
                .isEqualTo("default");
    }

    @Test
    void should_print_an_avro_key_as_json_and_a_tombstone_as_null() throws Exception {
        byte[] key =
                AvroSingleObjectSerde.of(HiveActivityPartitionKey.class).encode(new HiveActivityPartitionKey("3627"));

        JsonNode line = format(Topics.ACTIVITY_ROWS, key, null, new RecordHeaders());

        assertThat(line.get("key")).isEqualTo(JSON.readTree("{\"hive_id\":\"3627\"}"));
        assertThat(line.get("value").isNull()).isTrue();
        assertThat(line.has("error")).isFalse();
    }

    @Test
    void should_print_an_undecodable_record_with_the_error_and_its_bytes() throws Exception {
        byte[] garbage = utf8("{\"hive\":\"3627\"}");

        JsonNode line = format(Topics.HOURLY_ACTIVITY, utf8("3627"), garbage, new RecordHeaders());

        assertThat(line.get("error").asText())
                .contains("Neither registry framing (byte 0, a 4-byte schema id) nor single-object encoding (C3 01)");
        assertThat(Base64.getDecoder().decode(line.get("value_base64").asText()))
                .isEqualTo(garbage);
        assertThat(Base64.getDecoder().decode(line.get("key_base64").asText())).isEqualTo(utf8("3627"));
        assertThat(line.has("value")).isFalse();
        assertThat(line.get("offset").asLong()).isEqualTo(42);
    }

    @Test
    void should_print_dead_letters_raw_with_their_headers() throws Exception {
        RecordHeaders headers = new RecordHeaders();
        headers.add("apiary.dlq.reason", utf8("UNDECODABLE"));
        headers.add("binary", new byte[] {(byte) 0xC3, 0x28});
        headers.add("empty", null);

        JsonNode line = format(Topics.DEAD_LETTER, utf8("k"), new byte[] {1, 2, 3}, headers);

        assertThat(line.get("key_base64").asText()).isEqualTo("aw==");
        assertThat(line.get("value_base64").asText()).isEqualTo("AQID");
        assertThat(line.get("headers")).isEqualTo(JSON.readTree("""
                [{"key":"apiary.dlq.reason","value":"UNDECODABLE"},
                 {"key":"binary","value_base64":"wyg="},
                 {"key":"empty","value":null}]
                """));
        assertThat(line.has("key")).isFalse();
    }

    @Test
    void should_know_only_the_pipeline_topics() {
        assertThat(RecordJsonFormatter.forTopic(topics, "hive.unknown.v1")).isEmpty();
        assertThat(RecordJsonFormatter.forTopic(
                        new Topics(
                                "a",
                                "b",
                                "c",
                                "d",
                                "e",
                                "f",
                                "g",
                                "h",
                                "i",
                                "j",
                                "k",
                                io.apiary.ingest.serde.WireFormat::singleObject),
                        "c"))
                .isPresent();
    }
}
