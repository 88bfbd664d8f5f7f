package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConflictsTest {

    record Row(String key, long fingerprint) {}

    private static int count(Row... rows) {
        return Conflicts.count(List.of(rows), Row::key, Row::fingerprint);
    }

    @Test
    void should_count_nothing_when_every_key_has_one_version() {
        assertThat(count(new Row("a", 1), new Row("b", 1), new Row("c", 2))).isZero();
    }

    @Test
    void should_count_nothing_for_a_replay_of_the_same_row() {
        assertThat(count(new Row("a", 7), new Row("a", 7), new Row("a", 7))).isZero();
    }

    @Test
    void should_count_one_for_two_different_versions_of_one_key() {
        assertThat(count(new Row("a", 1), new Row("a", 2))).isEqualTo(1);
    }

    @Test
    void should_count_each_further_version_once_whatever_the_order() {
        assertThat(count(new Row("a", 1), new Row("a", 2), new Row("a", 1), new Row("a", 3), new Row("b", 9)))
                .isEqualTo(2);
        assertThat(count(new Row("a", 3), new Row("b", 9), new Row("a", 1), new Row("a", 2), new Row("a", 2)))
                .isEqualTo(2);
    }
}
