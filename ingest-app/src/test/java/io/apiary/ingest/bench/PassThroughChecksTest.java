package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.apiary.ingest.bench.BenchChecks.Check;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PassThroughChecksTest {

    private static final String CLIENT = "topology/pass-through client CPU per record (time)";
    private static final String KAFKA = "topology/pass-through Kafka CPU per record (time)";

    private static BenchResult gatewayRun(String run, double clientCpu, double kafkaCpu, boolean completed) {
        return new BenchResult(
                run,
                "time",
                "records",
                1_000_000,
                10,
                clientCpu,
                0.1,
                Double.NaN,
                kafkaCpu,
                Double.NaN,
                0,
                Double.NaN,
                Double.NaN,
                200,
                80,
                completed,
                completed ? "" : "timed out");
    }

    private static Map<String, Check> checks(List<BenchResult> results) {
        return BenchChecks.of(results).stream().collect(Collectors.toMap(Check::name, Function.identity()));
    }

    @Test
    void topology_client_cpu_per_record_is_held_to_1_3_times_the_pass_throughs() {
        Check above = checks(List.of(gatewayRun("pass-through", 4, 1, true), gatewayRun("topology", 6, 1.5, true)))
                .get(CLIENT);
        assertThat(above.value()).isCloseTo(1.5, within(1e-9));
        assertThat(above.target()).isEqualTo(new BenchChecks.Target("<=", 1.3));
        assertThat(above.met()).as("1.5 is above 1.3").isFalse();

        Check at = checks(List.of(gatewayRun("pass-through", 5, 1, true), gatewayRun("topology", 6.5, 1, true)))
                .get(CLIENT);
        assertThat(at.met()).as("exactly 1.3").isTrue();
    }

    @Test
    void their_kafka_cpu_per_record_is_reported_as_a_ratio() {
        Check kafka = checks(List.of(gatewayRun("pass-through", 4, 2, true), gatewayRun("topology", 6, 3, true)))
                .get(KAFKA);
        assertThat(kafka.value()).isCloseTo(1.5, within(1e-9));
        assertThat(kafka.target().reportOnly()).isTrue();
    }

    @Test
    void no_comparison_without_both_runs_completed() {
        assertThat(checks(List.of(gatewayRun("topology", 6, 1, true))).keySet())
                .noneMatch(name -> name.startsWith("topology/pass-through"));
        assertThat(checks(List.of(gatewayRun("pass-through", 4, 1, false), gatewayRun("topology", 6, 1, true)))
                        .keySet())
                .noneMatch(name -> name.startsWith("topology/pass-through"));
        assertThat(checks(List.of(gatewayRun("pass-through", 4, 1, true), gatewayRun("topology", 6, 1, false)))
                        .keySet())
                .noneMatch(name -> name.startsWith("topology/pass-through"));
    }
}
