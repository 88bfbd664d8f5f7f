package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.validation.EntranceCountValidator;
import io.apiary.ingest.validation.TimeLimits;
import io.apiary.schema.EntranceCount;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The state benchmark's pure parts: its options, its workload, its settings and its folder arithmetic. */
class StateBenchTest {

    @TempDir
    Path dir;

    private static StateBench.Options options(
            int hives, long intervalSeconds, long graceMinutes, int heap, long timeout) {
        return new StateBench.Options(
                hives,
                Duration.ofSeconds(intervalSeconds),
                Duration.ofMinutes(graceMinutes),
                heap,
                Duration.ofMinutes(timeout));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0        | 60   | 60    | 768 | 30   | --hives must be from 1 to 10,000,000, was 0",
                "10000001 | 60   | 60    | 768 | 30   | --hives must be from 1 to 10,000,000, was 10,000,001",
                "1        | 0    | 60    | 768 | 30   | --sample-interval-seconds must be from 1 to 3600, was 0",
                "1        | 3601 | 60    | 768 | 30   | --sample-interval-seconds must be from 1 to 3600, was 3601",
                "1        | 60   | -1    | 768 | 30   | --grace-minutes must be from 0 to 1051200, was -1",
                "1        | 60   | 2000000 | 768 | 30 | --grace-minutes must be from 0 to 1051200, was 2000000",
                "1        | 60   | 60    | 127 | 30   | --heap-mib must be at least 128 (the topology's JVM), was 127",
                "1        | 60   | 60    | 768 | 0    | --timeout-minutes must be from 1 to 1440, was 0",
                "1        | 60   | 60    | 768 | 1441 | --timeout-minutes must be from 1 to 1440, was 1441",
            })
    void options_out_of_range_are_refused_naming_the_command_line_option(
            int hives, long interval, long grace, int heap, long timeout, String message) {
        assertThatThrownBy(() -> options(hives, interval, grace, heap, timeout))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void the_extremes_of_each_range_are_accepted() {
        assertThat(options(1, 1, 0, 128, 1).workload().samplesPerHive()).isEqualTo(3_600);
        assertThat(options(10_000_000, 3_600, 1_051_200, 128, 1_440).workload().samples())
                .isEqualTo(10_000_000);
        assertThatThrownBy(() ->
                        new StateBench.Options(1, Duration.ofMillis(1_500), Duration.ZERO, 128, Duration.ofMinutes(1)))
                .hasMessage("--sample-interval-seconds must be from 1 to 3600, was 1.5");
    }

    @ParameterizedTest
    @CsvSource({"60, 60", "30, 120", "7, 515", "3600, 1", "1, 3600", "1800, 2", "2000, 2"})
    void a_hive_sends_the_samples_that_start_within_the_hour(long intervalSeconds, long perHive) {
        StateWorkload workload = new StateWorkload(3, Duration.ofSeconds(intervalSeconds), StateWorkload.HOUR);
        assertThat(workload.samplesPerHive()).isEqualTo(perHive);
        assertThat(workload.samples()).isEqualTo(3 * perHive);
        EntranceCount last = workload.sample(workload.samples() - 1);
        assertThat(HourBucket.hourStart(last.getEventTime().toEpochMilli()))
                .as("the last sample is still in the hour")
                .isEqualTo(StateWorkload.HOUR.toEpochMilli());
        assertThat(last.getEventTime()).isEqualTo(StateWorkload.HOUR.plusSeconds(intervalSeconds * (perHive - 1)));
    }

    @Test
    void samples_are_distinct_valid_interleaved_by_hive_and_all_in_one_hour() {
        StateWorkload workload = new StateWorkload(250, Duration.ofSeconds(60), StateWorkload.HOUR);
        EntranceCountValidator validator =
                new EntranceCountValidator(new TimeLimits(Duration.ofMinutes(5), StateBench.MAX_AGE));
        long now = Instant.parse("2026-12-05T00:00:00Z").toEpochMilli();
        Set<List<Object>> identities = new HashSet<>();
        long counted = 0;
        for (long i = 0; i < workload.samples(); i++) {
            EntranceCount s = workload.sample(i);
            assertThat(validator.check(s.getHiveId(), s, now))
                    .as("sample %d", i)
                    .isNull();
            assertThat(identities.add(List.of(s.getHiveId(), s.getGatewayId(), s.getEventTime())))
                    .isTrue();
            assertThat(s.getHiveId()).isEqualTo(BenchWorkload.hiveId((int) (i % 250)));
            assertThat(s.getGatewayId()).isEqualTo("gw-" + (i % 250) % 100);
            assertThat(s.getEventTime()).isEqualTo(StateWorkload.HOUR.plusSeconds(60 * (i / 250)));
            assertThat(s.getIntervalSeconds()).isEqualTo(60);
            counted += s.getBeesIn() + s.getBeesOut();
        }
        assertThat(identities).hasSize(15_000);
        assertThat(counted).as("the hour is a busy one: bees are counted").isPositive();
        assertThatThrownBy(() -> workload.sample(15_000)).hasMessageContaining("outside 0..14999");
        assertThatThrownBy(() -> new StateWorkload(1, Duration.ofSeconds(60), StateWorkload.HOUR.plusSeconds(1)))
                .hasMessageContaining("start of a UTC hour");
    }

    @Test
    void the_topology_gets_the_run_s_own_names_and_windows_over_the_base_settings() {
        IngestConfig base = ConfigLoader.load(
                null,
                Map.of(),
                Map.of(
                        IngestConfig.KAFKA_BOOTSTRAP_SERVERS,
                        "127.0.0.1:1",
                        IngestConfig.ACTIVITY_GRACE_MS,
                        "600000",
                        IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS,
                        "5000",
                        "topology.store.type",
                        "in_memory"));
        StateBench bench =
                new StateBench(base, options(10, 60, 90, 256, 5), "Main", dir, new PrintWriter(new StringWriter()));

        Map<String, String> settings = bench.topologySettings();
        IngestConfig config = ConfigLoader.load(null, Map.of(), settings);

        String application = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
        assertThat(application).startsWith("apiary-bench-state-");
        assertThat(config.topics().entranceCounts()).isEqualTo(application + ".hive.activity.v1");
        assertThat(config.topics().all()).allMatch(t -> t.startsWith(application + "."));
        assertThat(config.getLong(IngestConfig.ACTIVITY_GRACE_MS))
                .isEqualTo(Duration.ofMinutes(90).toMillis());
        assertThat(config.getLong(IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS))
                .isEqualTo(Duration.ofHours(StateBench.IDLE_TIMEOUT_HOURS).toMillis());
        assertThat(config.getString(IngestConfig.TOPOLOGY_STATE_DIR))
                .isEqualTo(dir.resolve("state").toAbsolutePath().toString());
        assertThat(settings)
                .containsEntry("topology.store.type", "in_memory")
                .containsEntry(IngestConfig.KAFKA_BOOTSTRAP_SERVERS, "127.0.0.1:1");
    }

    @Test
    void a_state_folder_s_bytes_count_per_store_below_rocksdb_and_all_in_the_total() throws Exception {
        Path state = dir.resolve("state");
        write(state.resolve("app/1_0/rocksdb/sums/000001.sst"), 100);
        write(state.resolve("app/1_0/rocksdb/sums/MANIFEST-000001"), 10);
        write(state.resolve("app/1_1/rocksdb/sums/000002.sst"), 200);
        write(state.resolve("app/1_1/rocksdb/seen/000003.sst"), 1_000);
        write(state.resolve("app/1_1/rocksdb/other/000004.sst"), 7);
        write(state.resolve("app/1_1/.checkpoint"), 3);
        write(state.resolve("app/kafka-streams-process-metadata"), 5);
        // a file named like a store right under rocksdb/ is no store's
        write(state.resolve("app/1_2/rocksdb/sums"), 50);

        Map<String, Long> bytes = StateBench.folderBytes(state, List.of("sums", "seen", "empty"));

        assertThat(bytes)
                .containsEntry("sums", 310L)
                .containsEntry("seen", 1_000L)
                .containsEntry("empty", 0L)
                .containsEntry(StateBench.TOTAL, 1_375L);
        assertThat(StateBench.folderBytes(dir.resolve("missing"), List.of("sums")))
                .containsEntry("sums", 0L)
                .containsEntry(StateBench.TOTAL, 0L);
    }

    private static void write(Path file, int bytes) throws Exception {
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[bytes]);
    }
}
