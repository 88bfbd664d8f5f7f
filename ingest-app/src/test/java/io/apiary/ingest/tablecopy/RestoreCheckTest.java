package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.tablecopy.RestoreCheck.Outcome;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What {@code table copy} concludes about a row the last verify named, from the source and target rows read back. */
class RestoreCheckTest {

    private static VerifiedRow row(long values, long writeTime) {
        ByteBuffer key = ByteBuffer.wrap("k1".getBytes(StandardCharsets.UTF_8));
        return new VerifiedRow(
                key,
                VerifiedRow.hash(key, values, writeTime),
                VerifiedRow.valuesHash(key, values),
                1,
                1,
                writeTime,
                null,
                java.util.List.of());
    }

    @Test
    void should_be_restored_when_the_target_holds_the_sources_values_and_write_time() {
        assertThat(RestoreCheck.outcome(row(10, 500), row(10, 500))).isEqualTo(Outcome.RESTORED);
    }

    @Test
    void should_be_restored_when_the_target_holds_the_sources_values_with_a_fresh_write_time() {
        assertThat(RestoreCheck.outcome(row(10, 500), row(10, 9_000))).isEqualTo(Outcome.RESTORED);
    }

    @Test
    void should_be_still_missing_when_a_newer_delete_shadows_the_copys_write() {
        assertThat(RestoreCheck.outcome(row(10, 500), null)).isEqualTo(Outcome.STILL_MISSING);
    }

    @Test
    void should_be_still_different_when_a_newer_write_holds_other_values() {
        assertThat(RestoreCheck.outcome(row(10, 500), row(11, 600))).isEqualTo(Outcome.STILL_DIFFERENT);
    }

    @Test
    void should_be_still_different_when_the_target_holds_the_values_under_an_older_write_time() {
        assertThat(RestoreCheck.outcome(row(10, 500), row(10, 400))).isEqualTo(Outcome.STILL_DIFFERENT);
    }

    @Test
    void should_have_nothing_to_restore_when_the_source_no_longer_holds_the_row() {
        assertThat(RestoreCheck.outcome(null, null)).isEqualTo(Outcome.NOT_IN_SOURCE);
        assertThat(RestoreCheck.outcome(null, row(10, 500))).isEqualTo(Outcome.NOT_IN_SOURCE);
    }
}
