package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The verification's digests agree for the same rows in any order and differ in exactly the
 * range where a value, a write time, a missing or an extra row differs; the comparison then
 * names each of those rows.
 */
class VerifyDigestTest {

    private static final List<TokenRange> RANGES = TokenRanges.split(8);

    /** A row: key "k<i>", values fingerprint and write time, at a token spread over the ring. */
    private static VerifiedRow row(int i, long values, long writeTime) {
        ByteBuffer key = ByteBuffer.wrap(("k" + i).getBytes(StandardCharsets.UTF_8));
        long token = Long.MIN_VALUE + 1 + (Long.MAX_VALUE / 50) * 2 * i;
        return new VerifiedRow(
                key,
                VerifiedRow.hash(key, values, writeTime),
                VerifiedRow.valuesHash(key, values),
                token,
                token,
                writeTime,
                null,
                java.util.List.of());
    }

    private static List<RangeDigest> digests(List<VerifiedRow> rows) {
        List<RangeDigest> digests = new ArrayList<>();
        RANGES.forEach(range -> digests.add(new RangeDigest()));
        rows.forEach(row ->
                digests.get(TokenRanges.indexOf(RANGES, row.targetToken())).add(row.hash(), row.sourceToken()));
        return digests;
    }

    private static List<VerifiedRow> source() {
        List<VerifiedRow> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            rows.add(row(i, 1_000 + i, 5_000_000L + i));
        }
        return rows;
    }

    private static List<Integer> differing(List<VerifiedRow> source, List<VerifiedRow> target) {
        List<RangeDigest> a = digests(source);
        List<RangeDigest> b = digests(target);
        List<Integer> differ = new ArrayList<>();
        for (int i = 0; i < RANGES.size(); i++) {
            if (!a.get(i).matches(b.get(i))) {
                differ.add(i);
            }
        }
        return differ;
    }

    @Test
    void should_agree_for_the_same_rows_read_in_another_order() {
        List<VerifiedRow> target = new ArrayList<>(source());
        Collections.shuffle(target, new Random(7));

        assertThat(differing(source(), target)).isEmpty();
    }

    @Test
    void should_differ_in_the_range_of_a_changed_value_an_older_write_time_a_missing_and_an_extra_row() {
        List<VerifiedRow> target = new ArrayList<>(source());
        target.set(3, row(3, 999_999, 5_000_003L)); // another value
        target.set(20, row(20, 1_020, 4_000_000L)); // an older write time
        target.remove(40); // missing
        target.add(row(60, 1, 1)); // extra

        assertThat(differing(source(), target))
                .containsExactlyInAnyOrder(
                        TokenRanges.indexOf(RANGES, row(3, 0, 0).targetToken()),
                        TokenRanges.indexOf(RANGES, row(20, 0, 0).targetToken()),
                        TokenRanges.indexOf(RANGES, row(40, 0, 0).targetToken()),
                        TokenRanges.indexOf(RANGES, row(60, 0, 0).targetToken()));

        List<Differences.Difference> found = new ArrayList<>();
        Differences differences = new Differences(found::add);
        source().forEach(differences::source);
        target.forEach(differences::target);
        differences.finish();

        assertThat(found)
                .extracting(d -> d.kind() + " "
                        + StandardCharsets.UTF_8.decode((d.source() != null ? d.source() : d.target())
                                .key()
                                .duplicate()))
                .containsExactlyInAnyOrder("DIFFERENT k3", "DIFFERENT k20", "MISSING k40", "EXTRA k60");
        assertThat(differences.missing()).isEqualTo(1);
        assertThat(differences.extra()).isEqualTo(1);
        assertThat(differences.different()).isEqualTo(2);
    }

    @Test
    void should_count_a_row_written_again_with_equal_values_and_a_newer_write_time_as_rewritten_not_different() {
        List<VerifiedRow> target = new ArrayList<>(source());
        target.set(7, row(7, 1_007, 9_000_000L)); // table copy --fresh-write-time wrote it again
        List<Differences.Difference> found = new ArrayList<>();
        Differences differences = new Differences(found::add);

        source().forEach(differences::source);
        target.forEach(differences::target);
        differences.finish();

        assertThat(differing(source(), target)).as("the digests still see it").hasSize(1);
        assertThat(found).isEmpty();
        assertThat(differences.rewritten()).isEqualTo(1);
        assertThat(differences.total()).isZero();
    }

    @Test
    void should_count_two_source_rows_of_one_target_key_as_merged_and_keep_the_later_one() {
        List<Differences.Difference> found = new ArrayList<>();
        Differences differences = new Differences(found::add);
        differences.source(row(1, 10, 100));
        differences.source(row(1, 11, 200));
        differences.target(row(1, 11, 200));
        differences.finish();

        assertThat(found).isEmpty();
        assertThat(differences.merged()).isEqualTo(1);
        assertThat(differences.total()).isZero();
    }

    /** Readings for the legacy rule: keys k<i> and k<i+100> are one reading (another sensor id). */
    private static Object reading(VerifiedRow row) {
        return Integer.parseInt(StandardCharsets.UTF_8
                        .decode(row.key().duplicate())
                        .toString()
                        .substring(1))
                % 100;
    }

    @Test
    void should_count_a_legacy_reading_the_target_holds_under_another_key_or_write_as_superseded() {
        List<Differences.Difference> found = new ArrayList<>();
        // write times that are multiples of 50 stand for the pipeline's (WriteTimestamps.isEventWrite)
        Differences differences =
                new Differences(found::add, VerifyDigestTest::reading, row -> row.writeTimeMicros() % 50 == 0);
        differences.source(row(1, 10, 100)); // the target holds reading 1 as k101 (another sensor id)
        differences.source(row(2, 20, 200)); // the pipeline wrote k2 again: other values, other write time
        differences.source(row(3, 30, 300)); // the copy wrote other values with the source's write time
        differences.source(row(4, 40, 400)); // nothing in the target
        differences.source(row(5, 50, 500)); // changed by hand after the copy: another write time, not the pipeline's
        differences.target(row(101, 11, 150));
        differences.target(row(2, 21, 250));
        differences.target(row(3, 31, 300));
        differences.target(row(5, 51, 777));
        differences.finish();

        assertThat(found)
                .extracting(d -> d.kind() + " "
                        + StandardCharsets.UTF_8.decode((d.source() != null ? d.source() : d.target())
                                .key()
                                .duplicate()))
                .containsExactlyInAnyOrder("EXTRA k101", "DIFFERENT k3", "MISSING k4", "DIFFERENT k5");
        assertThat(differences.superseded()).isEqualTo(2);
    }

    @Test
    void should_hash_values_alike_whatever_the_write_time_and_differently_for_other_values() {
        ByteBuffer key = ByteBuffer.wrap(new byte[] {1, 2, 3});

        assertThat(VerifiedRow.valuesHash(key, 5)).isEqualTo(VerifiedRow.valuesHash(key.duplicate(), 5));
        assertThat(VerifiedRow.valuesHash(key, 4)).isNotEqualTo(VerifiedRow.valuesHash(key, 5));
        assertThat(VerifiedRow.hash(key, 5, 7)).isEqualTo(VerifiedRow.mix(VerifiedRow.valuesHash(key, 5) ^ 7));
    }

    @Test
    void should_hash_differently_when_key_values_or_write_time_differ() {
        ByteBuffer key = ByteBuffer.wrap(new byte[] {1, 2, 3});
        long hash = VerifiedRow.hash(key, 5, 6);

        assertThat(VerifiedRow.hash(ByteBuffer.wrap(new byte[] {1, 2, 4}), 5, 6))
                .isNotEqualTo(hash);
        assertThat(VerifiedRow.hash(key, 4, 6)).isNotEqualTo(hash);
        assertThat(VerifiedRow.hash(key, 5, 7)).isNotEqualTo(hash);
        assertThat(VerifiedRow.hash(key.duplicate(), 5, 6)).isEqualTo(hash);
    }
}
