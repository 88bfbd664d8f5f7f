package io.apiary.ingest.dump;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Formats one Kafka record as one line of JSON (no line break inside), for {@code ingest-app dump}:
 * <pre>
 * {"topic":"hive.activity.hourly.v1","partition":0,"offset":42,"timestamp":1626307200000,
 *  "key":"3627","value":{"hive_id":"3627",...}}
 * </pre>
 * <ul>
 *   <li>{@code timestamp}: the Kafka record timestamp, milliseconds since 1970-01-01T00:00:00Z.</li>
 *   <li>{@code key}: a text key as a JSON string; an Avro key as its Avro JSON encoding; null stays null.</li>
 *   <li>{@code value}: the Avro JSON encoding of the value (Avro specification, "JSON Encoding":
 *       {@code timestamp-millis} as a number of milliseconds, a non-null union branch wrapped as
 *       {@code {"long": 17}}), read with any kept schema version and shown in the current one;
 *       null (a tombstone) stays null.</li>
 *   <li>{@code headers}: only when the record has headers, as an array of {@code {"key", "value"}}
 *       (value as UTF-8 text) or {@code {"key", "value_base64"}} when it is not UTF-8 text.</li>
 *   <li>Raw topics (the dead letter topic): {@code key_base64} and {@code value_base64} with the
 *       bytes (standard Base64), and the headers (the reason, message, source topic, partition and
 *       offset, and the original record's own, such as an import's run and lines). Where the source
 *       topic is one of the pipeline's and the bytes decode with its serdes, also {@code key} and
 *       {@code value} as above; where they do not, {@code value_error} says why.</li>
 *   <li>A record that cannot be decoded: {@code error} (why), {@code key_base64} and
 *       {@code value_base64}.</li>
 * </ul>
 * Immutable and thread-safe if the topic's deserializers are (the pipeline's are).
 */
public final class RecordJsonFormatter {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Topic<?, ?> topic;
    /** For the dead letter topic: the pipeline's topics by name, to decode a copy by its source topic. */
    private final Map<String, Topic<?, ?>> sources;

    private RecordJsonFormatter(Topic<?, ?> topic, Map<String, Topic<?, ?>> sources) {
        this.topic = topic;
        this.sources = sources;
    }

    /**
     * A formatter that decodes keys and values with the topic's serdes.
     *
     * @param topic the topic with its key and value serdes, not null
     * @return the formatter
     */
    public static RecordJsonFormatter decoding(Topic<?, ?> topic) {
        return new RecordJsonFormatter(Objects.requireNonNull(topic, "topic"), Map.of());
    }

    /**
     * The formatter for one of the pipeline's topics: the dead letter topic raw, the others
     * decoded with their Avro types.
     *
     * @param topics the pipeline's topics (names as configured), not null
     * @param name   a topic name, not null
     * @return the formatter, or empty if {@code name} is none of {@code topics}
     */
    public static Optional<RecordJsonFormatter> forTopic(Topics topics, String name) {
        if (!topics.all().contains(name)) {
            return Optional.empty(); // before any serde: naming a wrong topic needs no registry settings
        }
        Map<String, Topic<?, ?>> byName = new java.util.HashMap<>();
        for (Topic<?, ?> topic : List.of(
                topics.telemetryTopic(),
                topics.entranceCountsTopic(),
                topics.hourlyActivityTopic(),
                topics.telemetryRowsTopic(),
                topics.activityRowsTopic(),
                topics.activityLateTopic(),
                topics.weatherTopic(),
                topics.alertsTopic(),
                topics.weatherRowsTopic(),
                topics.alertRowsTopic())) {
            byName.put(topic.name(), topic);
        }
        if (name.equals(topics.deadLetter())) {
            return Optional.of(new RecordJsonFormatter(null, Map.copyOf(byName)));
        }
        return Optional.ofNullable(byName.get(name)).map(RecordJsonFormatter::decoding);
    }

    /**
     * A formatter that prints keys and values as Base64 bytes, with the headers (for the dead
     * letter topic, whose keys and values are the original, possibly undecodable, bytes).
     *
     * @return the formatter
     */
    public static RecordJsonFormatter raw() {
        return new RecordJsonFormatter(null, Map.of());
    }

