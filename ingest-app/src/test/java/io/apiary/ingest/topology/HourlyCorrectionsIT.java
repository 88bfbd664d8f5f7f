package io.apiary.ingest.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.AppProcess;
import io.apiary.ingest.it.HourlyFinals;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.ResultTiming;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exact hourly counts on the real stack when the field misbehaves: a gateway offline for longer
 * than the grace period among live hives of the same partition, a topology paused (SIGSTOP) in the
 * middle of a backlog, and a topology killed (SIGKILL) between a correction and its commit. In each,
 * the newest result of every (hive, hour) on hive.activity.hourly.v1 and its hive_activity row equal
 * the samples sent, and nothing goes to the late topic.
 */
class HourlyCorrectionsIT {

    private static final Instant FIRST = Instant.parse("2021-07-15T10:00:00Z");
    private static final Duration STEP = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** Samples of {@code hives}, one every 30 s each from {@code from} until before {@code to}, in time order. */
    private static List<EntranceCount> samples(
            List<String> hives, Instant from, Instant to, String gateway, long seed) {
        java.util.Random random = new java.util.Random(seed);
        List<EntranceCount> samples = new ArrayList<>();
        for (Instant t = from; t.isBefore(to); t = t.plus(STEP)) {
            for (String hive : hives) {
                samples.add(new EntranceCount(hive, gateway, t, random.nextInt(200), random.nextInt(200), 30));
            }
        }
        return samples;
    }

    private static GatewayProducer producer(IngestConfig config) {
        return new GatewayProducer(
                config.kafkaClientSettings(),
                config.topics().telemetryTopic(),
                config.topics().entranceCountsTopic());
    }

    private static void send(IngestConfig config, List<EntranceCount> samples) {
        try (GatewayProducer producer = producer(config)) {
            samples.forEach(producer::send);
            producer.flush();
        }
    }

    /** @return per {@link HourlyFinals#key (hive, hour)}: bees_in, bees_out and samples of its hive_activity row */
    private static Map<String, List<Long>> activityRows(CqlSession session, IngestConfig config, List<String> hives) {
        Map<String, List<Long>> rows = new TreeMap<>();
        String ks = config.getString(IngestConfig.CASSANDRA_KEYSPACE);
        for (String hive : hives) {
            for (Row row : session.execute(SimpleStatement.newInstance(
                    "SELECT day, hour, bees_in, bees_out, samples FROM " + ks + ".hive_activity WHERE hive_id = ?",
                    hive))) {
                Instant start = row.getLocalDate("day")
                        .atStartOfDay(java.time.ZoneOffset.UTC)
                        .toInstant()
                        .plus(Duration.ofHours(row.getInt("hour")));
                rows.put(HourlyFinals.key(hive, start), List.of(row.getLong("bees_in"), row.getLong("bees_out"), (long)
                        row.getInt("samples")));
            }
        }
        return rows;
    }

    private static long lateSamples(IngestConfig config) {
        try (LagProbe probe = new LagProbe(config.kafkaClientSettings())) {
            return probe.countRecords(config.topics().activityLate());
        }
    }

    private static boolean published(IngestConfig config, Predicate<List<HourlyActivity>> condition) {
        return condition.test(HourlyFinals.read(config, Duration.ofSeconds(1)));
    }

    private static boolean hasResult(List<HourlyActivity> results, String hive, String hourStart, int pane) {
        Instant start = Instant.parse(hourStart);
        return results.stream()
                .anyMatch(r ->
                        r.getHiveId().equals(hive) && r.getWindowStart().equals(start) && r.getPaneIndex() == pane);
    }

