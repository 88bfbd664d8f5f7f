package io.apiary.ingest.bench;

import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.simulator.EntranceCountSimulator;
import io.apiary.ingest.topics.Topic;
import io.apiary.schema.EntranceCount;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * One hour of entrance-counter samples from many hives, for the state benchmark: every hive sends
 * a sample every {@code sampleInterval} with event times from {@code hourStart} to just before the
 * hour's end, so that with the samples all in one hour every (hive, hour) stays open and every
 * sample's identity is held until the hour closes: the hourly stores at their largest.
 *
 * <p>Sample number {@code i} (from 0) is round {@code i / hives} of hive {@code i % hives}, sent in
 * that order (every hive's sample of one moment, then the next moment's, as gateways send them).
 * Its event time is {@code hourStart + round x sampleInterval}; its hive id is
 * {@link BenchWorkload#hiveId}, its gateway {@code gw-<hive mod 100>} (as the readings of
 * {@link BenchWorkload}), its counts those of {@link EntranceCountSimulator} for that hive and
 * time. Immutable and thread-safe.
 *
 * @param hives          number of hives, at least 1
 * @param sampleInterval time between two samples of one hive, whole seconds from 1 s to 1 h
 * @param hourStart      start of the hour, on a UTC hour boundary, not null
 */
public record StateWorkload(int hives, Duration sampleInterval, Instant hourStart) {

    /**
     * The default hour: 12:00 solar time at Montreal (UTC-5), when {@link EntranceCountSimulator}
     * counts the most bees, so counts take the bytes they take in the busiest hour.
     */
    public static final Instant HOUR = Instant.parse("2026-11-02T17:00:00Z");

    /** Checks the arguments. */
    public StateWorkload {
        Objects.requireNonNull(sampleInterval, "sampleInterval");
        Objects.requireNonNull(hourStart, "hourStart");
        if (hives < 1) {
            throw new IllegalArgumentException("hives must be at least 1, was " + hives);
        }
        if (sampleInterval.compareTo(Duration.ofSeconds(1)) < 0
                || sampleInterval.compareTo(Duration.ofHours(1)) > 0
                || sampleInterval.toMillis() % 1000 != 0) {
            throw new IllegalArgumentException(
                    "the sample interval must be whole seconds from 1 s to 1 h (3600 s), was " + sampleInterval);
        }
        if (HourBucket.hourStart(hourStart.toEpochMilli()) != hourStart.toEpochMilli()) {
            throw new IllegalArgumentException("hourStart must be the start of a UTC hour, was " + hourStart);
        }
    }

    /** @return samples each hive sends within the hour: 3600 s divided by the interval, rounded up */
    public long samplesPerHive() {
        return -Math.floorDiv(-HourBucket.MILLIS_PER_HOUR, sampleInterval.toMillis());
    }

    /** @return samples of all hives: {@link #hives()} x {@link #samplesPerHive()} */
    public long samples() {
        return hives * samplesPerHive();
    }

    /**
     * @param index sample number, from 0 to {@link #samples()} - 1
     * @return the sample
     * @throws IllegalArgumentException if {@code index} is outside that range
     */
    public EntranceCount sample(long index) {
        if (index < 0 || index >= samples()) {
            throw new IllegalArgumentException("sample " + index + " is outside 0.." + (samples() - 1));
        }
        int hive = (int) (index % hives);
        long round = index / hives;
        String hiveId = BenchWorkload.hiveId(hive);
        EntranceCount counted = new EntranceCountSimulator(sampleInterval, "gw")
                .sample(hiveId, hourStart.toEpochMilli() + round * sampleInterval.toMillis());
        return new EntranceCount(
                hiveId,
                "gw-" + hive % 100,
                counted.getEventTime(),
                counted.getBeesIn(),
                counted.getBeesOut(),
                counted.getIntervalSeconds());
    }

    /**
     * Sends every sample, keyed by hive id (UTF-8) as gateways do, and waits until Kafka
     * acknowledged them.
     *
     * @param kafka Kafka client settings, not null
     * @param topic the entrance-counter topic with its serdes, not null
     * @return records acknowledged
     * @throws KafkaException if Kafka refused a record
     */
    public long send(Map<String, Object> kafka, Topic<String, EntranceCount> topic) {
        return BenchWorkload.send(
                BenchWorkload.producerSettings(kafka),
                samples(),
                i -> {
                    EntranceCount sample = sample(i);
                    return new ProducerRecord<>(
                            topic.name(),
                            sample.getHiveId().getBytes(StandardCharsets.UTF_8),
                            topic.valueSerde().serializer().serialize(topic.name(), sample));
                },
                null);
    }
}