    /**
     * Formats one record. Never fails on the record's content: what cannot be decoded is
     * printed with an {@code error} field and its bytes.
     *
     * @param record a record as consumed with byte-array deserializers, not null
     * @return one line of JSON, without line break
     */
    public String format(ConsumerRecord<byte[], byte[]> record) {
        ObjectNode line = JSON.createObjectNode();
        line.put("topic", record.topic());
        line.put("partition", record.partition());
        line.put("offset", record.offset());
        line.put("timestamp", record.timestamp());
        if (topic == null) {
            putRaw(line, record);
            putSourceRecord(line, record);
            putHeaders(line, record);
            return line.toString();
        }
        try {
            JsonNode key = toJson(topic.keySerde().deserializer().deserialize(record.topic(), record.key()));
            JsonNode value = toJson(topic.valueSerde().deserializer().deserialize(record.topic(), record.value()));
            line.set("key", key);
            line.set("value", value);
        } catch (RuntimeException e) {
            line.put("error", e.getMessage() == null ? e.toString() : e.getMessage());
            putRaw(line, record);
        }
        putHeaders(line, record);
        return line.toString();
    }

    /** A dead letter copy's key and value decoded with its source topic's serdes, where they decode. */
    private void putSourceRecord(ObjectNode line, ConsumerRecord<byte[], byte[]> record) {
        String sourceName = DeadLetterHeaders.text(record.headers(), DeadLetterHeaders.SOURCE_TOPIC);
        Topic<?, ?> source = sourceName == null ? null : sources.get(sourceName);
        if (source == null || record.value() == null) {
            return;
        }
        try {
            JsonNode key = toJson(source.keySerde().deserializer().deserialize(sourceName, record.key()));
            JsonNode value = toJson(source.valueSerde().deserializer().deserialize(sourceName, record.value()));
            line.set("key", key);
            line.set("value", value);
        } catch (RuntimeException e) {
            line.put("value_error", e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    private static void putRaw(ObjectNode line, ConsumerRecord<byte[], byte[]> record) {
        line.put("key_base64", base64(record.key()));
        line.put("value_base64", base64(record.value()));
    }

    private static void putHeaders(ObjectNode line, ConsumerRecord<byte[], byte[]> record) {
        if (!record.headers().iterator().hasNext()) {
            return;
        }
        ArrayNode headers = line.putArray("headers");
        for (Header header : record.headers()) {
            ObjectNode h = headers.addObject();
            h.put("key", header.key());
            String text = utf8(header.value());
            if (header.value() == null || text != null) {
                h.put("value", text);
            } else {
                h.put("value_base64", base64(header.value()));
            }
        }
    }

    private static String base64(byte[] bytes) {
        return bytes == null ? null : Base64.getEncoder().encodeToString(bytes);
    }

    /** @return the bytes as strict UTF-8 text, or null when null or not UTF-8 */
    private static String utf8(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /**
     * @param decoded a decoded key or value: null, text, or a generated Avro record
     * @return its JSON: null, a string, or the Avro JSON encoding of the record
     * @throws IllegalArgumentException for another type (a serde this class does not know)
     */
    static JsonNode toJson(Object decoded) {
        if (decoded == null) {
            return JSON.nullNode();
        }
        if (decoded instanceof CharSequence text) {
            return JSON.getNodeFactory().textNode(text.toString());
        }
        if (decoded instanceof SpecificRecord avro) {
            return readTree(avroJson(avro));
        }
        throw new IllegalArgumentException(
                "Cannot print a " + decoded.getClass().getName() + " as JSON");
    }

    /** Avro's own JSON encoding of a record, with the logical-type conversions of its class. */
    static byte[] avroJson(SpecificRecord avro) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            SpecificDatumWriter<SpecificRecord> writer =
                    new SpecificDatumWriter<>(avro.getSchema(), SpecificData.getForSchema(avro.getSchema()));
            JsonEncoder encoder = EncoderFactory.get().jsonEncoder(avro.getSchema(), out);
            writer.write(avro, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + avro.getSchema().getName() + " as Avro JSON", e);
        }
    }

    private static JsonNode readTree(byte[] json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("Avro JSON is not JSON: " + e.getMessage(), e);
        }
    }
}
