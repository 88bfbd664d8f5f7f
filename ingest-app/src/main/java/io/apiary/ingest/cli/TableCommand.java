package io.apiary.ingest.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.tablecopy.CopyPlan;
import io.apiary.ingest.tablecopy.CopyRefused;
import io.apiary.ingest.tablecopy.CopySettings;
import io.apiary.ingest.tablecopy.RestoreCheck;
import io.apiary.ingest.tablecopy.TableCopy;
import io.apiary.ingest.tablecopy.TableJobs;
import io.apiary.ingest.tablecopy.TableRef;
import io.apiary.ingest.tablecopy.TableVerify;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code table copy} and {@code table verify}: moves a table's rows into a table of another
 * layout (a changed primary key, a changed shard count), resumably and by many workers at once,
 * and compares the two (docs/platform.md, "Changing a table's key").
 */
@Command(
        name = "table",
        mixinStandardHelpOptions = true,
        description = "Commands that move a table's rows into " + "a table of another layout.",
        subcommands = {TableCommand.Copy.class, TableCommand.Verify.class})
public final class TableCommand {

    /** Exit code of a copy with rows not written, or a verification that found differences. */
    static final int INCOMPLETE = 1;
    /** Exit code of a usage error or a refused pair of tables (nothing was written). */
    static final int USAGE = 2;

    /** What both subcommands take. */
    static final class Shared {

        @Option(
                names = "--from",
                required = true,
                paramLabel = "[KEYSPACE.]TABLE",
                description = "The table to read (default keyspace: cassandra.keyspace).")
        String from;

        @Option(
                names = "--to",
                required = true,
                paramLabel = "[KEYSPACE.]TABLE",
                description = "The table to write (copy) or compare with (verify); it must exist.")
        String to;

        @Option(
                names = "--workers",
                defaultValue = "1",
                paramLabel = "N",
                description = "Processes sharing the work, each with its own --worker-index (default 1).")
        int workers;

        @Option(
                names = "--worker-index",
                defaultValue = "0",
                paramLabel = "I",
                description = "This process, 0 to N-1: it takes every N-th range from the I-th (default 0).")
        int workerIndex;

        @Option(
                names = "--splits",
                defaultValue = "1024",
                paramLabel = "S",
                description = "Ranges the token ring is cut into, shared by the workers; every worker and every run "
                        + "of one copy must use the same (default ${DEFAULT-VALUE}).")
        int splits;

        @Option(
                names = "--scan-concurrency",
                defaultValue = "8",
                paramLabel = "C",
                description = "Ranges this worker reads at once (default ${DEFAULT-VALUE}).")
        int scanConcurrency;

        @Option(
                names = "--page-rows",
                defaultValue = "5000",
                paramLabel = "P",
                description = "Rows per page of a range query (default ${DEFAULT-VALUE}).")
        int pageRows;

        @Option(
                names = "--max-reported",
                defaultValue = "100",
                paramLabel = "N",
                description =
                        "Rows named at most (failed rows, differences); all are counted (default ${DEFAULT-VALUE}).")
        int maxReported;

        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        TableRef table(String option, String text, IngestConfig cfg) {
            try {
                return TableRef.parse(text, cfg.getString(IngestConfig.CASSANDRA_KEYSPACE));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
            }
        }

        CopySettings settings(IngestConfig cfg, TableRef target, Long maxRowsPerSecond, Duration progress) {
            try {
                return TableJobs.settings(
                        cfg,
                        target,
                        workers,
                        workerIndex,
                        splits,
                        scanConcurrency,
                        pageRows,
                        maxRowsPerSecond,
                        progress,
                        maxReported);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
        }

        void checkDistinct(TableRef source, TableRef target) {
            if (source.equals(target)) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--from and --to name the same table, " + source + ": copy into a new table");
            }
        }
    }

