package io.apiary.ingest.partitionsize;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.partitionsize.PartitionLimits.Verdict;
import io.apiary.ingest.tables.CqlTableDefinition;
import io.apiary.ingest.testing.RandomCases;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PartitionPlannerTest {

    private static final PartitionLimits LIMITS = PartitionLimits.DEFAULT;

    /** A sensor's readings, partitioned by sensor and bucket, one cell per row. */
    private static final CqlTableDefinition SENSOR = CqlTableDefinition.parse(
                    "CREATE TABLE readings ("
                            + "sensor text, day date, shard int, t timestamp, value double, PRIMARY KEY ((sensor, day, shard), t))")
            .orElseThrow();

    @Test
    void a_sensor_every_10_s_for_a_year_is_3_153_600_rows_and_315_mb_at_100_bytes_a_row() {
        long rows = PartitionPlanner.rowsPerPartition(WriteRate.parse("0.1/s"), Bucket.YEAR.seconds(), 1);

        assertThat(rows).isEqualTo(3_153_600);
        assertThat(RowShape.ofRowBytes(100, 1).bytes(rows)).isEqualTo(315_360_000);
        assertThat(PlanReport.mb(315_360_000)).isEqualTo("315 MB");
        assertThat(LIMITS.verdict(315_360_000, 0)).isEqualTo(Verdict.OVER);
    }

    @Test
    void bucketed_by_month_it_is_262_800_rows_and_26_mb() {
        long rows = PartitionPlanner.rowsPerPartition(WriteRate.parse("6/min"), Bucket.MONTH.seconds(), 1);

        assertThat(rows).isEqualTo(262_800);
        assertThat(RowShape.ofRowBytes(100, 1).bytes(rows)).isEqualTo(26_280_000);
        assertThat(LIMITS.verdict(26_280_000, 0)).isEqualTo(Verdict.OK);
        assertThat(LIMITS.verdict(26_280_000, 262_800))
                .as("one cell a row passes the cell limit")
                .isEqualTo(Verdict.OVER);
    }

    @Test
    void ten_writes_a_second_of_500_bytes_are_18_mb_an_hour_and_432_mb_a_day() {
        RowShape shape = RowShape.ofRowBytes(500, 1);
        long hour = PartitionPlanner.rowsPerPartition(WriteRate.parse("10/s"), Bucket.HOUR.seconds(), 1);
        long day = PartitionPlanner.rowsPerPartition(WriteRate.parse("10/s"), Bucket.DAY.seconds(), 1);

        assertThat(shape.bytes(hour)).isEqualTo(18_000_000);
        assertThat(shape.bytes(day)).isEqualTo(432_000_000);
        assertThat(LIMITS.verdict(shape.bytes(hour), 0)).isEqualTo(Verdict.OK);
        assertThat(LIMITS.verdict(shape.bytes(day), 0)).as("too big").isEqualTo(Verdict.OVER);
    }

    @Test
    void the_planner_suggests_the_smallest_shard_count_and_a_finer_bucket() {
        PlanSettings settings = settings(
                Map.of("readings", WriteRate.parse("10/s")), Map.of("readings", 1), Map.of(), Map.of("readings", 500L));

        TablePlan plan = PartitionPlanner.plan(List.of(SENSOR), settings).get(0);

        assertThat(plan.bucket()).isEqualTo(Bucket.DAY);
        assertThat(plan.rows()).isEqualTo(864_000);
        assertThat(plan.cells()).as("one regular column: value").isEqualTo(864_000);
        assertThat(plan.bytes()).isEqualTo(16 + 4 + 4 + 432_000_000);
        assertThat(plan.verdict()).isEqualTo(Verdict.OVER);
        // 1 cell a row: 100,000 cells hold 100,000 rows, so 9 shards (96,000 rows, 48 MB)
        assertThat(plan.smallestShards()).hasValue(9);
        assertThat(plan.finerBucket())
                .as("an hour: 36,000 rows and cells, 18 MB")
                .isEqualTo(Bucket.HOUR);

        TablePlan sharded = PartitionPlanner.plan(
                        List.of(SENSOR),
                        settings(
                                Map.of("readings", WriteRate.parse("10/s")),
                                Map.of("readings", 9),
                                Map.of(),
                                Map.of("readings", 500L)))
                .get(0);
        assertThat(sharded.rows()).isEqualTo(96_000);
        assertThat(sharded.verdict()).isEqualTo(Verdict.OK);
        assertThat(sharded.finerBucket()).isNull();
    }

    @Test
    void a_table_without_bucket_or_ttl_is_unbounded_and_a_ttl_bounds_it() {
        CqlTableDefinition noBucket = CqlTableDefinition.parse(
                        "CREATE TABLE log (source text, t timestamp, line text, PRIMARY KEY (source, t))")
                .orElseThrow();
        TablePlan plan = PartitionPlanner.plan(
                noBucket, WriteRate.parse("1/min"), settings(Map.of(), Map.of(), Map.of(), Map.of()));
        assertThat(plan.unbounded()).isTrue();
        assertThat(plan.verdict()).isEqualTo(Verdict.OVER);
        assertThat(plan.smallestShards()).isEmpty();
        assertThat(plan.finerBucket())
                .as("a year holds 525,600 rows and cells, a month 43,800")
                .isEqualTo(Bucket.MONTH);

        CqlTableDefinition withTtl = CqlTableDefinition.parse("CREATE TABLE log (source text, t timestamp, line text, "
                        + "PRIMARY KEY (source, t)) WITH default_time_to_live = 86400")
                .orElseThrow();
        TablePlan bounded = PartitionPlanner.plan(
                withTtl, WriteRate.parse("1/min"), settings(Map.of(), Map.of(), Map.of(), Map.of()));
        assertThat(bounded.rows()).isEqualTo(1_440);
        assertThat(bounded.cells()).isEqualTo(1_440);
        assertThat(bounded.assumed()).containsExactly("source text", "line text");
    }

    /**
     * The project's own tables at the planned load (10,000 hives x 1,000 readings/min and the
     * other defaults of partitions.plan.*): every table within the limits, with the figures the
     * partition-size math in each cql/ file states.
     */
    @Test
    void the_projects_own_tables_are_within_the_limits_at_the_planned_load() {
        IngestConfig config = new IngestConfig(Map.of());
        List<TablePlan> plans = PartitionPlanner.plan(
                io.apiary.ingest.tables.TableCatalog.of(java.nio.file.Path.of("..", "cql")).tables().stream()
                        .map(io.apiary.ingest.tables.TableDescriptor::definition)
                        .toList(),
                PlanSettings.from(config, Map.of()));

        assertThat(plans)
                .hasSize(4)
                .allSatisfy(plan -> assertThat(plan.verdict().withinComfort())
                        .as("%s: %s", plan.table().name(), plan)
                        .isTrue());
        assertThat(plans)
                .extracting(p -> p.table().name() + " " + p.rows() + " rows " + p.cells() + " cells")
                .containsExactly(
                        "hive_telemetry_v2 15000 rows 45000 cells",
                        "hive_activity 17520 rows 52560 cells",
                        "weather_readings 2160 rows 15120 cells",
                        "agent_alerts_v2 8640 rows 34560 cells");
        assertThat(plans.get(0).smallestShards())
                .as("cql/010: S >= 44 keeps cells under 100,000")
                .hasValue(44);
        assertThat(plans.stream().mapToDouble(TablePlan::clusterRowsPerSecond).sum())
                .as("the planned load (docs/performance.md, capacity model): about 170k writes/s")
                .isBetween(160_000.0, 180_000.0);
    }

    @Test
    void cells_leave_out_every_primary_key_column_as_in_the_datastax_formula() {
        // the hotel example of the Apache Cassandra data-modeling guide: Nc = 4, Npk = 3, one value a row
        CqlTableDefinition rooms = CqlTableDefinition.parse(
                        "CREATE TABLE available_rooms_by_hotel_date (hotel_id text, "
                                + "date date, room_number smallint, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number))")
                .orElseThrow();
        RowShape shape = PartitionPlanner.shape(
                rooms, settings(Map.of(), Map.of(), Map.of(), Map.of()), new java.util.ArrayList<>());
        assertThat(shape.cellsPerRow()).isEqualTo(1);
        assertThat(shape.cells(36_500)).isEqualTo(36_500);
        // key 16 (assumed text) + rows x (date 4 + room_number 2 + is_available 1) + 8 B a cell
        assertThat(shape.bytes(36_500)).isEqualTo(16 + 36_500L * 7 + 8 * 36_500L);
    }

    @Test
    void a_table_without_clustering_columns_holds_one_row_a_partition() {
        CqlTableDefinition latest = CqlTableDefinition.parse(
                        "CREATE TABLE latest (hive_id text PRIMARY KEY, " + "value double, unit text)")
                .orElseThrow();
        TablePlan plan = PartitionPlanner.plan(
                latest, WriteRate.parse("100/s"), settings(Map.of(), Map.of(), Map.of(), Map.of()));
        assertThat(plan.rows()).isEqualTo(1);
        assertThat(plan.cells()).isEqualTo(2);
        assertThat(plan.verdict()).isEqualTo(Verdict.SMALL);
        assertThat(plan.unbounded()).isFalse();
        assertThat(plan.notes()).anyMatch(n -> n.contains("one row"));
    }

    @Test
    void a_partition_key_without_entity_column_gathers_every_entity() {
        CqlTableDefinition daily = CqlTableDefinition.parse(
                        "CREATE TABLE daily (day date, t timestamp, v int, " + "PRIMARY KEY (day, t))")
                .orElseThrow();
        PlanSettings settings = new PlanSettings(
                Map.of(), Map.of("daily", 10_000L), Map.of(), Map.of(), 16, Map.of(), Map.of(), LIMITS);
        TablePlan plan = PartitionPlanner.plan(daily, WriteRate.parse("10/s"), settings);
        assertThat(plan.rows()).isEqualTo(8_640_000_000L);
        assertThat(plan.partitionRate()).hasToString("100000/s");
        assertThat(plan.verdict()).isEqualTo(Verdict.OVER);
    }

    static Stream<Arguments> loads() {
        return RandomCases.cases((SplittableRandom r) -> new Object[] {
            WriteRate.parse(r.nextInt(0, 5_000) + "/min"),
            Bucket.values()[r.nextInt(Bucket.values().length - 1)],
            (long) r.nextInt(1, 2_000)
        });
    }

    /** The suggested shard count is the smallest within comfort: one fewer shard is not. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("loads")
    void the_suggested_shard_count_is_minimal(String seed, WriteRate rate, Bucket bucket, long rowBytes) {
        PlanSettings base =
                settings(Map.of("readings", rate), Map.of(), Map.of("readings", bucket), Map.of("readings", rowBytes));
        TablePlan plan = PartitionPlanner.plan(SENSOR, rate, base);
        if (plan.smallestShards().isEmpty()) {
            assertThat(PartitionPlanner.plan(SENSOR, rate, withShards(base, PartitionPlanner.MAX_SHARDS))
                            .verdict()
                            .withinComfort())
                    .as("no shard count suggested, so even the most shards are not within comfort")
                    .isFalse();
            return;
        }
        int s = plan.smallestShards().getAsInt();
        assertThat(PartitionPlanner.plan(SENSOR, rate, withShards(base, s))
                        .verdict()
                        .withinComfort())
                .isTrue();
        if (s > 1) {
            assertThat(PartitionPlanner.plan(SENSOR, rate, withShards(base, s - 1))
                            .verdict()
                            .withinComfort())
                    .isFalse();
        }
        long total = PartitionPlanner.rowsPerPartition(rate, bucket.seconds(), 1);
        assertThat(PartitionPlanner.rowsPerPartition(rate, bucket.seconds(), s)).isEqualTo((total + s - 1) / s);
    }

    private static PlanSettings withShards(PlanSettings s, int shards) {
        return new PlanSettings(
                s.rates(),
                s.entities(),
                Map.of("readings", shards),
                s.buckets(),
                s.textBytes(),
                s.columnBytes(),
                s.rowBytes(),
                s.limits());
    }

    private static PlanSettings settings(
            Map<String, WriteRate> rates,
            Map<String, Integer> shards,
            Map<String, Bucket> buckets,
            Map<String, Long> rowBytes) {
        return new PlanSettings(rates, Map.of(), shards, buckets, 16, Map.of(), rowBytes, LIMITS);
    }
}
