package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import io.apiary.ingest.sink.ConcurrencyLimit;
import io.apiary.ingest.sink.RetryBackoff;
import io.apiary.ingest.sink.RowRateLimiter;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.schema.HiveTelemetryRow;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The copy's writes: split on refusal, retried on timeouts, bounded in flight and in rows per second. */
class CopyWriterTest {

    private long now;
    private final EventLoop loop = new EventLoop(() -> now);
    private final List<Integer> written = new ArrayList<>();
    private final List<String> failed = new ArrayList<>();
    private final List<Integer> retried = new ArrayList<>();
    private final CopyWriter.Outcome outcome = new CopyWriter.Outcome() {
        @Override
        public void written(int rows) {
            written.add(rows);
        }

        @Override
        public void failed(CopyWriter.CopyRow row, Throwable error) {
            failed.add(key(row.write()) + ": " + error.getMessage());
        }

        @Override
        public void retrying(int rows, Throwable error) {
            retried.add(rows);
        }
    };

    private static CopyWriter.CopyRow row(String key) {
        SinkTable.Write write =
                new SinkTable.Write(List.of(), ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)), 100, 0);
        return new CopyWriter.CopyRow(
                write,
                HiveTelemetryRow.newBuilder()
                        .setHiveId(key)
                        .setDay(java.time.LocalDate.EPOCH)
                        .setShard(0)
                        .setSensorType("T")
                        .setReadingTime(java.time.Instant.EPOCH)
                        .setGatewayId("g")
                        .setValue(1)
                        .setUnit("u")
                        .build());
    }

    private static String key(SinkTable.Write write) {
        return StandardCharsets.UTF_8.decode(write.routingKey().duplicate()).toString();
    }

    private CopyWriter writer(CopyWriter.Requests requests, int maxInFlight, long rowsPerSecond) {
        return new CopyWriter(
                requests,
                loop,
                new ConcurrencyLimit(ConcurrencyLimit.Algorithm.AIMD, maxInFlight, 0),
                new RowRateLimiter(rowsPerSecond, now),
                new RetryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1)),
                bound -> 0);
    }

    private void runLoop() throws InterruptedException {
        loop.turn(0);
    }

    @Test
    void should_split_a_refused_batch_and_report_only_the_row_still_refused_when_alone() throws Exception {
        CopyWriter writer = writer(
                writes -> writes.stream().anyMatch(w -> key(w).equals("bad"))
                        ? CompletableFuture.failedFuture(
                                new InvalidQueryException(null, "Key length of 70008 is too long"))
                        : CompletableFuture.completedFuture(null),
                8,
                0);

        writer.submit(List.of(row("a"), row("bad"), row("c")), outcome);
        writer.pump();
        runLoop();
        writer.pump();
        runLoop();

        assertThat(written).containsExactly(1, 1);
        assertThat(failed).containsExactly("bad: Key length of 70008 is too long");
        assertThat(writer.idle()).isTrue();
        assertThat(writer.pendingRows()).isZero();
    }

    @Test
    void should_retry_a_timed_out_batch_after_the_backoff() throws Exception {
        int[] attempts = {0};
        CopyWriter writer = writer(
                writes -> ++attempts[0] == 1
                        ? CompletableFuture.failedFuture(new WriteTimeoutException(
                                null, DefaultConsistencyLevel.LOCAL_QUORUM, 0, 2, WriteType.UNLOGGED_BATCH))
                        : CompletableFuture.completedFuture(null),
                8,
                0);

        writer.submit(List.of(row("a"), row("b")), outcome);
        writer.pump();
        runLoop();
        assertThat(retried).containsExactly(2);
        assertThat(writer.idle()).isFalse();

        now += TimeUnit.MILLISECONDS.toNanos(100);
        runLoop();
        writer.pump();
        runLoop();

        assertThat(attempts[0]).isEqualTo(2);
        assertThat(written).containsExactly(2);
        assertThat(failed).isEmpty();
        assertThat(writer.idle()).isTrue();
    }

    @Test
    void should_keep_at_most_the_limit_of_requests_in_flight() {
        List<CompletableFuture<Void>> open = new ArrayList<>();
        CopyWriter writer = writer(
                writes -> {
                    CompletableFuture<Void> future = new CompletableFuture<>();
                    open.add(future);
                    return future;
                },
                2,
                0);
        for (int i = 0; i < 5; i++) {
            writer.submit(List.of(row("r" + i)), outcome);
        }

        writer.pump();

        assertThat(writer.inFlight()).isEqualTo(2);
        assertThat(open).hasSize(2);
        assertThat(writer.pendingRows()).isEqualTo(5);
    }

    @Test
    void should_hold_batches_beyond_the_rows_per_second_until_the_bucket_refills() throws Exception {
        List<Integer> sent = new ArrayList<>();
        CopyWriter writer = writer(
                writes -> {
                    sent.add(writes.size());
                    return CompletableFuture.completedFuture(null);
                },
                8,
                10);
        List<CopyWriter.CopyRow> ten = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ten.add(row("r" + i));
        }
        writer.submit(ten, outcome);
        writer.submit(ten, outcome);

        writer.pump();
        assertThat(sent).containsExactly(10);
        assertThat(writer.nanosUntilSendable()).isPositive();

        now += TimeUnit.MILLISECONDS.toNanos(100);
        writer.pump();
        assertThat(sent).containsExactly(10, 10);
        runLoop();
        assertThat(written).containsExactly(10, 10);
    }
}
