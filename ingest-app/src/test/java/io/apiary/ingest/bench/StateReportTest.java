package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.topology.HourlyActivityProcessor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state benchmark's arithmetic and its report, on figures made up to give round numbers. */
class StateReportTest {

    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    /** 1,000 hives x 60 samples; RocksDB 100 MiB + 1 MiB of its 128 MiB. */
    static StateFigures figures(long cachePeak, long liveHeap) {
        return new StateFigures(
                1_000,
                60,
                60_000,
                Duration.ofHours(1),
                "rocksdb",
                4,
                768 * MIB,
                128 * MIB,
                1.5,
                12.0,
                300 * MIB,
                20 * MIB,
                liveHeap,
                500 * MIB,
                cachePeak,
                128 * MIB,
                60 * MIB,
                1 * MIB,
                List.of(
                        new StateFigures.Store(
                                HourlyActivityProcessor.HOURS_STORE, 9_000, 100_000, 9_000, 80_000, 120_000),
                        new StateFigures.Store(
                                HourlyActivityProcessor.SAMPLES_STORE, 60_000, 1_200_000, 60_000, 80_000, 1_800_000),
                        new StateFigures.Store(HourlyActivityProcessor.HIVES_STORE, 4, 100, 10, 80_000, 90_000)),
                240_000,
                50.0,
                49.5,
                69_000,
                12,
                2.5,
                240_000,
                2_010_000,
                0,
                0);
    }

    @Test
    void totals_are_divided_per_open_hive_hour_and_per_sample_held() {
        StateFigures f = figures(100 * MIB, 30 * MIB);

        assertThat(f.openHiveHours()).isEqualTo(1_000);
        assertThat(f.samples()).isEqualTo(60_000);
        assertThat(f.rocksDbBytes()).isEqualTo(101 * MIB);
        assertThat(f.rocksDbWithinBound()).isTrue();
        assertThat(f.liveHeapGrowthBytes()).isEqualTo(10 * MIB);
        assertThat(f.changelogBytes()).isEqualTo(1_300_100);
        assertThat(f.changelogRecords()).isEqualTo(69_010);
        assertThat(f.perHiveHour(1_300_100)).isEqualTo(1_300.1);
        assertThat(f.perSample(1_200_000)).isEqualTo(20.0);
        assertThat(f.perSample(-1)).isNaN();
        assertThat(f.samplesPerSecond()).isEqualTo(5_000.0);
        assertThat(f.restoredPerSecond()).isEqualTo(27_600.0);
        assertThat(f.store(HourlyActivityProcessor.SAMPLES_STORE).changelogBytes())
                .isEqualTo(1_200_000);
        assertThat(f.store("none")).isNull();
    }

    @Test
    void what_was_not_measured_is_neither_within_the_bound_nor_a_growth() {
        StateFigures unmeasured = figures(-1, -1);
        assertThat(unmeasured.rocksDbBytes()).isEqualTo(-1);
        assertThat(unmeasured.rocksDbWithinBound()).isFalse();
        assertThat(unmeasured.liveHeapGrowthBytes()).isEqualTo(-1);
        assertThat(figures(128 * MIB, 1).rocksDbWithinBound())
                .as("the cache full to its capacity plus table readers passes the bound")
                .isFalse();
    }

