package io.apiary.ingest.tablecopy;

import io.apiary.ingest.sink.ConcurrencyLimit;
import io.apiary.ingest.sink.DriverWriter;
import io.apiary.ingest.sink.RetryBackoff;
import io.apiary.ingest.sink.RowRateLimiter;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.sink.WriteFailures;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.LongUnaryOperator;

/**
 * Writes the copy's batches with the sink's parts: at most {@link ConcurrencyLimit}'s limit
 * of requests in flight (halved on overload, grown back on success), at most
 * {@link RowRateLimiter}'s rows per second, failures that may pass ({@link WriteFailures#retryable})
 * retried after {@link RetryBackoff}'s delay for as long as it takes, and a batch Cassandra
 * refuses as invalid split into its rows, each row it still refuses handed to the outcome as
 * failed (never dropped in silence). Each batch is one request ({@link DriverWriter#request}).
 * Not thread-safe: the copy's {@link EventLoop}.
 */
final class CopyWriter {

    /**
     * The step that writes one request's rows: in production the driver's {@code executeAsync} of
     * {@link DriverWriter#request}; a test's fake otherwise.
     */
    @FunctionalInterface
    interface Requests {
        /**
         * @param writes the rows of one request, one partition's
         * @return its completion
         */
        CompletionStage<?> execute(List<SinkTable.Write> writes);

        /**
         * @param session an open session
         * @return requests executed by it
         */
        static Requests of(com.datastax.oss.driver.api.core.CqlSession session) {
            return writes -> session.executeAsync(DriverWriter.request(writes));
        }
    }

    /**
     * A row to write, and the row itself, to name it when it cannot be written.
     *
     * @param write its statements
     * @param row   the row in the target's record type
     */
    record CopyRow(SinkTable.Write write, org.apache.avro.specific.SpecificRecord row) {}

    /** What becomes of a batch's rows. Called on the loop. */
    interface Outcome {
        /** @param rows rows Cassandra acknowledged */
        void written(int rows);

        /**
         * @param row   a row Cassandra refused, alone in its request
         * @param error its refusal
         */
        void failed(CopyRow row, Throwable error);

        /**
         * A failure that will be retried.
         *
         * @param rows  rows of the request
         * @param error the failure
         */
        default void retrying(int rows, Throwable error) {}
    }

    private static final class Batch {
        final List<CopyRow> rows;
        final Outcome outcome;
        int attempts;
        long sentNanos;
        int inFlightAtSend;

        Batch(List<CopyRow> rows, Outcome outcome) {
            this.rows = rows;
            this.outcome = outcome;
        }
    }

    private final Requests requests;
    private final EventLoop loop;
    private final ConcurrencyLimit concurrency;
    private final RowRateLimiter rateLimiter;
    private final RetryBackoff backoff;
    private final LongUnaryOperator random;
    private final ArrayDeque<Batch> ready = new ArrayDeque<>();
    private int inFlight;
    private int waitingRetry;
    private long queuedRows;
    private long retries;

    /**
     * @param requests      executes requests
     * @param loop          the loop callbacks and retries run on
     * @param concurrency   the in-flight limit
     * @param rateLimiter   the rows-per-second limit
     * @param backoff       waits before retries
     * @param random        {@code bound -> [0, bound)}, the jitter of the waits
     */
    CopyWriter(
            Requests requests,
            EventLoop loop,
            ConcurrencyLimit concurrency,
            RowRateLimiter rateLimiter,
            RetryBackoff backoff,
            LongUnaryOperator random) {
        this.requests = requests;
        this.loop = loop;
        this.concurrency = concurrency;
        this.rateLimiter = rateLimiter;
        this.backoff = backoff;
        this.random = random;
    }

    /**
     * Queues rows of one Cassandra partition, within the batch caps, as one request.
     *
     * @param rows    the rows, not empty
     * @param outcome told what becomes of each
     */
    void submit(List<CopyRow> rows, Outcome outcome) {
        ready.addLast(new Batch(List.copyOf(rows), outcome));
        queuedRows += rows.size();
    }

    /** Sends queued requests while the in-flight and rate limits allow. */
    void pump() {
        long now = loop.now();
        while (inFlight < concurrency.limit() && !ready.isEmpty()) {
            Batch batch = ready.peekFirst();
            if (!rateLimiter.tryAcquire(batch.rows.size(), now)) {
                break;
            }
            ready.pollFirst();
            send(batch);
        }
    }

    /** @return nanoseconds until {@link #pump} could send again because of the rate limit, 0 if not held by it */
    long nanosUntilSendable() {
        return ready.isEmpty() || inFlight >= concurrency.limit()
                ? Long.MAX_VALUE
                : rateLimiter.nanosUntilAvailable(loop.now());
    }

    private void send(Batch batch) {
        inFlight++;
        batch.sentNanos = loop.now();
        batch.inFlightAtSend = inFlight;
        List<SinkTable.Write> writes = new ArrayList<>(batch.rows.size());
        batch.rows.forEach(row -> writes.add(row.write()));
        CompletionStage<?> stage;
        try {
            stage = requests.execute(writes);
        } catch (RuntimeException e) {
            stage = java.util.concurrent.CompletableFuture.failedFuture(e);
        }
        stage.whenComplete((result, error) -> loop.post(() -> done(batch, error)));
    }

    private void done(Batch batch, Throwable error) {
        inFlight--;
        if (error == null) {
            long now = loop.now();
            concurrency.onSuccess(batch.sentNanos, now - batch.sentNanos, batch.inFlightAtSend);
            queuedRows -= batch.rows.size();
            batch.outcome.written(batch.rows.size());
        } else if (WriteFailures.retryable(error)) {
            if (WriteFailures.overload(error)) {
                concurrency.onOverload(batch.sentNanos, loop.now(), batch.inFlightAtSend);
            }
            batch.attempts++;
            retries++;
            waitingRetry++;
            batch.outcome.retrying(batch.rows.size(), WriteFailures.unwrap(error));
            loop.schedule(backoff.delayNanos(batch.attempts, random), () -> {
                waitingRetry--;
                ready.addFirst(batch);
            });
        } else if (batch.rows.size() > 1) {
            for (int i = batch.rows.size() - 1; i >= 0; i--) {
                ready.addFirst(new Batch(List.of(batch.rows.get(i)), batch.outcome));
            }
        } else {
            queuedRows--;
            batch.outcome.failed(batch.rows.get(0), WriteFailures.unwrap(error));
        }
    }

    /** @return requests awaiting Cassandra's answer */
    int inFlight() {
        return inFlight;
    }

    /** @return rows submitted and not yet written or failed (queued, in flight, waiting to retry) */
    long pendingRows() {
        return queuedRows;
    }

    /** @return whether nothing is queued, in flight or waiting to retry */
    boolean idle() {
        return inFlight == 0 && ready.isEmpty() && waitingRetry == 0;
    }

    /** @return failed requests retried so far */
    long retries() {
        return retries;
    }

    /** @return the current in-flight limit */
    int limit() {
        return concurrency.limit();
    }
}
