package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.testing.RandomCases;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BatchGrouperTest {

    /** A row of the test: its partition key, its size, and its arrival index. */
    record Row(int key, int bytes, int index) {}

    static Stream<Arguments> batches() {
        return RandomCases.cases(r -> {
            int n = r.nextInt(500);
            int keys = 1 + r.nextInt(20);
            List<Row> rows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                rows.add(new Row(r.nextInt(keys), 1 + r.nextInt(300), i));
            }
            return new Object[] {rows, 1 + r.nextInt(120), 1 + r.nextInt(5_000)};
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("batches")
    void should_put_every_row_in_exactly_one_single_partition_batch_within_the_caps(
            String seed, List<Row> rows, int maxRows, int maxBytes) {
        List<List<Row>> batches = BatchGrouper.group(rows, Row::key, Row::bytes, maxRows, maxBytes);

        List<Row> flattened = batches.stream().flatMap(List::stream).toList();
        assertThat(flattened).containsExactlyInAnyOrderElementsOf(rows);
        for (List<Row> batch : batches) {
            assertThat(batch).isNotEmpty().hasSizeLessThanOrEqualTo(maxRows);
            assertThat(batch).extracting(Row::key).containsOnly(batch.get(0).key());
            int bytes = batch.stream().mapToInt(Row::bytes).sum();
            assertThat(batch.size() == 1 || bytes <= maxBytes)
                    .as("bytes %d over cap %d", bytes, maxBytes)
                    .isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("batches")
    void should_keep_the_arrival_order_of_each_partition(String seed, List<Row> rows, int maxRows, int maxBytes) {
        List<List<Row>> batches = BatchGrouper.group(rows, Row::key, Row::bytes, maxRows, maxBytes);

        Map<Integer, Integer> lastIndex = new HashMap<>();
        for (List<Row> batch : batches) {
            for (Row row : batch) {
                Integer previous = lastIndex.put(row.key(), row.index());
                assertThat(previous == null || previous < row.index()).isTrue();
            }
        }
    }

    @Test
    void should_fill_batches_to_the_row_cap_when_one_partition_has_many_rows() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            rows.add(new Row(7, 40, i));
        }

        List<List<Row>> batches = BatchGrouper.group(rows, Row::key, Row::bytes, 100, 100_000);

        assertThat(batches).extracting(List::size).containsExactly(100, 100, 50);
    }

    @Test
    void should_start_a_new_batch_before_the_byte_cap_is_crossed() {
        List<Row> rows = List.of(new Row(1, 60, 0), new Row(1, 60, 1), new Row(1, 60, 2));

        List<List<Row>> batches = BatchGrouper.group(rows, Row::key, Row::bytes, 100, 150);

        assertThat(batches).extracting(List::size).containsExactly(2, 1);
    }

    @Test
    void should_send_a_row_larger_than_the_byte_cap_alone() {
        List<Row> rows = List.of(new Row(1, 10, 0), new Row(1, 900, 1), new Row(1, 10, 2));

        List<List<Row>> batches = BatchGrouper.group(rows, Row::key, Row::bytes, 100, 500);

        assertThat(batches).extracting(List::size).containsExactly(1, 1, 1);
    }
}
