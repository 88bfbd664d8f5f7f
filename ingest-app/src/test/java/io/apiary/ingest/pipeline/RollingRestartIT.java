package io.apiary.ingest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.it.AppProcess;
import io.apiary.ingest.it.GroupView;
import io.apiary.ingest.it.HourlyFinals;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A clean SIGTERM of one of two topology instances, as a rolling restart or a scale-down sends it,
 * with Kafka's default session timeout (45 s) and readings and counter samples flowing to every
 * partition: how long until every partition is processed again.
 *
 * <ul>
 *   <li><b>With an instance id</b> ({@link GroupMembership#INSTANCE_ID}, a StatefulSet pod's name): the
 *       instance is started again at once with the same id and state folder, as the StatefulSet brings the
 *       pod back; it is a static member, so the broker keeps its place and hands its tasks back as soon as
 *       it joins, without waiting for the old member to expire. Its partitions wait for it meanwhile, so
 *       the bound counts from its join (the new JVM's start before it is the restart's own cost).
 *   <li><b>Without one</b>: the instance leaves the group on close, so the survivor takes its tasks over at
 *       once, instead of after the session timeout.
 * </ul>
 *
 * <p>"Processed again": every source partition of the gateway topics has an offset committed by the group
 * past its end at the moment the stopped instance had exited (so processed by a live instance after it),
 * seen through Kafka's Admin API every 200 ms. Figures on lines starting with {@code ROLLING-RESTART-IT},
 * seconds from the SIGTERM; the current ones are in docs/performance.md.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class RollingRestartIT {

    /** The bound: every partition processed again within this of a clean SIGTERM. */
    private static final Duration BOUND = Duration.ofSeconds(15);

    private static final String READY = "/health/ready";
    /** The log line of a topology that has started and asks to join its group. */
    private static final String JOINING = "Topology state CREATED -> REBALANCING";

    private static final Duration START = Duration.ofMinutes(3);
    private static final Duration STEP = Duration.ofMinutes(2);
    private static final int PARTITIONS = 4;
    private static final Instant FIRST = Instant.parse("2021-07-15T10:00:00Z");

    @TempDir
    Path dir;

    @Test
    void an_instance_restarted_with_its_instance_id_has_every_partition_processed_again_within_the_bound()
            throws Exception {
        Measured m = sigtermOneOfTwo("rolling-static", true);
        System.out.printf(
                "ROLLING-RESTART-IT static (instance.id): b exited %.1f s after SIGTERM and was started again, "
                        + "its topology joining %.1f s after it; every partition processed again %.1f s after the "
                        + "SIGTERM (%.1f s after the join), b ready %.1f s after it, group stable with both %.1f s "
                        + "after it%n",
                m.exited, m.joining, m.processed, m.processed - m.joining, m.ready, m.stable);
        // The restarted instance's partitions wait for it: the bound applies from its join, the new JVM's own
        // start (which a pod's restart costs whatever the membership) before it. Without static membership
        // the join waits for the old member to expire, a session timeout (45 s) after the SIGTERM.
        assertThat(m.processed - m.joining)
                .as("seconds from the restarted instance's join until every partition is processed again")
                .isLessThan(BOUND.toSeconds());
    }

    @Test
    void an_instance_without_instance_id_leaves_on_sigterm_and_the_survivor_processes_every_partition_within_the_bound()
            throws Exception {
        Measured m = sigtermOneOfTwo("rolling-dynamic", false);
        System.out.printf(
                "ROLLING-RESTART-IT dynamic (no instance.id): b exited %.1f s after SIGTERM, not restarted; "
                        + "every partition processed again %.1f s after the SIGTERM, the survivor alone in a stable "
                        + "group %.1f s after it%n",
                m.exited, m.processed, m.stable);
        assertThat(m.processed)
                .as("seconds from the SIGTERM until every partition is processed again")
                .isLessThan(BOUND.toSeconds());
    }

    /**
     * Seconds from the SIGTERM; {@code joining} (its topology started: {@value #JOINING} in its log) and
     * {@code ready} are NaN when the instance is not started again.
     */
    private record Measured(double exited, double joining, double processed, double ready, double stable) {}

    private Measured sigtermOneOfTwo(String name, boolean restart) throws Exception {
        Map<String, Object> settings = ItPipelineSettings.settings(
                name,
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS,
                        PARTITIONS,
                        "streams.num.standby.replicas",
                        1,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS,
                        1_000));
        IngestConfig config = ItPipelineSettings.of(name, settings);
        Topics topics = config.topics();
        try (Admin admin = Admin.create(config.kafkaClientSettings())) {
            TopicProvisioner.createMissing(admin, config);
            TopicProvisioner.awaitLeaders(admin, topics.all(), Duration.ofMinutes(1));
        }
        ItPipelineSettings.registerSubjects(config); // the two instances start together
        List<String> hives = HourlyFinals.hivesCovering(name + "-hive-", PARTITIONS, 1);
        Map<String, Object> a = instance(settings, name, "a", restart);
        Map<String, Object> b = instance(settings, name, "b", restart);

        try (AppProcess first = AppProcess.start("topology", a, dir.resolve("a.log"));
                AppProcess second = AppProcess.start("topology", b, dir.resolve("b.log"));
                GroupView group = new GroupView(
                        config.kafkaClientSettings(), config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID));
                Feed feed = new Feed(config, hives)) {
            Set<TopicPartition> sources = group.partitionsOf(
                    List.of(topics.telemetry(), topics.entranceCounts(), topics.weather(), topics.alerts()));
            Set<TopicPartition> fed = group.partitionsOf(List.of(topics.telemetry(), topics.entranceCounts()));
            AppProcess.await(
                    "both topology instances RUNNING in one stable group, each with active tasks",
                    START,
                    () -> first.status(READY) == 200 && second.status(READY) == 200 && group.stableWith(2, sources),
                    first,
                    second);
            Map<TopicPartition, Long> fedSoFar = group.endOffsets(fed);
            AppProcess.await(
                    "the records fed so far committed", STEP, () -> group.committedAtLeast(fedSoFar), first, second);

            long sigtermAt = System.nanoTime();
            second.sigterm();
            assertThat(second.waitFor(Duration.ofMinutes(1)))
                    .as("b exits after SIGTERM")
                    .isTrue();
            double exited = secondsSince(sigtermAt);
            Map<TopicPartition, Long> beyondExit = new HashMap<>();
            group.endOffsets(fed).forEach((p, end) -> beyondExit.put(p, end + 1));
            assertThat(second.exitValue()).as("b's exit after SIGTERM").isEqualTo(143);
            try (AppProcess again = restart ? AppProcess.start("topology", b, dir.resolve("b-again.log")) : null) {
                AppProcess[] running = again == null ? new AppProcess[] {first} : new AppProcess[] {first, again};
                double joining = Double.NaN;
                if (again != null) {
                    // the new JVM's start, before it asks to join: a pod's restart costs it whatever the membership
                    AppProcess.await(
                            "b started again and joining its group",
                            STEP,
                            () -> again.log().contains(JOINING) || group.committedAtLeast(beyondExit),
                            running);
                    joining = secondsSince(sigtermAt);
                }
                AppProcess.await(
                        "every fed partition processed past its end at b's exit",
                        STEP,
                        () -> group.committedAtLeast(beyondExit),
                        running);
                double processed = secondsSince(sigtermAt);
                double ready = Double.NaN;
                if (again != null) {
                    AppProcess.await("b ready again", STEP, () -> again.status(READY) == 200, running);
                    ready = secondsSince(sigtermAt);
                }
                AppProcess.await(
                        "the group stable with the running instances",
                        STEP,
                        () -> group.stableWith(running.length, sources),
                        running);
                double stable = secondsSince(sigtermAt);
                feed.check();
                assertThat(first.isAlive()).as("a runs").isTrue();
                return new Measured(exited, joining, processed, ready, stable);
            }
        }
    }

    private static Map<String, Object> instance(
            Map<String, Object> settings, String name, String instance, boolean withInstanceId) {
        Map<String, Object> out = new HashMap<>(settings);
        out.put(
                IngestConfig.TOPOLOGY_STATE_DIR,
                Path.of(String.valueOf(settings.get(IngestConfig.TOPOLOGY_STATE_DIR)))
                        .resolve(instance)
                        .toString());
        out.put("streams.client.id", name + "-" + instance);
        if (withInstanceId) {
            out.put(GroupMembership.INSTANCE_ID, name + "-" + instance);
        }
        return out;
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }

    /**
     * One reading and one counter sample of each hive every 100 ms, from a thread of its own, 30 s of
     * event time apart, until closed: every partition of the two topics receives records all along.
     */
    private static final class Feed implements AutoCloseable {

        private final GatewayProducer producer;
        private final List<String> hives;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;
        private volatile boolean stopped;

        Feed(IngestConfig config, List<String> hives) {
            Topics topics = config.topics();
            this.producer = new GatewayProducer(
                    config.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic());
            this.hives = hives;
            this.thread = new Thread(this::run, "rolling-restart-it-feed");
            thread.setUncaughtExceptionHandler((t, e) -> failure.set(e));
            thread.start();
        }

        private void run() {
            for (long round = 0; !stopped; round++) {
                Instant time = FIRST.plusSeconds(30 * round);
                for (String hive : hives) {
                    producer.send(new TelemetryReading(
                            hive, "gw", SensorType.TEMPERATURE, "default", time, 35.0, "degC", null));
                    producer.send(new EntranceCount(hive, "gw", time, 1, 1, 30));
                }
                producer.flush();
                try {
                    Thread.sleep(100); // pacing of the feed, not a wait for a condition
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        /** Fails if the feed stopped on an error. */
        void check() {
            assertThat(failure.get()).as("the feed's failure").isNull();
            assertThat(thread.isAlive()).as("the feed runs").isTrue();
        }

        @Override
        public void close() throws InterruptedException {
            stopped = true;
            thread.join(TimeUnit.SECONDS.toMillis(30));
            producer.close();
        }
    }
}
