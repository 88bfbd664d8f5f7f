package io.apiary.ingest.topology;

import io.apiary.ingest.bucket.HourBucket;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.tables.TableNames;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivityState;
import io.apiary.schema.ResultTiming;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sums entrance-counter samples per hive and UTC hour (event time), publishes each hour's result
 * when it closes and a correction when samples for it come later. Input: validated samples keyed by
 * hive id, whose record timestamp is the sample's event time. Output ({@link ActivityOutput}):
 * interim sums of changed open hours every update interval (wall clock), a result per (hive, hour)
 * when it closes (timing ON_TIME, pane_index 0), corrections (timing LATE, pane_index 1, 2, ...),
 * and samples beyond the correction horizon.
 *
 * <p><b>When an hour closes.</b> Each hive has its own close time, which only grows: the largest
 * event time of its samples, so that other hives on the same partition never close its hours; and,
 * by the quiet rule, once the hive has sent no sample for {@code idleTimeout} of wall clock while the
 * task's input partition held no unprocessed record ({@link InputLag}) all that time, the smaller of
 * the wall clock minus {@code idleTimeout} and its latest event time plus 1 h + grace (far enough to
 * close each of its open hours, no further). The quiet rule is checked every {@code updateInterval};
 * a gap of more than {@code updateInterval} + 1 s between two checks (the stream thread stalled:
 * stopped, starved of CPU, a long commit) starts its wait again, since the lag seen after a stall can
 * predate records produced during it. An hour [s, s + 1 h) closes when s + 1 h + grace &lt;= the
 * hive's close time: its first result is published once.
 *
 * <p><b>Corrections.</b> A closed hour's sums and its samples' identities are kept until the hive's
 * close time passes s + 1 h + grace + {@code correctionHorizon}. A sample for it until then is summed
 * (duplicates and conflicts as in an open hour) and the hour is published again at the next update
 * interval, with the next pane_index (the hive_activity row gets the new sums through the row
 * topic). A later sample is late: it goes to the late topic and is counted, never summed and never
 * dropped silently. A hive's close time is kept in a changelogged store, so a restart neither
 * reopens a closed hour nor forgets a pending correction (stored too).
 *
 * <p><b>Duplicates and conflicts.</b> A sample is identified by (hive id, gateway id, event time); a
 * second sample with the same identity and the same counts is a re-send, counted
 * ({@value io.apiary.ingest.metrics.MetricNames#TOPOLOGY_DUPLICATE_RECORDS}) and not summed again. One
 * with the same identity and other counts is a conflict
 * ({@code apiary.write.conflicts{table=hive_activity,stage=topology}}): the hour counts the greater of
 * the two (by bees_in, then bees_out, then interval_seconds), whichever arrived first, so the hour's
 * sums do not depend on arrival order; its sample count stays and its {@code revision} grows by one,
 * so that the sink's write of the new sums wins over the row it may have written before.
 *
 * <p><b>Stores</b> (RocksDB by default, or on the heap; changelogged; sizes on the performance page of
 * the docs): {@value #HIVES_STORE} (key: hive id; value: {@link HiveClock}), {@value #HOURS_STORE} (key:
 * {@link ActivityKeys#hour}; value: the hour's sums), {@value #SAMPLES_STORE} (key:
 * {@link ActivityKeys#sample}; value: the sample's counts, {@value #CONTENT_BYTES} bytes),
 * {@value #CORRECTIONS_STORE} (hours with a correction to publish). So a task's state is bounded by
 * its hives, and per hive by the hours within grace plus horizon of its close time.
 *
 * <p>Not thread-safe: Kafka Streams gives each task its own instance.
 */
public final class HourlyActivityProcessor implements Processor<String, EntranceCount, String, ActivityOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(HourlyActivityProcessor.class);

    /** Each hive's event time and close time. */
    public static final String HIVES_STORE = "hourly-activity-hives";
    /** Sums of the open hours and of the closed hours within the correction horizon. */
    public static final String HOURS_STORE = "hourly-activity-hours";
    /** Identities and counts of the samples summed into the hours of {@link #HOURS_STORE}. */
    public static final String SAMPLES_STORE = "hourly-activity-samples";
    /** Closed hours whose sums changed since their last published result. */
    public static final String CORRECTIONS_STORE = "hourly-activity-corrections";
    /** Header of a late sample: start of its hour, ISO-8601. */
    public static final String LATE_HOUR_HEADER = "apiary.late.hour";
    /** Header of a late sample: its hive's close time when it came, ISO-8601. */
    public static final String LATE_CLOSE_TIME_HEADER = "apiary.late.close.time";

    /** Bytes of a sample's content in the samples store ({@link #sampleContent}). */
    static final int CONTENT_BYTES = 12;

    private static final long WINDOW_MS = HourBucket.MILLIS_PER_HOUR;
    private static final long STALL_SLACK_MS = 1_000;
    private static final byte[] PENDING = new byte[0];

    private final long graceMs;
    private final long idleTimeoutMs;
    private final long horizonMs;
    private final Duration updateInterval;
    private final InputLag inputLag;
    private final String inputTopic;
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
    private final Counter closedByHiveProgress =
            Metrics.counter(MetricNames.TOPOLOGY_HOURS_CLOSED, MetricNames.TAG_BY, "hive-progress");
    private final Counter closedByQuietRule =
            Metrics.counter(MetricNames.TOPOLOGY_HOURS_CLOSED, MetricNames.TAG_BY, "quiet");
    private final Counter corrections =
            Metrics.counter(MetricNames.TOPOLOGY_HOUR_CORRECTIONS, MetricNames.TAG_STREAM, "entrance-counts");

    private ProcessorContext<String, ActivityOutput> context;
    private KeyValueStore<String, byte[]> hiveStore;
    private KeyValueStore<Bytes, HourlyActivityState> hours;
    private KeyValueStore<Bytes, byte[]> samples;
    private KeyValueStore<Bytes, byte[]> correctionStore;
    private TopicPartition partition;

    /** Every hive of the task, as in {@link #HIVES_STORE}. */
    private final Map<String, HiveClock> hives = new HashMap<>();
    /** Hives with an open hour, the one whose last sample is oldest first. */
    private final LinkedHashMap<String, HiveClock> openHives = new LinkedHashMap<>();
    /** Open hours whose sums changed since the last interim update. */
    private final Set<Bytes> changed = new LinkedHashSet<>();
    /** Closed hours with a correction to publish, as in {@link #CORRECTIONS_STORE}. */
    private final Set<Bytes> pending = new LinkedHashSet<>();
    /** Wall clock since which every check found the input caught up; {@link Long#MAX_VALUE}: not now. */
    private long caughtUpSince = Long.MAX_VALUE;
    /** Wall clock of the last check; {@link Long#MIN_VALUE} before the first. */
    private long lastCheck = Long.MIN_VALUE;

    /**
     * @param grace             grace period after an hour's end, from 0 to
     *                          {@link IngestConfig#ACTIVITY_GRACE_MAX_MS} ms
     * @param idleTimeout       wall-clock time without a sample of a hive, its input caught up, after
     *                          which its close time follows the wall clock, from 0 to
     *                          {@link IngestConfig#ACTIVITY_IDLE_TIMEOUT_MAX_MS} ms
     * @param updateInterval    wall-clock interval of interim updates, corrections and quiet checks, positive
     * @param correctionHorizon how long after an hour closed a sample still corrects it, from 0 to
     *                          {@link IngestConfig#ACTIVITY_CORRECTION_HORIZON_MAX_MS} ms
     * @param inputLag          whether the task's input partition holds unprocessed records, not null
     * @param inputTopic        the entrance-counter topic, the task's only input, not null
     * @throws IllegalArgumentException if a duration is outside its range (naming its setting): an hour's
     *                                  end plus a larger grace or horizon could overflow and make every
     *                                  sample late
     */
    public HourlyActivityProcessor(
            Duration grace,
            Duration idleTimeout,
            Duration updateInterval,
            Duration correctionHorizon,
            InputLag inputLag,
            String inputTopic) {
        if (grace.isNegative() || grace.compareTo(Duration.ofMillis(IngestConfig.ACTIVITY_GRACE_MAX_MS)) > 0) {
            throw new IllegalArgumentException("grace period " + grace + " is outside [0, "
                    + Duration.ofMillis(IngestConfig.ACTIVITY_GRACE_MAX_MS) + "] (" + IngestConfig.ACTIVITY_GRACE_MS
                    + ")");
        }
        IngestConfig.requireWait(
                IngestConfig.ACTIVITY_IDLE_TIMEOUT_MS, idleTimeout, 0, IngestConfig.ACTIVITY_IDLE_TIMEOUT_MAX_MS);
        IngestConfig.requireWait(
                IngestConfig.ACTIVITY_CORRECTION_HORIZON_MS,
                correctionHorizon,
                0,
                IngestConfig.ACTIVITY_CORRECTION_HORIZON_MAX_MS);
        this.graceMs = grace.toMillis();
        this.idleTimeoutMs = idleTimeout.toMillis();
        this.horizonMs = correctionHorizon.toMillis();
        this.updateInterval = updateInterval;
        this.inputLag = Objects.requireNonNull(inputLag, "inputLag");
        this.inputTopic = Objects.requireNonNull(inputTopic, "inputTopic");
    }

    @Override
    public void init(ProcessorContext<String, ActivityOutput> context) {
        this.context = context;
        this.hiveStore = context.getStateStore(HIVES_STORE);
        this.hours = context.getStateStore(HOURS_STORE);
        this.samples = context.getStateStore(SAMPLES_STORE);
        this.correctionStore = context.getStateStore(CORRECTIONS_STORE);
        this.partition = new TopicPartition(inputTopic, context.taskId().partition());
        hives.clear();
        openHives.clear();
        changed.clear();
        pending.clear();
        caughtUpSince = Long.MAX_VALUE;
        lastCheck = Long.MIN_VALUE;
        long now = context.currentSystemTimeMs();
        try (KeyValueIterator<String, byte[]> stored = hiveStore.all()) {
            stored.forEachRemaining(kv -> {
                HiveClock hive = HiveClock.decode(kv.key, kv.value, now);
                hive.storedHour =
                        hive.eventTime == Long.MIN_VALUE ? Long.MIN_VALUE : HourBucket.hourStart(hive.eventTime);
                if (hive.legacy) { // stored by a version that computed them from the settings
                    hive.closedHour = lastHourEndingBy(hive.closeTime, graceMs);
                    hive.forgottenHour = lastHourEndingBy(hive.closeTime, graceMs + horizonMs);
                }
                hive.storedClosed = hive.closedHour;
                hive.storedForgotten = hive.forgottenHour;
                hives.put(kv.key, hive);
                if (hasOpenHours(hive)) {
                    openHives.put(kv.key, hive);
                }
            });
        }
        try (KeyValueIterator<Bytes, byte[]> stored = correctionStore.all()) {
            stored.forEachRemaining(kv -> pending.add(kv.key));
        }
        context.schedule(updateInterval, PunctuationType.WALL_CLOCK_TIME, this::onWallClock);
    }

    @Override
    public void process(Record<String, EntranceCount> record) {
        long now = context.currentSystemTimeMs();
        String hiveId = record.key();
        EntranceCount sample = record.value();
        long eventTime = sample.getEventTime().toEpochMilli(); // equal to record.timestamp() after the check step
        long hourStart = HourBucket.hourStart(eventTime);
        HiveClock hive = hives.get(hiveId);
        if (hive == null) {
            hive = new HiveClock(hiveId, now);
            hives.put(hiveId, hive);
        }
        hive.lastSampleWallClock = now;
        if (hourStart <= forgottenHour(hive)) {
            sendLate(record, hourStart, hive.closeTime);
        } else {
            Bytes hourKey = ActivityKeys.hour(hiveId, hourStart);
            if (sum(hourKey, hiveId, hourStart, eventTime, sample)) {
                if (hourStart <= closedHour(hive)) {
                    if (pending.add(hourKey)) {
                        correctionStore.put(hourKey, PENDING);
                    }
                } else {
                    changed.add(hourKey);
                }
            }
            if (eventTime > hive.eventTime) {
                hive.eventTime = eventTime;
                advance(hive, eventTime, closedByHiveProgress);
                store(hive);
            }
        }
        openHives.remove(hiveId);
        if (hasOpenHours(hive)) {
            openHives.put(hiveId, hive);
        }
    }

    private void sendLate(Record<String, EntranceCount> record, long hourStart, long closeTime) {
        late.increment();
        Headers headers = record.headers();
        headers.add(LATE_HOUR_HEADER, Instant.ofEpochMilli(hourStart).toString().getBytes(StandardCharsets.UTF_8));
        headers.add(
                LATE_CLOSE_TIME_HEADER,
                Instant.ofEpochMilli(closeTime).toString().getBytes(StandardCharsets.UTF_8));
        context.forward(record.withValue((ActivityOutput) new ActivityOutput.Late(record.value()))
                .withHeaders(headers));
    }

    /**
     * Sums a sample into its hour, unless it is a re-send or the smaller of two conflicting samples.
     *
     * @return whether the hour's sums changed
     */
    private boolean sum(Bytes hourKey, String hiveId, long hourStart, long eventTime, EntranceCount sample) {
        Bytes identity = ActivityKeys.sample(hiveId, hourStart, sample.getGatewayId(), eventTime);
        byte[] content = sampleContent(sample);
        byte[] earlier = samples.get(identity);
        HourlyActivityState state = hours.get(hourKey);
        if (earlier != null && state != null) {
            if (Arrays.equals(earlier, content)) {
                duplicates.increment();
                return false;
            }
            conflicts.increment();
            if (Arrays.compare(content, earlier) <= 0) {
                return false; // the greater of two different samples counts, whichever came first
            }
            samples.put(identity, content);
            hours.put(
                    hourKey,
                    new HourlyActivityState(
                            state.getEntries() + sample.getBeesIn() - count(earlier, 0),
                            state.getExits() + sample.getBeesOut() - count(earlier, 4),
                            state.getSamples(),
                            state.getRevision() + 1,
                            state.getResults()));
            return true;
        }
        samples.put(identity, content);
        hours.put(
                hourKey,
                state == null
                        ? new HourlyActivityState((long) sample.getBeesIn(), (long) sample.getBeesOut(), 1, 0, 0)
                        : new HourlyActivityState(
                                state.getEntries() + sample.getBeesIn(),
                                state.getExits() + sample.getBeesOut(),
                                state.getSamples() + 1,
                                state.getRevision(),
                                state.getResults()));
        return true;
    }

    /**
     * What the samples store keeps of a summed sample, to tell a re-send (equal) from a conflicting
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

    private static int count(byte[] content, int offset) {
        return ByteBuffer.wrap(content).getInt(offset) ^ Integer.MIN_VALUE;
    }

    private void onWallClock(long now) {
        checkInput(now);
        applyQuietRule(now);
        for (Bytes hourKey : changed) {
            HourlyActivityState state = hours.get(hourKey);
            if (state != null) {
                forward(hourKey, state, ResultTiming.EARLY);
            }
        }
        changed.clear();
        for (Bytes hourKey : pending) {
            publishCorrection(hourKey);
        }
        pending.clear();
    }

    /** Follows whether the input has been caught up, without a stall, since {@link #caughtUpSince}. */
    private void checkInput(long now) {
        boolean stalled = lastCheck != Long.MIN_VALUE && now - lastCheck > updateInterval.toMillis() + STALL_SLACK_MS;
        lastCheck = now;
        if (!inputLag.caughtUp(partition)) {
            caughtUpSince = Long.MAX_VALUE;
        } else if (stalled || caughtUpSince == Long.MAX_VALUE) {
            caughtUpSince = now;
        }
    }

    /** Closes the open hours of the hives that have been quiet, their input caught up, for the idle timeout. */
    private void applyQuietRule(long now) {
        if (caughtUpSince == Long.MAX_VALUE || now - caughtUpSince < idleTimeoutMs) {
            return;
        }
        long quietFrom = now - idleTimeoutMs;
        Iterator<HiveClock> quiet = openHives.values().iterator();
        while (quiet.hasNext()) {
            HiveClock hive = quiet.next();
            if (hive.lastSampleWallClock > quietFrom) {
                break; // the rest sent a sample later still
            }
            long candidate = Math.max(hive.eventTime, Math.min(quietFrom, hive.eventTime + WINDOW_MS + graceMs));
            if (LOG.isDebugEnabled() && candidate > hive.closeTime) {
                LOG.debug(
                        "Quiet rule on {}: hive {} sent its last sample {} ms ago (event time {}), input caught up for {}"
                                + " ms; close time {} -> {}",
                        partition,
                        hive.hive,
                        now - hive.lastSampleWallClock,
                        Instant.ofEpochMilli(hive.eventTime),
                        now - caughtUpSince,
                        Instant.ofEpochMilli(hive.closeTime),
                        Instant.ofEpochMilli(candidate));
            }
            if (advance(hive, candidate, closedByQuietRule)) {
                store(hive);
            }
            if (!hasOpenHours(hive)) {
                quiet.remove();
            }
        }
    }

    /**
     * Stores a hive's clock when what it decides has changed: the hour of its latest sample, or the last
     * hour it closes or forgets. Within those, a restored clock that is older decides the same (which
     * hours are open, closed or forgotten; the quiet rule's bound still closes the latest sample's
     * hour), so the store is written about once per hour per hive instead of once per sample.
     */
    private void store(HiveClock hive) {
        long hour = hive.eventTime == Long.MIN_VALUE ? Long.MIN_VALUE : HourBucket.hourStart(hive.eventTime);
        long closed = hive.closedHour;
        long forgotten = hive.forgottenHour;
        if (hour != hive.storedHour || closed != hive.storedClosed || forgotten != hive.storedForgotten) {
            hiveStore.put(hive.hive, hive.encode());
            hive.storedHour = hour;
            hive.storedClosed = closed;
            hive.storedForgotten = forgotten;
        }
    }

    private boolean hasOpenHours(HiveClock hive) {
        return hive.eventTime != Long.MIN_VALUE && HourBucket.hourStart(hive.eventTime) > closedHour(hive);
    }

    /**
     * The last closed hour of a hive: the one stored, or a later one its close time closes under the
     * grace period now (hour start, ms; {@link Long#MIN_VALUE} for none). An hour up to it has had its
     * first result; a sample for it is a correction.
     */
    private long closedHour(HiveClock hive) {
        return Math.max(hive.closedHour, lastHourEndingBy(hive.closeTime, graceMs));
    }

    /**
     * The last forgotten hour of a hive: the one stored, or a later one its close time takes beyond the
     * correction horizon now. A sample for an hour up to it is late: its state is gone, or goes.
     */
    private long forgottenHour(HiveClock hive) {
        return Math.max(hive.forgottenHour, lastHourEndingBy(hive.closeTime, graceMs + horizonMs));
    }

    /**
     * The start of the last hour that an offset of {@code delayMs} after its end puts at or before
     * {@code time}, or {@link Long#MIN_VALUE} if none.
     */
    private static long lastHourEndingBy(long time, long delayMs) {
        if (time == Long.MIN_VALUE || time - delayMs - WINDOW_MS < 0) {
            return Long.MIN_VALUE;
        }
        return HourBucket.hourStart(time - delayMs - WINDOW_MS);
    }

    /**
     * Moves a hive's close time on (never back): publishes the hours it closes and forgets those it
     * takes beyond the correction horizon. The caller stores the hive.
     *
     * @return whether the close time moved
     */
    private boolean advance(HiveClock hive, long candidate, Counter cause) {
        if (candidate <= hive.closeTime) {
            return false;
        }
        long closedBefore = hive.closedHour;
        long forgottenBefore = hive.forgottenHour;
        hive.closeTime = candidate;
        long closedNow = closedHour(hive);
        long forgottenNow = forgottenHour(hive);
        if (closedNow > closedBefore) {
            closeHours(hive.hive, closedBefore == Long.MIN_VALUE ? 0 : closedBefore + WINDOW_MS, closedNow, cause);
            hive.closedHour = closedNow;
        }
        if (forgottenNow > forgottenBefore) {
            forgetHours(hive.hive, forgottenBefore == Long.MIN_VALUE ? 0 : forgottenBefore + WINDOW_MS, forgottenNow);
            hive.forgottenHour = forgottenNow;
        }
        return true;
    }

    /** Publishes the first result of each hour of {@code hive} from {@code first} to {@code last} (hour starts). */
    private void closeHours(String hive, long first, long last, Counter cause) {
        List<KeyValue<Bytes, HourlyActivityState>> closing = new ArrayList<>();
        try (KeyValueIterator<Bytes, HourlyActivityState> range =
                hours.range(ActivityKeys.hour(hive, first), ActivityKeys.hour(hive, last))) {
            range.forEachRemaining(closing::add);
        }
        for (KeyValue<Bytes, HourlyActivityState> hour : closing) {
            changed.remove(hour.key);
            if (hour.value.getResults() == 0) {
                forward(hour.key, hour.value, ResultTiming.ON_TIME);
                hours.put(hour.key, published(hour.value));
                cause.increment();
            }
        }
    }

    /**
     * Deletes the state of each hour of {@code hive} from {@code first} to {@code last} (hour starts),
     * past the correction horizon, publishing a correction still pending first.
     */
    private void forgetHours(String hive, long first, long last) {
        Bytes from = ActivityKeys.hour(hive, first);
        List<Bytes> forgotten = new ArrayList<>();
        try (KeyValueIterator<Bytes, HourlyActivityState> range = hours.range(from, ActivityKeys.hour(hive, last))) {
            range.forEachRemaining(kv -> forgotten.add(kv.key));
        }
        for (Bytes hourKey : forgotten) {
            if (pending.remove(hourKey)) {
                publishCorrection(hourKey);
            }
            hours.delete(hourKey);
        }
        List<Bytes> identities = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> range = samples.range(from, ActivityKeys.hour(hive, last + WINDOW_MS))) {
            range.forEachRemaining(kv -> identities.add(kv.key));
        }
        identities.forEach(samples::delete);
    }

    /** Publishes the current sums of a closed hour as its next result and forgets the correction. */
    private void publishCorrection(Bytes hourKey) {
        correctionStore.delete(hourKey);
        HourlyActivityState state = hours.get(hourKey);
        if (state != null) {
            forward(hourKey, state, ResultTiming.LATE);
            hours.put(hourKey, published(state));
            corrections.increment();
        }
    }

    private static HourlyActivityState published(HourlyActivityState state) {
        return new HourlyActivityState(
                state.getEntries(), state.getExits(), state.getSamples(), state.getRevision(), state.getResults() + 1);
    }

    private void forward(Bytes hourKey, HourlyActivityState state, ResultTiming timing) {
        String hive = ActivityKeys.hive(hourKey);
        long hourStart = ActivityKeys.hourStart(hourKey);
        var activity = RowMapper.hourlyActivity(hive, hourStart, state, timing);
        ActivityOutput output = timing == ResultTiming.EARLY
                ? new ActivityOutput.Interim(activity)
                : new ActivityOutput.Final(activity);
        context.forward(new Record<>(hive, output, hourStart + WINDOW_MS - 1));
    }
}
