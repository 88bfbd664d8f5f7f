package io.apiary.ingest.topology;

import static io.apiary.ingest.topology.TopologyFixture.reading;
import static io.apiary.ingest.topology.TopologyFixture.sample;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.schema.HiveTelemetryPartitionKey;
import io.apiary.schema.HiveTelemetryRow;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.SensorType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IngestTopologyTest {

    /** The default interval of interim hive_activity updates. */
    static final Duration UPDATE_INTERVAL = Duration.ofSeconds(10);

    private final TimeZone originalZone = TimeZone.getDefault();
    private TopologyFixture fixture = new TopologyFixture(Map.of());

    @AfterEach
    void tearDown() {
        fixture.close();
        TimeZone.setDefault(originalZone);
    }

    @Test
    void should_bucket_the_last_millisecond_of_a_day_and_the_first_of_the_next_into_different_partitions() {
        fixture.telemetry.pipeInput("3627", reading("3627", SensorType.TEMPERATURE, "2021-06-19T23:59:59.999Z", 25.0));
        fixture.telemetry.pipeInput("3627", reading("3627", SensorType.TEMPERATURE, "2021-06-20T00:00:00.000Z", 25.5));

        List<KeyValue<HiveTelemetryPartitionKey, HiveTelemetryRow>> rows = fixture.telemetryRows.readKeyValuesToList();

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).key).isEqualTo(new HiveTelemetryPartitionKey("3627", LocalDate.of(2021, 6, 19), 95));
        assertThat(rows.get(1).key).isEqualTo(new HiveTelemetryPartitionKey("3627", LocalDate.of(2021, 6, 20), 0));
        assertThat(rows.get(0).value.getDay()).isEqualTo(rows.get(0).key.getDay());
        assertThat(rows.get(0).value.getShard()).isEqualTo(95);
    }

    @Test
    void should_key_each_row_by_its_full_partition_key_and_carry_every_column() {
        fixture.telemetry.pipeInput("3629", reading("3629", SensorType.HUMIDITY, "2021-07-15T12:07:00Z", 35.45));

        KeyValue<HiveTelemetryPartitionKey, HiveTelemetryRow> row = fixture.telemetryRows.readKeyValue();

        assertThat(row.key).isEqualTo(new HiveTelemetryPartitionKey("3629", LocalDate.of(2021, 7, 15), 48));
        assertThat(row.value)
                .isEqualTo(new HiveTelemetryRow(
                        "3629",
                        LocalDate.of(2021, 7, 15),
                        48,
                        "HUMIDITY",
                        "default",
                        Instant.parse("2021-07-15T12:07:00Z"),
                        "gw-1",
                        35.45,
                        "%RH"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu", "Pacific/Pago_Pago"})
    void should_produce_identical_rows_and_hours_whatever_the_jvm_default_zone(String zone) {
        List<Object> inUtc = runBoundaryScenario();
        fixture.close();
        TimeZone.setDefault(TimeZone.getTimeZone(zone));
        fixture = new TopologyFixture(Map.of());

        assertThat(runBoundaryScenario()).isEqualTo(inUtc);
    }

    private List<Object> runBoundaryScenario() {
        fixture.telemetry.pipeInput("h", reading("h", SensorType.TEMPERATURE, "2021-06-19T23:59:59.999Z", 1));
        fixture.telemetry.pipeInput("h", reading("h", SensorType.TEMPERATURE, "2021-06-20T00:00:00.000Z", 2));
        fixture.counts.pipeInput("h", sample("h", "2021-06-20T00:59:59.999Z", 3, 4));
        fixture.counts.pipeInput("h", sample("h", "2021-06-20T01:00:00.000Z", 5, 6));
        fixture.counts.pipeInput("h", sample("h", "2021-06-20T03:00:00.000Z", 0, 0));
        fixture.advanceWallClock(UPDATE_INTERVAL);
        return List.of(
                fixture.telemetryRows.readKeyValuesToList(),
                fixture.activityRows.readKeyValuesToList(),
                fixture.hourly.readKeyValuesToList());
    }

    @Test
    void should_put_00_59_59_999_in_hour_0_and_01_00_00_000_in_hour_1() {
        fixture.counts.pipeInput("h", sample("h", "2021-06-20T00:59:59.999Z", 3, 4));
        fixture.counts.pipeInput("h", sample("h", "2021-06-20T01:00:00.000Z", 5, 6));
        fixture.advanceWallClock(UPDATE_INTERVAL);

        Map<Integer, HourlyActivity> latestByHour = new java.util.TreeMap<>();
        fixture.activityRows.readValuesToList().forEach(a -> latestByHour.put(a.getHour(), a));

        assertThat(latestByHour).containsOnlyKeys(0, 1);
        assertThat(latestByHour.get(0).getEntries()).isEqualTo(3);
        assertThat(latestByHour.get(1).getEntries()).isEqualTo(5);
        assertThat(latestByHour.get(1).getWindowStart()).isEqualTo(Instant.parse("2021-06-20T01:00:00Z"));
        assertThat(latestByHour.get(1).getWindowEnd()).isEqualTo(Instant.parse("2021-06-20T02:00:00Z"));
    }

    @Test
    void should_sum_bees_in_and_out_per_hive_and_hour() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:00:30Z", 10, 12));
        fixture.counts.pipeInput("b", sample("b", "2021-07-15T10:10:00Z", 100, 100));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:30:00Z", 7, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:59:00Z", 3, 2));
        fixture.advanceWallClock(UPDATE_INTERVAL);

        Map<String, HourlyActivity> latestByHive = new java.util.TreeMap<>();
        fixture.activityRows.readKeyValuesToList().forEach(kv -> latestByHive.put(kv.key.getHiveId(), kv.value));

        assertThat(latestByHive.get("a"))
                .isEqualTo(new HourlyActivity(
                        "a",
                        LocalDate.of(2021, 7, 15),
                        10,
                        Instant.parse("2021-07-15T10:00:00Z"),
                        Instant.parse("2021-07-15T11:00:00Z"),
                        20L,
                        15L,
                        3,
                        0,
                        io.apiary.schema.ResultTiming.EARLY,
                        0));
        assertThat(latestByHive.get("b").getEntries()).isEqualTo(100);
    }

    @Test
    void should_emit_one_final_result_per_hour_only_after_stream_time_passes_its_end_plus_grace() {
        fixture.close();
        fixture = new TopologyFixture(Map.of(IngestConfig.ACTIVITY_GRACE_MS, 600_000L));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:55:00Z", 2, 2));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:09:59Z", 4, 4));
        assertThat(fixture.hourly.isEmpty()).as("within grace: not final yet").isTrue();

        fixture.counts.pipeInput("a", sample("a", "2021-07-15T11:10:00Z", 8, 8));

        List<TestRecord<String, HourlyActivity>> results = fixture.hourly.readRecordsToList();
        assertThat(results).hasSize(1);
        assertThat(results.get(0).key()).isEqualTo("a");
        assertThat(results.get(0).value().getHour()).isEqualTo(10);
        assertThat(results.get(0).value().getEntries()).isEqualTo(3);
        assertThat(results.get(0).value().getSamples()).isEqualTo(2);
    }

    @Test
    void should_skip_an_undecodable_record_and_go_on_with_the_next() {
        // The dead letter record itself is checked against a real broker in PipelineIT:
        // TopologyTestDriver does not forward the deserialization handler's dead letter records.
        fixture.rawTelemetry.pipeInput(
                "3627".getBytes(StandardCharsets.UTF_8), "not avro".getBytes(StandardCharsets.UTF_8));
        fixture.telemetry.pipeInput("3627", reading("3627", SensorType.TEMPERATURE, "2021-06-19T10:00:00Z", 25.0));

        assertThat(fixture.telemetryRows.readValuesToList()).hasSize(1);
    }

    @Test
    void should_dead_letter_a_sample_without_key_instead_of_dropping_it() {
        fixture.counts.pipeInput((String) null, sample("a", "2021-07-15T10:05:00Z", 1, 1));

        TestRecord<byte[], byte[]> dead = fixture.deadLetter.readRecord();
        assertThat(DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.STAGE))
                .isEqualTo("process");
        assertThat(DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.REASON))
                .isEqualTo("NULL_KEY");
        assertThat(dead.value()).isNotEmpty();
        assertThat(fixture.activityRows.isEmpty()).isTrue();
    }

    @Test
    void should_dead_letter_a_sample_without_a_usable_event_time_without_moving_stream_time() {
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:05:00Z", 1, 1));
        fixture.counts.pipeInput("b", new io.apiary.schema.EntranceCount("b", "gw-1", Instant.EPOCH, 5, 5, 60));
        fixture.counts.pipeInput("a", sample("a", "2021-07-15T10:06:00Z", 2, 2));
        fixture.advanceWallClock(UPDATE_INTERVAL);

        TestRecord<byte[], byte[]> dead = fixture.deadLetter.readRecord();
        assertThat(DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.REASON))
                .isEqualTo("INVALID_TIMESTAMP");
        List<HourlyActivity> updates = fixture.activityRows.readValuesToList();
        assertThat(updates).extracting(HourlyActivity::getHiveId).containsOnly("a");
        assertThat(updates.get(updates.size() - 1).getEntries())
                .as("the later sample of a still counts")
                .isEqualTo(3);
    }

    @Test
    void should_dead_letter_a_reading_whose_ids_are_too_long_to_write() {
        fixture.telemetry.pipeInput("h", reading("x".repeat(201), SensorType.TEMPERATURE, "2021-06-19T10:00:00Z", 1));
        fixture.counts.pipeInput("k".repeat(201), sample("a", "2021-07-15T10:05:00Z", 1, 1));

        List<TestRecord<byte[], byte[]>> dead = fixture.deadLetter.readRecordsToList();
        assertThat(dead)
                .extracting(r -> DeadLetterHeaders.text(r.headers(), DeadLetterHeaders.MESSAGE))
                .containsExactly(
                        "hive_id is 201 characters long; at most 200 are accepted",
                        "key is 201 characters long; at most 200 are accepted");
        assertThat(fixture.telemetryRows.isEmpty()).isTrue();
    }

    @Test
    void should_dead_letter_a_tombstone_on_a_gateway_topic() {
        fixture.rawTelemetry.pipeInput("3627".getBytes(StandardCharsets.UTF_8), (byte[]) null);

        TestRecord<byte[], byte[]> dead = fixture.deadLetter.readRecord();
        assertThat(DeadLetterHeaders.text(dead.headers(), DeadLetterHeaders.REASON))
                .isEqualTo("NULL_VALUE");
        assertThat(new String(dead.key(), StandardCharsets.UTF_8)).isEqualTo("3627");
    }
}
