package io.apiary.ingest.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asynchronous writes with a fixed number in flight, for the benchmark's baseline writers: each
 * request's latency is recorded, a failed request is sent again up to {@value #MAX_ATTEMPTS}
 * times, after which the run has failed. {@link #send} and {@link #awaitAll} are called from one
 * thread; the getters, {@link #fail} and {@link #stop} are thread-safe.
 */
final class AsyncWrites {

    private static final int MAX_ATTEMPTS = 5;

    private final CqlSession session;
    private final int inFlight;
    private final Semaphore permits;
    private final Timer latency;
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopped;

    /**
     * @param session  an open session
     * @param inFlight most requests awaiting Cassandra at once
     * @param latency  records each request's time from send to acknowledgement
     */
    AsyncWrites(CqlSession session, int inFlight, Timer latency) {
        this.session = session;
        this.inFlight = inFlight;
        this.permits = new Semaphore(inFlight);
        this.latency = latency;
    }

    /**
     * Sends a request once one of the in-flight permits is free.
     *
     * @param statement the request
     * @param rows      rows it writes
     * @throws InterruptedException if interrupted while waiting for a permit
     */
    void send(Statement<?> statement, int rows) throws InterruptedException {
        permits.acquire();
        send(statement, rows, 1);
    }

    private void send(Statement<?> statement, int rows, int attempt) {
        long start = System.nanoTime();
        requests.incrementAndGet();
        session.executeAsync(statement).whenComplete((result, error) -> {
            latency.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            if (error == null) {
                acknowledged.addAndGet(rows);
                permits.release();
            } else if (attempt < MAX_ATTEMPTS && !stopped) {
                send(statement, rows, attempt + 1);
            } else {
                fail(error);
                permits.release();
            }
        });
    }

    /**
     * Waits until every request sent is answered, or {@link #stop()} is called.
     *
     * @throws InterruptedException if interrupted
     */
    void awaitAll() throws InterruptedException {
        while (!permits.tryAcquire(inFlight, 100, TimeUnit.MILLISECONDS)) {
            if (stopped) {
                return;
            }
        }
        permits.release(inFlight);
    }

    /** @return whether to go on sending: not stopped and nothing failed */
    boolean running() {
        return !stopped && failure.get() == null;
    }

    /** @param error a failure; the first one is kept */
    void fail(Throwable error) {
        failure.compareAndSet(null, error);
    }

    /** Stops retries and waiting; requests in flight are not awaited. */
    void stop() {
        stopped = true;
    }

    /** @return rows Cassandra acknowledged */
    long acknowledgedRows() {
        return acknowledged.get();
    }

    /** @return requests sent, retries included */
    long requests() {
        return requests.get();
    }

    /** @return the first failure, or null */
    Throwable failure() {
        return failure.get();
    }
}
