package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItPipelineSettings;
import io.apiary.ingest.it.RunningPipeline;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.schema.HourlyActivity;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import-counts} on the real stack, the topology and the sink running: a counter log of
 * several hours (two hives, in blocks) and an event log land in {@code hive.activity.hourly.v1}
 * and {@code hive_activity} with exactly the hourly sums this test computes from the lines it
 * wrote; a late and an expired sample are reported by {@code --await} with their lines.
 */
class ImportCountsIT {

    private static final String KEYSPACE = "it_import_counts";
    private static final Instant START = Instant.parse("2021-07-15T08:00:00Z");

    private static RunningPipeline running;
    private static IngestConfig config;
    private static CqlSession session;
    private static List<String> settings;

    @TempDir
    static Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void startPipeline() {
        running = RunningPipeline.start(
                "import-counts",
                Map.of(
                        IngestConfig.TOPIC_PARTITIONS,
                        2,
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                        2_000,
                        IngestConfig.ACTIVITY_UPDATE_INTERVAL_MS,
                        500));
        config = running.config();
        session = running.session();
        settings = running.settings();
    }

    @AfterAll
    static void stopPipeline() {
        if (running != null) {
            running.close();
        }
    }

    private int run(String... args) {
        return runWith(settings, args);
    }

    private int runWith(List<String> with, String... args) {
        return RunningPipeline.run(out, err, with, args);
    }

