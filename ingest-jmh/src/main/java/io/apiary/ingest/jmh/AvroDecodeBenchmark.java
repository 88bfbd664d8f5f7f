package io.apiary.ingest.jmh;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.serde.SchemaVersions;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.TelemetryReading;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.serialization.Deserializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding one record from its wire bytes, per record, in nanoseconds per operation (average time,
 * one thread):
 * <ul>
 *   <li>{@link #sinkTelemetryRow}: one {@code rows.hive_telemetry.v1} value (a
 *       {@link HiveTelemetryRow}, about 59 bytes in Avro single-object encoding) decoded with
 *       {@link AvroSingleObjectSerde#decode}, as the sink's hive_telemetry_v2 table does for every
 *       row it binds. (The sink does not decode the record key: it groups rows by the key's raw
 *       bytes.)</li>
 *   <li>{@link #topologyTelemetryReading}: one {@code hive.telemetry.v1} value (a
 *       {@link TelemetryReading} written with the current schema, v2, about 46 bytes) through the telemetry
 *       topic's value deserializer, as the topology's source does for every gateway record.</li>
 *   <li>{@link #topologyTelemetryReadingV1Writer}: the same for a value written by a gateway still
 *       on schema v1 (no sequence number): Avro resolves the v1 writer schema to the current
 *       class.</li>
 *   <li>{@link #topologyHiveIdKey}: the gateway record's key, the hive id, through the telemetry
 *       topic's key deserializer (strict UTF-8).</li>
 * </ul>
 * Input: 1,024 distinct pre-encoded values of hives {@code hive-N} (N spread over 10,000 hives), the
 * five sensor types and their units, gateways {@code gw-N}; each call takes the next one, round
 * robin. The decoded object is returned, so it cannot be optimised away.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
public class AvroDecodeBenchmark {

    private static final int VALUES = 1_024;
    private static final int MASK = VALUES - 1;

    private AvroSingleObjectSerde<HiveTelemetryRow> rowSerde;
    private String readingTopic;
    private Deserializer<TelemetryReading> readingDeserializer;
    private Deserializer<String> hiveIdDeserializer;

    private final byte[][] rowValues = new byte[VALUES][];
    private final byte[][] readingValues = new byte[VALUES][];
    private final byte[][] readingV1Values = new byte[VALUES][];
    private final byte[][] hiveIdKeys = new byte[VALUES][];
    private int next;

    /** Encodes the inputs with the topics' own serdes (and a v1 writer for the old gateways). */
    @Setup
    public void encode() {
        Topics topics = Topics.defaults();
        Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> rows = topics.telemetryRowsTopic();
        Topic<String, TelemetryReading> readings = topics.telemetryTopic();
        // the sink's own decoder of hive_telemetry_v2 rows in single-object encoding
        rowSerde = AvroSingleObjectSerde.of(HiveTelemetryRow.class);
        readingTopic = readings.name();
        readingDeserializer = readings.valueSerde().deserializer();
        hiveIdDeserializer = readings.keySerde().deserializer();

        Schema v1 = SchemaVersions.load("TelemetryReading", TelemetryReading.class.getClassLoader())
                .get(0);
        BinaryMessageEncoder<GenericRecord> v1Encoder = new BinaryMessageEncoder<>(GenericData.get(), v1);
        for (int i = 0; i < VALUES; i++) {
            int hive = (int) ((i * 7_919L) % TelemetryFeed.HIVES);
            int reading = i;
            rowValues[i] = rows.valueSerde()
                    .serializer()
                    .serialize(rows.name(), TelemetryFeed.row(hive, reading, ShardStrategy.TIME));
            TelemetryReading current = TelemetryFeed.reading(hive, reading);
            readingValues[i] = readings.valueSerde().serializer().serialize(readingTopic, current);
            readingV1Values[i] = encodeV1(v1Encoder, v1, current);
            hiveIdKeys[i] = current.getHiveId().getBytes(StandardCharsets.UTF_8);
        }
        // fail at setup, not in the measurement, if an input does not decode to what was encoded
        for (int i = 0; i < VALUES; i++) {
            TelemetryReading fromV1 = readingDeserializer.deserialize(readingTopic, readingV1Values[i]);
            if (fromV1.getSequenceNumber() != null
                    || !fromV1.getHiveId()
                            .equals(readingDeserializer
                                    .deserialize(readingTopic, readingValues[i])
                                    .getHiveId())) {
                throw new IllegalStateException("v1 and v2 inputs disagree at " + i);
            }
        }
    }

    private static byte[] encodeV1(BinaryMessageEncoder<GenericRecord> encoder, Schema v1, TelemetryReading reading) {
        GenericRecord record = new GenericData.Record(v1);
        record.put("hive_id", reading.getHiveId());
        record.put("gateway_id", reading.getGatewayId());
        record.put(
                "sensor_type",
                new GenericData.EnumSymbol(
                        v1.getField("sensor_type").schema(),
                        reading.getSensorType().name()));
        record.put("reading_time", reading.getReadingTime().toEpochMilli());
        record.put("value", reading.getValue());
        record.put("unit", reading.getUnit());
        try {
            ByteBuffer buffer = encoder.encode(record);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return one row topic value decoded as the sink does before binding */
    @Benchmark
    public HiveTelemetryRow sinkTelemetryRow() {
        return rowSerde.decode(rowValues[next++ & MASK]);
    }

    /** @return one gateway value (schema v2) decoded as the topology's source does */
    @Benchmark
    public TelemetryReading topologyTelemetryReading() {
        return readingDeserializer.deserialize(readingTopic, readingValues[next++ & MASK]);
    }

    /** @return one gateway value written with schema v1, resolved to the current class */
    @Benchmark
    public TelemetryReading topologyTelemetryReadingV1Writer() {
        return readingDeserializer.deserialize(readingTopic, readingV1Values[next++ & MASK]);
    }

    /** @return one gateway record key (hive id) decoded as the topology's source does */
    @Benchmark
    public String topologyHiveIdKey() {
        return hiveIdDeserializer.deserialize(readingTopic, hiveIdKeys[next++ & MASK]);
    }
}
