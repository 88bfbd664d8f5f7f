package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.SchemaApplier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    private static Bench.Options options(Set<Bench.Run> runs, int repeats, Optional<SparkPeerLaunch> spark) {
        return new Bench.Options(
                1_000,
                1_000,
                10,
                List.of(ShardStrategy.TIME),
                runs,
                8,
                100,
                8,
                0,
                Duration.ofMinutes(1),
                "apiary_bench",
                SchemaApplier.DEV_REPLICATION,
                repeats,
                spark,
                Optional.empty(),
                "lz4",
                100,
                5);
    }

    @Test
    void the_spark_run_needs_the_built_peer_and_the_error_names_the_build_command() {
        assertThatThrownBy(() -> options(EnumSet.of(Bench.Run.SPARK), 1, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(SparkPeerLaunch.BUILD_COMMAND);
        assertThat(options(EnumSet.of(Bench.Run.SPARK), 1, Optional.of(new SparkPeerLaunch(Path.of("t"))))
                        .runs())
                .containsExactly(Bench.Run.SPARK);
    }

    @Test
    void repeats_must_be_at_least_one() {
        assertThatThrownBy(() -> options(EnumSet.of(Bench.Run.SINK), 0, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("repeats");
        assertThat(options(EnumSet.of(Bench.Run.SINK), 3, Optional.empty()).repeats())
                .isEqualTo(3);
    }

    @Test
    void the_write_runs_are_those_up_to_spark() {
        assertThat(EnumSet.allOf(Bench.Run.class))
                .filteredOn(Bench.Run::writesRows)
                .containsExactly(
                        Bench.Run.CEILING, Bench.Run.NAIVE, Bench.Run.SINK, Bench.Run.SINK_PACED, Bench.Run.SPARK);
    }

    @Test
    void the_pass_through_run_parses_by_label_and_comes_just_before_the_topology_run() {
        assertThat(Bench.Run.parse("pass-through")).isEqualTo(Bench.Run.PASS_THROUGH);
        assertThat(Bench.Run.parse("PASS_THROUGH")).isEqualTo(Bench.Run.PASS_THROUGH);
        assertThat(Bench.Run.PASS_THROUGH.label()).isEqualTo("pass-through");
        assertThat(Bench.Run.TOPOLOGY.ordinal()).isEqualTo(Bench.Run.PASS_THROUGH.ordinal() + 1);
        assertThat(Bench.Run.PASS_THROUGH.writesRows()).isFalse();
    }

    @Test
    void the_gateway_runs_are_those_from_pass_through_on() {
        assertThat(EnumSet.allOf(Bench.Run.class))
                .filteredOn(Bench.Run::readsGateway)
                .containsExactly(
                        Bench.Run.PASS_THROUGH, Bench.Run.TOPOLOGY, Bench.Run.END_TO_END, Bench.Run.END_TO_END_PACED);
        assertThat(EnumSet.allOf(Bench.Run.class)).allMatch(r -> r.readsGateway() != r.writesRows());
    }

    @Test
    void the_gateway_warm_up_drains_with_the_pass_through_then_the_topology_with_the_sink_if_needed() {
        assertThat(Bench.gatewayWarmUps(EnumSet.of(Bench.Run.SINK, Bench.Run.NAIVE)))
                .isEmpty();
        assertThat(Bench.gatewayWarmUps(EnumSet.of(Bench.Run.PASS_THROUGH))).containsExactly(Bench.Run.PASS_THROUGH);
        assertThat(Bench.gatewayWarmUps(EnumSet.of(Bench.Run.TOPOLOGY, Bench.Run.SINK)))
                .containsExactly(Bench.Run.TOPOLOGY);
        assertThat(Bench.gatewayWarmUps(EnumSet.of(Bench.Run.PASS_THROUGH, Bench.Run.TOPOLOGY)))
                .containsExactly(Bench.Run.PASS_THROUGH, Bench.Run.TOPOLOGY);
        // the topology with the sink warms the topology's code too: one application, not two
        assertThat(Bench.gatewayWarmUps(EnumSet.of(Bench.Run.TOPOLOGY, Bench.Run.END_TO_END)))
                .containsExactly(Bench.Run.END_TO_END);
        // the paced run starts topology and sink as the end-to-end run does
        assertThat(Bench.gatewayWarmUps(EnumSet.allOf(Bench.Run.class)))
                .containsExactly(Bench.Run.PASS_THROUGH, Bench.Run.END_TO_END_PACED);
    }

    @Test
    void an_unknown_run_is_refused_with_every_label() {
        assertThatThrownBy(() -> Bench.Run.parse("fast"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll(EnumSet.allOf(Bench.Run.class).stream()
                        .map(Bench.Run::label)
                        .toArray(String[]::new));
    }

    @Test
    void the_paced_sink_run_needs_the_sink_run_whose_rate_it_is_paced_from() {
        assertThatThrownBy(() -> options(EnumSet.of(Bench.Run.SINK_PACED), 1, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("select the sink run too");
        assertThat(options(EnumSet.of(Bench.Run.SINK, Bench.Run.SINK_PACED), 1, Optional.empty())
                        .runs())
                .containsExactlyInAnyOrder(Bench.Run.SINK, Bench.Run.SINK_PACED);
        assertThat(Bench.Run.parse("sink-paced")).isEqualTo(Bench.Run.SINK_PACED);
    }
}
