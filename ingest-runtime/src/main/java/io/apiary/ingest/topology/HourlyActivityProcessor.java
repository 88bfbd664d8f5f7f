package io.apiary.ingest.topology;

import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.tables.TableNames;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivityState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Sums entrance-counter samples per hive and UTC hour (event time), and closes each hour exactly
 * once. Input: validated samples keyed by hive id, whose record timestamp is the sample's event
 * time. Output ({@link ActivityOutput}): interim sums of changed open hours every update interval
 * (wall clock), one final result per (hive, hour) when it closes, and samples that came too late.
 *
 * <p><b>When an hour closes.</b> The processor keeps a close time per task (one partition of the
 * entrance-counter topic), which only grows: the task's stream time (the largest event time
 * seen), and, once the task has received no record for {@code idleTimeout} of wall-clock time (the
 * quiet-partition rule, like a watermark with idleness), the smaller of the wall clock minus
 * {@code idleTimeout} and the stream time plus 1 h + grace (far enough to close every open hour,
 * no further). An hour [s, s + 1 h) closes when s + 1 h + grace &lt;= close time; its final result
 * is emitted once and its state deleted. So with live traffic (event time close to the wall clock)
 * a quiet partition's last hour closes {@code idleTimeout} after it would have closed with traffic
 * flowing, and after a replay of history all its open hours close {@code idleTimeout} after the
 * replay stopped (checked every {@code updateInterval}). A replay that pauses for longer than
 * {@code idleTimeout} has its open hours closed too, and its next samples for them are late. A sample for an hour that has closed is late: it
 * goes to the late topic and is counted, never summed and never dropped silently. The close time
 * only grows and is kept in a changelogged store, so a restart cannot reopen a closed hour.
 *
 * <p><b>Duplicates and conflicts.</b> A sample is identified by (hive id, gateway id, event
 * time); a second sample with the same identity and the same counts in an open hour is a re-send,
 * counted ({@value io.apiary.ingest.metrics.MetricNames#TOPOLOGY_DUPLICATE_RECORDS}) and not summed again. One with the same identity and other
 * counts is a conflict ({@code apiary.write.conflicts{table=hive_activity,stage=topology}}): the
 * hour counts the greater of the two (by bees_in, then bees_out, then interval_seconds), whichever
 * arrived first, so the hour's sums do not depend on arrival order; its sample count stays and
 * its {@code revision} grows by one, so that the sink's write of the new sums wins over the
 * interim row it may have written before.
 * (Seen entries written before this rule, with no counts kept, treat every second sample as a
 * re-send.)
 *
 * <p><b>Stores</b> (RocksDB by default, or on the heap; changelogged; so the state of a task is bounded
 * by its open hours: measured with {@code bench state}, 2026-12-05, 31.8 bytes per sample of an open
 * hour on disk in RocksDB and 33.8 in the changelogs, or about 180 bytes of live heap in memory):
 * {@value #SUMS_STORE} (key: hour start, 8 bytes big-endian, then the hive id), {@value #SEEN_STORE}
 * (key: hour start, hive id, gateway id, event time; value: the sample's counts, 12 bytes),
 * {@value #CLOSE_TIME_STORE}.
 *
 * <p>Not thread-safe: Kafka Streams gives each task its own instance.
 */
public final class HourlyActivityProcessor implements Processor<String, EntranceCount, String, ActivityOutput> {

    /** Running sums of the open hours. */
    public static final String SUMS_STORE = "hourly-activity-sums";
    /** Identities of the samples summed into the open hours. */
    public static final String SEEN_STORE = "hourly-activity-seen-samples";
    /** The task's close time. */
    public static final String CLOSE_TIME_STORE = "hourly-activity-close-time";
    /** Header of a late sample: start of its hour, ISO-8601. */
    public static final String LATE_HOUR_HEADER = "apiary.late.hour";
    /** Header of a late sample: the close time it met, ISO-8601. */
    public static final String LATE_CLOSE_TIME_HEADER = "apiary.late.close.time";

    private static final long WINDOW_MS = HourBucket.MILLIS_PER_HOUR;
    private static final String CLOSE_TIME_KEY = "close-time";
    /** Bytes of a sample's content in the seen store ({@link #sampleContent}). */
    static final int CONTENT_BYTES = 12;

    private final long graceMs;
    private final long idleTimeoutMs;
    private final Duration updateInterval;
    private final Counter late =
            Metrics.counter(MetricNames.TOPOLOGY_LATE_RECORDS, MetricNames.TAG_STREAM, "entrance-counts");
    private final Counter duplicates =
            Metrics.counter(MetricNames.TOPOLOGY_DUPLICATE_RECORDS, MetricNames.TAG_STREAM, "entrance-counts");
    private final Counter conflicts = Metrics.counter(
            MetricNames.WRITE_CONFLICTS,
            MetricNames.TAG_TABLE,
            TableNames.HIVE_ACTIVITY,
            MetricNames.TAG_STAGE,
            "topology");
    private final Counter closedByStreamTime =
            Metrics.counter(MetricNames.TOPOLOGY_HOURS_CLOSED, MetricNames.TAG_BY, "stream-time");
    private final Counter closedByQuietRule =
            Metrics.counter(MetricNames.TOPOLOGY_HOURS_CLOSED, MetricNames.TAG_BY, "quiet-partition");

    private ProcessorContext<String, ActivityOutput> context;
    private KeyValueStore<Bytes, HourlyActivityState> sums;
    private KeyValueStore<Bytes, byte[]> seen;
    private KeyValueStore<String, Long> closeTimeStore;
    private final Set<Bytes> changed = new LinkedHashSet<>();
    private long closeTime = Long.MIN_VALUE;
    /** Start of the last hour known to be closed: no state exists at or before it. */
    private long closedThrough = Long.MIN_VALUE;

    private long lastRecordWallClock;

    /**
     * @param grace          grace period after an hour's end, from 0 to
     *                       {@link IngestConfig#ACTIVITY_GRACE_MAX_MS} ms
     * @param idleTimeout    wall-clock time without stream-time progress before the close time
     *                       follows the wall clock, from 0 to {@link IngestConfig#ACTIVITY_IDLE_TIMEOUT_MAX_MS} ms
     * @param updateInterval wall-clock interval of interim updates and quiet checks, positive
     * @throws IllegalArgumentException if {@code grace} is negative or above the maximum: an hour's end
     *                                  plus such a grace could overflow and make every sample late; or if
     *                                  {@code idleTimeout} is outside its range (naming its setting)
     */
    public HourlyActivityProcessor(Duration grace, Duration idleTimeout, Duration updateInterval) {
        if (grace.isNegative() || grace.compareTo(Duration.ofMillis(IngestConfig.ACTIVITY_GRACE_MAX_MS)) > 0) {
            throw new IllegalArgumentException("grace period " + grace + " is outside [0, "
                    + Duration.ofMillis(IngestConfig.ACTIVITY_GRACE_MAX_MS) + "] (" + IngestConfig.ACTIVITY_GRACE_MS
                    + ")");
        }
        IngestConfig.requireWait(
                IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, idleTimeout, 0, IngestConfig.ACTIVITY_IDLE_TIMEOUT_MAX_MS);
        this.graceMs = grace.toMillis();
        this.idleTimeoutMs = idleTimeout.toMillis();
        this.updateInterval = updateInterval;
    }

    @Override
    public void init(ProcessorContext<String, ActivityOutput> context) {
        this.context = context;
        this.sums = context.getStateStore(SUMS_STORE);
        this.seen = context.getStateStore(SEEN_STORE);
        this.closeTimeStore = context.getStateStore(CLOSE_TIME_STORE);
        Long stored = closeTimeStore.get(CLOSE_TIME_KEY);
        closeTime = stored == null ? Long.MIN_VALUE : stored;
        lastRecordWallClock = context.currentSystemTimeMs();
        context.schedule(updateInterval, PunctuationType.WALL_CLOCK_TIME, this::onWallClock);
    }

    @Override
    public void process(Record<String, EntranceCount> record) {
        lastRecordWallClock = context.currentSystemTimeMs();
        advanceCloseTime(context.currentStreamTimeMs(), lastRecordWallClock);
        EntranceCount sample = record.value();
        long eventTime = sample.getEventTime().toEpochMilli(); // equal to record.timestamp() after the check step
        long hourStart = HourBucket.hourStart(eventTime);
        if (hourStart + WINDOW_MS + graceMs <= closeTime) {
            late.increment();
            Headers headers = record.headers();
            headers.add(
                    LATE_HOUR_HEADER, Instant.ofEpochMilli(hourStart).toString().getBytes(StandardCharsets.UTF_8));
            headers.add(
                    LATE_CLOSE_TIME_HEADER,
                    Instant.ofEpochMilli(closeTime).toString().getBytes(StandardCharsets.UTF_8));
            context.forward(record.withValue((ActivityOutput) new ActivityOutput.Late(sample))
                    .withHeaders(headers));
            return;
        }
        Bytes identity = sampleKey(hourStart, record.key(), sample.getGatewayId(), eventTime);
        byte[] content = sampleContent(sample);
        byte[] earlier = seen.get(identity);
        Bytes hourKey = hourKey(hourStart, record.key());
        if (earlier != null) {
            if (earlier.length != content.length || Arrays.equals(earlier, content)) {
                duplicates.increment(); // the same sample again (or one summed before contents were kept)
                return;
            }
            conflicts.increment();
            if (Arrays.compare(content, earlier) > 0) {
                // the greater of two different samples counts, whichever came first
                seen.put(identity, content);
                HourlyActivityState state = sums.get(hourKey);
                sums.put(
                        hourKey,
                        new HourlyActivityState(
                                state.getEntries()
                                        + sample.getBeesIn()
                                        - (ByteBuffer.wrap(earlier).getInt(0) ^ Integer.MIN_VALUE),
                                state.getExits()
                                        + sample.getBeesOut()
                                        - (ByteBuffer.wrap(earlier).getInt(4) ^ Integer.MIN_VALUE),
                                state.getSamples(),
                                state.getRevision() + 1));
                changed.add(hourKey);
            }
            return;
        }
        seen.put(identity, content);
        HourlyActivityState state = sums.get(hourKey);
        sums.put(
                hourKey,
                state == null
                        ? new HourlyActivityState((long) sample.getBeesIn(), (long) sample.getBeesOut(), 1, 0)
                        : new HourlyActivityState(
                                state.getEntries() + sample.getBeesIn(),
                                state.getExits() + sample.getBeesOut(),
                                state.getSamples() + 1,
                                state.getRevision()));
        changed.add(hourKey);
    }

    /**
     * What the seen store keeps of a summed sample, to tell a re-send (equal) from a conflicting
     * sample (different): bees_in, bees_out and interval_seconds, 4 bytes each, big-endian with the
     * sign bit flipped, so that {@link Arrays#compare} of two contents orders them as the numbers.
     */
    static byte[] sampleContent(EntranceCount sample) {
        return ByteBuffer.allocate(CONTENT_BYTES)
                .putInt(sample.getBeesIn() ^ Integer.MIN_VALUE)
                .putInt(sample.getBeesOut() ^ Integer.MIN_VALUE)
                .putInt(sample.getIntervalSeconds() ^ Integer.MIN_VALUE)
                .array();
    }

    private void onWallClock(long wallClockMs) {
        advanceCloseTime(context.currentStreamTimeMs(), wallClockMs);
        for (Bytes hourKey : changed) {
            HourlyActivityState state = sums.get(hourKey);
            if (state != null) {
                long hourStart = hourStartOf(hourKey);
                String hive = hiveOf(hourKey);
                context.forward(new Record<>(
                        hive,
                        new ActivityOutput.Interim(RowMapper.hourlyActivity(hive, hourStart, state)),
                        hourStart + WINDOW_MS - 1));
            }
        }
        changed.clear();
    }

    /**
     * Moves the close time on (never back) and closes the hours it passed.
     */
    private void advanceCloseTime(long streamTime, long wallClockMs) {
        if (streamTime < 0) {
            return;
        }
        boolean quiet = wallClockMs - lastRecordWallClock >= idleTimeoutMs;
        long candidate = quiet
                ? Math.max(streamTime, Math.min(wallClockMs - idleTimeoutMs, streamTime + WINDOW_MS + graceMs))
                : streamTime;
        if (candidate <= closeTime) {
            return;
        }
        closeTime = candidate;
        closeTimeStore.put(CLOSE_TIME_KEY, closeTime);
        closeHours(quiet ? closedByQuietRule : closedByStreamTime);
    }

    /** Emits and forgets every hour whose end plus grace is at or before the close time. */
    private void closeHours(Counter cause) {
        long lastClosable = closeTime - graceMs - WINDOW_MS;
        if (lastClosable < 0 || HourBucket.hourStart(lastClosable) <= closedThrough) {
            return; // nothing new to close: scan once per hour of close time, not per record
        }
        // Hours up to the previous close are deleted already: scanning from there, not from 0, keeps
        // RocksDB from walking the tombstones of every hour closed since its last compaction.
        long firstOpen = closedThrough == Long.MIN_VALUE ? 0 : closedThrough + WINDOW_MS;
        closedThrough = HourBucket.hourStart(lastClosable);
        Bytes from = Bytes.wrap(ByteBuffer.allocate(8).putLong(firstOpen).array());
        Bytes to = Bytes.wrap(ByteBuffer.allocate(8).putLong(lastClosable + 1).array());
        List<KeyValue<Bytes, HourlyActivityState>> closing = new ArrayList<>();
        try (KeyValueIterator<Bytes, HourlyActivityState> hours = sums.range(from, to)) {
            hours.forEachRemaining(closing::add);
        }
        for (KeyValue<Bytes, HourlyActivityState> hour : closing) {
            long hourStart = hourStartOf(hour.key);
            if (hourStart > lastClosable) {
                continue;
            }
            String hive = hiveOf(hour.key);
            context.forward(new Record<>(
                    hive,
                    new ActivityOutput.Final(RowMapper.hourlyActivity(hive, hourStart, hour.value)),
                    hourStart + WINDOW_MS - 1));
            sums.delete(hour.key);
            changed.remove(hour.key);
            cause.increment();
        }
        List<Bytes> forgotten = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> identities = seen.range(from, to)) {
            identities.forEachRemaining(kv -> {
                if (hourStartOf(kv.key) <= lastClosable) {
                    forgotten.add(kv.key);
                }
            });
        }
        forgotten.forEach(seen::delete);
    }

    static Bytes hourKey(long hourStart, String hive) {
        byte[] id = hive.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(
                ByteBuffer.allocate(8 + id.length).putLong(hourStart).put(id).array());
    }

    static Bytes sampleKey(long hourStart, String hive, String gateway, long eventTime) {
        byte[] hiveId = hive.getBytes(StandardCharsets.UTF_8);
        byte[] gatewayId = (gateway == null ? "" : gateway).getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(8 + 4 + hiveId.length + 4 + gatewayId.length + 8)
                .putLong(hourStart)
                .putInt(hiveId.length)
                .put(hiveId)
                .putInt(gatewayId.length)
                .put(gatewayId)
                .putLong(eventTime)
                .array());
    }

    private static long hourStartOf(Bytes key) {
        return ByteBuffer.wrap(key.get()).getLong();
    }

    private static String hiveOf(Bytes hourKey) {
        byte[] bytes = hourKey.get();
        return new String(bytes, 8, bytes.length - 8, StandardCharsets.UTF_8);
    }
}