    @Test
    void gateway_offline_longer_than_the_grace_period_gets_exact_hours_without_a_late_sample() throws Exception {
        List<String> hives = List.of("live-1", "live-2", "live-3", "live-4", "offline");
        IngestConfig config = ItPipelineSettings.of(
                "offline-gateway",
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS, 1, // every hive on one partition
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, 3_000,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS, 500));
        Instant outage = FIRST.plus(Duration.ofMinutes(80)); // 11:20
        Instant back = FIRST.plus(Duration.ofHours(3)); // 13:00, 100 min later: 10 times the grace period
        Instant end = FIRST.plus(Duration.ofHours(4));
        List<EntranceCount> all = samples(hives, FIRST, end, "gw", 42L);
        Predicate<EntranceCount> offline = s -> s.getHiveId().equals("offline");
        Predicate<EntranceCount> held = s -> offline.test(s)
                && !s.getEventTime().isBefore(outage)
                && s.getEventTime().isBefore(back);
        long started = System.nanoTime();
        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
            try (Pipeline pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry())) {
                send(
                        config,
                        all.stream()
                                .filter(s -> s.getEventTime().isBefore(back) && !held.test(s))
                                .toList());
                // quiet for 3 s while the others go on, the offline hive's hour of 11:00 closes short
                AppProcess.await(
                        "the offline hive's hour of 11:00 closed by the quiet rule",
                        Duration.ofMinutes(2),
                        () -> published(config, r -> hasResult(r, "offline", "2021-07-15T11:00:00Z", 0)));
                send(config, all.stream().filter(held).toList()); // back: the buffer, in time order
                send(
                        config,
                        all.stream()
                                .filter(s -> !s.getEventTime().isBefore(back))
                                .toList()); // live again

                Map<String, List<Long>> expected = HourlyFinals.sums(all);
                AppProcess.await(
                        "the newest result of every hour equals the samples sent", Duration.ofMinutes(3), () -> {
                            HourlyFinals.assertNewestExact(HourlyFinals.read(config, Duration.ofSeconds(1)), expected);
                            return true;
                        });
                AppProcess.await(
                        "every hive_activity row equals the samples sent",
                        Duration.ofMinutes(2),
                        () -> activityRows(session, config, hives).equals(expected));

                List<HourlyActivity> results = HourlyFinals.read(config, Duration.ofSeconds(2));
                Map<String, Integer> resultsPerHour = HourlyFinals.assertNewestExact(results, expected);
                assertThat(lateSamples(config)).as("late samples").isZero();
                String corrected = HourlyFinals.key("offline", Instant.parse("2021-07-15T11:00:00Z"));
                assertThat(resultsPerHour.get(corrected))
                        .as("the offline hive's hour of 11:00: closed short, then corrected")
                        .isGreaterThanOrEqualTo(2);
                assertThat(resultsPerHour.entrySet())
                        .as("no other hour needed a correction")
                        .filteredOn(e -> !e.getKey().equals(corrected))
                        .allMatch(e -> e.getValue() == 1);
                System.out.printf(
                        "offline gateway: %,d samples of %d hives (%,d held for %d min of event time), %d hours,"
                                + " %d results (%d corrections), 0 late, rows exact; %.1f s%n",
                        all.size(),
                        hives.size(),
                        all.stream().filter(held).count(),
                        Duration.between(outage, back).toMinutes(),
                        expected.size(),
                        results.size(),
                        results.stream()
                                .filter(r -> r.getTiming() == ResultTiming.LATE)
                                .count(),
                        (System.nanoTime() - started) / 1e9);
            }
        }
    }

    @Test
    void quiet_hive_closes_by_the_quiet_rule_while_other_hives_keep_its_partition_busy() throws Exception {
        IngestConfig config = ItPipelineSettings.of(
                "steady-traffic",
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS, 1, // the quiet hive shares its partition with the busy ones
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, 3_000,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS, 500));
        java.util.concurrent.atomic.AtomicBoolean traffic = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong busySent = new java.util.concurrent.atomic.AtomicLong();
        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
            try (Pipeline pipeline = Pipeline.start(config, true, true, new SimpleMeterRegistry())) {
                Thread busy = new Thread(
                        () -> {
                            try (GatewayProducer producer = producer(config)) {
                                Instant t = FIRST.plus(Duration.ofHours(5));
                                while (traffic.get()) { // about 50 samples a second, live, from 40 hives
                                    producer.send(new EntranceCount("busy-" + busySent.get() % 40, "gw", t, 1, 1, 30));
                                    producer.flush();
                                    busySent.incrementAndGet();
                                    t = t.plusMillis(100);
                                    Thread.sleep(20);
                                }
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "busy-hives");
                busy.start();
                try {
                    AppProcess.await("the busy hives flowing", Duration.ofMinutes(1), () -> busySent.get() > 100);
                    send(config, List.of(new EntranceCount("quiet", "gw", FIRST.plusSeconds(300), 7, 5, 30)));
                    long sent = System.nanoTime();
                    AppProcess.await(
                            "the quiet hive's hour closed while the traffic goes on",
                            Duration.ofMinutes(1),
                            () -> published(config, r -> hasResult(r, "quiet", "2021-07-15T10:00:00Z", 0)));
                    double seconds = (System.nanoTime() - sent) / 1e9;
                    assertThat(traffic.get()).isTrue();
                    assertThat(seconds)
                            .as("idle timeout 3 s plus a few checks, not the end of the traffic")
                            .isLessThan(30);
                    System.out.printf(
                            "steady traffic: the quiet hive's hour closed %.1f s after its sample, %,d busy samples"
                                    + " sent meanwhile%n",
                            seconds, busySent.get());
                } finally {
                    traffic.set(false);
                    busy.join();
                }
            }
        }
    }

    @Test
    void topology_paused_in_the_middle_of_a_backlog_closes_no_hour_early() throws Exception {
        List<String> hives = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            hives.add("stall-" + i);
        }
        Map<String, Object> settings = ItPipelineSettings.settings(
                "stall",
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS, 2,
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, 5_000,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS, 1_000));
        IngestConfig config = ItPipelineSettings.of("stall", settings);
        List<EntranceCount> all = samples(hives, FIRST, FIRST.plus(Duration.ofHours(6)), "gw", 7L);
        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
        }
        send(config, all); // the backlog, before the topology starts
        String group = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
        List<String> input = List.of(config.topics().entranceCounts());
        long lagAtResume;
        try (AppProcess topology = AppProcess.start("topology", settings, dir.resolve("topology.log"));
                LagProbe probe = new LagProbe(config.kafkaClientSettings())) {
            AppProcess.await(
                    "a quarter of the backlog processed",
                    Duration.ofMinutes(3),
                    () -> probe.lag(group, input) < all.size() * 3L / 4,
                    topology);
            topology.signal("STOP"); // twice the idle timeout, no thread of the topology runs
            Thread.sleep(10_000);
            lagAtResume = probe.lag(group, input);
            topology.signal("CONT");
            assertThat(lagAtResume)
                    .as("records left to process when it resumed")
                    .isPositive();

            Map<String, List<Long>> expected = HourlyFinals.sums(all);
            AppProcess.await(
                    "a result for every hour",
                    Duration.ofMinutes(4),
                    () -> HourlyFinals.read(config, Duration.ofSeconds(1)).size() >= expected.size(),
                    topology);
            Thread.sleep(3_000);
            HourlyFinals.assertExactlyOnce(HourlyFinals.read(config, Duration.ofSeconds(3)), expected);
            assertThat(lateSamples(config)).as("late samples").isZero();
            System.out.printf(
                    "stall: %,d samples of %d hives, %,d left when the topology resumed from 10 s of SIGSTOP"
                            + " (idle timeout 5 s); %d hours, each one result, exact; 0 late%n",
                    all.size(), hives.size(), lagAtResume, expected.size());
        }
    }

    @Test
    void kill_between_a_correction_and_its_commit_leaves_one_correct_row_and_each_sample_counted_once()
            throws Exception {
        String hive = "kill-1";
        Map<String, Object> base = new HashMap<>(ItPipelineSettings.settings(
                "kill-correction",
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS, 1,
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, 3_000,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS, 500)));
        base.put("streams.session.timeout.ms", 6_000); // a restarted member joins without waiting 45 s
        base.put("sink.consumer.session.timeout.ms", 6_000);
        IngestConfig config = ItPipelineSettings.of("kill-correction", base);
        List<EntranceCount> onTime = samples(List.of(hive), FIRST, FIRST.plus(Duration.ofMinutes(75)), "gw", 3L);
        List<EntranceCount> correction =
                samples(List.of(hive), FIRST.plusSeconds(15), FIRST.plus(Duration.ofHours(1)), "gw-2", 4L);
        Map<String, List<Long>> expected =
                new TreeMap<>(HourlyFinals.sums(java.util.stream.Stream.concat(onTime.stream(), correction.stream())
                        .toList()));
        String hour = HourlyFinals.key(hive, FIRST);
        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
            try (AppProcess first = AppProcess.start("all", base, dir.resolve("run-1.log"))) {
                send(config, onTime);
                AppProcess.await(
                        "the hour of 10:00 published",
                        Duration.ofMinutes(2),
                        () -> published(config, r -> hasResult(r, hive, "2021-07-15T10:00:00Z", 0)),
                        first);
                first.sigterm();
                assertThat(first.waitFor(Duration.ofMinutes(1))).isTrue();
            }

            Map<String, Object> slowCommits = new HashMap<>(base);
            slowCommits.put("streams.commit.interval.ms", 120_000);
            slowCommits.put("streams.producer.transaction.timeout.ms", 180_000);
            try (AppProcess second = AppProcess.start("all", slowCommits, dir.resolve("run-2.log"))) {
                send(config, correction);
                AppProcess.await(
                        "the correction in the topology's open transaction",
                        Duration.ofMinutes(2),
                        () -> HourlyFinals.read(config, Duration.ofSeconds(1), "read_uncommitted").stream()
                                .anyMatch(r -> r.getHiveId().equals(hive) && r.getPaneIndex() == 1),
                        second);
            } // close(): SIGKILL
            assertThat(HourlyFinals.read(config, Duration.ofSeconds(2)))
                    .as("killed before the correction was committed")
                    .noneMatch(r -> r.getPaneIndex() > 0);

            try (AppProcess third = AppProcess.start("all", base, dir.resolve("run-3.log"))) {
                AppProcess.await(
                        "the correction committed after the restart",
                        Duration.ofMinutes(3),
                        () -> published(config, r -> hasResult(r, hive, "2021-07-15T10:00:00Z", 1)),
                        third);
                AppProcess.await(
                        "the hive_activity row of 10:00 corrected",
                        Duration.ofMinutes(2),
                        () -> expected.get(hour)
                                .equals(activityRows(session, config, List.of(hive))
                                        .get(hour)),
                        third);
                Thread.sleep(3_000);
                List<HourlyActivity> results = HourlyFinals.read(config, Duration.ofSeconds(2));
                Map<String, Integer> perHour = HourlyFinals.assertNewestExact(results, expected);
                assertThat(perHour.get(hour))
                        .as("the result, then the correction (in one result or several, as updates fall)")
                        .isGreaterThanOrEqualTo(2);
                assertThat(activityRows(session, config, List.of(hive))).isEqualTo(expected);
                assertThat(lateSamples(config)).isZero();
            }
        }
    }
}
