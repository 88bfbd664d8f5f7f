package io.apiary.ingest.sink;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The grouping core of the sink: collects rows into one open batch per partition key, and
 * closes a batch when it reaches the row cap, when the next row would pass the byte cap, or when
 * its first row has waited the linger time, whichever comes first. Pure logic with an injected
 * clock (every method takes "now" in nanoseconds), testable without Kafka or Cassandra.
 *
 * <p>Guarantees: every row added comes out in exactly one batch (or is handed back by
 * {@link #remove}); a batch holds rows of one key only, in the order they were added; a batch
 * never holds more than {@code maxRows} rows, nor more than {@code maxBytes} bytes unless it is a
 * single row larger than the cap (such a row travels alone); an open batch is returned by
 * {@link #drainReady} at the latest at the first call at or after its first row's arrival plus the
 * linger. Open batches are kept in the order they were opened, so the oldest come out first,
 * in O(1) per batch.
 *
 * <p>The same idea as Kafka's producer accumulator ({@code batch.size} and {@code linger.ms} per
 * topic partition), applied to Cassandra partitions.
 *
 * <p>Not thread-safe: the sink's poll thread only.
 *
 * @param <K> partition key type; equals/hashCode by value
 * @param <R> row type
 */
public final class PartitionBatcher<K, R> {

    /**
     * A closed batch.
     *
     * @param key          its partition key
     * @param rows         its rows, oldest first, not empty
     * @param bytes        the sum of its rows' sizes, as counted against the byte cap
     * @param openedNanos  when its first row was added (the clock of the calls)
     * @param <K>          partition key type
     * @param <R>          row type
     */
    public record Batch<K, R>(K key, List<R> rows, long bytes, long openedNanos) {}

    private static final class Open<R> {
        final List<R> rows = new ArrayList<>();
        final long openedNanos;
        long bytes;

        Open(long openedNanos) {
            this.openedNanos = openedNanos;
        }
    }

    private final int maxRows;
    private final long maxBytes;
    private final long lingerNanos;
    private final LinkedHashMap<K, Open<R>> open = new LinkedHashMap<>();
    private final ArrayDeque<Batch<K, R>> closed = new ArrayDeque<>();
    private int openRows;
    private long openBytes;

    /**
     * @param maxRows     row cap per batch, at least 1
     * @param maxBytes    byte cap per batch, at least 1
     * @param lingerNanos how long a batch's first row may wait for more rows, at least 0
     *                    (0: a batch closes at the next {@link #drainReady})
     * @throws IllegalArgumentException if a value is out of range
     */
    public PartitionBatcher(int maxRows, long maxBytes, long lingerNanos) {
        if (maxRows < 1 || maxBytes < 1 || lingerNanos < 0) {
            throw new IllegalArgumentException("maxRows and maxBytes must be at least 1 and linger at least 0: "
                    + maxRows + ", " + maxBytes + ", " + lingerNanos);
        }
        this.maxRows = maxRows;
        this.maxBytes = maxBytes;
        this.lingerNanos = lingerNanos;
    }

    /**
     * Adds a row to its partition's open batch, closing that batch first if the row would pass
     * the byte cap, and after if it reached the row cap.
     *
     * @param key       the row's partition key, not null
     * @param row       the row, not null
     * @param bytes     its size, at least 0
     * @param nowNanos  the current time
     */
    public void add(K key, R row, long bytes, long nowNanos) {
        Open<R> batch = open.get(key);
        if (batch != null && batch.bytes + bytes > maxBytes) {
            close(key, batch);
            batch = null;
        }
        if (batch == null) {
            batch = new Open<>(nowNanos);
            open.put(key, batch);
        }
        batch.rows.add(row);
        batch.bytes += bytes;
        openRows++;
        openBytes += bytes;
        if (batch.rows.size() >= maxRows) {
            close(key, batch);
        }
    }

    /**
     * Takes the batches that are ready: those closed by a cap, then the open ones whose first row
     * has waited the linger time, oldest first.
     *
     * @param nowNanos the current time
     * @return ready batches, possibly empty; the caller owns the list
     */
    public List<Batch<K, R>> drainReady(long nowNanos) {
        Iterator<Map.Entry<K, Open<R>>> oldestFirst = open.entrySet().iterator();
        while (oldestFirst.hasNext()) {
            Map.Entry<K, Open<R>> entry = oldestFirst.next();
            if (nowNanos - entry.getValue().openedNanos < lingerNanos) {
                break;
            }
            oldestFirst.remove();
            closeRemoved(entry.getKey(), entry.getValue());
        }
        return takeClosed();
    }

    /**
     * Takes the batches closed by a cap, leaving lingered ones open (see {@link #pollOldest}).
     *
     * @return batches closed because they reached the row or byte cap, oldest first; the caller owns the list
     */
    public List<Batch<K, R>> drainFull() {
        return takeClosed();
    }

    /**
     * Closes and returns the oldest open batch if its first row has waited the linger time, or
     * whatever its age when {@code evenIfLingering}; for a writer that takes a batch only when it
     * can send one, so that a batch keeps filling until then.
     *
     * @param nowNanos        the current time
     * @param evenIfLingering true to take the oldest batch before its linger ends
     * @return the batch, or null if none is open (or the oldest still lingers)
     */
    public Batch<K, R> pollOldest(long nowNanos, boolean evenIfLingering) {
        Iterator<Map.Entry<K, Open<R>>> oldestFirst = open.entrySet().iterator();
        if (!oldestFirst.hasNext()) {
            return null;
        }
        Map.Entry<K, Open<R>> entry = oldestFirst.next();
        if (!evenIfLingering && nowNanos - entry.getValue().openedNanos < lingerNanos) {
            return null;
        }
        oldestFirst.remove();
        Open<R> batch = entry.getValue();
        openRows -= batch.rows.size();
        openBytes -= batch.bytes;
        return new Batch<>(entry.getKey(), List.copyOf(batch.rows), batch.bytes, batch.openedNanos);
    }

    /**
     * @return when the oldest open batch's first row was added (the clock of the calls), or
     *         {@link Long#MAX_VALUE} if no batch is open
     */
    public long oldestOpenedNanos() {
        return open.isEmpty() ? Long.MAX_VALUE : open.values().iterator().next().openedNanos;
    }

    /**
     * Closes open batches before their linger time, oldest first, until at most
     * {@code keepRows} rows and {@code keepBytes} bytes remain open; for flushing under memory
     * pressure and at shutdown.
     *
     * @param keepRows  rows that may stay open, at least 0 (0 closes all)
     * @param keepBytes bytes that may stay open, at least 0
     * @return the batches closed by caps and by this call, oldest first
     */
    public List<Batch<K, R>> drainOldest(int keepRows, long keepBytes) {
        Iterator<Map.Entry<K, Open<R>>> oldestFirst = open.entrySet().iterator();
        while (oldestFirst.hasNext() && (openRows > keepRows || openBytes > keepBytes)) {
            Map.Entry<K, Open<R>> entry = oldestFirst.next();
            oldestFirst.remove();
            closeRemoved(entry.getKey(), entry.getValue());
        }
        return takeClosed();
    }

    /**
     * Removes the rows of some keys, open or closed, without returning them as batches (their
     * Kafka partitions were revoked: the new owner reads them again).
     *
     * @param keys which keys to drop
     * @return the rows dropped, as batches of their keys (open ones included, with the rows they held)
     */
    public List<Batch<K, R>> remove(Predicate<K> keys) {
        List<Batch<K, R>> dropped = new ArrayList<>();
        Iterator<Map.Entry<K, Open<R>>> entries = open.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<K, Open<R>> entry = entries.next();
            if (keys.test(entry.getKey())) {
                entries.remove();
                Open<R> batch = entry.getValue();
                openRows -= batch.rows.size();
                openBytes -= batch.bytes;
                dropped.add(new Batch<>(entry.getKey(), batch.rows, batch.bytes, batch.openedNanos));
            }
        }
        closed.removeIf(batch -> {
            if (keys.test(batch.key())) {
                dropped.add(batch);
                return true;
            }
            return false;
        });
        return dropped;
    }

    /**
     * @param nowNanos the current time
     * @return when the oldest open batch's linger ends (clock of the calls), or
     *         {@link Long#MAX_VALUE} if no batch is open; {@code nowNanos} if a batch is already closed
     */
    public long nextDeadlineNanos(long nowNanos) {
        if (!closed.isEmpty()) {
            return nowNanos;
        }
        if (open.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return open.values().iterator().next().openedNanos + lingerNanos;
    }

    /** @return rows in open batches and in closed batches not yet drained */
    public int rows() {
        int waiting = openRows;
        for (Batch<K, R> batch : closed) {
            waiting += batch.rows().size();
        }
        return waiting;
    }

    /** @return rows in open batches */
    public int openRows() {
        return openRows;
    }

    /** @return bytes of rows in open batches */
    public long openBytes() {
        return openBytes;
    }

    /**
     * @param key a partition key
     * @return rows in its open batch, 0 if none
     */
    public int openRowsOf(K key) {
        Open<R> batch = open.get(key);
        return batch == null ? 0 : batch.rows.size();
    }

    private void close(K key, Open<R> batch) {
        open.remove(key);
        closeRemoved(key, batch);
    }

    private void closeRemoved(K key, Open<R> batch) {
        openRows -= batch.rows.size();
        openBytes -= batch.bytes;
        closed.addLast(new Batch<>(key, List.copyOf(batch.rows), batch.bytes, batch.openedNanos));
    }

    private List<Batch<K, R>> takeClosed() {
        List<Batch<K, R>> ready = new ArrayList<>(closed);
        closed.clear();
        return ready;
    }
}
