package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The range query and the write time and TTL a row keeps. */
class ScanQueryTest {

    @Test
    void should_select_the_token_every_column_and_each_regular_cells_write_time_and_ttl_of_one_range() {
        ScanQuery query = new ScanQuery(new TableRef("apiary", "hive_telemetry"), TableShape.LEGACY_TELEMETRY);

        assertThat(query.cql())
                .isEqualTo("SELECT token(hive_id, day, shard), hive_id, day, shard, sensor_type, "
                        + "reading_time, gateway_id, value, unit, WRITETIME(gateway_id), TTL(gateway_id), WRITETIME(value), "
                        + "TTL(value), WRITETIME(unit), TTL(unit) FROM apiary.hive_telemetry "
                        + "WHERE token(hive_id, day, shard) > ? AND token(hive_id, day, shard) <= ?");
    }

    @Test
    void should_keep_the_greatest_write_time_of_a_rows_cells_and_none_when_every_cell_is_null() {
        assertThat(ScanQuery.latest(new Long[] {5L, 9L, 7L})).isEqualTo(1);
        assertThat(ScanQuery.latest(new Long[] {null, 3L, null})).isEqualTo(1);
        assertThat(ScanQuery.latest(new Long[] {4L, 4L})).isZero();
        assertThat(ScanQuery.latest(new Long[] {null, null})).isEqualTo(-1);
    }

    @Test
    void should_read_a_table_name_with_or_without_its_keyspace_in_lower_case() {
        assertThat(TableRef.parse("Hive_Telemetry", "apiary")).isEqualTo(new TableRef("apiary", "hive_telemetry"));
        assertThat(TableRef.parse("other.agent_alerts", "apiary")).isEqualTo(new TableRef("other", "agent_alerts"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TableRef.parse("a.b.c", "apiary"))
                .hasMessageContaining("write TABLE or KEYSPACE.TABLE");
    }
}
