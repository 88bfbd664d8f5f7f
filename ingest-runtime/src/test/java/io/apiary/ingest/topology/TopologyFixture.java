package io.apiary.ingest.topology;

import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.StreamsProperties;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HiveActivityPartitionKey;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/** A TopologyTestDriver over the real topology and the real Streams settings. */
final class TopologyFixture implements AutoCloseable {

    /** The driver's state folder (its RocksDB stores), deleted by {@link #close()}. */
    private final java.nio.file.Path stateDir =
            java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "apiary-ttd-" + System.nanoTime());

    final IngestConfig config;
    final Topics topics;
    final TopologyTestDriver driver;
    final TestInputTopic<String, TelemetryReading> telemetry;
    final TestInputTopic<String, EntranceCount> counts;
    final TestInputTopic<byte[], byte[]> rawTelemetry;
    final TestOutputTopic<HiveTelemetryPartitionKey, HiveTelemetryRow> telemetryRows;
    final TestOutputTopic<HiveActivityPartitionKey, HourlyActivity> activityRows;
    final TestOutputTopic<String, HourlyActivity> hourly;
    final TestOutputTopic<byte[], byte[]> deadLetter;
    final TestOutputTopic<String, EntranceCount> late;
    final TestInputTopic<byte[], byte[]> rawCounts;
    /** The wall clock of both the validation checks and the driver's punctuation, ms. */
    final AtomicLong wallClock = new AtomicLong(DEFAULT_WALL_CLOCK.toEpochMilli());
    /** How far the validation clock moves each time it is read, ms (0: it stands still). */
    final AtomicLong clockTickPerRead = new AtomicLong();

    /** Where the fixture's wall clock starts: after every event time the tests use. */
    static final Instant DEFAULT_WALL_CLOCK = Instant.parse("2021-08-01T00:00:00Z");

    TopologyFixture(Map<String, Object> overrides) {
        this(overrides, DEFAULT_WALL_CLOCK);
    }

    /**
     * @param overrides settings over the defaults
     * @param wallClockStart where the wall clock of the checks and of the driver starts
     */
    TopologyFixture(Map<String, Object> overrides, Instant wallClockStart) {
        this(overrides, wallClockStart, InputLag.SYNCHRONOUS);
    }

    /**
     * @param overrides      settings over the defaults
     * @param wallClockStart where the wall clock of the checks and of the driver starts
     * @param inputLag       what the quiet rule is told of the input partition's lag
     */
    TopologyFixture(Map<String, Object> overrides, Instant wallClockStart, InputLag inputLag) {
        wallClock.set(wallClockStart.toEpochMilli());
        config = ConfigLoader.load(null, Map.of(), singleObject(overrides));
        topics = config.topics();
        Properties props = StreamsProperties.from(config);
        props.put("state.dir", stateDir.toString());
        driver = new TopologyTestDriver(
                IngestTopology.build(TopologySettings.from(config, () -> wallClock.getAndAdd(clockTickPerRead.get()))
                        .withInputLag(inputLag)),
                props,
                Instant.ofEpochMilli(wallClock.get()));
        telemetry = input(topics.telemetryTopic());
        counts = input(topics.entranceCountsTopic());
        rawTelemetry =
                driver.createInputTopic(topics.telemetry(), new ByteArraySerializer(), new ByteArraySerializer());
        telemetryRows = output(topics.telemetryRowsTopic());
        activityRows = output(topics.activityRowsTopic());
        hourly = output(topics.hourlyActivityTopic());
        late = output(topics.activityLateTopic());
        rawCounts =
                driver.createInputTopic(topics.entranceCounts(), new ByteArraySerializer(), new ByteArraySerializer());
        deadLetter =
                driver.createOutputTopic(topics.deadLetter(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private <K, V> TestInputTopic<K, V> input(Topic<K, V> topic) {
        return driver.createInputTopic(
                topic.name(), topic.keySerde().serializer(), topic.valueSerde().serializer());
    }

    private <K, V> TestOutputTopic<K, V> output(Topic<K, V> topic) {
        return driver.createOutputTopic(
                topic.name(),
                topic.keySerde().deserializer(),
                topic.valueSerde().deserializer());
    }

    /** Makes the global Micrometer registry count (without a registry its meters are no-ops). */
    static synchronized void countMetrics() {
        if (io.micrometer.core.instrument.Metrics.globalRegistry.getRegistries().isEmpty()) {
            io.micrometer.core.instrument.Metrics.addRegistry(
                    new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
        }
    }

    /**
     * @param name counter name
     * @param tags counter tags, as name/value pairs
     * @return its count in the global registry
     */
    static double counter(String name, String... tags) {
        countMetrics();
        return io.micrometer.core.instrument.Metrics.globalRegistry
                .counter(name, tags)
                .count();
    }

    /** @return the wall clock of the checks, without moving it */
    Instant wallClockNow() {
        return Instant.ofEpochMilli(wallClock.get());
    }

    /**
     * Moves the wall clock of the checks and of the driver's punctuation on together, in one step: to
     * the quiet rule, a step longer than the update interval is a stall of the stream thread.
     */
    void advanceWallClock(Duration by) {
        wallClock.addAndGet(by.toMillis());
        driver.advanceWallClockTime(by);
    }

    /**
     * Moves the wall clock on as a running stream thread sees it: in steps of {@code tick} (the last one
     * shorter), each running the punctuation that is due.
     */
    void runFor(Duration total, Duration tick) {
        for (Duration left = total; !left.isZero(); ) {
            Duration step = left.compareTo(tick) < 0 ? left : tick;
            advanceWallClock(step);
            left = left.minus(step);
        }
    }

    static TelemetryReading reading(String hive, SensorType type, String time, double value) {
        return reading(
                hive,
                type,
                time,
                value,
                switch (type) {
                    case HUMIDITY -> "%RH";
                    case WEIGHT -> "kg";
                    case BATTERY -> "V";
                    case SOUND_LEVEL -> "dB";
                    case CO2 -> "ppm";
                    default -> "degC";
                });
    }

    static TelemetryReading reading(String hive, SensorType type, String time, double value, String unit) {
        return new TelemetryReading(hive, "gw-1", type, "default", Instant.parse(time), value, unit, null);
    }

    static EntranceCount sample(String hive, String time, int in, int out) {
        return new EntranceCount(hive, "gw-1", Instant.parse(time), in, out, 60);
    }

    @Override
    public void close() {
        driver.close();
        try {
            org.apache.kafka.common.utils.Utils.delete(stateDir.toFile());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("could not delete " + stateDir, e);
        }
    }

    /** Tests of the topology's logic run without a registry: single-object encoding, unless overridden. */
    static Map<String, Object> singleObject(Map<String, ?> overrides) {
        Map<String, Object> settings = new java.util.HashMap<>();
        settings.put(io.apiary.ingest.serde.RegistrySettings.WIRE_FORMAT_WRITE, "single-object");
        settings.putAll(overrides);
        return settings;
    }
}
