package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.bench.BenchWorkload;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.demo.LagProbe;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.AppProcess;
import io.apiary.ingest.it.CommittedRows;
import io.apiary.ingest.it.GroupView;
import io.apiary.ingest.it.HourlyFinals;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several instances of each component, as separate processes on the shared stack, one of them
 * killed with SIGKILL while records flow: what production runs (the prod overlay's topology
 * instances with one standby replica each, a sink group that grows and shrinks), and what neither
 * {@code TopologyRestartIT} nor {@code SinkIT} (one instance, killed and restarted) shows.
 *
 * <ul>
 *   <li><b>Topology</b>: two instances of one application ({@code streams.num.standby.replicas=1},
 *       {@code streams.session.timeout.ms=6000}) read samples of 8 hives, two per partition, one every
 *       30 s; once the hour's first 20 minutes are processed and committed, the rest comes one round of
 *       all hives every 100 ms, and the instance with more entrance-counter partitions is killed at about
 *       10:30 while it processes them; then a sample at 11:15 of each hive moves every partition's stream
 *       time past the hour's end plus its 10-minute grace. Every (hive, hour) has exactly one final on
 *       {@code hive.activity.hourly.v1} (read committed), equal to the sums of the samples sent, and no
 *       sample was late.
 *   <li><b>Sink</b>: a sink group grown from one instance to three and shrunk back to one (SIGKILL of one,
 *       SIGTERM of another) while about 1,000 rows/s flow into the row topic: right after the kill every
 *       row below the killed instance's committed offsets is in Cassandra, and at the end the table holds
 *       exactly the distinct rows produced and every row below the group's committed offsets.
 * </ul>
 *
 * <p>Figures, on lines starting with {@code MULTI-INSTANCE-IT} (seconds from the SIGKILL, measured
 * through the broker's view of the group with Kafka's Admin API, polled every 200 ms):
 *
 * <ul>
 *   <li>topology {@code assigned}: until the survivor is the group's only member and holds every source
 *       partition, i.e. owns all active tasks (the killed member expires after the session timeout, then
 *       one rebalance promotes the standbys); {@code resumed}: until the survivor has committed records of
 *       every entrance-counter partition the killed instance had: it runs the tasks it took over; and the
 *       records the survivor restored from changelogs after the kill (its standbys were promoted: a handful
 *       at most, where a cold takeover restores every sample the killed instance had summed).
 *   <li>sink {@code assigned}: until the remaining two hold every partition; {@code caught up}: until every
 *       row that was in the killed instance's partitions at the kill is written and committed again.
 * </ul>
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MultiInstanceFailoverIT {

    private static final String READY = "/health/ready";
    private static final Duration START = Duration.ofMinutes(3);
    private static final Duration STEP = Duration.ofMinutes(2);

    private static final int TOPOLOGY_PARTITIONS = 4;
    private static final int HIVES_PER_PARTITION = 2;
    private static final Instant HOUR = Instant.parse("2021-07-15T10:00:00Z");
    /** Samples of each hive, one every 30 s: the whole hour. */
    private static final int SAMPLES_PER_HIVE = 120;
    /** Samples of each hive sent before the kill: 10:00 to 10:19:30. */
    private static final int BEFORE_KILL = 40;

    private static final int SINK_PARTITIONS = 6;
    private static final int ROWS_PER_SECOND = 1_000;
    private static final String ROWS_WRITTEN = "apiary_sink_rows_written_total";

    @TempDir
    Path dir;

    @Test
    void a_topology_instance_killed_mid_hour_hands_its_tasks_to_its_standby_and_every_final_is_exact_once()
            throws Exception {
        Map<String, Object> settings = ItPipelineSettings.settings(
                "failover",
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS,
                        TOPOLOGY_PARTITIONS,
                        "streams.num.standby.replicas",
                        1,
                        "streams.session.timeout.ms",
                        6_000,
                        "streams.heartbeat.interval.ms",
                        1_000,
                        // hours close by stream time only: the quiet-partition rule stays out of it
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                        Duration.ofMinutes(30).toMillis(),
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS,
                        1_000));
        IngestConfig config = ItPipelineSettings.of("failover", settings);
        Topics topics = config.topics();
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.createMissing(admin, config);
            TopicProvisioner.awaitLeaders(admin, topics.all(), Duration.ofMinutes(1));
        }
        ItPipelineSettings.registerSubjects(config); // the two instances start together
        List<String> hives = HourlyFinals.hivesCovering("failover-hive-", TOPOLOGY_PARTITIONS, HIVES_PER_PARTITION);
        List<EntranceCount> hour = HourlyFinals.samples(hives, HOUR, SAMPLES_PER_HIVE, 20211115L);
        Map<String, List<Long>> expected = HourlyFinals.sums(hour);
        // 11:15 is past the hour's end plus the 10-minute grace: the hour closes; hour 11 stays open
        List<EntranceCount> advance = hives.stream()
                .map(h -> new EntranceCount(h, "gw", HOUR.plus(Duration.ofMinutes(75)), 1, 1, 30))
                .toList();
        int beforeKill = BEFORE_KILL * hives.size();

        try (AppProcess a = AppProcess.start("topology", topologyInstance(settings, "a"), dir.resolve("a.log"));
                AppProcess b = AppProcess.start("topology", topologyInstance(settings, "b"), dir.resolve("b.log"));
                GroupView group = new GroupView(
                        config.kafkaClientSettings(), config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID));
                GatewayProducer producer = new GatewayProducer(
                        config.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic())) {
            Set<TopicPartition> sources = group.partitionsOf(
                    List.of(topics.telemetry(), topics.entranceCounts(), topics.weather(), topics.alerts()));
            Set<TopicPartition> entrance = group.partitionsOf(List.of(topics.entranceCounts()));
            AppProcess.await(
                    "both topology instances RUNNING in one stable group, each with active tasks",
                    START,
                    () -> a.status(READY) == 200 && b.status(READY) == 200 && group.stableWith(2, sources),
                    a,
                    b);

            // Given both process samples of the first 20 minutes and commit them
            hour.subList(0, beforeKill).forEach(producer::send);
            producer.flush();
            AppProcess.await(
                    "the first 20 minutes of samples committed by the topology",
                    STEP,
                    () -> group.committedAtLeast(group.endOffsets(entrance)),
                    a,
                    b);
            Set<TopicPartition> heldByA = intersect(group.heldBy("failover-a"), entrance);
            Set<TopicPartition> heldByB = intersect(group.heldBy("failover-b"), entrance);
            boolean killA = heldByA.size() >= heldByB.size();
            AppProcess victim = killA ? a : b;
            AppProcess survivor = killA ? b : a;
            String survivorId = killA ? "failover-b" : "failover-a";
            Set<TopicPartition> victimPartitions = killA ? heldByA : heldByB;
            assertThat(victimPartitions)
                    .as("entrance-counter partitions of the instance to kill (a %s, b %s)", heldByA, heldByB)
                    .isNotEmpty();

            // When samples keep coming, one round of every hive each 100 ms (30 s of event time), and one
            // instance is killed a quarter of the way, at about 10:30, while it processes and commits them
            List<EntranceCount> rest = hour.subList(beforeKill, hour.size());
            int rounds = rest.size() / hives.size();
            AtomicInteger roundsSent = new AtomicInteger();
            Thread feeder = new Thread(
                    () -> {
                        for (int round = 0; round < rounds; round++) {
                            rest.subList(round * hives.size(), (round + 1) * hives.size())
                                    .forEach(producer::send);
                            producer.flush();
                            roundsSent.incrementAndGet();
                            pace(Duration.ofMillis(100));
                        }
                        advance.forEach(producer::send);
                        producer.flush();
                    },
                    "failover-it-feeder");
            AtomicReference<Throwable> feedFailure = new AtomicReference<>();
            feeder.setUncaughtExceptionHandler((t, e) -> feedFailure.set(e));
            feeder.start();
            AppProcess.await("a quarter of the rest sent", STEP, () -> roundsSent.get() >= rounds / 4, a, b);
            int survivorLogAtKill = survivor.log().length();
            long killedAt = System.nanoTime();
            victim.close(); // SIGKILL: no commit; an open transaction is left for the broker to abort
            Map<TopicPartition, Long> committedAtKill = restrict(group.committed(), victimPartitions);

            // Then the survivor owns all active tasks, and runs those it took over
            AppProcess.await(
                    "the survivor alone holds every source partition",
                    STEP,
                    () -> {
                        Map<String, Set<TopicPartition>> now = group.stableAssignment();
                        return now.size() == 1
                                && now.keySet().iterator().next().startsWith(survivorId)
                                && now.values().iterator().next().equals(sources);
                    },
                    survivor);
            double assigned = secondsSince(killedAt);
            AppProcess.await(
                    "the survivor committed records of every entrance-counter partition of the killed instance",
                    STEP,
                    () -> advancedPast(group.committed(), committedAtKill),
                    survivor);
            double resumed = secondsSince(killedAt);
            feeder.join(TimeUnit.MINUTES.toMillis(1));
            assertThat(feeder.isAlive()).as("the feeder finished").isFalse();
            assertThat(feedFailure.get()).as("the feeder's failure").isNull();

            // and every hour closes with exactly its sums, once
            AppProcess.await(
                    "a final result of every hive's hour",
                    STEP,
                    () -> HourlyFinals.read(config, Duration.ofSeconds(1)).size() >= expected.size(),
                    survivor);
            List<HourlyActivity> finals = HourlyFinals.read(config, Duration.ofSeconds(3));
            long late;
            try (LagProbe probe = new LagProbe(config.kafkaClientSettings())) {
                late = probe.countRecords(topics.activityLate());
            }
            List<Long> restores = restoredRecords(survivor.log().substring(survivorLogAtKill));
            long restored = restores.stream().mapToLong(Long::longValue).sum();
            System.out.printf(
                    "MULTI-INSTANCE-IT topology: killed instance %s (entrance-counter partitions %s of %d); "
                            + "survivor owns all %d active tasks %.1f s after the SIGKILL, has committed on the "
                            + "taken-over partitions %.1f s after it, restored %d records in %d rounds after it; "
                            + "%d samples of %d hives, %d finals, %d late%n",
                    killA ? "a" : "b",
                    partitionNumbers(victimPartitions),
                    TOPOLOGY_PARTITIONS,
                    sources.size(),
                    assigned,
                    resumed,
                    restored,
                    restores.size(),
                    hour.size() + advance.size(),
                    hives.size(),
                    finals.size(),
                    late);
            HourlyFinals.assertExactlyOnce(finals, expected);
            assertThat(late).as("late samples").isZero();
            assertThat(survivor.isAlive()).as("the survivor runs").isTrue();
            // the standbys spare the restore: without them, the survivor restores at least each sample the
            // killed instance had summed before the kill
            assertThat(restores)
                    .as("restore rounds of the survivor after the kill")
                    .isNotEmpty();
            assertThat(restored)
                    .as("records restored after the kill")
                    .isLessThan((long) BEFORE_KILL * HIVES_PER_PARTITION * victimPartitions.size());
        }
    }

    @Test
    void a_sink_group_grown_to_three_and_shrunk_to_one_with_one_killed_writes_every_row_and_commits_only_written_ones()
            throws Exception {
        Map<String, Object> settings = ItPipelineSettings.settings(
                "sink-group",
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS,
                        SINK_PARTITIONS,
                        "sink.consumer.session.timeout.ms",
                        6_000,
                        "sink.consumer.heartbeat.interval.ms",
                        1_000));
        IngestConfig config = ItPipelineSettings.of("sink-group", settings);
        String rowTopic = config.topics().telemetryRows();
        try (CqlSession session = CassandraSessions.open(config)) {
            ItPipelineSettings.prepare(config, session);
            session.execute(SimpleStatement.newInstance(
                            "TRUNCATE " + config.getString(IngestConfig.CASSANDRA_KEYSPACE) + ".hive_telemetry_v2")
                    .setTimeout(Duration.ofMinutes(1)));
        }
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.awaitLeaders(admin, List.of(rowTopic), Duration.ofMinutes(1));
        }

        try (GroupView group =
                        new GroupView(config.kafkaClientSettings(), config.getString(IngestConfig.SINK_GROUP_ID));
                RowStream rows = new RowStream(config);
                AppProcess a = AppProcess.start("sink", sinkInstance(settings, "a"), dir.resolve("a.log"))) {
            // the sink reads every row topic; this test's rows go to hive_telemetry_v2's
            Set<TopicPartition> partitions = group.partitionsOf(config.topics().rowTopics());
            Set<TopicPartition> telemetryRows = group.partitionsOf(List.of(rowTopic));
            AppProcess.await(
                    "sink a ready and writing", START, () -> a.status(READY) == 200 && a.metric(ROWS_WRITTEN) > 0, a);
            long grownAt = System.nanoTime();
            try (AppProcess b = AppProcess.start("sink", sinkInstance(settings, "b"), dir.resolve("b.log"));
                    AppProcess c = AppProcess.start("sink", sinkInstance(settings, "c"), dir.resolve("c.log"))) {
                // Given the group grown to three instances, each writing
                AppProcess.await(
                        "three sink instances, each holding partitions and writing",
                        START,
                        () -> holding(group.stableAssignment(), partitions, "sink-a", "sink-b", "sink-c")
                                && b.metric(ROWS_WRITTEN) > 0
                                && c.metric(ROWS_WRITTEN) > 0,
                        a,
                        b,
                        c);
                double grown = secondsSince(grownAt);
                Set<TopicPartition> killedPartitions = group.heldBy("sink-b");

                // When one is killed
                long killedAt = System.nanoTime();
                b.close();
                Map<TopicPartition, Long> committedAtKill = restrict(group.committed(), killedPartitions);
                Map<TopicPartition, Long> endsAtKill = group.endOffsets(killedPartitions);
                // Then no committed offset of the killed instance passes a row Cassandra lacks (the
                // others cannot write its partitions before they are reassigned, and then only from there)
                long checkedAtKill = CommittedRows.checkStored(config, committedAtKill, CommittedRows.stored(config));
                AppProcess.await(
                        "sinks a and c hold every partition",
                        STEP,
                        () -> holding(group.stableAssignment(), partitions, "sink-a", "sink-c"),
                        a,
                        c);
                double assigned = secondsSince(killedAt);
                AppProcess.await(
                        "every row that was in the killed instance's partitions at the kill written and committed",
                        STEP,
                        () -> group.committedAtLeast(endsAtKill),
                        a,
                        c);
                double caughtUp = secondsSince(killedAt);

                // and the group shrinks to one: a SIGTERM drains and commits
                c.sigterm();
                assertThat(c.waitFor(Duration.ofMinutes(1)))
                        .as("c exits after SIGTERM")
                        .isTrue();
                AppProcess.await(
                        "sink a alone holds every partition",
                        STEP,
                        () -> holding(group.stableAssignment(), partitions, "sink-a"),
                        a);
                long sent = rows.stop();
                AppProcess.await(
                        "every row produced committed by the group",
                        STEP,
                        () -> group.committedAtLeast(group.endOffsets(partitions)),
                        a);
                Set<String> stored = CommittedRows.stored(config);
                long below = CommittedRows.checkStored(config, group.committed(), stored);
                System.out.printf(
                        "MULTI-INSTANCE-IT sink: grown from 1 to 3 instances in %.1f s; killed b (row partitions %s of "
                                + "%d), %,d committed rows checked in Cassandra at the kill; a and c hold every "
                                + "partition %.1f s after the SIGKILL, and have written and committed every row that "
                                + "was in b's partitions %.1f s after it; c stopped (exit %d); %,d rows sent at "
                                + "%,d rows/s, %,d in Cassandra, %,d records below the committed offsets%n",
                        grown,
                        partitionNumbers(intersect(killedPartitions, telemetryRows)),
                        SINK_PARTITIONS,
                        checkedAtKill,
                        assigned,
                        caughtUp,
                        c.exitValue(),
                        sent,
                        ROWS_PER_SECOND,
                        stored.size(),
                        below);
                assertThat(c.exitValue()).as("c's exit after SIGTERM").isEqualTo(143);
                assertThat(killedPartitions)
                        .as("partitions of the killed instance")
                        .isNotEmpty();
                assertThat(checkedAtKill)
                        .as("rows the killed instance had committed")
                        .isPositive();
                assertThat((long) stored.size()).as("rows in Cassandra").isEqualTo(sent);
                assertThat(rows.missingFrom(stored))
                        .as("rows sent but not in Cassandra")
                        .isEmpty();
                assertThat(below).as("records below the committed offsets").isGreaterThanOrEqualTo(sent);
                assertThat(a.isAlive()).as("a runs").isTrue();
            }
        }
    }

    /**
     * Rows of {@code hive_telemetry_v2} sent to the row topic at {@value #ROWS_PER_SECOND} rows/s in
     * 100 ms slices from a thread of its own (the benchmark's workload, 50 hives, one distinct row
     * each), until {@link #stop()}, or for at most 3 minutes.
     */
    private static final class RowStream implements AutoCloseable {

        private static final BenchWorkload WORKLOAD = new BenchWorkload(50, 96, ShardStrategy.TIME);
        private static final int MAX_ROWS = ROWS_PER_SECOND * 180;

        private final KafkaProducer<byte[], byte[]> producer;
        private final Topic<HiveTelemetryPartitionKey, HiveTelemetryRow> topic;
        private final AtomicLong sent = new AtomicLong();
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private final Thread thread;
        private volatile boolean stopped;

        RowStream(IngestConfig config) {
            this.topic = config.topics().telemetryRowsTopic();
            this.producer = new KafkaProducer<>(
                    BenchWorkload.producerSettings(config.kafkaClientSettings()),
                    new ByteArraySerializer(),
                    new ByteArraySerializer());
            this.thread = new Thread(this::run, "multi-instance-it-rows");
            thread.start();
        }

        private void run() {
            int slice = ROWS_PER_SECOND / 10;
            while (!stopped && sent.get() < MAX_ROWS) {
                for (int i = 0; i < slice; i++) {
                    HiveTelemetryRow row = WORKLOAD.row(sent.getAndIncrement());
                    producer.send(
                            new ProducerRecord<>(
                                    topic.name(),
                                    topic.keySerde()
                                            .serializer()
                                            .serialize(topic.name(), BenchWorkload.partitionKey(row)),
                                    topic.valueSerde().serializer().serialize(topic.name(), row)),
                            (metadata, e) -> {
                                if (e != null) {
                                    failure.compareAndSet(null, e);
                                }
                            });
                }
                pace(Duration.ofMillis(100));
            }
        }

        /** @return rows sent, all acknowledged by Kafka */
        long stop() throws InterruptedException {
            stopped = true;
            thread.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(thread.isAlive()).as("the row feed stopped").isFalse();
            producer.flush();
            assertThat(failure.get()).as("a row Kafka refused").isNull();
            return sent.get();
        }

        /**
         * @param stored rows Cassandra holds ({@link CommittedRows#stored})
         * @return the first ten rows sent that it does not hold
         */
        List<String> missingFrom(Set<String> stored) {
            List<String> missing = new ArrayList<>();
            for (long i = 0; i < sent.get() && missing.size() < 10; i++) {
                String key = CommittedRows.key(WORKLOAD.row(i));
                if (!stored.contains(key)) {
                    missing.add(key);
                }
            }
            return missing;
        }

        @Override
        public void close() throws InterruptedException {
            stopped = true;
            thread.join(TimeUnit.SECONDS.toMillis(30));
            producer.close(Duration.ofSeconds(10));
        }
    }

    /** Waits between two slices of a feed: pacing, not a wait for a condition. */
    private static void pace(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> topologyInstance(Map<String, Object> settings, String name) {
        Map<String, Object> instance = new HashMap<>(settings);
        instance.put(
                IngestConfig.TOPOLOGY_STATE_DIR,
                Path.of(String.valueOf(settings.get(IngestConfig.TOPOLOGY_STATE_DIR)))
                        .resolve(name)
                        .toString());
        instance.put("streams.client.id", "failover-" + name);
        return instance;
    }

    private static Map<String, Object> sinkInstance(Map<String, Object> settings, String name) {
        Map<String, Object> instance = new HashMap<>(settings);
        instance.put("sink.consumer.client.id", "sink-" + name);
        return instance;
    }

    /** @return whether exactly the named members (client id prefixes) are in the group, each holding some of all */
    private static boolean holding(
            Map<String, Set<TopicPartition>> assignment, Set<TopicPartition> all, String... members) {
        Set<TopicPartition> union = new HashSet<>();
        assignment.values().forEach(union::addAll);
        return assignment.size() == members.length
                && List.of(members).stream()
                        .allMatch(m -> assignment.entrySet().stream()
                                .anyMatch(e -> e.getKey().startsWith(m)
                                        && !e.getValue().isEmpty()))
                && union.equals(all);
    }

    private static Set<TopicPartition> intersect(Set<TopicPartition> a, Set<TopicPartition> b) {
        Set<TopicPartition> out = new HashSet<>(a);
        out.retainAll(b);
        return out;
    }

    private static Map<TopicPartition, Long> restrict(Map<TopicPartition, Long> offsets, Set<TopicPartition> to) {
        Map<TopicPartition, Long> out = new HashMap<>();
        to.forEach(p -> out.put(p, offsets.getOrDefault(p, 0L)));
        return out;
    }

    private static boolean advancedPast(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> before) {
        return before.entrySet().stream().allMatch(e -> committed.getOrDefault(e.getKey(), -1L) > e.getValue());
    }

    private static List<Integer> partitionNumbers(Set<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::partition).sorted().toList();
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    /** @return the records of each restore round in a topology's log ({@link RestoreProgress#SUMMARY}) */
    private static List<Long> restoredRecords(String log) {
        List<Long> rounds = new ArrayList<>();
        java.util.regex.Matcher m = RestoreProgress.SUMMARY.matcher(log);
        while (m.find()) {
            rounds.add(Long.parseLong(m.group(1).replace(",", "")));
        }
        return rounds;
    }
}
