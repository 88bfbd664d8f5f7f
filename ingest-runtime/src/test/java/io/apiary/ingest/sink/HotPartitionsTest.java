package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.driver.internal.core.util.RoutingKey;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.metrics.PrometheusConventions;
import io.apiary.ingest.sink.HotPartitionReport.PartitionLoad;
import io.apiary.ingest.testing.RandomCases;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HotPartitionsTest {

    static final String TABLE = io.apiary.ingest.tables.TableNames.HIVE_TELEMETRY;
    static final long WINDOW_NANOS = Duration.ofSeconds(10).toNanos();
    /** 09:05 UTC: the time strategy's shard 36 of 96 (09:00 to 09:15) is being written. */
    static final Instant NOW = Instant.parse("2026-11-30T09:05:00Z");

    static final LocalDate TODAY = LocalDate.of(2026, 11, 30);
    static final int ROW_BYTES = 145;

    @SuppressWarnings("unchecked")
    static final PartitionKeyFormat TELEMETRY_KEY = new PartitionKeyFormat(
            List.of("hive_id", "day", "shard"),
            List.of(
                    (TypeCodec<Object>) (TypeCodec<?>) TypeCodecs.TEXT,
                    (TypeCodec<Object>) (TypeCodec<?>) TypeCodecs.DATE,
                    (TypeCodec<Object>) (TypeCodec<?>) TypeCodecs.INT));

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<String> warnings = new ArrayList<>();
    int tokenOwners = 1;

    HotPartitions detector(HotPartitionSettings settings, Instant now) {
        return new HotPartitions(
                settings,
                Map.of(TABLE, new HotPartitions.Table(TELEMETRY_KEY, PartitionLife.of(TABLE, settings))),
                new HotPartitionMeters(registry),
                Clock.fixed(now, ZoneOffset.UTC),
                0,
                () -> tokenOwners,
                String::valueOf,
                warnings::add);
    }

    HotPartitions detector() {
        return detector(HotPartitionSettings.DEFAULTS, NOW);
    }

    /** The routing key the driver computes for (hive_id, day, shard): a composite of three components. */
    static ByteBuffer key(String hive, LocalDate day, int shard) {
        return RoutingKey.compose(
                TypeCodecs.TEXT.encode(hive, ProtocolVersion.DEFAULT),
                TypeCodecs.DATE.encode(day, ProtocolVersion.DEFAULT),
                TypeCodecs.INT.encode(shard, ProtocolVersion.DEFAULT));
    }

    static String hive(int n) {
        return String.format("hive-%04d", n);
    }

    /** Ten seconds of writes: every hive one write a second of {@code rows(hive)} rows. */
    static void tenSeconds(
            HotPartitions detector, int hives, java.util.function.IntUnaryOperator rows, LocalDate day, int shard) {
        for (int second = 0; second < 10; second++) {
            for (int h = 0; h < hives; h++) {
                int n = rows.applyAsInt(h);
                detector.partition(TABLE, key(hive(h), day, shard), n, (long) n * ROW_BYTES);
            }
        }
    }

    @Test
    void meters_scrape_as_numbers_with_one_unit_each_before_the_first_window_and_after_a_hot_one() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        HotPartitions detector = new HotPartitions(
                HotPartitionSettings.DEFAULTS,
                Map.of(
                        TABLE,
                        new HotPartitions.Table(TELEMETRY_KEY, PartitionLife.of(TABLE, HotPartitionSettings.DEFAULTS))),
                new HotPartitionMeters(prometheus),
                Clock.fixed(NOW, ZoneOffset.UTC),
                0,
                () -> 3,
                String::valueOf,
                warnings::add);
        String table = "table=\"" + TABLE + "\"";

        String idle = prometheus.scrape();
        PrometheusConventions.check(idle);
        assertThat(idle)
                .as("0 before the first window")
                .contains("apiary_sink_partition_hottest_share_ratio{measure=\"rows\"," + table + "} 0.0")
                .contains("apiary_sink_partition_hottest_rows_per_second{" + table + "} 0.0")
                .contains("apiary_sink_partition_hottest_bytes_per_second{" + table + "} 0.0")
                .contains("apiary_sink_partition_hottest_projected_bytes{" + table + "} 0.0");

        tenSeconds(detector, 100, h -> h == 42 ? 50 : 1, TODAY, 36);
        detector.replicas(List.of("10.0.0.1:9042"), 10);
        detector.tick(WINDOW_NANOS);

        PrometheusConventions.check(prometheus.scrape());
        assertThat(prometheus
                        .get(MetricNames.SINK_PARTITION_HOTTEST_ROWS_PER_SECOND)
                        .gauge()
                        .value())
                .isCloseTo(50, within(1e-9));
        assertThat(prometheus
                        .get(MetricNames.SINK_PARTITION_HOTTEST_BYTES_PER_SECOND)
                        .gauge()
                        .value())
                .isCloseTo(50 * ROW_BYTES, within(1e-9));
        assertThat(prometheus.get(MetricNames.SINK_NODE_SHARE).gauge().value()).isEqualTo(1.0);
    }

    @Test
    void should_flag_the_hive_sending_50_times_the_rate_of_the_others_with_its_key_and_share() {
        HotPartitions detector = detector();
        tenSeconds(detector, 100, h -> h == 42 ? 50 : 1, TODAY, 36);

        assertThat(detector.tick(WINDOW_NANOS)).isTrue();

        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("Hot partition in hive_telemetry_v2: (hive_id='hive-0042', day=2026-11-30, shard=36) took "
                        + "33.6% of the rows and 33.6% of the bytes written in the last 10 s (50 rows/s, 0.01 MB/s; "
                        + "100 partitions written); at this rate it holds 6.5 MB and 135,000 cells at the end of its "
                        + "bucket (2026-11-30T09:15Z), over the 100,000-cell limit");
        PartitionLoad hottest = detector.report().tables().get(TABLE).top().get(0);
        assertThat(hottest.key()).isEqualTo("(hive_id='hive-0042', day=2026-11-30, shard=36)");
        assertThat(hottest.rowsShare()).isCloseTo(50.0 / 149, within(1e-9));
        assertThat(hottest.hot()).isTrue();
        assertThat(detector.report().tables().get(TABLE).top())
                .filteredOn(PartitionLoad::hot)
                .hasSize(1);
        assertThat(registry.counter(MetricNames.SINK_HOT_PARTITIONS, "table", TABLE)
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(MetricNames.SINK_PARTITION_HOTTEST_SHARE)
                        .tags("table", TABLE, "measure", "rows")
                        .gauge()
                        .value())
                .isCloseTo(0.336, within(0.001));
        assertThat(registry.get(MetricNames.SINK_WRITTEN_PARTITIONS)
                        .tags("table", TABLE)
                        .gauge()
                        .value())
                .isCloseTo(100, within(2.0));
    }

    @Test
    void should_warn_once_per_partition_while_it_stays_hot() {
        HotPartitions detector = detector();
        for (int window = 1; window <= 3; window++) {
            tenSeconds(detector, 100, h -> h == 42 ? 50 : 1, TODAY, 36);
            detector.tick(window * WINDOW_NANOS);
        }

        assertThat(warnings).hasSize(1);
        assertThat(registry.counter(MetricNames.SINK_HOT_PARTITIONS, "table", TABLE)
                        .count())
                .isEqualTo(3);
    }

    @Test
    void should_flag_nothing_when_100_hives_send_at_the_same_rate() {
        HotPartitions detector = detector();
        tenSeconds(detector, 100, h -> 1, TODAY, 36);

        detector.tick(WINDOW_NANOS);

        assertThat(warnings).isEmpty();
        assertThat(detector.report().tables().get(TABLE).top()).noneMatch(PartitionLoad::hot);
    }

    @Test
    void should_flag_nothing_when_3_hives_send_at_the_same_rate_though_each_takes_a_third() {
        HotPartitions detector = detector();
        tenSeconds(detector, 3, h -> 1, TODAY, 36);

        detector.tick(WINDOW_NANOS);

        assertThat(warnings).isEmpty();
        assertThat(detector.report().tables().get(TABLE).top())
                .hasSize(3)
                .noneMatch(PartitionLoad::hot)
                .allSatisfy(p -> assertThat(p.rowsShare()).isCloseTo(1.0 / 3, within(1e-9)));
    }

    @Test
    void should_not_end_the_window_before_its_length() {
        HotPartitions detector = detector();
        tenSeconds(detector, 100, h -> h == 42 ? 50 : 1, TODAY, 36);

        assertThat(detector.tick(WINDOW_NANOS - 1)).isFalse();

        assertThat(warnings).isEmpty();
        assertThat(detector.report().tables()).isEmpty();
    }

    @Test
    void should_flag_a_hot_partition_without_projection_when_its_bucket_has_ended() {
        HotPartitions detector = detector();
        tenSeconds(detector, 100, h -> h == 42 ? 50 : 1, LocalDate.of(2021, 6, 19), 36); // a replay of history

        detector.tick(WINDOW_NANOS);

        assertThat(warnings).singleElement().asString().contains("hive-0042").doesNotContain("at this rate");
        assertThat(detector.report().tables().get(TABLE).top())
                .allSatisfy(p -> assertThat(p.projection()).isNull());
        assertThat(registry.get(MetricNames.SINK_PARTITION_HOTTEST_PROJECTED_BYTES)
                        .gauge()
                        .value())
                .as("nothing projected reads 0, not NaN")
                .isZero();
    }

    @Test
    void should_warn_about_a_projection_over_the_limits_below_the_share_threshold() {
        HotPartitions detector = detector();
        // 100 hives at 200 rows/s each: 1% each, but 180,000 rows (540,000 cells: 3 regular columns a row) in a
        // 15-minute slice
        tenSeconds(detector, 100, h -> 200, TODAY, 36);

        detector.tick(WINDOW_NANOS);

        // one line for the table, not one per partition: a burst raises every partition's rate at once
        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("Partition growing past the size limits in hive_telemetry_v2")
                .contains("540,000 cells", "over the 100,000-cell limit")
                .endsWith("(and 20 more of the heaviest partitions of hive_telemetry_v2 projected past the limits in "
                        + "this window; apiary.sink.projected.over.limit counts them)");
        // the candidates: the 1 / 0.05 + 1 = 21 heaviest by rows and by bytes (the same 21 here)
        assertThat(registry.get(MetricNames.SINK_PROJECTED_OVER_LIMIT)
                        .tag("table", TABLE)
                        .counter()
                        .count())
                .isEqualTo(21);

        tenSeconds(detector, 100, h -> 200, TODAY, 36);
        detector.tick(2 * WINDOW_NANOS);
        assertThat(warnings).as("at most one such line per table a minute").hasSize(1);
    }

    @Test
    void should_project_10_rows_a_second_of_500_bytes_to_18_MB_in_an_hour_and_432_MB_in_a_day() {
        List<Object> key = List.of("hive-0001", TODAY, 9);
        PartitionLife hourSlices = new PartitionLife(5, 1, 2, 24);
        PartitionLife wholeDay = new PartitionLife(5, 1, -1, 1);

        HotPartitionReport.Projection hour = HotPartitions.project(hourSlices, key, 10, 5_000, NOW);
        HotPartitionReport.Projection day = HotPartitions.project(wholeDay, key, 10, 5_000, NOW);

        assertThat(hour.bytes()).isEqualTo(18_000_000);
        assertThat(hour.rows()).isEqualTo(36_000);
        assertThat(hour.cells()).isEqualTo(180_000);
        assertThat(hour.bucketEnd()).isEqualTo(Instant.parse("2026-11-30T10:00:00Z"));
        assertThat(day.bytes()).isEqualTo(432_000_000).isGreaterThan(HotPartitionReport.LIMIT_BYTES);
        assertThat(day.bucketEnd()).isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
    }

    @Test
    void should_not_project_a_closed_bucket_nor_a_table_without_buckets() {
        PartitionLife slices = PartitionLife.of(TABLE, HotPartitionSettings.DEFAULTS);

        assertThat(HotPartitions.project(slices, List.of("h", TODAY, 35), 10, 5_000, NOW))
                .isNull(); // 08:45-09:00
        assertThat(HotPartitions.project(slices, List.of("h", TODAY, 36), 10, 5_000, NOW))
                .isNotNull();
        assertThat(HotPartitions.project(
                        PartitionLife.of("hive_activity", HotPartitionSettings.DEFAULTS), List.of("h"), 10, 5_000, NOW))
                .isNull();
    }

    @Test
    void should_give_each_time_shard_the_slice_of_the_day_its_rows_come_from() {
        PartitionLife life = new PartitionLife(5, 1, 2, 7); // slices that do not divide the day evenly
        long dayStart = TODAY.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
        for (int shard = 0; shard < 7; shard++) {
            PartitionLife.Bucket bucket = life.bucket(List.of("h", TODAY, shard));
            long first = bucket.start().toEpochMilli();
            long last = bucket.end().toEpochMilli() - 1;
            assertThat(io.apiary.ingest.bucket.ShardStrategy.TIME.shard("h", "s", first, 7))
                    .isEqualTo(shard);
            assertThat(io.apiary.ingest.bucket.ShardStrategy.TIME.shard("h", "s", last, 7))
                    .isEqualTo(shard);
            if (shard > 0) {
                assertThat(io.apiary.ingest.bucket.ShardStrategy.TIME.shard("h", "s", first - 1, 7))
                        .isEqualTo(shard - 1);
            }
        }
        assertThat(life.bucket(List.of("h", TODAY, 6)).end().toEpochMilli() - dayStart)
                .isEqualTo(86_400_000L);
    }

    @Test
    void should_find_a_heavy_key_among_a_million_with_bounded_memory() {
        HotPartitions detector = detector();
        ByteBuffer heavy = key("hive-heavy", TODAY, 36);
        for (int i = 0; i < 1_000_000; i++) {
            detector.partition(TABLE, key(hive(i), TODAY, 36), 1, ROW_BYTES);
            if (i % 5 == 0) {
                detector.partition(TABLE, heavy, 1, ROW_BYTES);
            }
        }

        assertThat(detector.retainedKeys()).isLessThanOrEqualTo(2 * HotPartitions.MAX_MAP_SIZE);
        detector.tick(WINDOW_NANOS);

        HotPartitionReport.TableLoad load = detector.report().tables().get(TABLE);
        assertThat(load.top()).hasSizeLessThanOrEqualTo(HotPartitions.TOP);
        assertThat(load.top().get(0).key()).contains("hive-heavy");
        assertThat(load.top().get(0).rowsShare()).isCloseTo(1.0 / 6, within(HotPartitions.EPSILON));
        assertThat(load.partitions()).isCloseTo(1_000_001, org.assertj.core.api.Assertions.withinPercentage(5));
        assertThat(warnings).singleElement().asString().contains("hive-heavy");
    }

    static Stream<Arguments> uniformWorkloads() {
        return RandomCases.cases(
                (SplittableRandom r) -> new Object[] {1 + r.nextInt(2_000), 1 + r.nextInt(20), r.nextInt(96)});
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("uniformWorkloads")
    void should_flag_no_partition_of_a_uniform_workload(String seed, int hives, int rowsPerWrite, int shard) {
        HotPartitions detector = detector(HotPartitionSettings.DEFAULTS, Instant.parse("2026-12-01T00:00:00Z"));
        for (int h = 0; h < hives; h++) {
            detector.partition(TABLE, key(hive(h), TODAY, shard), rowsPerWrite, (long) rowsPerWrite * ROW_BYTES);
        }

        detector.tick(WINDOW_NANOS);

        assertThat(detector.report().tables().get(TABLE).top()).noneMatch(PartitionLoad::hot);
        assertThat(warnings).isEmpty();
    }

    @Test
    void should_flag_a_node_that_is_a_replica_of_most_rows_once_an_hour() {
        tokenOwners = 3; // replication factor 1
        HotPartitions detector = detector();
        for (int window = 1; window <= 3; window++) {
            detector.replicas(Set.of("10.0.0.1:9042"), 800);
            detector.replicas(Set.of("10.0.0.2:9042"), 100);
            detector.replicas(Set.of("10.0.0.3:9042"), 100);
            detector.tick(window * WINDOW_NANOS);
        }

        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith(
                        "Hot Cassandra node 10.0.0.1:9042: a replica of "
                                + "80.0% of the rows written in the last 10 s, against a mean of 33.3% over the 3 nodes owning tokens");
        assertThat(registry.counter(MetricNames.SINK_HOT_NODES).count()).isEqualTo(3);
        assertThat(registry.get(MetricNames.SINK_NODE_SHARE)
                        .tags("node", "10.0.0.2:9042")
                        .gauge()
                        .value())
                .isCloseTo(0.1, within(1e-9));
        assertThat(registry.counter(MetricNames.SINK_NODE_REPLICA_ROWS, "node", "10.0.0.1:9042")
                        .count())
                .isEqualTo(2_400);
    }

    @Test
    void should_never_flag_a_single_node_nor_three_nodes_at_replication_factor_3() {
        HotPartitions detector = detector();
        detector.replicas(Set.of("a"), 1_000);
        detector.tick(WINDOW_NANOS);
        tokenOwners = 3;
        detector.replicas(Set.of("a", "b", "c"), 1_000);
        detector.tick(2 * WINDOW_NANOS);

        assertThat(warnings).isEmpty();
        assertThat(detector.report().nodeShares()).containsEntry("a", 1.0).containsEntry("c", 1.0);
        assertThat(detector.report().meanNodeShare()).isEqualTo(1.0);
    }

    @Test
    void should_decode_and_print_composite_and_single_column_routing_keys() {
        assertThat(TELEMETRY_KEY.decode(key("hive-0042", TODAY, 37))).containsExactly("hive-0042", TODAY, 37);
        assertThat(TELEMETRY_KEY.format(List.of("it's", TODAY, 37)))
                .isEqualTo("(hive_id='it''s', day=2026-11-30, shard=37)");
        @SuppressWarnings("unchecked")
        PartitionKeyFormat single =
                new PartitionKeyFormat(List.of("hive_id"), List.of((TypeCodec<Object>) (TypeCodec<?>) TypeCodecs.TEXT));
        ByteBuffer raw = TypeCodecs.TEXT.encode("hive-7", ProtocolVersion.DEFAULT);
        assertThat(single.format(single.decode(raw))).isEqualTo("(hive_id='hive-7')");
        assertThat(raw.position()).isZero();
    }

    @Test
    void should_flag_a_partition_hot_in_bytes_only_behind_ten_heavier_ones_in_rows() {
        HotPartitions detector = detector();
        for (int h = 0; h < 20; h++) {
            detector.partition(TABLE, key(hive(h), TODAY, 36), 100, 100L * ROW_BYTES);
        }
        detector.partition(TABLE, key("fat", TODAY, 36), 10, 10_000_000);

        detector.tick(WINDOW_NANOS);

        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("Hot partition in hive_telemetry_v2: (hive_id='fat'")
                .contains("of the bytes");
        assertThat(detector.report().tables().get(TABLE).top())
                .anyMatch(p -> p.key().contains("'fat'"));
    }

    @Test
    void should_log_at_most_ten_hot_partitions_of_a_table_a_minute_and_the_others_later() {
        HotPartitions detector = detector();
        // 12 partitions of 8% each, 4% spread over 100 hives: all 12 hot
        java.util.function.Consumer<HotPartitions> window = d -> {
            for (int k = 0; k < 12; k++) {
                d.partition(TABLE, key("HOT-" + k, TODAY, 36), 800, 800L * ROW_BYTES);
            }
            for (int h = 0; h < 100; h++) {
                d.partition(TABLE, key(hive(h), TODAY, 36), 4, 4L * ROW_BYTES);
            }
        };
        window.accept(detector);
        detector.tick(WINDOW_NANOS);

        assertThat(warnings).hasSize(11);
        assertThat(warnings.get(10))
                .startsWith("More hot partitions in hive_telemetry_v2 in this minute are not logged");
        assertThat(registry.get(MetricNames.SINK_HOT_PARTITIONS)
                        .tag("table", TABLE)
                        .counter()
                        .count())
                .isEqualTo(12);

        for (int w = 2; w <= 7; w++) {
            window.accept(detector);
            detector.tick(w * WINDOW_NANOS);
        }
        assertThat(warnings.stream().filter(l -> l.startsWith("Hot partition")))
                .as("the other two, a minute later")
                .hasSize(12)
                .extracting(l -> l.substring(0, l.indexOf(", day")))
                .doesNotHaveDuplicates();
    }

    @Test
    void should_survive_a_table_deployed_with_another_partition_key_and_print_its_keys() {
        @SuppressWarnings("unchecked")
        PartitionKeyFormat twoColumns = new PartitionKeyFormat(
                List.of("hive_id", "day"),
                List.of((TypeCodec<Object>) (TypeCodec<?>) TypeCodecs.TEXT, (TypeCodec<Object>)
                        (TypeCodec<?>) TypeCodecs.DATE));
        HotPartitions detector = new HotPartitions(
                HotPartitionSettings.DEFAULTS,
                Map.of(
                        TABLE,
                        new HotPartitions.Table(twoColumns, PartitionLife.of(TABLE, HotPartitionSettings.DEFAULTS))),
                new HotPartitionMeters(registry),
                Clock.fixed(NOW, ZoneOffset.UTC),
                0,
                () -> 1,
                String::valueOf,
                warnings::add);
        for (int h = 0; h < 100; h++) {
            detector.partition(
                    TABLE,
                    RoutingKey.compose(
                            TypeCodecs.TEXT.encode(hive(h), ProtocolVersion.DEFAULT),
                            TypeCodecs.DATE.encode(TODAY, ProtocolVersion.DEFAULT)),
                    h == 42 ? 500 : 10,
                    1_000);
        }

        assertThat(detector.tick(WINDOW_NANOS)).isTrue();

        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("(hive_id='hive-0042', day=2026-11-30)")
                .doesNotContain("at this rate");
    }

    @Test
    void should_escape_control_characters_of_keys_so_they_cannot_forge_log_lines() {
        HotPartitions detector = detector();
        for (int h = 0; h < 100; h++) {
            detector.partition(
                    TABLE,
                    key(h == 7 ? "a\nWARN [main] Fake - injected\u202E" : hive(h), TODAY, 36),
                    h == 7 ? 500 : 10,
                    1_000);
        }
        detector.tick(WINDOW_NANOS);

        assertThat(warnings)
                .singleElement()
                .asString()
                .doesNotContain("\n")
                .contains("(hive_id='a\\u000AWARN [main] Fake - injected\\u202E'");
    }

    @Test
    void should_not_project_a_day_far_ahead_of_the_clock() {
        HotPartitions detector = detector();
        tenSeconds(detector, 100, h -> 200, LocalDate.of(2999, 1, 1), 36);

        detector.tick(WINDOW_NANOS);

        assertThat(warnings).isEmpty();
        assertThat(detector.report().tables().get(TABLE).top())
                .allSatisfy(p -> assertThat(p.projection()).isNull());
    }
}
