package io.apiary.ingest.sink;

import io.apiary.ingest.logging.RateLimitedLog;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.sink.HotPartitionReport.PartitionLoad;
import io.apiary.ingest.sink.HotPartitionReport.Projection;
import io.apiary.ingest.sink.HotPartitionReport.TableLoad;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.apache.datasketches.frequencies.ErrorType;
import org.apache.datasketches.frequencies.ItemsSketch;
import org.apache.datasketches.hll.HllSketch;

/**
 * Finds the Cassandra partitions and nodes that take the most writes, with bounded memory.
 *
 * <p><b>Partitions.</b> Per table and window ({@code sink.hot.window.ms}), every acknowledged
 * write adds its rows and bytes under its partition's routing key to two heavy-hitter sketches
 * (Apache DataSketches' frequent-items {@link ItemsSketch}, the Misra-Gries family: at most
 * {@value #MAX_MAP_SIZE} keys kept; an estimate is at most {@link #EPSILON} ({@code 3.5 /
 * maxMapSize}, 0.68%) of the window's total above the truth, and its lower bound never above it),
 * and the key to a HyperLogLog sketch ({@link HllSketch}, lgK 12: distinct partitions K, about 1.6%
 * error). At the window's end a partition is <em>hot</em> when the lower bound of its share of the
 * table's rows or bytes exceeds {@code sink.hot.partition.share} and {@code sink.hot.skew / K}
 * ({@link HotPartitionSettings#hotPartition}); deciding on the lower bound, the sketch's error can
 * miss a partition within 0.68% of the threshold but never makes one hot.
 *
 * <p><b>Projection.</b> A heavy partition whose bucket has not ended ({@link PartitionLife}) is
 * projected to the end of its life at the window's rate: rate x life, in bytes and in cells,
 * against 100 MB and 100,000 cells. One passing a limit is reported even below the share threshold.
 *
 * <p><b>Nodes.</b> Each acknowledged write credits its rows to every replica of its partition (the
 * driver's token map). A node's share is the share of the window's rows of which it is a replica;
 * it is hot above {@code sink.hot.node.share} and {@code sink.hot.node.skew} times the mean over
 * the nodes that own tokens. Memory is bounded by the cluster's size.
 *
 * <p>One WARN per hot partition (the last {@value #WARNED_KEYS} keys warned are remembered; at most
 * {@value #HOT_WARNINGS_PER_MINUTE} per table a minute); for
 * partitions only projected past a limit, one WARN per table per
 * {@value #PROJECTION_WARN_EVERY_SECONDS} s naming the largest and counting the others; at most one
 * per node per hour. Meters: {@link HotPartitionMeters}. Cost per write: two sketch
 * updates and one HLL update per partition key of the write, one map update per replica.
 *
 * <p>Not thread-safe: confined to the sink's poll thread, except {@link #report()}, which any
 * thread may call (an immutable report published through a volatile field).
 */
public final class HotPartitions {

    /** Most keys each frequent-items sketch holds (a power of 2; memory about 100 bytes per key). */
    static final int MAX_MAP_SIZE = 512;
    /** Error bound of the frequent-items sketch, a share of the window's total: 3.5 / {@value #MAX_MAP_SIZE}. */
    public static final double EPSILON = ItemsSketch.getEpsilon(MAX_MAP_SIZE);
    /** Partitions per table kept in a report. */
    static final int TOP = 10;
    /** Partition keys remembered as already warned about. */
    static final int WARNED_KEYS = 10_000;

    /** Shortest time between two WARNs about one hot node. */
    private static final Duration NODE_WARN_EVERY = Duration.ofHours(1);
    /** Seconds between two WARNs of one table about partitions projected past the limits without being hot. */
    static final long PROJECTION_WARN_EVERY_SECONDS = 60;
    /** Most hot-partition WARNs per table a minute. */
    static final int HOT_WARNINGS_PER_MINUTE = 10;
    /** Days ahead of today beyond which a partition's bucket is not projected (a clock or data error). */
    static final long PROJECTION_HORIZON_DAYS = 1;

    private static final int HLL_LG_K = 12;

    /**
     * What the detector knows of a table.
     *
     * @param key  its partition-key format, or null when the driver has no metadata of it (keys are
     *             then printed in hex and not projected)
     * @param life the life of its partitions, not null
     */
    record Table(PartitionKeyFormat key, PartitionLife life) {}

