package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.testing.RandomCases;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReplicaCombinerTest {

    /** A single-partition group of the test: replica set (null = unknown), rows, bytes, index. */
    record Group(String replicas, int rows, long bytes, int index) {}

    static Stream<Arguments> groups() {
        return RandomCases.cases(r -> {
            int n = r.nextInt(300);
            int sets = 1 + r.nextInt(6);
            List<Group> groups = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String replicas = r.nextInt(20) == 0 ? null : "rs" + r.nextInt(sets);
                groups.add(new Group(replicas, 1 + r.nextInt(100), 1 + r.nextInt(3_000), i));
            }
            return new Object[] {groups, r.nextInt(60), 1 + r.nextInt(12), 1 + r.nextInt(200), 1 + r.nextInt(8_000)};
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    void every_group_in_exactly_one_combination_of_one_replica_set_within_the_caps(
            String seed, List<Group> groups, int smallRows, int maxPartitions, int maxRows, int maxBytes) {
        List<List<Group>> out = ReplicaCombiner.combine(
                groups, Group::replicas, Group::rows, Group::bytes, smallRows, maxPartitions, maxRows, maxBytes);

        assertThat(out.stream().flatMap(List::stream).toList()).containsExactlyInAnyOrderElementsOf(groups);
        for (List<Group> combination : out) {
            assertThat(combination).isNotEmpty();
            if (combination.size() == 1) {
                continue;
            }
            assertThat(combination).hasSizeLessThanOrEqualTo(maxPartitions);
            assertThat(combination)
                    .extracting(Group::replicas)
                    .doesNotContainNull()
                    .containsOnly(combination.get(0).replicas());
            assertThat(combination).allSatisfy(g -> assertThat(g.rows()).isLessThanOrEqualTo(smallRows));
            assertThat(combination.stream().mapToInt(Group::rows).sum()).isLessThanOrEqualTo(maxRows);
            assertThat(combination.stream().mapToLong(Group::bytes).sum()).isLessThanOrEqualTo(maxBytes);
            for (int i = 1; i < combination.size(); i++) {
                assertThat(combination.get(i).index())
                        .isGreaterThan(combination.get(i - 1).index());
            }
        }
    }

    @Test
    void small_groups_of_one_replica_set_share_a_request_and_others_stay_alone() {
        List<Group> groups = List.of(
                new Group("a", 2, 100, 0),
                new Group("b", 2, 100, 1),
                new Group("a", 3, 100, 2),
                new Group("a", 50, 100, 3),
                new Group(null, 1, 10, 4),
                new Group("b", 1, 100, 5));
        List<List<Group>> out =
                ReplicaCombiner.combine(groups, Group::replicas, Group::rows, Group::bytes, 10, 10, 100, 5_000);
        assertThat(out)
                .containsExactlyInAnyOrder(
                        List.of(groups.get(0), groups.get(2)),
                        List.of(groups.get(1), groups.get(5)),
                        List.of(groups.get(3)),
                        List.of(groups.get(4)));
    }
}
