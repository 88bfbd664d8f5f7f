package io.apiary.ingest.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.sink.CassandraSink;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PipelineHealthTest {

    private static final long NOW = TimeUnit.HOURS.toNanos(5);
    private static final long STALL = TimeUnit.SECONDS.toNanos(60);
    private static final long LIVENESS = TimeUnit.MINUTES.toNanos(5);

    private static CassandraSink.Activity activity(
            boolean failed, long sinceLoopSeconds, long sinceAckSeconds, int heldRows) {
        return new CassandraSink.Activity(
                false,
                failed,
                NOW - TimeUnit.SECONDS.toNanos(sinceLoopSeconds),
                NOW - TimeUnit.SECONDS.toNanos(sinceAckSeconds),
                heldRows);
    }

    @Test
    void should_be_ready_when_a_node_is_connected_and_writes_are_acknowledged() {
        ComponentHealth health = PipelineHealth.sinkReadiness(activity(false, 0, 1, 5_000), 3, NOW, STALL);

        assertThat(health.up()).isTrue();
        assertThat(health.detail()).contains("3 Cassandra node(s) connected", "5,000 rows held");
    }

    @Test
    void should_not_be_ready_when_no_cassandra_node_is_connected() {
        ComponentHealth health = PipelineHealth.sinkReadiness(activity(false, 0, 1, 0), 0, NOW, STALL);

        assertThat(health.up()).isFalse();
        assertThat(health.detail()).isEqualTo("no Cassandra node connected");
    }

    @Test
    void should_not_be_ready_when_rows_are_held_and_nothing_was_acknowledged_for_longer_than_the_stall_timeout() {
        ComponentHealth health = PipelineHealth.sinkReadiness(activity(false, 0, 61, 120), 1, NOW, STALL);

        assertThat(health.up()).isFalse();
        assertThat(health.detail()).isEqualTo("holding 120 rows; no write acknowledged for 61 s");
    }

    @Test
    void should_stay_ready_when_idle_without_rows_even_long_after_the_last_acknowledgement() {
        assertThat(PipelineHealth.sinkReadiness(activity(false, 0, 3_600, 0), 1, NOW, STALL)
                        .up())
                .isTrue();
    }

    @Test
    void should_be_neither_ready_nor_live_when_the_sink_failed() {
        assertThat(PipelineHealth.sinkReadiness(activity(true, 0, 0, 0), 1, NOW, STALL)
                        .up())
                .isFalse();
        assertThat(PipelineHealth.sinkLiveness(activity(true, 0, 0, 0), NOW, LIVENESS)
                        .up())
                .isFalse();
    }

    @Test
    void should_not_be_live_when_the_poll_loop_stood_still_longer_than_the_liveness_timeout() {
        assertThat(PipelineHealth.sinkLiveness(activity(false, 299, 0, 0), NOW, LIVENESS)
                        .up())
                .isTrue();
        ComponentHealth stuck = PipelineHealth.sinkLiveness(activity(false, 301, 0, 0), NOW, LIVENESS);
        assertThat(stuck.up()).isFalse();
        assertThat(stuck.detail()).isEqualTo("the poll loop has not turned for 301 s");
    }

    @Test
    void should_stay_live_when_the_poll_loop_stands_still_because_the_sink_is_stopping() {
        CassandraSink.Activity stopping = new CassandraSink.Activity(true, false, NOW - LIVENESS * 2, NOW, 10);

        assertThat(PipelineHealth.sinkLiveness(stopping, NOW, LIVENESS).up()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void should_be_ready_only_when_the_topology_is_running(State state) {
        assertThat(PipelineHealth.topologyReadiness(state).up()).isEqualTo(state == State.RUNNING);
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void should_be_live_unless_the_topology_failed_or_stopped_outside_a_shutdown(State state) {
        boolean dead = state == State.ERROR
                || state == State.PENDING_ERROR
                || state == State.NOT_RUNNING
                || state == State.PENDING_SHUTDOWN;
        assertThat(PipelineHealth.topologyLiveness(state, false).up()).isEqualTo(!dead);
        assertThat(PipelineHealth.topologyLiveness(state, true).up())
                .isEqualTo(state != State.ERROR && state != State.PENDING_ERROR);
    }

    @Test
    void should_report_down_with_each_components_reason_when_one_component_is_down() {
        HealthReport report = new HealthReport(List.of(
                new ComponentHealth("topology", true, "state RUNNING"),
                new ComponentHealth("sink", false, "no Cassandra node connected")));

        assertThat(report.up()).isFalse();
        assertThat(report.toJson())
                .isEqualTo(
                        "{\"status\":\"DOWN\",\"components\":{\"topology\":{\"status\":\"UP\","
                                + "\"detail\":\"state RUNNING\"},\"sink\":{\"status\":\"DOWN\",\"detail\":\"no Cassandra node connected\"}}}");
    }

    @Test
    void should_be_unready_while_the_schema_registry_is_in_an_outage_with_its_length_and_last_error() {
        var outage = new io.apiary.ingest.serde.RegistryAvailability.Outage(
                "Cannot fetch schema id 7: schema registry at http://r:8081 unreachable (ConnectException)",
                NOW - TimeUnit.SECONDS.toNanos(42),
                NOW - TimeUnit.SECONDS.toNanos(1),
                5);
        ComponentHealth health = PipelineHealth.registryReadiness(java.util.Optional.of(outage), NOW);
        assertThat(health.up()).isFalse();
        assertThat(health.component()).isEqualTo("schemaRegistry");
        assertThat(health.detail()).contains("unavailable for 42 s", "5 failed requests", "fetch schema id 7");
    }

    @Test
    void should_be_ready_when_the_schema_registry_is_in_no_outage() {
        assertThat(PipelineHealth.registryReadiness(java.util.Optional.empty(), NOW)
                        .up())
                .isTrue();
    }
}
