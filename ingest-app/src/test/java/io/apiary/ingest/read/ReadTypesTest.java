package io.apiary.ingest.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.apiary.ingest.bucket.ShardStrategy;
import org.junit.jupiter.api.Test;

/** Shard schemes, page tokens, the CQL of each table and the reader's refusals, without Cassandra. */
class ReadTypesTest {

    @Test
    void should_parse_a_shard_scheme_and_name_the_form_when_it_cannot() {
        assertThat(ShardScheme.parse(" hash:96 ")).isEqualTo(new ShardScheme(ShardStrategy.HASH, 96));
        assertThatThrownBy(() -> ShardScheme.parse("time")).hasMessageContaining("write STRATEGY:COUNT");
        assertThatThrownBy(() -> ShardScheme.parse("time:0")).hasMessageContaining("1 to 100000");
        assertThatThrownBy(() -> ShardScheme.parse("round:4")).hasMessageContaining("use 'time' or 'hash'");
    }

    @Test
    void should_round_trip_a_page_token_and_refuse_one_of_another_table_order_or_garbage() {
        PageToken token = new PageToken("hive_telemetry", ReadOrder.DESC, Instant.parse("2021-07-15T10:00:00Z"),
                "TEMPERATURE");

        assertThat(PageToken.decode(token.encode(), "hive_telemetry", ReadOrder.DESC)).isEqualTo(token);
        assertThatThrownBy(() -> PageToken.decode(token.encode(), "hive_telemetry", ReadOrder.ASC))
                .hasMessageContaining("continues a read of hive_telemetry in desc order");
        assertThatThrownBy(() -> PageToken.decode("%%%", "hive_telemetry", ReadOrder.DESC))
                .hasMessageContaining("is not a page token");
        assertThatThrownBy(() -> PageToken.decode(token.encode().substring(3), "hive_telemetry", ReadOrder.DESC))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_query_one_partition_by_its_whole_key_and_a_clustering_slice_in_every_table() {
        for (SeriesTable<?> table : List.of(SeriesTable.TELEMETRY, SeriesTable.WEATHER, SeriesTable.ALERTS,
                SeriesTable.ACTIVITY)) {
            for (ReadOrder order : ReadOrder.values()) {
                String cql = table.cql("ks", order);
                assertThat(cql).doesNotContainIgnoringCase("ALLOW FILTERING").doesNotContain(" IN ")
                        .doesNotContainIgnoringCase("token(").contains("WHERE " + table.entityColumn() + " = ?");
            }
        }
        assertThat(SeriesTable.TELEMETRY.cql("ks", ReadOrder.ASC)).isEqualTo("SELECT hive_id, sensor_type, "
                + "reading_time, value, unit, gateway_id FROM ks.hive_telemetry WHERE hive_id = ? AND day = ? AND "
                + "shard = ? AND sensor_type = ? AND reading_time >= ? AND reading_time < ? "
                + "ORDER BY sensor_type DESC, reading_time ASC");
        // Several sensor types of one partition: IN on the clustering column, the partition key whole.
        assertThat(SeriesTable.TELEMETRY.multiSeriesCql("ks")).isEqualTo("SELECT hive_id, sensor_type, "
                + "reading_time, value, unit, gateway_id FROM ks.hive_telemetry WHERE hive_id = ? AND day = ? AND "
                + "shard = ? AND sensor_type IN ? AND reading_time >= ? AND reading_time < ?");
        for (SeriesTable<?> table : List.of(SeriesTable.WEATHER, SeriesTable.ALERTS, SeriesTable.ACTIVITY)) {
            assertThatThrownBy(() -> table.multiSeriesCql("ks")).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void should_read_the_hours_that_start_in_the_range_from_hive_activity() {
        TimeRange range = new TimeRange(Instant.parse("2021-07-15T10:30:00Z"), Instant.parse("2021-07-15T12:00:01Z"));

        List<SeriesTable.Slice> slices = SeriesTable.ACTIVITY.slices("h", "", range, List.of());

        assertThat(slices).singleElement().satisfies(s -> {
            assertThat(Instant.ofEpochMilli(s.fromMillis())).isEqualTo(Instant.parse("2021-07-15T11:00:00Z"));
            assertThat(Instant.ofEpochMilli(s.toMillis())).isEqualTo(Instant.parse("2021-07-15T13:00:00Z"));
        });
        assertThat(SeriesTable.ACTIVITY.slices("h", "", new TimeRange(Instant.parse("2021-07-15T10:30:00Z"),
                Instant.parse("2021-07-15T10:59:00Z")), List.of())).isEmpty();
    }

    @Test
    void should_refuse_a_read_that_would_plan_more_partition_queries_than_the_setting_before_querying() {
        CqlSession unreachable = (CqlSession) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {CqlSession.class}, (proxy, method, args) -> {
                    throw new AssertionError("Cassandra must not be asked: " + method.getName());
                });
        ReadSettings settings = new ReadSettings("ks", List.of(new ShardScheme(ShardStrategy.TIME, 96)),
                List.of(new ShardScheme(ShardStrategy.TIME, 4)), 16, 5_000, DefaultConsistencyLevel.LOCAL_QUORUM,
                100_000);
        HiveDataReader reader = new HiveDataReader(unreachable, settings);
        TimeRange decade = TimeRange.days(LocalDate.of(2020, 1, 1), LocalDate.of(2029, 12, 31));

        // Every sensor type of a partition is one query: 96 a day, not 9 x 96.
        assertThatThrownBy(() -> reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", decade)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("could take up to 350,688 partition queries (3,653 days x 96 per day)")
                .hasMessageContaining("read.max.partition.queries (100,000)");
        assertThatThrownBy(() -> reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", decade)
                .withSeries(List.of("WEIGHT"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("could take up to 350,688 partition queries (3,653 days x 96 per day)");
        TimeRange twoYears = TimeRange.days(LocalDate.of(2020, 1, 1), LocalDate.of(2021, 12, 31));
        assertThatThrownBy(() -> reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, "h", twoYears)))
                .as("731 days x 96 = 70,176 queries are within the bound, so Cassandra is asked")
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cassandra must not be asked: prepare");
    }
}
