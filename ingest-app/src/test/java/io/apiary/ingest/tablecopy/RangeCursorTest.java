package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.testing.RandomCases;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A range's saved position moves only over pages whose every row is acknowledged, in order. */
class RangeCursorTest {

    private static final TokenRange RANGE = new TokenRange(0, 1_000);

    @Test
    void should_not_move_past_a_page_whose_rows_are_not_all_written_when_a_later_page_is() {
        RangeCursor cursor = new RangeCursor(RANGE, 0, 0);
        RangeCursor.Page first = cursor.read(3, 100, false);
        RangeCursor.Page second = cursor.read(2, 200, false);

        cursor.written(second, 2);
        cursor.written(first, 2);

        assertThat(cursor.committedToken()).isZero();
        cursor.written(first, 1);
        assertThat(cursor.committedToken()).isEqualTo(200);
        assertThat(cursor.committedRows()).isEqualTo(5);
        assertThat(cursor.done()).isFalse();
    }

    @Test
    void should_be_done_at_the_range_end_when_the_last_page_is_written() {
        RangeCursor cursor = new RangeCursor(RANGE, 400, 70);
        RangeCursor.Page last = cursor.read(5, 999, true);
        cursor.written(last, 5);

        assertThat(cursor.committedToken()).isEqualTo(1_000);
        assertThat(cursor.committedRows()).isEqualTo(75);
        assertThat(cursor.done()).isTrue();
        assertThat(cursor.settled()).isTrue();
    }

    @Test
    void should_stay_before_a_page_with_a_failed_row_so_that_a_rerun_copies_it_again() {
        RangeCursor cursor = new RangeCursor(RANGE, 0, 0);
        RangeCursor.Page first = cursor.read(1, 100, false);
        RangeCursor.Page second = cursor.read(2, 200, false);
        RangeCursor.Page last = cursor.read(1, 0, true);

        cursor.written(first, 1);
        cursor.failed(second, 1);
        cursor.written(second, 1);
        cursor.written(last, 1);

        assertThat(cursor.committedToken()).isEqualTo(100);
        assertThat(cursor.failed()).isTrue();
        assertThat(cursor.done()).isFalse();
        assertThat(cursor.settled()).isTrue();
    }

    @Test
    void should_count_an_empty_page_as_written_at_once() {
        RangeCursor cursor = new RangeCursor(RANGE, 0, 0);
        cursor.read(0, 300, false);

        assertThat(cursor.committedToken()).isEqualTo(300);
        assertThat(cursor.openPages()).isZero();
    }

    static Stream<Arguments> orders() {
        return RandomCases.cases(random -> new Object[] {random.nextLong()});
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("orders")
    void should_commit_exactly_the_pages_before_the_first_unwritten_one_whatever_the_order_of_acknowledgements(
            String seed, long caseSeed) {
        SplittableRandom random = new SplittableRandom(caseSeed);
        RangeCursor cursor = new RangeCursor(RANGE, 0, 0);
        int pages = 1 + random.nextInt(20);
        List<RangeCursor.Page> read = new ArrayList<>();
        List<int[]> acks = new ArrayList<>();
        for (int i = 0; i < pages; i++) {
            int rows = random.nextInt(4);
            read.add(cursor.read(rows, (i + 1) * 40L, i == pages - 1));
            for (int r = 0; r < rows; r++) {
                acks.add(new int[] {i});
            }
        }
        Collections.shuffle(acks, new java.util.Random(random.nextLong()));
        int[] pending = read.stream().mapToInt(p -> p.rows).toArray();
        for (int[] ack : acks) {
            cursor.written(read.get(ack[0]), 1);
            pending[ack[0]]--;
            int firstOpen = 0;
            while (firstOpen < pages && pending[firstOpen] == 0) {
                firstOpen++;
            }
            long expected = firstOpen == 0 ? 0 : firstOpen == pages ? RANGE.end() : firstOpen * 40L;
            assertThat(cursor.committedToken()).isEqualTo(expected);
        }
        assertThat(cursor.done()).isTrue();
    }
}
