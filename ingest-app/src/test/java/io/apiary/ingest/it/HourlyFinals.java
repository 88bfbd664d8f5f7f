package io.apiary.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.serde.AvroWireSerde;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The hourly results of {@code hive.activity.hourly.v1} as analysts read them (read committed), and
 * the exactness checks of the integration tests: each (hive, hour) once with the sums of the samples
 * sent ({@link #assertExactlyOnce}), or its newest result exact after corrections
 * ({@link #assertNewestExact}). Thread-safe (stateless).
 */
public final class HourlyFinals {

    private HourlyFinals() {}

    /**
     * Every committed final result so far: reads the topic from the start until nothing new arrives
     * for {@code quiet}.
     *
     * @param config the configuration naming the topic and the wire format, not null
     * @param quiet  how long no record must arrive before the read ends
     * @return the finals in the order read
     */
    public static List<HourlyActivity> read(IngestConfig config, Duration quiet) {
        return read(config, quiet, "read_committed");
    }

    /**
     * Every result so far, with the given isolation: reads the topic from the start until nothing new
     * arrives for {@code quiet}.
     *
     * @param config    the configuration naming the topic and the wire format, not null
     * @param quiet     how long no record must arrive before the read ends
     * @param isolation {@code read_committed}, or {@code read_uncommitted} to see open transactions too
     * @return the results in the order read
     */
    public static List<HourlyActivity> read(IngestConfig config, Duration quiet, String isolation) {
        Map<String, Object> settings = new HashMap<>(config.kafkaClientSettings());
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        AvroWireSerde<HourlyActivity> serde = config.wireFormat().serde(HourlyActivity.class, false);
        List<HourlyActivity> finals = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer
                    .partitionsFor(config.topics().hourlyActivity())
                    .stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long idleSince = System.nanoTime();
            while (System.nanoTime() - idleSince < quiet.toNanos()) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    finals.add(serde.decode(r.value()));
                    idleSince = System.nanoTime();
                }
            }
        }
        return finals;
    }

    /**
     * @param hive a hive id
     * @param time a time in the hour
     * @return {@code hive@hour-start}, the key of {@link #sums} and {@link #assertExactlyOnce}
     */
    public static String key(String hive, Instant time) {
        return hive + "@" + Instant.ofEpochMilli(HourBucket.hourStart(time.toEpochMilli()));
    }

    /**
     * Entrance-counter samples as gateways send them: one every 30 s per hive, in time order across
     * the hives, with counts from 0 to 199 drawn from a seeded generator.
     *
     * @param hives   hive ids, not null
     * @param first   the first sample's event time
     * @param perHive samples per hive
     * @param seed    the generator's seed
     * @return {@code hives.size() * perHive} samples
     */
    public static List<EntranceCount> samples(List<String> hives, Instant first, int perHive, long seed) {
        java.util.Random random = new java.util.Random(seed);
        List<EntranceCount> samples = new ArrayList<>();
        for (int i = 0; i < perHive; i++) {
            for (String hive : hives) {
                samples.add(new EntranceCount(
                        hive, "gw", first.plusSeconds(30L * i), random.nextInt(200), random.nextInt(200), 30));
            }
        }
        return samples;
    }

    /**
     * @param prefix       the hive ids' prefix, not null
     * @param partitions   partitions of the gateway topics
     * @param perPartition hives per partition
     * @return hive ids ({@code prefix} and a number) such that each partition receives {@code perPartition} of
     *     them (the producer's partitioner: murmur2 of the key, the hive id)
     */
    public static List<String> hivesCovering(String prefix, int partitions, int perPartition) {
        int[] count = new int[partitions];
        List<String> hives = new ArrayList<>();
        for (int i = 0; hives.size() < partitions * perPartition; i++) {
            String hive = prefix + i;
            int partition = org.apache.kafka.clients.producer.internals.BuiltInPartitioner.partitionForKey(
                    hive.getBytes(java.nio.charset.StandardCharsets.UTF_8), partitions);
            if (count[partition] < perPartition) {
                count[partition]++;
                hives.add(hive);
            }
        }
        return hives;
    }

    /**
     * @param samples samples sent, each once
     * @return per {@link #key (hive, hour)}: entries, exits and samples, as a final should carry them
     */
    public static Map<String, List<Long>> sums(Collection<EntranceCount> samples) {
        Map<String, long[]> sums = new TreeMap<>();
        for (EntranceCount s : samples) {
            long[] sum = sums.computeIfAbsent(key(s.getHiveId(), s.getEventTime()), k -> new long[3]);
            sum[0] += s.getBeesIn();
            sum[1] += s.getBeesOut();
            sum[2]++;
        }
        Map<String, List<Long>> out = new TreeMap<>();
        sums.forEach((k, v) -> out.put(k, List.of(v[0], v[1], v[2])));
        return out;
    }

    /**
     * Fails unless every (hive, hour) has exactly one final and the finals are exactly {@code expected}.
     *
     * @param finals   the finals read, not null
     * @param expected per (hive, hour), its entries, exits and samples ({@link #sums})
     */
    public static void assertExactlyOnce(List<HourlyActivity> finals, Map<String, List<Long>> expected) {
        Map<String, Long> perHour = finals.stream()
                .collect(Collectors.groupingBy(
                        f -> key(f.getHiveId(), f.getWindowStart()), TreeMap::new, Collectors.counting()));
        assertThat(perHour.values())
                .as("final results per (hive, hour): %s", perHour)
                .containsOnly(1L);
        Map<String, List<Long>> actual = new TreeMap<>();
        finals.forEach(f -> actual.put(
                key(f.getHiveId(), f.getWindowStart()), List.of(f.getEntries(), f.getExits(), (long) f.getSamples())));
        assertThat(actual).as("(hive, hour) -> [entries, exits, samples]").isEqualTo(expected);
    }

    /**
     * Fails unless the results of every (hive, hour) are numbered 0, 1, ... without a gap or a repeat,
     * the first ON_TIME and the rest LATE, and the newest (highest pane_index) of each is exactly
     * {@code expected}.
     *
     * @param results  the results read, not null
     * @param expected per (hive, hour), its entries, exits and samples ({@link #sums})
     * @return per (hive, hour), how many results it had (1 when never corrected)
     */
    public static Map<String, Integer> assertNewestExact(
            List<HourlyActivity> results, Map<String, List<Long>> expected) {
        Map<String, List<HourlyActivity>> byHour = results.stream()
                .collect(Collectors.groupingBy(
                        r -> key(r.getHiveId(), r.getWindowStart()), TreeMap::new, Collectors.toList()));
        Map<String, List<Long>> newest = new TreeMap<>();
        Map<String, Integer> counts = new TreeMap<>();
        byHour.forEach((hour, list) -> {
            List<Integer> panes =
                    list.stream().map(HourlyActivity::getPaneIndex).sorted().toList();
            assertThat(panes)
                    .as("pane indexes of %s", hour)
                    .isEqualTo(java.util.stream.IntStream.range(0, list.size())
                            .boxed()
                            .toList());
            list.forEach(r -> assertThat(r.getTiming())
                    .as("timing of %s pane %d", hour, r.getPaneIndex())
                    .isEqualTo(
                            r.getPaneIndex() == 0
                                    ? io.apiary.schema.ResultTiming.ON_TIME
                                    : io.apiary.schema.ResultTiming.LATE));
            HourlyActivity last = list.stream()
                    .max(java.util.Comparator.comparingInt(HourlyActivity::getPaneIndex))
                    .orElseThrow();
            newest.put(hour, List.of(last.getEntries(), last.getExits(), (long) last.getSamples()));
            counts.put(hour, list.size());
        });
        assertThat(newest)
                .as("(hive, hour) -> newest [entries, exits, samples]")
                .isEqualTo(expected);
        return counts;
    }
}