    @Test
    void the_table_shows_totals_and_both_divisions_and_the_restore() {
        StringWriter text = new StringWriter();
        new StateReport(figures(100 * MIB, 30 * MIB), Map.of()).print(new PrintWriter(text));
        String out = text.toString();

        assertThat(out)
                .contains("State under 1,000 hives: one hour of entrance-counter samples, 60 per hive (60,000 in all), "
                        + "grace 60 min; rocksdb stores in 4 tasks, heap 768.0 MiB, topology.rocksdb.memory.bytes"
                        + " 128.0 MiB")
                .contains("Fed 60,000 samples in 1.5 s; the topology had committed them all 12.0 s later (5,000"
                        + " samples/s)")
                .contains("| figure | total | per open hive-hour | per sample held |")
                .contains("| live heap growth | 10.0 MiB | 10,486 B | 175 B |")
                .contains("| changelog hourly-activity-samples | 1.1 MiB (60,000 offsets) | 1,200 B | 20.0 B |")
                .contains("| changelog hourly-activity-hives | 0.1 KiB (10 offsets) | 0.1 B | 0.0 B |")
                .contains("| RocksDB memory, peak (block cache with memtables, index and filters; table readers)"
                        + " | 101.0 MiB of 128.0 MiB | 105,906 B | 1,765 B |")
                .contains("RocksDB memory within its bound (101.0 MiB of 128.0 MiB, the cache's capacity 128.0 MiB)")
                .contains("9,000 in the hours' store (1,000 open hours), 60,000 in the sample identities' store"
                        + " (60,000 samples), 4 in the hives' store (1,000 hives)")
                .contains("Per hive (hourly-activity-hives): 0.1 B of changelog, 90.0 B of state folder after a clean"
                        + " stop. Per open hour (hourly-activity-hours and hourly-activity-samples: its sums and its"
                        + " samples' identities): 1,300 B of changelog, 1,920 B of state folder after a clean stop")
                .contains("Restore after a SIGKILL at the peak: 69,000 records of 12 changelog partitions in 2.5 s"
                        + " (27,600 records/s); RUNNING 50.0 s after the kill (49.5 s after the new JVM's launch)")
                .contains("Hours closed 0, late samples 0");
        StringWriter above = new StringWriter();
        new StateReport(figures(200 * MIB, -1), Map.of()).print(new PrintWriter(above));
        assertThat(above.toString())
                .contains("RocksDB memory ABOVE its bound")
                .contains("| live heap growth | n/a | n/a | n/a |");
    }

    @Test
    void sizes_and_durations_read_as_a_person_reads_them() {
        assertThat(StateReport.size(-1)).isEqualTo("n/a");
        assertThat(StateReport.size(512)).isEqualTo("0.5 KiB");
        assertThat(StateReport.size(MIB)).isEqualTo("1.0 MiB");
        assertThat(StateReport.size(1_536 * MIB)).isEqualTo("1,536.0 MiB");
        assertThat(StateReport.bytes(59.94)).isEqualTo("59.9 B");
        assertThat(StateReport.bytes(1234.5)).isEqualTo("1,235 B");
        assertThat(StateReport.bytes(Double.NaN)).isEqualTo("n/a");
        assertThat(StateReport.duration(Duration.ofHours(1))).isEqualTo("60 min");
        assertThat(StateReport.duration(Duration.ZERO)).isEqualTo("0 s");
        assertThat(StateReport.duration(Duration.ofMillis(1_500))).isEqualTo("1.500 s");
    }

    @Test
    void the_json_holds_context_figures_and_the_divisions() throws Exception {
        Path file = dir.resolve("state.json");
        new StateReport(figures(100 * MIB, 30 * MIB), Map.of("cores", 2)).write(file);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.at("/context/cores").asInt()).isEqualTo(2);
        assertThat(json.at("/figures/hives").asInt()).isEqualTo(1_000);
        assertThat(json.at("/figures/graceMs").asLong()).isEqualTo(3_600_000);
        assertThat(json.at("/figures/stores/1/name").asText()).isEqualTo(HourlyActivityProcessor.SAMPLES_STORE);
        assertThat(json.at("/figures/stores/1/folderBytesStopped").asLong()).isEqualTo(1_800_000);
        assertThat(json.at("/derived/rocksdb_within_bound").asBoolean()).isTrue();
        assertThat(json.at("/derived/samples_per_second").asDouble()).isEqualTo(5_000.0);
        JsonNode perUnit = json.at("/derived/per_unit");
        assertThat(perUnit)
                .hasSize(new StateReport(figures(1, 1), Map.of()).rows().size());
        JsonNode seen = perUnit.get(7);
        assertThat(seen.get("figure").asText()).isEqualTo("changelog hourly-activity-samples");
        assertThat(seen.get("per_sample").asDouble()).isEqualTo(20.0);
        assertThat(seen.get("per_open_hive_hour").asDouble()).isEqualTo(1_200.0);
    }
}