    /** Copies a table into a table of another layout. */
    @Command(
            name = "copy",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "Copies every row of --from into --to, mapped to --to's layout (day and shard computed again "
                        + "with telemetry.shard.strategy and telemetry.shards or weather.shards), keeping each row's write "
                        + "time and remaining TTL. Writes through the sink's batching, in-flight limit, rows/s limit and "
                        + "retries; saves its progress in the table table_copy_progress, so a run killed at any point and "
                        + "started again with the same arguments resumes where it stopped.",
                "After copying, the rows the last table verify named as missing or different in this worker's "
                        + "done ranges are read back: a row still missing or different is named on stderr with why: a "
                        + "delete or write in --to newer than the source's write time shadows the copy's write (pointer "
                        + "to --fresh-write-time), the legacy-reading rule skipped it, or its range was done before this "
                        + "run, which did not copy it (pointer to --restart).",
                "Exit code 0 when every range of this worker is copied, 1 when rows could not be written (named on "
                        + "stderr; run again to retry them), when rows named by the last verify are still not restored, "
                        + "or on an error, 2 for bad usage or tables that cannot be copied (nothing written)."
            })
    static final class Copy implements Callable<Integer> {

        @Mixin
        Shared shared;

        @Option(
                names = "--max-rows-per-second",
                paramLabel = "R",
                description =
                        "Most rows this worker writes per second, 0 for no limit (default: sink.max.rows.per.second).")
        Long maxRowsPerSecond;

        @Option(
                names = "--restart",
                description = "Forget this worker's saved progress and copy its ranges from the start.")
        boolean restart;

        @Option(
                names = "--fresh-write-time",
                description = "Write each row with the current time (microseconds, as Cassandra's default) instead of "
                        + "the source's write time, so that it replaces a newer delete or write in --to (a row table "
                        + "verify still names after --restart). Cost: it also overwrites every newer write the pipeline "
                        + "made to a copied row in --to, and later pipeline writes of these rows (their write times come "
                        + "from event time) lose to it. Safe once nothing else writes --to's copied rows (the dual write "
                        + "stopped), or for a copy whose rows verify named.")
        boolean freshWriteTime;

        @Option(
                names = "--progress-seconds",
                defaultValue = "10",
                paramLabel = "S",
                description = "Seconds between progress lines on stderr (default ${DEFAULT-VALUE}).")
        int progressSeconds;

        @Override
        public Integer call() throws InterruptedException {
            IngestConfig cfg = shared.config.load();
            TableRef source = shared.table("--from", shared.from, cfg);
            TableRef target = shared.table("--to", shared.to, cfg);
            shared.checkDistinct(source, target);
            if (progressSeconds < 1) {
                throw new ParameterException(shared.spec.commandLine(), "--progress-seconds must be at least 1");
            }
            CopySettings settings = shared.settings(cfg, target, maxRowsPerSecond, Duration.ofSeconds(progressSeconds));
            PrintWriter err = shared.spec.commandLine().getErr();
            try (CqlSession session = CassandraSessions.open(cfg)) {
                CopyPlan<?> plan;
                try {
                    plan = TableJobs.plan(session, cfg, source, target, settings.splits());
                } catch (CopyRefused e) {
                    err.println("error: " + e.getMessage());
                    return USAGE;
                }
                long cpuBefore = cpuNanos();
                TableCopy.Result result;
                try {
                    result = TableJobs.copy(session, cfg, plan, settings, restart, freshWriteTime, err);
                } catch (CopyRefused e) {
                    err.println("error: " + e.getMessage());
                    return USAGE;
                } catch (IllegalStateException e) {
                    err.println("error: " + e.getMessage() + "; the ranges done so far are saved: run the same command"
                            + " again once the cause is fixed, and it resumes");
                    return INCOMPLETE;
                }
                double cpu = (cpuNanos() - cpuBefore) / 1e9;
                err.printf(
                        "Copied %,d rows of %s into %s in %.1f s (%,.0f rows/s; process CPU %.1f s, %s): %,d of %,d "
                                + "ranges of worker %d done (%,d before this run); %,d rows failed, %,d rows without cells, %,d "
                                + "retries%s%n",
                        result.rowsCopied(),
                        plan.source(),
                        plan.target(),
                        result.seconds(),
                        result.rowsCopied() / Math.max(result.seconds(), 1e-9),
                        cpu,
                        result.rowsCopied() == 0 ? "-" : String.format("%,.0f us/row", cpu * 1e6 / result.rowsCopied()),
                        result.rangesDone(),
                        result.ranges(),
                        settings.workerIndex(),
                        result.rangesDoneBefore(),
                        result.rowsFailed(),
                        result.rowsWithoutCells(),
                        result.retries(),
                        result.rowsSuperseded() == 0
                                ? ""
                                : String.format(
                                        "; %,d legacy readings skipped: the target holds a reading of their "
                                                + "hive, type and time under another sensor id or as the pipeline's "
                                                + "write, which reads of both layouts return",
                                        result.rowsSuperseded()));
                err.printf(
                        "Copy '%s': %,d of %,d ranges done by all workers%n",
                        plan.copyId(), TableJobs.rangesDone(session, cfg, plan, settings), settings.splits());
                RestoreCheck.Result check;
                try {
                    check = TableJobs.checkRestored(
                            session, cfg, plan, settings, result.rangesCopied(), result.rangesDoneEarlier(), err);
                } catch (IllegalStateException e) {
                    err.println("error: checking the rows the last table verify named failed: " + e.getMessage()
                            + "; the copy is done: run table verify to see whether they are restored");
                    return INCOMPLETE;
                }
                boolean restored = reportCheck(check, plan.target().toString(), err);
                if (!result.complete()) {
                    err.printf(
                            "error: %,d rows could not be written and %,d ranges are not done; fix the cause and run "
                                    + "the same command again (done ranges are skipped)%n",
                            result.rowsFailed(), result.ranges() - result.rangesDone());
                    return INCOMPLETE;
                }
                if (!restored) {
                    return INCOMPLETE;
                }
            }
            return 0;
        }

        /** Prints what the check of the last verify's rows found; false when some are not restored. */
        private boolean reportCheck(RestoreCheck.Result check, String target, PrintWriter err) {
            if (check.checked() == 0) {
                return true;
            }
            err.printf(
                    "Checked the %,d rows the last table verify named in the done ranges of this worker: %,d restored, "
                            + "%,d not restored, %,d no longer in the source%n",
                    check.checked(),
                    check.restored(),
                    check.notRestoredCount() + check.skippedCount() + check.notCopiedCount(),
                    check.notInSource());
            if (check.allRestored()) {
                return true;
            }
            check.notRestored().forEach(err::println);
            if (check.notCopiedCount() > 0) {
                err.printf(
                        "error: %,d rows the last table verify named are still not in %s as the source holds them, "
                                + "and this run did not copy them: their ranges were done before it. Run the same "
                                + "command with --restart to copy this worker's ranges again%n",
                        check.notCopiedCount(), target);
            }
            if (check.skippedCount() > 0) {
                err.printf(
                        "error: %,d rows the last table verify named were skipped by the legacy-reading rule (named "
                                + "above with the target's row that hides them); the copy does not write them%n",
                        check.skippedCount());
            }
            if (check.notRestoredCount() == 0) {
                return false;
            }
            if (freshWriteTime) {
                err.printf(
                        "error: %,d rows are not in %s as the source holds them although the copy wrote them with the "
                                + "current time: a delete or write with a later timestamp (a client clock ahead?) or a "
                                + "write after the copy's shadows them; fix them by hand or run the copy again%n",
                        check.notRestoredCount(), target);
            } else {
                err.printf(
                        "error: %,d rows could not be restored: %s holds a delete or write of them newer than the "
                                + "source's write time, which the copy keeps, so the copy's write is shadowed. Run the "
                                + "same command with --restart --fresh-write-time to write the rows with the current "
                                + "time; it also overwrites newer writes the pipeline made to the rows it copies: use it "
                                + "once the dual write is stopped (docs/platform.md, \"Changing a table's key\")%n",
                        check.notRestoredCount(), target);
            }
            return false;
        }
    }

    /** Compares a copy's target with its source. */
    @Command(
            name = "verify",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {
                "Compares --to with --from range by range, mapping --from's rows as table copy does: digests "
                        + "of each range first, then the rows of the ranges that differ. Names each differing row on stdout "
                        + "(missing in target, extra in target, different values or an older write time in the target; "
                        + "equal values with a newer write time are no difference, TTLs are not compared), at most "
                        + "--max-reported, and a summary on stderr. Keeps the rows missing or different (at most 10,000 "
                        + "per worker) in the table table_verify_findings, for table copy to check after copying them "
                        + "again.",
                "Exit code 0 when both hold the same rows, 1 when some differ (or on an error), 2 for bad usage or "
                        + "tables that cannot be compared."
            })
    static final class Verify implements Callable<Integer> {

        @Mixin
        Shared shared;

        @Option(
                names = "--before",
                paramLabel = "TIME",
                description = "Compare only rows whose event time is before TIME (a UTC date, date and time, or "
                        + "instant): leaves out what the new pipeline wrote to --to after the switch.")
        String before;

        @Option(
                names = "--max-held-rows",
                defaultValue = "1000000",
                paramLabel = "N",
                description = "Most source rows held in memory to name differences; larger differing ranges are cut "
                        + "smaller first (default ${DEFAULT-VALUE}).")
        long maxHeld;

        @Override
        public Integer call() throws InterruptedException {
            IngestConfig cfg = shared.config.load();
            TableRef source = shared.table("--from", shared.from, cfg);
            TableRef target = shared.table("--to", shared.to, cfg);
            shared.checkDistinct(source, target);
            Instant cutoff;
            try {
                cutoff = before == null ? null : TimeArgument.instant("--before", before, false);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(shared.spec.commandLine(), e.getMessage(), e);
            }
            if (maxHeld < 100_000) {
                throw new ParameterException(
                        shared.spec.commandLine(),
                        "--max-held-rows must be at least 100,000 " + "(a partition may hold that many rows), was "
                                + maxHeld);
            }
            CopySettings settings = shared.settings(cfg, target, null, Duration.ofSeconds(10));
            PrintWriter out = shared.spec.commandLine().getOut();
            PrintWriter err = shared.spec.commandLine().getErr();
            try (CqlSession session = CassandraSessions.open(cfg)) {
                CopyPlan<?> plan;
                TableVerify.Result result;
                try {
                    plan = TableJobs.plan(session, cfg, source, target, settings.splits());
                    result = TableJobs.verify(session, cfg, plan, settings, cutoff, maxHeld, out, err);
                } catch (CopyRefused e) {
                    err.println("error: " + e.getMessage());
                    return USAGE;
                } catch (IllegalStateException e) {
                    err.println("error: " + e.getMessage() + "; nothing is known about the ranges not compared: run"
                            + " the verification again once the cause is fixed");
                    return INCOMPLETE;
                }
                out.flush();
                err.printf(
                        "Verified %s against %s (worker %d of %d, %,d ranges%s) in %.1f s: %,d source rows, %,d target "
                                + "rows; %,d differences (%,d missing in target, %,d extra in target, %,d different) in %,d "
                                + "of the ranges%s%n",
                        plan.target(),
                        plan.source(),
                        settings.workerIndex(),
                        settings.workers(),
                        result.ranges(),
                        cutoff == null ? "" : ", event times before " + cutoff,
                        result.seconds(),
                        result.sourceRows(),
                        result.targetRows(),
                        result.missing() + result.extra() + result.different(),
                        result.missing(),
                        result.extra(),
                        result.different(),
                        result.rangesDiffering(),
                        (result.merged() == 0
                                        ? ""
                                        : String.format(
                                                "; %,d source rows shared a target key with another "
                                                        + "(one row in the target, the one with the greater write time)",
                                                result.merged()))
                                + (result.rewritten() == 0
                                        ? ""
                                        : String.format(
                                                "; %,d rows written again in the target with equal values and a newer "
                                                        + "write time (e.g. by table copy --fresh-write-time; not differences)",
                                                result.rewritten()))
                                + (result.superseded() == 0
                                        ? ""
                                        : String.format(
                                                "; %,d legacy readings superseded by a "
                                                        + "reading of the target at their hive, type and time (not copied, not differences)",
                                                result.superseded()))
                                + (result.uncopyable() == 0
                                        ? ""
                                        : String.format(
                                                "; %,d source rows cannot be target rows "
                                                        + "(named above as not copyable; table copy names them as failed)",
                                                result.uncopyable()))
                                + (cutoff == null
                                        ? ""
                                        : String.format(
                                                "; %,d source rows left out (event time at or after " + "%s)",
                                                result.leftOut(), cutoff)));
                if (result.sourceRows() == 0 && result.leftOut() > 0) {
                    err.printf(
                            "error: --before %s leaves out every one of the %,d source rows of this worker's ranges:"
                                    + " nothing was compared; give the time of the switch%n",
                            cutoff, result.leftOut());
                    return INCOMPLETE;
                }
                return result.equal() ? 0 : INCOMPLETE;
            }
        }
    }

    private static long cpuNanos() {
        return ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .map(Duration::toNanos)
                .orElse(0L);
    }
}
