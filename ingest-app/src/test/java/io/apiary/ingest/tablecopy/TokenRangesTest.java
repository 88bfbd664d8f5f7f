package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.testing.RandomCases;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The ring's splits, the workers' shares and the cuts at token boundaries cover every token exactly once. */
class TokenRangesTest {

    /** Tokens to probe: random ones, the ring's ends, and each range's bounds and neighbours. */
    private static List<Long> probes(SplittableRandom random, List<TokenRange> ranges) {
        List<Long> tokens = new ArrayList<>(List.of(Long.MIN_VALUE + 1, Long.MAX_VALUE, 0L, -1L, 1L));
        for (int i = 0; i < 200; i++) {
            tokens.add(random.nextLong());
        }
        for (TokenRange range : ranges) {
            tokens.add(range.end());
            if (range.end() < Long.MAX_VALUE) {
                tokens.add(range.end() + 1);
            }
            tokens.add(range.start() + 1);
        }
        return tokens;
    }

    static Stream<Arguments> splits() {
        return RandomCases.cases(random -> {
            int count = random.nextInt(4) == 0 ? 1 + random.nextInt(4) : 1 + random.nextInt(2_000);
            int workers = 1 + random.nextInt(Math.min(count, 64));
            List<Long> boundaries = new ArrayList<>();
            for (int i = random.nextInt(50); i > 0; i--) {
                boundaries.add(random.nextLong());
            }
            boundaries.add(Long.MIN_VALUE);
            boundaries.add(Long.MAX_VALUE);
            return new Object[] {count, workers, boundaries, random.nextLong()};
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("splits")
    void should_cover_every_token_exactly_once_when_split_shared_among_workers_and_cut(
            String seed, int count, int workers, List<Long> boundaries, long probeSeed) {
        List<TokenRange> ranges = TokenRanges.split(count);

        assertThat(ranges).hasSize(count);
        assertThat(ranges.get(0).start()).isEqualTo(Long.MIN_VALUE);
        assertThat(ranges.get(count - 1).end()).isEqualTo(Long.MAX_VALUE);
        for (int i = 1; i < count; i++) {
            assertThat(ranges.get(i).start())
                    .as("range %d starts where %d ends", i, i - 1)
                    .isEqualTo(ranges.get(i - 1).end());
        }
        List<List<TokenRange>> pieces = new ArrayList<>();
        for (int worker = 0; worker < workers; worker++) {
            List<TokenRange> cut = new ArrayList<>();
            TokenRanges.share(ranges, workers, worker).forEach(range -> cut.addAll(TokenRanges.cut(range, boundaries)));
            pieces.add(cut);
        }
        // sorted, the pieces of all workers chain from the ring's start to its end: each token in exactly one
        List<TokenRange> all =
                new ArrayList<>(pieces.stream().flatMap(List::stream).toList());
        java.util.Collections.sort(all);
        assertThat(all.get(0).start()).isEqualTo(Long.MIN_VALUE);
        assertThat(all.get(all.size() - 1).end()).isEqualTo(Long.MAX_VALUE);
        List<String> gaps = new ArrayList<>();
        for (int i = 1; i < all.size(); i++) {
            if (all.get(i).start() != all.get(i - 1).end()) {
                gaps.add(all.get(i - 1) + " then " + all.get(i));
            }
        }
        assertThat(gaps).as("gaps or overlaps between pieces").isEmpty();
        List<Long> lost = new ArrayList<>();
        for (long token : probes(new SplittableRandom(probeSeed), ranges)) {
            int index = TokenRanges.indexOf(all, token);
            if (index < 0 || !all.get(index).contains(token)) {
                lost.add(token);
            }
        }
        assertThat(lost).as("tokens in no piece").isEmpty();
        List<String> straddling = new ArrayList<>();
        for (TokenRange piece : all) {
            for (long boundary : boundaries) {
                if (boundary > piece.start() && boundary < piece.end()) {
                    straddling.add(piece + " holds boundary " + boundary);
                }
            }
        }
        assertThat(straddling).as("pieces across a token boundary").isEmpty();
    }

    static Stream<Arguments> shares() {
        return RandomCases.cases(random -> {
            int count = random.nextInt(4) == 0 ? 1 + random.nextInt(4) : 1 + random.nextInt(2_000);
            return new Object[] {count, 1 + random.nextInt(Math.min(count, 64))};
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shares")
    void should_give_each_worker_a_share_within_one_range_of_the_others(String seed, int count, int workers) {
        List<TokenRange> ranges = TokenRanges.split(count);
        List<Integer> sizes = new ArrayList<>();
        List<TokenRange> all = new ArrayList<>();
        for (int worker = 0; worker < workers; worker++) {
            List<TokenRange> share = TokenRanges.share(ranges, workers, worker);
            sizes.add(share.size());
            all.addAll(share);
        }

        java.util.Collections.sort(all);
        assertThat(all).isEqualTo(ranges);
        assertThat(sizes.stream().mapToInt(Integer::intValue).max().orElseThrow()
                        - sizes.stream().mapToInt(Integer::intValue).min().orElseThrow())
                .isLessThanOrEqualTo(1);
    }

    @Test
    void should_split_into_ranges_that_depend_on_the_count_only() {
        assertThat(TokenRanges.split(2))
                .containsExactly(new TokenRange(Long.MIN_VALUE, 0), new TokenRange(0, Long.MAX_VALUE));
        assertThat(TokenRanges.split(1)).containsExactly(TokenRange.RING);
        assertThat(TokenRanges.split(3))
                .containsExactly(
                        new TokenRange(Long.MIN_VALUE, -3_074_457_345_618_258_603L),
                        new TokenRange(-3_074_457_345_618_258_603L, 3_074_457_345_618_258_602L),
                        new TokenRange(3_074_457_345_618_258_602L, Long.MAX_VALUE));
    }

    @Test
    void should_find_the_range_of_a_token_and_none_outside() {
        List<TokenRange> ranges = List.of(new TokenRange(-10, -5), new TokenRange(-5, 3), new TokenRange(20, 30));

        assertThat(TokenRanges.indexOf(ranges, -10)).isEqualTo(-1);
        assertThat(TokenRanges.indexOf(ranges, -9)).isZero();
        assertThat(TokenRanges.indexOf(ranges, -5)).isZero();
        assertThat(TokenRanges.indexOf(ranges, -4)).isEqualTo(1);
        assertThat(TokenRanges.indexOf(ranges, 3)).isEqualTo(1);
        assertThat(TokenRanges.indexOf(ranges, 4)).isEqualTo(-1);
        assertThat(TokenRanges.indexOf(ranges, 30)).isEqualTo(2);
    }

    @Test
    void should_divide_a_range_into_equal_pieces_or_single_tokens() {
        assertThat(TokenRanges.divide(new TokenRange(0, 160), 16)).hasSize(16).allMatch(piece -> piece.width() == 10);
        assertThat(TokenRanges.divide(new TokenRange(0, 3), 16))
                .containsExactly(new TokenRange(0, 1), new TokenRange(1, 2), new TokenRange(2, 3));
        assertThat(TokenRanges.divide(TokenRange.RING, 16)).hasSize(16);
    }

    @Test
    void should_merge_overlapping_and_adjacent_token_intervals() {
        List<TokenRange> merged = TokenRanges.covering(List.of(
                new long[] {10, 20}, new long[] {1, 5}, new long[] {6, 8}, new long[] {15, 30}, new long[] {40, 40}));

        assertThat(merged).containsExactly(new TokenRange(0, 8), new TokenRange(9, 30), new TokenRange(39, 40));
    }

    @Test
    void should_refuse_a_worker_index_outside_the_workers() {
        assertThatThrownBy(() -> TokenRanges.share(TokenRanges.split(4), 2, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("from 0 to workers - 1");
        assertThatThrownBy(() -> TokenRanges.split(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
