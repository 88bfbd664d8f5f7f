package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.TokenRange;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.read.ReadSettings;
import io.apiary.ingest.read.ShardScheme;
import io.apiary.ingest.sink.ServerBatchLimits;
import io.apiary.ingest.sink.SinkSettings;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.tables.TableNames;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * Sets up {@link TableCopy} and {@link TableVerify} against a session from the configuration:
 * the plan (tables, layouts, mapping), the target's binding with its write consistency
 * ({@code sink.table.<table>.consistency}, else {@code sink.consistency}), the batch caps of the
 * sink ({@code sink.batch.max.rows}, {@code sink.batch.max.bytes} or the server's threshold), the
 * progress table, and the routing of range queries from the driver's token map. Stateless.
 */
public final class TableJobs {

    /** How long workers other than 0 wait for worker 0 to create the progress table. */
    static final Duration PROGRESS_TABLE_WAIT = Duration.ofMinutes(5);

    private TableJobs() {}

    /**
     * Most rows the copy holds, whatever {@code sink.max.buffered.rows} says: the copy holds its
     * rows bound (statements, about 1 KB each), not compact as the sink does, so the sink's
     * default (1,000,000) would ask for about a gigabyte; 200,000 was that setting's default when
     * the copy's Job heap (1 GiB) was sized.
     */
    static final int MAX_HELD_ROWS = 200_000;

    /**
     * The settings of a copy or verification: the command's options and the sink's and read
     * path's settings of the configuration.
     *
     * @param config           the configuration
     * @param target           the table written (its write consistency, {@link #writeConsistency})
     * @param workers          --workers
     * @param workerIndex      --worker-index
     * @param splits           --splits
     * @param scanConcurrency  --scan-concurrency
     * @param pageRows         --page-rows
     * @param maxRowsPerSecond --max-rows-per-second, or null for {@code sink.max.rows.per.second}
     * @param progressInterval time between progress lines
     * @param maxReported      --max-reported
     * @return the settings
     * @throws IllegalArgumentException naming an option out of range
     */
    public static CopySettings settings(
            IngestConfig config,
            TableRef target,
            int workers,
            int workerIndex,
            int splits,
            int scanConcurrency,
            int pageRows,
            Long maxRowsPerSecond,
            Duration progressInterval,
            int maxReported) {
        SinkSettings sink = SinkSettings.from(config);
        return new CopySettings(
                workers,
                workerIndex,
                splits,
                scanConcurrency,
                pageRows,
                level(config.getString(ReadSettings.READ_CONSISTENCY)),
                writeConsistency(config, target),
                sink.maxInFlight(),
                sink.batchMaxRows(),
                sink.batchMaxBytes(),
                maxRowsPerSecond == null ? sink.maxRowsPerSecond() : maxRowsPerSecond,
                Math.min(sink.maxBufferedRows(), MAX_HELD_ROWS),
                sink.retryBackoff(),
                sink.retryBackoffMax(),
                progressInterval,
                maxReported);
    }

    /**
     * @param session an open session
     * @param config  the configuration (shard schemes)
     * @param from    the source
     * @param to      the target
     * @param splits  ranges of the ring
     * @return the plan
     * @throws CopyRefused when the tables cannot be copied (missing, same, unknown layouts or pair,
     *                     a partitioner other than Murmur3)
     */
    public static CopyPlan<?> plan(CqlSession session, IngestConfig config, TableRef from, TableRef to, int splits) {
        Optional<TokenMap> tokenMap = session.getMetadata().getTokenMap();
        if (tokenMap.isPresent() && !tokenMap.get().getPartitionerName().endsWith("Murmur3Partitioner")) {
            throw new CopyRefused(
                    "the cluster's partitioner is " + tokenMap.get().getPartitionerName()
                            + "; table copy reads token ranges of Murmur3Partitioner (Cassandra's default) only");
        }
        return CopyPlan.resolve(
                session.getMetadata(),
                from,
                to,
                new ShardScheme(config.shardStrategy(), config.getInt(IngestConfig.TELEMETRY_SHARDS)),
                new ShardScheme(config.shardStrategy(), config.getInt(IngestConfig.WEATHER_SHARDS)),
                splits);
    }

    /**
     * Copies this worker's share.
     *
     * @param session  an open session
     * @param config   the configuration (keyspace of the progress table)
     * @param plan     what to copy
     * @param settings how
     * @param restart  whether to forget this worker's saved progress first
     * @param freshWriteTime whether to write every row with the current time instead of the
     *                 source's write time ({@code --fresh-write-time}, {@link FreshWriteTimes})
     * @param err      progress lines and failed rows
     * @param <T>      the target's record type
     * @return what was done, and how the whole copy stands ({@link #rangesDone})
     * @throws InterruptedException if interrupted
     */
    public static <T extends SpecificRecord> TableCopy.Result copy(
            CqlSession session,
            IngestConfig config,
            CopyPlan<T> plan,
            CopySettings settings,
            boolean restart,
            boolean freshWriteTime,
            PrintWriter err)
            throws InterruptedException {
        SinkTable<T> table = target(session, plan, settings);
        long batchMaxBytes = SinkSettings.from(config).effectiveBatchMaxBytes(ServerBatchLimits.read(session));
        CopyProgress progress = progress(session, config, settings);
        progress.ensureTable(settings.workerIndex() == 0, PROGRESS_TABLE_WAIT);
        return new TableCopy<>(
                        session,
                        plan,
                        table,
                        settings,
                        batchMaxBytes,
                        progress,
                        routing(session, plan.source().keyspace()),
                        err,
                        freshWriteTime ? new FreshWriteTimes() : null)
                .run(restart);
    }

    /**
     * After a copy, checks the rows the last {@code table verify} of this copy named as missing or
     * different in this worker's ranges that are done ({@link RestoreCheck}): reads each back from
     * the source and the target, one partition of each per distinct partition, and names those
     * still not as the source holds them: shadowed by a newer delete or write in the target,
     * skipped by the legacy-reading rule, or in a range done before this run (not copied by it).
     *
     * @param session  an open session
     * @param config   the configuration (keyspace of the findings table)
     * @param plan     the copy
     * @param settings the settings (scans, consistency, --max-reported)
     * @param copied   the ranges the copy copied ({@link TableCopy.Result#rangesCopied})
     * @param doneEarlier the ranges done before the copy ({@link TableCopy.Result#rangesDoneEarlier})
     * @param err      warnings of retried reads
     * @param <T>      the target's record type
     * @return what became of them; {@link RestoreCheck.Result#NONE} when no verification left findings
     *         in those ranges or the driver has no token map
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if a partition cannot be read (after retries of what may pass)
     */
    public static <T extends SpecificRecord> RestoreCheck.Result checkRestored(
            CqlSession session,
            IngestConfig config,
            CopyPlan<T> plan,
            CopySettings settings,
            List<io.apiary.ingest.tablecopy.TokenRange> copied,
            List<io.apiary.ingest.tablecopy.TokenRange> doneEarlier,
            PrintWriter err)
            throws InterruptedException {
        Optional<TokenMap> tokenMap = session.getMetadata().getTokenMap();
        if ((copied.isEmpty() && doneEarlier.isEmpty()) || tokenMap.isEmpty()) {
            return RestoreCheck.Result.NONE;
        }
        List<VerifyFindings.Finding> found = findings(session, config, settings).load(plan.copyId());
        if (found.isEmpty()) {
            return RestoreCheck.Result.NONE;
        }
        return new RestoreCheck<>(
                        new RangeScans(session, settings, err),
                        plan,
                        target(session, plan, settings),
                        routing(session, plan.source().keyspace()),
                        routing(session, plan.target().keyspace()),
                        tokenMap.get(),
                        settings.maxReported())
                .run(found, copied, doneEarlier);
    }

    /**
     * @param session  an open session
     * @param config   the configuration
     * @param plan     the copy
     * @param settings the settings (consistency of the progress table)
     * @return ranges of the whole copy saved as done, by every worker
     */
    public static int rangesDone(CqlSession session, IngestConfig config, CopyPlan<?> plan, CopySettings settings) {
        return (int) progress(session, config, settings).load(plan.copyId()).values().stream()
                .filter(CopyProgress.Saved::done)
                .count();
    }

    /**
     * Verifies this worker's share of the target, and keeps the rows found missing or different
     * for the copy's check ({@link VerifyFindings}, replacing the findings of the share's ranges).
     *
     * @param session  an open session
     * @param config   the configuration (keyspace of the findings table)
     * @param plan     the copy to verify
     * @param settings how
     * @param before   leave out rows of event time at or after it; null for none
     * @param maxHeld  most source rows held at once
     * @param out      the differences
     * @param err      progress
     * @param <T>      the target's record type
     * @return what was found
     * @throws InterruptedException if interrupted
     * @throws CopyRefused if the driver has no token map (it computes the target tokens)
     */
    public static <T extends SpecificRecord> TableVerify.Result verify(
            CqlSession session,
            IngestConfig config,
            CopyPlan<T> plan,
            CopySettings settings,
            Instant before,
            long maxHeld,
            PrintWriter out,
            PrintWriter err)
            throws InterruptedException {
        TokenMap tokenMap = session.getMetadata()
                .getTokenMap()
                .orElseThrow(
                        () -> new CopyRefused(
                                "the driver has no "
                                        + "token map (advanced.metadata.token-map.enabled is false?): table verify computes tokens with it"));
        VerifyFindings findings = findings(session, config, settings);
        findings.ensureTable(settings.workerIndex() == 0, PROGRESS_TABLE_WAIT);
        TableVerify<T> verify = new TableVerify<>(
                new RangeScans(session, settings, err),
                plan,
                target(session, plan, settings),
                settings,
                routing(session, plan.source().keyspace()),
                routing(session, plan.target().keyspace()),
                tokenMap,
                before,
                maxHeld,
                out,
                err);
        TableVerify.Result result = verify.run();
        findings.replace(plan.copyId(), verify.share(), verify.findings());
        return result;
    }

    private static <T extends SpecificRecord> SinkTable<T> target(
            CqlSession session, CopyPlan<T> plan, CopySettings settings) {
        return plan.mapping()
                .table()
                .bind(
                        session,
                        plan.target().keyspace(),
                        plan.target().table(),
                        new SinkTable.Options(settings.writeConsistency(), -1));
    }

    /**
     * The target's write consistency: {@code sink.table.<table>.consistency} for a table the sink
     * writes, else {@code sink.consistency}.
     *
     * @param config the configuration
     * @param target the target table
     * @return the level
     */
    public static ConsistencyLevel writeConsistency(IngestConfig config, TableRef target) {
        String level = TableNames.CURRENT.contains(target.table())
                ? config.getString(IngestConfig.sinkTableConsistency(target.table()))
                        .trim()
                : "";
        return level(level.isEmpty() ? config.getString(IngestConfig.SINK_CONSISTENCY) : level);
    }

    private static VerifyFindings findings(CqlSession session, IngestConfig config, CopySettings settings) {
        return new VerifyFindings(
                session, config.getString(IngestConfig.CASSANDRA_KEYSPACE), settings.writeConsistency());
    }

    private static CopyProgress progress(CqlSession session, IngestConfig config, CopySettings settings) {
        return new CopyProgress(
                session, config.getString(IngestConfig.CASSANDRA_KEYSPACE), settings.writeConsistency());
    }

    /** The keyspace and token map to cut and route range queries with; null without a token map. */
    static RangeReader.Routing routing(CqlSession session, String keyspace) {
        Optional<TokenMap> tokenMap = session.getMetadata().getTokenMap();
        if (tokenMap.isEmpty()) {
            return null;
        }
        List<Long> boundaries = new ArrayList<>();
        for (TokenRange range : tokenMap.get().getTokenRanges()) {
            boundaries.add(Long.parseLong(tokenMap.get().format(range.getEnd())));
        }
        return new RangeReader.Routing(CqlIdentifier.fromInternal(keyspace), tokenMap.get(), boundaries);
    }

    private static ConsistencyLevel level(String name) {
        return DefaultConsistencyLevel.valueOf(name.trim().toUpperCase(Locale.ROOT));
    }
}