    /** One table's sketches of the current window. */
    private static final class Window {
        final ItemsSketch<ByteBuffer> rows = new ItemsSketch<>(MAX_MAP_SIZE);
        final ItemsSketch<ByteBuffer> bytes = new ItemsSketch<>(MAX_MAP_SIZE);
        final HllSketch partitions = new HllSketch(HLL_LG_K);
        long totalRows;
        long totalBytes;
    }

    private final HotPartitionSettings settings;
    private final Map<String, Table> tables;
    private final Clock clock;
    private final IntSupplier tokenOwners;
    private final Function<Object, String> nodeName;
    private final RateLimitedLog hotWarnings;
    private final RateLimitedLog projectionWarnings;
    private final RateLimitedLog nodeWarnings;
    private final HotPartitionMeters meters;
    private final long windowNanos;
    private final Map<String, Window> windows = new HashMap<>();
    private final Map<Object, long[]> replicaRows = new HashMap<>();
    private final Set<String> warned =
            java.util.Collections.newSetFromMap(new LinkedHashMap<String, Boolean>(1024, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > WARNED_KEYS;
                }
            });
    private long rowsWithReplicas;
    private long windowStartNanos;
    private volatile HotPartitionReport report = HotPartitionReport.EMPTY;

    /**
     * @param settings    thresholds and window, not null
     * @param tables      table name to what is known of it, not null
     * @param meters      where the figures go, not null
     * @param clock       wall clock, for whether a bucket has ended, not null
     * @param nowNanos    {@link System#nanoTime()} now: the first window starts
     * @param tokenOwners number of Cassandra nodes that own tokens of the keyspace (0 if unknown);
     *                    called once per window
     * @param nodeName    a node's name for logs and tags ({@code host:port}), not null
     * @param warn        where WARN lines go (the sink's logger), not null
     */
    HotPartitions(
            HotPartitionSettings settings,
            Map<String, Table> tables,
            HotPartitionMeters meters,
            Clock clock,
            long nowNanos,
            IntSupplier tokenOwners,
            Function<Object, String> nodeName,
            Consumer<String> warn) {
        this.settings = settings;
        this.tables = Map.copyOf(tables);
        this.meters = meters;
        this.clock = clock;
        this.tokenOwners = tokenOwners;
        this.nodeName = nodeName;
        RateLimitedLog.Output output = (level, message, cause) -> warn.accept(message);
        this.hotWarnings = new RateLimitedLog(
                output,
                HOT_WARNINGS_PER_MINUTE,
                Duration.ofMinutes(1),
                table -> "More hot partitions in " + table + " in this minute are not logged (at most "
                        + HOT_WARNINGS_PER_MINUTE + " a minute); " + MetricNames.SINK_HOT_PARTITIONS
                        + " counts them and "
                        + "CassandraSink.hotPartitions() lists the last window's");
        this.projectionWarnings =
                new RateLimitedLog(output, 1, Duration.ofSeconds(PROJECTION_WARN_EVERY_SECONDS), null);
        this.nodeWarnings = new RateLimitedLog(output, 1, NODE_WARN_EVERY, null);
        this.windowNanos = settings.window().toNanos();
        this.windowStartNanos = nowNanos;
        meters.register(this.tables.keySet(), () -> report);
    }

    /** @return the last window's findings; thread-safe */
    public HotPartitionReport report() {
        return report;
    }

    /** @return keys held by the current window's frequent-items sketches (for tests of the memory bound) */
    int retainedKeys() {
        int keys = 0;
        for (Window window : windows.values()) {
            keys += window.rows.getNumActiveItems() + window.bytes.getNumActiveItems();
        }
        return keys;
    }

    /**
     * Counts an acknowledged write of one partition.
     *
     * @param table      table name
     * @param routingKey the partition's routing key, not null; kept (not copied) and must not change
     * @param rows       rows written, at least 1
     * @param bytes      their bytes ({@link SinkTable#serverBytes}), at least 1
     */
    void partition(String table, ByteBuffer routingKey, int rows, long bytes) {
        Window window = windows.computeIfAbsent(table, t -> new Window());
        window.rows.update(routingKey, rows);
        window.bytes.update(routingKey, bytes);
        window.partitions.update(routingKey);
        window.totalRows += rows;
        window.totalBytes += bytes;
    }

    /**
     * Credits a write's rows to the replicas of its partitions.
     *
     * @param replicas the replicas (driver {@code Node}s, or any value {@code nodeName} names), not
     *                 null; empty when unknown
     * @param rows     rows written
     */
    void replicas(Collection<?> replicas, int rows) {
        if (replicas.isEmpty()) {
            return;
        }
        rowsWithReplicas += rows;
        for (Object node : replicas) {
            replicaRows.computeIfAbsent(node, n -> new long[1])[0] += rows;
        }
    }

    /**
     * Counts an acknowledged write group: one sketch update per run of rows of one partition.
     *
     * @param group    the acknowledged group, not null
     * @param replicas its partitions' replicas (combined groups share them), empty if unknown
     */
    void written(WriteGroup group, Collection<?> replicas) {
        String table = group.table();
        if (group.partitionKeys == 1) {
            partition(table, group.rows.get(0).routingKey(), group.rows.size(), group.serverBytes);
        } else {
            int start = 0;
            for (int i = 1; i <= group.rows.size(); i++) {
                ByteBuffer key = group.rows.get(start).routingKey();
                if (i == group.rows.size() || !key.equals(group.rows.get(i).routingKey())) {
                    long bytes = 0;
                    for (int j = start; j < i; j++) {
                        bytes += group.rows.get(j).serverBytes();
                    }
                    partition(table, key, i - start, bytes);
                    start = i;
                }
            }
        }
        replicas(replicas, group.rows.size());
    }

    /**
     * Ends the window when it is due: computes shares, rates and projections, publishes the report
     * and meters, logs the WARN lines, and starts the next window. Cheap when not due.
     *
     * @param nowNanos {@link System#nanoTime()} now
     * @return whether a window ended
     */
    boolean tick(long nowNanos) {
        long elapsed = nowNanos - windowStartNanos;
        if (elapsed < windowNanos) {
            return false;
        }
        double seconds = elapsed / 1e9;
        Instant now = clock.instant();
        Map<String, TableLoad> loads = new TreeMap<>();
        windows.forEach((table, window) -> loads.put(table, load(table, window, seconds, now, nowNanos)));
        Map<String, Double> nodeShares = new TreeMap<>();
        double mean = nodes(seconds, nodeShares, nowNanos);
        report = new HotPartitionReport(now, Duration.ofNanos(elapsed), loads, nodeShares, mean);
        windows.clear();
        replicaRows.clear();
        rowsWithReplicas = 0;
        windowStartNanos = nowNanos;
        return true;
    }

    private TableLoad load(String table, Window window, double seconds, Instant now, long nowNanos) {
        long partitions = Math.max(1, Math.round(window.partitions.getEstimate()));
        // every partition that may be hot: at most 1 / share of them can pass the share threshold
        int candidatesPerSketch =
                (int) Math.min(MAX_MAP_SIZE, Math.max(TOP, Math.ceil(1 / settings.partitionShare()) + 1));
        Set<ByteBuffer> candidates = new LinkedHashSet<>();
        addTop(window.rows, candidates, candidatesPerSketch);
        addTop(window.bytes, candidates, candidatesPerSketch);
        Table known = tables.getOrDefault(table, new Table(null, PartitionLife.of(table, settings)));
        List<PartitionLoad> all = new ArrayList<>();
        for (ByteBuffer key : candidates) {
            double rowsShare = (double) window.rows.getLowerBound(key) / window.totalRows;
            double bytesShare =
                    window.totalBytes == 0 ? 0 : (double) window.bytes.getLowerBound(key) / window.totalBytes;
            boolean hot = settings.hotPartition(rowsShare, bytesShare, partitions);
            long rows = window.rows.getEstimate(key);
            long bytes = window.bytes.getEstimate(key);
            String printed = PartitionKeyFormat.hex(key);
            Projection projection = null;
            if (known.key() != null) {
                try {
                    List<Object> values = known.key().decode(key);
                    printed = known.key().format(values);
                    // from the lower bounds: the sketch's error alone cannot project a partition past a limit
                    projection = project(
                            known.life(),
                            values,
                            window.rows.getLowerBound(key) / seconds,
                            window.bytes.getLowerBound(key) / seconds,
                            now);
                } catch (RuntimeException e) {
                    // not a key of this table's cql/ schema (e.g. deployed with another key): hex, no projection
                }
            }
            all.add(new PartitionLoad(
                    printed,
                    rows,
                    bytes,
                    (double) rows / window.totalRows,
                    window.totalBytes == 0 ? 0 : (double) bytes / window.totalBytes,
                    rows / seconds,
                    bytes / seconds,
                    hot,
                    projection));
        }
        all.sort(Comparator.comparingLong(PartitionLoad::rows).reversed());
        List<PartitionLoad> projectedOnly = new ArrayList<>();
        for (PartitionLoad load : all) {
            if (load.hot()) {
                meters.hotPartition(table);
                // held-back keys are not remembered, so they may be logged in a later minute
                if (!warned.contains(table + load.key())
                        && hotWarnings.warn(
                                table,
                                nowNanos,
                                "{}",
                                HotPartitionMessages.partition(table, load, seconds, partitions))) {
                    warned.add(table + load.key());
                }
            } else if (load.overLimit()) {
                meters.projectedOverLimit(table);
                if (!warned.contains(table + load.key())) {
                    projectedOnly.add(load);
                }
            }
        }
        warnProjected(table, projectedOnly, seconds, partitions, nowNanos);
        // the report: the heaviest by rows, plus every hot or over-limit partition (a partition hot in bytes only)
        List<PartitionLoad> kept = new ArrayList<>(all.subList(0, Math.min(TOP, all.size())));
        all.stream().skip(TOP).filter(l -> l.hot() || l.overLimit()).forEach(kept::add);
        return new TableLoad(table, window.totalRows, window.totalBytes, partitions, kept);
    }

    /**
     * Partitions projected past a limit without being hot are usually many at once (a burst or a
     * catch-up raises every partition's rate): one WARN per table per {@value #PROJECTION_WARN_EVERY_SECONDS} s
     * names the largest and counts the others, instead of one line per partition.
     */
    private void warnProjected(
            String table, List<PartitionLoad> loads, double seconds, long partitions, long nowNanos) {
        if (loads.isEmpty()) {
            return;
        }
        PartitionLoad largest = loads.stream()
                .max(Comparator.comparingDouble(l -> l.projection().bytes()))
                .orElseThrow();
        String message = HotPartitionMessages.partition(table, largest, seconds, partitions);
        boolean logged = projectionWarnings.warn(
                table,
                nowNanos,
                "{}",
                loads.size() == 1
                        ? message
                        : message
                                + String.format(
                                        java.util.Locale.ROOT,
                                        " (and %d more of the heaviest partitions of %s projected past the limits in this window; "
                                                + MetricNames.SINK_PROJECTED_OVER_LIMIT + " counts them)",
                                        loads.size() - 1,
                                        table));
        if (logged) {
            warned.add(table + largest.key());
        }
    }

    /** Adds the sketch's heaviest keys, at most {@code limit}, that may be frequent (no false negatives). */
    private static void addTop(ItemsSketch<ByteBuffer> sketch, Set<ByteBuffer> out, int limit) {
        ItemsSketch.Row<ByteBuffer>[] rows = sketch.getFrequentItems(ErrorType.NO_FALSE_NEGATIVES);
        for (int i = 0; i < Math.min(limit, rows.length); i++) {
            out.add(rows[i].getItem());
        }
    }

    /**
     * @return the partition's size at the end of its bucket at these rates, or null if it has no
     *         bucket or its bucket has ended
     */
    static Projection project(
            PartitionLife life, List<Object> key, double rowsPerSecond, double bytesPerSecond, Instant now) {
        PartitionLife.Bucket bucket = life.bucket(key);
        if (bucket == null
                || !bucket.end().isAfter(now)
                || bucket.start().isAfter(now.plus(Duration.ofDays(PROJECTION_HORIZON_DAYS)))) {
            return null; // ended, or so far ahead that the day is an error: its rate says nothing of its size
        }
        double lifeSeconds = bucket.life().toMillis() / 1e3;
        double rows = rowsPerSecond * lifeSeconds;
        return new Projection(bucket.end(), bytesPerSecond * lifeSeconds, rows, rows * life.cellsPerRow());
    }

    /** Fills the nodes' shares, counts and warns; returns the mean share over the token owners. */
    private double nodes(double seconds, Map<String, Double> shares, long nowNanos) {
        if (rowsWithReplicas == 0) {
            return 0;
        }
        int owners = Math.max(Math.max(1, tokenOwners.getAsInt()), replicaRows.size());
        long credited = 0;
        for (long[] rows : replicaRows.values()) {
            credited += rows[0];
        }
        double mean = (double) credited / rowsWithReplicas / owners;
        for (Map.Entry<Object, long[]> entry : replicaRows.entrySet()) {
            String node = nodeName.apply(entry.getKey());
            double share = (double) entry.getValue()[0] / rowsWithReplicas;
            shares.put(node, share);
            meters.replicaRows(node, entry.getValue()[0]);
            if (settings.hotNode(share, mean)) {
                meters.hotNode();
                nodeWarnings.warn(node, nowNanos, "{}", HotPartitionMessages.node(node, share, mean, owners, seconds));
            }
        }
        meters.nodes(shares.keySet(), () -> report);
        return mean;
    }
}
