package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void the_median_of_an_odd_count_is_the_middle_value() {
        assertThat(Spread.of(5, 1, 3)).isEqualTo(new Spread(3, 1, 5, 3));
    }

    @Test
    void the_median_of_an_even_count_is_the_mean_of_the_two_middle_values() {
        assertThat(Spread.of(4, 1, 10, 2)).isEqualTo(new Spread(3, 1, 10, 4));
    }

    @Test
    void nan_and_infinite_values_are_left_out() {
        assertThat(Spread.of(Double.NaN, 2, Double.POSITIVE_INFINITY, 4)).isEqualTo(new Spread(3, 2, 4, 2));
    }

    @Test
    void no_finite_value_gives_nan_and_a_range_of_n_a() {
        Spread none = Spread.of(Double.NaN);
        assertThat(none.median()).isNaN();
        assertThat(none.count()).isZero();
        assertThat(none.range(2)).isEqualTo("n/a");
    }

    @Test
    void the_range_prints_min_and_max() {
        assertThat(Spread.of(2.414, 2.77, 2.5).range(2)).isEqualTo("2.41-2.77");
    }

    @Test
    void a_single_value_is_its_own_median_and_range() {
        assertThat(Spread.of(List.of(7.5))).isEqualTo(new Spread(7.5, 7.5, 7.5, 1));
    }

    /**
     * Invariants over seeded random samples: min <= median <= max; at most half the values lie
     * strictly below the median and at most half strictly above; the order of values does not matter.
     */
    @Test
    void the_median_splits_any_sample_in_halves_whatever_its_order() {
        Random random = new Random(20261202L);
        for (int trial = 0; trial < 2_000; trial++) {
            int n = 1 + random.nextInt(15);
            List<Double> values = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                values.add(random.nextInt(4) == 0 ? (double) random.nextInt(5) : random.nextGaussian() * 100);
            }
            Spread spread = Spread.of(values);
            long below = values.stream().filter(v -> v < spread.median()).count();
            long above = values.stream().filter(v -> v > spread.median()).count();

            assertThat(spread.min()).isLessThanOrEqualTo(spread.median());
            assertThat(spread.median()).isLessThanOrEqualTo(spread.max());
            assertThat(spread.min()).isEqualTo(Collections.min(values));
            assertThat(spread.max()).isEqualTo(Collections.max(values));
            assertThat(below * 2).as("%s", values).isLessThanOrEqualTo(n);
            assertThat(above * 2).as("%s", values).isLessThanOrEqualTo(n);
            List<Double> shuffled = new ArrayList<>(values);
            Collections.shuffle(shuffled, random);
            assertThat(Spread.of(shuffled)).isEqualTo(spread);
            double[] sorted =
                    values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            if (n % 2 == 1) {
                assertThat(spread.median()).isEqualTo(sorted[n / 2]);
            } else {
                assertThat(Arrays.binarySearch(sorted, spread.median()) >= 0
                                || (spread.median() > sorted[n / 2 - 1] && spread.median() < sorted[n / 2])
                                || spread.median() == sorted[n / 2 - 1])
                        .isTrue();
            }
        }
    }
}