    @Test
    void should_sum_an_interval_log_and_an_event_log_to_the_hourly_counts_of_their_lines() throws Exception {
        Random random = new Random(20261202L);
        Map<String, long[]> expected = new TreeMap<>(); // "hive hourStart" -> in, out, samples

        // interval logs: one file per hive, as public data sets have them, 5-minute intervals stamped at their end
        List<String> files = new ArrayList<>();
        for (String hive : List.of("a", "b")) {
            StringBuilder intervals = new StringBuilder("# counter export\nended,in,out\n");
            for (int i = 1; i <= 48; i++) {
                Instant end = START.plusSeconds(300L * i);
                int in = random.nextInt(400);
                int outCount = random.nextInt(400);
                intervals
                        .append(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
                                .format(end.atOffset(ZoneOffset.UTC)))
                        .append(',')
                        .append(in)
                        .append(',')
                        .append(outCount)
                        .append('\n');
                long[] sums = expected.computeIfAbsent(hive + " " + hourOf(end), k -> new long[3]);
                sums[0] += in;
                sums[1] += outCount;
                sums[2]++;
            }
            files.addAll(List.of(
                    "--file",
                    Files.writeString(dir.resolve(hive + ".csv"), intervals).toString()));
        }

        // event log: hive c, one line per passage over the three hours after those, counted per minute
        StringBuilder events = new StringBuilder("t;direction\n");
        Map<String, java.util.Set<Long>> minutes = new HashMap<>();
        for (int i = 0; i < 3_000; i++) {
            Instant t = START.plus(Duration.ofHours(6)).plusMillis((long) (random.nextDouble() * 3 * 3_600_000L));
            boolean in = random.nextBoolean();
            events.append(java.math.BigDecimal.valueOf(t.toEpochMilli(), 3).toPlainString())
                    .append(';')
                    .append(in ? "IN" : "OUT")
                    .append('\n');
            long[] sums = expected.computeIfAbsent("c " + hourOf(t), k -> new long[3]);
            sums[in ? 0 : 1]++;
            minutes.computeIfAbsent("c " + hourOf(t), k -> new java.util.HashSet<>())
                    .add(t.toEpochMilli() / 60_000);
        }
        minutes.forEach((key, set) -> expected.get(key)[2] = set.size());
        Path eventFile = Files.writeString(dir.resolve("events.csv"), events);

        List<String> intervalArgs = new ArrayList<>(List.of(
                "import-counts",
                "--time-column",
                "ended",
                "--hive-id-from-file-name",
                "--comment-prefix",
                "#",
                "--in-column",
                "in",
                "--out-column",
                "out",
                "--interval-seconds",
                "300",
                "--await",
                "--strict"));
        intervalArgs.addAll(files);
        int intervalExit = run(intervalArgs.toArray(String[]::new));
        assertThat(intervalExit).as(err.toString()).isZero();
        assertThat(out.toString())
                .contains(
                        "a.csv: 48 rows read, 0 rows rejected, 1 comment lines skipped",
                        "b.csv: 48 rows read",
                        "2 files: 96 samples produced to import-counts-it.topic.entrance.counts,"
                                + " 0 exact duplicates, 0 conflicting duplicates",
                        "2 files: the topology consumed all 96 samples:" + " 96 summed, 0 late");

        int eventExit = run(
                "import-counts",
                "--file",
                eventFile.toString(),
                "--time-column",
                "t",
                "--time-format",
                "epoch-s",
                "--delimiter",
                ";",
                "--hive-id",
                "c",
                "--direction-column",
                "direction",
                "--bucket-seconds",
                "60",
                "--await",
                "--strict");
        assertThat(eventExit).as(err.toString()).isZero();
        int eventSamples =
                minutes.values().stream().mapToInt(java.util.Set::size).sum();
        assertThat(out.toString())
                .contains(
                        "events.csv: 3000 rows read, 3000 passages counted, 0 rows rejected",
                        "events.csv: " + eventSamples + " samples produced to import-counts-it.topic.entrance.counts"
                                + " (passages counted per hive in 60 s buckets)",
                        "events.csv: the topology consumed all " + eventSamples + " samples: " + eventSamples
                                + " summed, 0 late");

        Map<String, long[]> finals = new TreeMap<>();
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    finals.clear();
                    for (HourlyActivity h : readHourly()) {
                        long[] previous = finals.put(
                                h.getHiveId() + " " + h.getWindowStart(),
                                new long[] {h.getEntries(), h.getExits(), h.getSamples()});
                        assertThat(previous).as("one final per hive and hour").isNull();
                    }
                    assertThat(finals.keySet()).isEqualTo(expected.keySet());
                });
        expected.forEach((key, sums) -> assertThat(finals.get(key)).as(key).containsExactly(sums));
        assertThat(expected).hasSize(5 + 5 + 3); // the interval ending 12:00 counts in hour 12 for a and b

        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> expected.forEach((key, sums) -> {
                    String[] parts = key.split(" ");
                    Instant hour = Instant.parse(parts[1]);
                    Row row = session.execute(
                                    "SELECT bees_in, bees_out, samples FROM " + KEYSPACE
                                            + ".hive_activity WHERE hive_id = ? AND day = ? AND hour = ?",
                                    parts[0],
                                    LocalDate.ofInstant(hour, ZoneOffset.UTC),
                                    hour.atOffset(ZoneOffset.UTC).getHour())
                            .one();
                    assertThat(row).as(key).isNotNull();
                    assertThat(new long[] {row.getLong("bees_in"), row.getLong("bees_out"), row.getInt("samples")})
                            .as(key)
                            .containsExactly(sums);
                }));

        // now that hive a's hours have closed: a sample for one of them within the correction horizon
        // corrects it, one 3 days older than hive a's latest sample is beyond the horizon (late), one
        // from 2001 is too old: the importer runs the topology's validator and does not send it
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        Path stale = Files.writeString(dir.resolve("stale.csv"), """
                ended,in,out
                2021-07-15 09:32:30,5,6
                2021-07-12 09:30:00,7,8
                2001-05-01 12:00:00,1,1
                """);
        int staleExit = importHiveA(stale, settings);

        assertThat(staleExit).isEqualTo(3);
        assertThat(out.toString())
                .contains(
                        "stale.csv: 2 samples produced to import-counts-it.topic.entrance.counts, 0 exact duplicates,"
                                + " 0 conflicting duplicates, 1 more not sent: the topology would dead-letter them"
                                + " (EXPIRED_TIMESTAMP 1)",
                        "stale.csv: the topology consumed all 2 samples: 1 summed, 1 late (on"
                                + " import-counts-it.topic.activity.late), 0 rejected (on"
                                + " import-counts-it.topic.dead.letter)");
        assertThat(err.toString())
                .contains(
                        "stale.csv: late: line 3: LATE, hive a interval ending"
                                + " 2021-07-12T09:30:00Z (7 in, 8 out): its hour 2021-07-12T09:00:00Z had closed",
                        "stale.csv: line 4: not sent, the topology would dead-letter it (EXPIRED_TIMESTAMP):",
                        "1 of the samples are older than the maximum age",
                        "activity.correction.horizon.ms");
        long[] hour9 = expected.get("a " + Instant.parse("2021-07-15T09:00:00Z"));
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> {
                    assertThat(rowOfHiveA(LocalDate.of(2021, 7, 15), 9))
                            .as("the hour of 09:00 corrected with the sample of the horizon")
                            .containsExactly(hour9[0] + 5, hour9[1] + 6, hour9[2] + 1);
                    assertThat(readHourly())
                            .filteredOn(h -> h.getHiveId().equals("a")
                                    && h.getWindowStart().equals(Instant.parse("2021-07-15T09:00:00Z")))
                            .extracting(HourlyActivity::getPaneIndex, HourlyActivity::getEntries)
                            .containsExactly(
                                    org.assertj.core.groups.Tuple.tuple(0, hour9[0]),
                                    org.assertj.core.groups.Tuple.tuple(1, hour9[0] + 5));
                });

        historyWithinTheHorizonIsSummedByTheLiveTopology();
        replayIntoATopologyOfItsOwn();
    }

    /**
     * A day of hive a's history, a day before its latest sample, imported into the live topology while
     * hive a is live: within the correction horizon, every sample is summed and its hours exact.
     */
    private void historyWithinTheHorizonIsSummedByTheLiveTopology() throws Exception {
        StringBuilder day = new StringBuilder("ended,in,out\n");
        long[] hour8 = new long[3];
        for (int i = 1; i <= 11; i++) {
            day.append(String.format("2021-07-14 08:%02d:00,%d,%d%n", i * 5, i, 3 * i));
            hour8[0] += i;
            hour8[1] += 3 * i;
            hour8[2]++;
        }
        Path file = Files.writeString(dir.resolve("yesterday.csv"), day.toString());
        out.getBuffer().setLength(0);
        int exit = importHiveA(file, settings);
        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString()).contains("yesterday.csv: the topology consumed all 11 samples: 11 summed, 0 late");
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() ->
                        assertThat(rowOfHiveA(LocalDate.of(2021, 7, 14), 8)).containsExactly(hour8));
    }

    /**
     * The recipe of docs/commands.md for history beyond the correction horizon of a live hive: a topology with
     * its own application id and gateway topics, writing the same row topic, so the live sink
     * writes its hours.
     */
    private void replayIntoATopologyOfItsOwn() throws Exception {
        Map<String, Object> replaySettings = new HashMap<>(config.originals());
        replaySettings.put(IngestConfig.TOPOLOGY_APPLICATION_ID, "import-counts-replay-it");
        Path state = Path.of("target", "import-counts-replay-it-state").toAbsolutePath();
        io.apiary.ingest.devstack.StackFiles.deleteRecursively(state);
        replaySettings.put(IngestConfig.TOPOLOGY_STATE_DIR, state.toString());
        for (String topic : List.of(
                IngestConfig.TOPIC_TELEMETRY,
                IngestConfig.TOPIC_ENTRANCE_COUNTS,
                IngestConfig.TOPIC_ACTIVITY_LATE,
                IngestConfig.TOPIC_WEATHER,
                IngestConfig.TOPIC_ALERTS)) {
            replaySettings.put(topic, "import-counts-replay-it." + topic);
        }
        IngestConfig replay = io.apiary.ingest.config.ConfigLoader.load(null, Map.of(), replaySettings);
        ItPipelineSettings.prepare(replay, session);
        List<String> replayArgs = new ArrayList<>();
        replay.originals().forEach((key, value) -> replayArgs.addAll(List.of("--set", key + "=" + value)));
        StringBuilder day = new StringBuilder("ended,in,out\n");
        long[] hour10 = new long[3];
        for (int i = 1; i <= 12; i++) {
            day.append("2021-07-10 10:")
                    .append(String.format("%02d", i * 5 % 60))
                    .append(":00,")
                    .append(i)
                    .append(',')
                    .append(2 * i)
                    .append('\n');
            if (i < 12) {
                hour10[0] += i;
                hour10[1] += 2 * i;
                hour10[2]++;
            }
        }
        Path history =
                Files.writeString(dir.resolve("history.csv"), day.toString().replace("10:00:00,12,", "11:00:00,12,"));
        out.getBuffer().setLength(0);
        try (Pipeline replayTopology = Pipeline.start(replay, true, false, new SimpleMeterRegistry())) {
            int exit = importHiveA(history, replayArgs);
            assertThat(exit).as(err.toString()).isZero();
            assertThat(out.toString()).contains("history.csv: the topology consumed all 12 samples: 12 summed, 0 late");
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        assertThat(rowOfHiveA(LocalDate.of(2021, 7, 10), 10)).containsExactly(hour10);
                        assertThat(rowOfHiveA(LocalDate.of(2021, 7, 10), 11)).containsExactly(12, 24, 1);
                    });
        }
    }

    /** Imports an interval log of hive a (columns ended, in, out; 5-minute intervals) with --await --strict. */
    private int importHiveA(Path file, List<String> with) {
        List<String> args = new ArrayList<>(List.of(
                "import-counts",
                "--file",
                file.toString(),
                "--time-column",
                "ended",
                "--hive-id",
                "a",
                "--in-column",
                "in",
                "--out-column",
                "out",
                "--interval-seconds",
                "300",
                "--await",
                "--strict"));
        return runWith(with, args.toArray(String[]::new));
    }

    /** @return bees_in, bees_out and samples of hive a's hive_activity row of that hour, null when none */
    private static long[] rowOfHiveA(LocalDate day, int hour) {
        Row row = session.execute(
                        "SELECT bees_in, bees_out, samples FROM " + KEYSPACE + ".hive_activity"
                                + " WHERE hive_id = 'a' AND day = ? AND hour = ?",
                        day,
                        hour)
                .one();
        return row == null ? null : new long[] {row.getLong("bees_in"), row.getLong("bees_out"), row.getInt("samples")};
    }

    private static Instant hourOf(Instant t) {
        return Instant.ofEpochMilli(t.toEpochMilli() / 3_600_000L * 3_600_000L);
    }

    private static List<HourlyActivity> readHourly() {
        return io.apiary.ingest.demo.HourlyResults.read(config, Duration.ofMinutes(1))
                .results();
    }
}
