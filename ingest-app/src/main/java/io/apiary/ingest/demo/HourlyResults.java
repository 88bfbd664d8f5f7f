package io.apiary.ingest.demo;

import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.serde.AvroWireSerde;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The hourly results topic as an analyst reads it: every committed result, the newest of each
 * (hive, hour) by {@code pane_index} replacing the earlier ones, checked against the samples sent.
 * Immutable once read; thread-safe.
 *
 * @param results     committed results read, in the order read
 * @param newest      per (hive, hour), its newest result
 * @param corrections results with a {@code pane_index} above 0: each replaced an earlier one
 */
public record HourlyResults(List<HourlyActivity> results, Map<Hour, HourlyActivity> newest, long corrections) {

    /**
     * One hive's UTC hour.
     *
     * @param hive      the hive id, not null
     * @param hourStart start of the hour, ms since the epoch
     */
    public record Hour(String hive, long hourStart) {
        /** @return the hour of a sample's event time */
        public static Hour of(EntranceCount sample) {
            return new Hour(
                    sample.getHiveId(),
                    HourBucket.hourStart(sample.getEventTime().toEpochMilli()));
        }

        /** @return the hour of a result */
        public static Hour of(HourlyActivity result) {
            return new Hour(result.getHiveId(), result.getWindowStart().toEpochMilli());
        }

        @Override
        public String toString() {
            return hive + "@" + Instant.ofEpochMilli(hourStart);
        }
    }

    /**
     * Sums of an hour's samples.
     *
     * @param entries sum of bees_in
     * @param exits   sum of bees_out
     * @param samples how many samples
     */
    public record Sums(long entries, long exits, long samples) {
        /** @return the sums of one sample */
        public static Sums of(EntranceCount sample) {
            return new Sums(sample.getBeesIn(), sample.getBeesOut(), 1);
        }

        /** @return the sums of a result */
        public static Sums of(HourlyActivity result) {
            return new Sums(result.getEntries(), result.getExits(), result.getSamples());
        }

        /** @return both sums added */
        public Sums plus(Sums other) {
            return new Sums(entries + other.entries, exits + other.exits, samples + other.samples);
        }
    }

    /** Copies the collections. */
    public HourlyResults {
        results = List.copyOf(results);
        newest = Map.copyOf(newest);
    }

    /**
     * Reads every committed result of the hourly topic, up to its end offsets when the read began.
     *
     * @param config  names the topic, the Kafka clients' settings and the wire format, not null
     * @param timeout longest time the read may take
     * @return the results
     * @throws IllegalStateException if the end is not reached within {@code timeout}
     */
    public static HourlyResults read(IngestConfig config, Duration timeout) {
        Map<String, Object> settings = new HashMap<>(config.kafkaClientSettings());
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        AvroWireSerde<HourlyActivity> serde = config.wireFormat().serde(HourlyActivity.class, false);
        List<HourlyActivity> results = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer
                    .partitionsFor(config.topics().hourlyActivity())
                    .stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + config.topics().hourlyActivity() + " took longer than "
                            + timeout.toSeconds() + " s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    results.add(serde.decode(r.value()));
                }
            }
        }
        Map<Hour, HourlyActivity> newest = new HashMap<>();
        long corrections = 0;
        for (HourlyActivity r : results) {
            newest.merge(Hour.of(r), r, (a, b) -> b.getPaneIndex() > a.getPaneIndex() ? b : a);
            if (r.getPaneIndex() > 0) {
                corrections++;
            }
        }
        return new HourlyResults(results, newest, corrections);
    }

    /**
     * @param most how many at most
     * @return up to {@code most} corrected hours, each as {@code hive@hour-start (S1 then S2 samples)}: its
     *     first result's sample count, then its newest's
     */
    public List<String> correctedExamples(int most) {
        Map<Hour, HourlyActivity> first = new HashMap<>();
        for (HourlyActivity r : results) {
            if (r.getPaneIndex() == 0) {
                first.put(Hour.of(r), r);
            }
        }
        return newest.entrySet().stream()
                .filter(e -> e.getValue().getPaneIndex() > 0)
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(Hour::toString)))
                .limit(most)
                .map(e -> e.getKey() + " ("
                        + (first.containsKey(e.getKey()) ? first.get(e.getKey()).getSamples() : 0) + " then "
                        + e.getValue().getSamples() + " samples)")
                .toList();
    }

    /** @return (hive, hour) with more than one result: corrected after they were first published */
    public long correctedHours() {
        return newest.values().stream().filter(r -> r.getPaneIndex() > 0).count();
    }

    /**
     * @param sent per (hive, hour), the sums of the samples sent, not null
     * @return the hours whose newest result differs from what was sent, or that have no result, or
     *         have a result but no sample sent; empty when every hour is exact
     */
    public List<Hour> inexactHours(Map<Hour, Sums> sent) {
        Objects.requireNonNull(sent);
        List<Hour> wrong = new ArrayList<>();
        sent.forEach((hour, sums) -> {
            HourlyActivity result = newest.get(hour);
            if (result == null || !Sums.of(result).equals(sums)) {
                wrong.add(hour);
            }
        });
        newest.keySet().stream().filter(h -> !sent.containsKey(h)).forEach(wrong::add);
        return wrong;
    }
}
