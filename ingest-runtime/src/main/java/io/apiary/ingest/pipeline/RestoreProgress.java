package io.apiary.ingest.pipeline;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says how long the topology took to restore its state stores from their changelog topics: one
 * line at INFO each time every changelog partition being restored has finished (a restore
 * round), with the records restored, the partitions and stores, and the seconds from the round's
 * first partition starting to its last ending, by this JVM's clock; each partition's start and
 * end at DEBUG. A restore after a crash under exactly-once reads each store's whole changelog
 * (Kafka Streams wipes stores it cannot trust), so this is the time a restarted instance is not
 * ready for because of its state. Kafka Streams logs its own restore lines below the level the
 * application shows for libraries, and its restore meters need recording level DEBUG.
 *
 * <p>Thread-safe: Kafka Streams calls it from its state updater threads.
 */
public final class RestoreProgress implements StateRestoreListener {

    /**
     * The INFO line of a finished round, as {@link #summary} writes it: group 1 the records restored
     * (digits with ',' between thousands), group 2 the changelog partitions, group 3 the seconds.
     */
    public static final Pattern SUMMARY = Pattern.compile(
            "Restored ([0-9,]+) records of ([0-9]+) changelog partitions \\(stores [^)]*\\) in ([0-9.]+) s");

    private static final Logger LOG = LoggerFactory.getLogger(RestoreProgress.class);

    private final LongSupplier nanoClock;
    private final Consumer<String> summaries;
    private final Map<TopicPartition, Long> restoring = new HashMap<>(); // guarded by this
    private final Set<String> stores = new TreeSet<>(); // guarded by this
    private long roundStartNanos; // guarded by this
    private long roundRecords; // guarded by this
    private int roundPartitions; // guarded by this
    private int roundSuspended; // guarded by this

    /** Logs to this class's logger with {@link System#nanoTime()}. */
    public RestoreProgress() {
        this(System::nanoTime, LOG::info);
    }

    /**
     * @param nanoClock a monotonic clock in nanoseconds, such as {@link System#nanoTime()}, not null
     * @param summaries receives each finished round's line, not null
     */
    RestoreProgress(LongSupplier nanoClock, Consumer<String> summaries) {
        this.nanoClock = Objects.requireNonNull(nanoClock);
        this.summaries = Objects.requireNonNull(summaries);
    }

    @Override
    public synchronized void onRestoreStart(
            TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
        if (restoring.isEmpty()) {
            roundStartNanos = nanoClock.getAsLong();
            roundRecords = 0;
            roundPartitions = 0;
            roundSuspended = 0;
            stores.clear();
        }
        if (restoring.put(partition, endingOffset - startingOffset) == null) {
            roundPartitions++;
        }
        stores.add(storeName);
        LOG.debug("Restoring store {} from {}: offsets {} to {}", storeName, partition, startingOffset, endingOffset);
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
        // the round's line says it all; a line per batch would flood the log
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        finish(partition, storeName, totalRestored, false);
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        finish(partition, storeName, totalRestored, true);
    }

    private synchronized void finish(
            TopicPartition partition, String storeName, long totalRestored, boolean suspended) {
        if (restoring.remove(partition) == null) {
            return; // not started through this listener (registered after the start)
        }
        roundRecords += totalRestored;
        if (suspended) {
            roundSuspended++;
        }
        LOG.debug(
                "{} store {} from {}: {} records",
                suspended ? "Suspended restoring" : "Restored",
                storeName,
                partition,
                totalRestored);
        if (restoring.isEmpty()) {
            summaries.accept(summary(
                    roundRecords,
                    roundPartitions,
                    stores,
                    (nanoClock.getAsLong() - roundStartNanos) / 1e9,
                    roundSuspended));
        }
    }

    /**
     * @param records    records restored in the round
     * @param partitions changelog partitions restored
     * @param stores     their stores' names
     * @param seconds    from the first partition's start to the last one's end
     * @param suspended  partitions whose restore was suspended (their task moved to another
     *                   instance) before it ended
     * @return the round's line, which {@link #SUMMARY} matches
     */
    static String summary(long records, int partitions, Set<String> stores, double seconds, int suspended) {
        return String.format(
                Locale.ROOT,
                "Restored %,d records of %d changelog partitions (stores %s) in %.3f s%s",
                records,
                partitions,
                String.join(", ", stores),
                seconds,
                suspended == 0 ? "" : "; " + suspended + " of them handed to another instance before they ended");
    }

    /**
     * A finished round, read back from its line.
     *
     * @param records    records restored
     * @param partitions changelog partitions
     * @param seconds    seconds the round took
     */
    public record Round(long records, int partitions, double seconds) {

        /**
         * @param line a log line, not null
         * @return the round the line reports, or null if it reports none
         */
        public static Round parse(String line) {
            Matcher m = SUMMARY.matcher(line);
            if (!m.find()) {
                return null;
            }
            return new Round(
                    Long.parseLong(m.group(1).replace(",", "")),
                    Integer.parseInt(m.group(2)),
                    Double.parseDouble(m.group(3)));
        }
    }
}
