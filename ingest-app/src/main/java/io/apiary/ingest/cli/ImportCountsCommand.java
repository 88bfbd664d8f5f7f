package io.apiary.ingest.cli;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.importer.CountLogParser;
import io.apiary.ingest.importer.CsvReadingParser;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.importer.ImportAudit;
import io.apiary.ingest.importer.KafkaReachability;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.topology.IngestTopology;
import io.apiary.ingest.topology.TopologySettings;
import io.apiary.ingest.validation.EntranceCountValidator;
import io.apiary.ingest.validation.Rejection;
import io.apiary.ingest.validation.TimeLimits;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code import-counts}: replays an entrance-counter log into {@code hive.activity.v1} as a
 * gateway would, so that the topology sums it into hourly activity like live samples. Interval
 * logs (bees in and out per interval) and event logs (one line per passage) are read by
 * {@link CountLogParser}; every line it cannot read is reported with its number. With
 * {@code --await} it then follows its samples through the topology ({@link ImportAudit}) and says
 * of each one whether it was summed (into an open hour, or as a correction of a closed one), late
 * (beyond its hour's correction horizon) or rejected (dead-lettered).
 */
@Command(
        name = "import-counts",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Replays an entrance-counter log (counts per interval, or one line per passage) into the"
                + " entrance-count topic, and with --await says what the topology did with every sample.",
        footer = {
            "",
            "Examples (on a dev stack started with 'devstack', its settings file as --config):",
            "  ingest-app import-counts --file counts.csv --time-column time --hive-id hive-7 \\",
            "    --in-column in --out-column out --interval-seconds 300 --await --strict --config apiary-devstack.properties",
            "  ingest-app import-counts --file passages.csv --time-column t --hive-id hive-7 \\",
            "    --direction-column dir --in-values in,1 --out-values out,-1 --bucket-seconds 60 --await --strict ...",
            "",
            "The topology closes an hour of a hive once the hive's own samples have passed the hour's end plus the",
            "grace period (activity.window.grace.ms); a sample for a closed hour corrects it within the correction",
            "horizon (activity.correction.horizon.ms) and is late beyond it. So a hive's history is summed when it is",
            "imported before the hive's live samples, or within the horizon of them: see docs/commands.md,",
            "import-counts, 'Historical counts'."
        })
public final class ImportCountsCommand implements Callable<Integer> {

    @Mixin
    CsvFileOptions input;

    /** One line per counting interval. */
    static final class IntervalOptions {
        @Option(
                names = "--in-column",
                required = true,
                paramLabel = "NAME",
                description = "Interval logs: header of the bees-in column (whole numbers).")
        String inColumn;

        @Option(
                names = "--out-column",
                required = true,
                paramLabel = "NAME",
                description = "Interval logs: header of the bees-out column (whole numbers).")
        String outColumn;

        @Option(
                names = "--interval-seconds",
                required = true,
                paramLabel = "S",
                description = "Interval logs: the counting interval, 1 to 3600 s.")
        int intervalSeconds;

        @Option(
                names = "--time-marks",
                defaultValue = "end",
                paramLabel = "end|start",
                description = "Interval logs: whether a line's time is the end of its interval (as gateways send"
                        + " it) or its start (default: ${DEFAULT-VALUE}).")
        String timeMarks;
    }

    /** One line per passage. */
    static final class EventOptions {
        @Option(
                names = "--direction-column",
                required = true,
                paramLabel = "NAME",
                description = "Event logs: header of the direction column, one line per bee passing.")
        String directionColumn;

        @Option(
                names = "--in-values",
                defaultValue = "in",
                split = ",",
                paramLabel = "VALUE",
                description = "Event logs: direction values meaning in, ignoring case (default: ${DEFAULT-VALUE}).")
        List<String> inValues;

        @Option(
                names = "--out-values",
                defaultValue = "out",
                split = ",",
                paramLabel = "VALUE",
                description = "Event logs: direction values meaning out, ignoring case (default: ${DEFAULT-VALUE}).")
        List<String> outValues;

        @Option(
                names = "--bucket-seconds",
                defaultValue = "60",
                paramLabel = "S",
                description = "Event logs: passages are counted per hive in buckets of this length, a divisor of"
                        + " 3600, one sample per bucket with passages (default: ${DEFAULT-VALUE}).")
        int bucketSeconds;
    }

    /** Exactly one layout. */
    static final class LayoutOptions {
        @ArgGroup(exclusive = false, multiplicity = "1", heading = "Interval logs:%n")
        IntervalOptions intervals;

        @ArgGroup(exclusive = false, multiplicity = "1", heading = "Event logs:%n")
        EventOptions events;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    LayoutOptions layout;

    @Option(
            names = "--max-samples",
            defaultValue = "5000000",
            paramLabel = "N",
            description = "Most samples (event logs: buckets) held in memory to send them in time order, about 200"
                    + " (event logs: 300) bytes of heap each at the peak (default: ${DEFAULT-VALUE}).")
    long maxSamples;

    @Mixin
    AwaitOptions awaiting;

    @Option(
            names = "--strict",
            description = "Exit with code 3 if any line was rejected, any conflicting duplicate"
                    + " found, or (with --await) any sample late or dead-lettered (without it: only if no sample could be"
                    + " read or, with --await, none was summed).")
    boolean strict;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    private CountLogParser.Layout layout() {
        if (layout.intervals != null) {
            IntervalOptions i = layout.intervals;
            CountLogParser.TimeMark mark = switch (i.timeMarks.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "end" -> CountLogParser.TimeMark.END;
                case "start" -> CountLogParser.TimeMark.START;
                default ->
                    throw new IllegalArgumentException("--time-marks must be end or start, was '" + i.timeMarks + "'");
            };
            return new CountLogParser.Intervals(i.inColumn, i.outColumn, i.intervalSeconds, mark);
        }
        EventOptions e = layout.events;
        return new CountLogParser.Events(
                e.directionColumn, new LinkedHashSet<>(e.inValues), new LinkedHashSet<>(e.outValues), e.bucketSeconds);
    }

    @Override
    public Integer call() throws Exception {
        CountLogParser parser;
        List<CsvReadingParser.HiveSource> hives = new ArrayList<>();
        try {
            input.requireMaxReported();
            awaiting.check();
            java.util.Set<Path> seen = new java.util.HashSet<>();
            for (Path file : input.files) {
                if (!seen.add(file.toAbsolutePath().normalize())) {
                    throw new IllegalArgumentException(
                            "--file " + file + " is given twice; its passages or" + " intervals would count twice");
                }
                hives.add(input.hiveSource(file));
            }
            parser = new CountLogParser(
                    input.timeColumn,
                    input.timeParser(),
                    hives.get(0),
                    layout(),
                    input.gatewayId,
                    input.delimiterChar(),
                    input.commentMarker(),
                    maxSamples);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        List<Path> withoutData = new ArrayList<>();
        for (int f = 0; f < input.files.size(); f++) {
            Path file = input.files.get(f);
            CsvFileOptions.requireReadable(file);
            try (Reader header = Files.newBufferedReader(file, input.charset)) {
                if (!parser.checkHeader(header, hives.get(f))) {
                    withoutData.add(file);
                }
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), CsvFileOptions.name(file) + ": " + e.getMessage(), e);
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        withoutData.forEach(file -> err.println(ImportCsvCommand.noDataRows(CsvFileOptions.name(file))));
        if (withoutData.size() == input.files.size()) {
            return 0;
        }
        IngestConfig cfg = config.load();
        KafkaReachability.require(cfg.kafkaClientSettings(), Duration.ofSeconds(30));
        boolean several = input.files.size() > 1;
        String label = several ? input.files.size() + " files" : CsvFileOptions.name(input.files.get(0));
        long[] reported = {0};
        List<CountLogParser.FileTotals> totals = new ArrayList<>();
        CountLogParser.Finished finished;
        try {
            for (int f = 0; f < input.files.size(); f++) {
                Path file = input.files.get(f);
                String name = CsvFileOptions.name(file);
                try (Reader reader = Files.newBufferedReader(file, input.charset)) {
                    totals.add(parser.read(
                            reader,
                            hives.get(f),
                            several ? name : null,
                            problem -> report(err, reported, name + ": " + problem)));
                }
            }
            finished = parser.finish(problem ->
                    report(err, reported, label + ": " + (several ? problem.message() : problem.toString())));
        } catch (CountLogParser.TooManySamples e) {
            err.println(label + ": " + e.getMessage());
            return 1;
        } catch (OutOfMemoryError e) {
            err.printf(
                    "%s: out of memory while holding the samples to sort them (about 200 bytes each at the"
                            + " peak, 300 per bucket of an event log); nothing was sent. Raise the heap"
                            + " (JAVA_TOOL_OPTIONS=-Xmx4g), lower --max-samples, or split the input by time%n",
                    label);
            return 1;
        }
        List<CountLogParser.Sample> samples = finished.samples();
        Topics topics = cfg.topics();
        TopologySettings topology = TopologySettings.from(cfg);
        TimeLimits limits = topology.timeLimits(IngestTopology.ACTIVITY_RETENTION);
        EntranceCountValidator validator = topology.entranceCountValidator();
        long[] outsideLimits = {0, 0};
        java.util.SortedMap<RejectReason, Long> withheld = new java.util.TreeMap<>();
        ImportAudit.Outcome outcome = null;
        if (!samples.isEmpty()) {
            ImportAudit audit = awaiting.await
                    ? ImportAudit.begin(
                            cfg.kafkaClientSettings(),
                            topics.activityLate(),
                            topics.deadLetter(),
                            bytes -> ImportAudit.describe(topics.entranceCountsTopic()
                                    .valueSerde()
                                    .deserializer()
                                    .deserialize(topics.entranceCounts(), bytes)),
                            Duration.ofSeconds(30))
                    : null;
            String runId =
                    audit != null ? audit.runId() : java.util.UUID.randomUUID().toString();
            Map<TopicPartition, Long> lastOffsets;
            long now = System.currentTimeMillis();
            try (GatewayProducer producer = new GatewayProducer(
                    cfg.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic())) {
                for (CountLogParser.Sample sample : samples) {
                    Rejection refused = ImportCsvCommand.withMargin(
                            validator.check(sample.count().getHiveId(), sample.count(), now),
                            limits,
                            "event_time",
                            sample.count().getEventTime().toEpochMilli(),
                            now);
                    if (refused != null) {
                        withheld.merge(refused.reason(), 1L, Long::sum);
                        ImportCsvCommand.countOutsideLimits(refused, outsideLimits);
                        report(
                                err,
                                reported,
                                label + ": line " + sample.lines() + ": not sent, the topology would"
                                        + " dead-letter it (" + refused.reason() + "): " + refused.message());
                        continue;
                    }
                    producer.send(sample.count(), ImportAudit.headers(runId, sample.lines()));
                }
                producer.flush();
                lastOffsets = producer.lastOffsets();
            }
            err.printf(
                    "%s: import run %s (header %s on each record, kept on its late or dead letter copy)%n",
                    label, runId, ImportAudit.RUN_HEADER);
            if (audit != null) {
                String group = cfg.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
                Map<TopicPartition, Long> behind =
                        audit.awaitConsumed(group, lastOffsets, Duration.ofSeconds(awaiting.timeoutSeconds));
                if (!behind.isEmpty()) {
                    printMoreProblems(err, label, reported);
                    printSummary(totals, finished, topics, withheld, null);
                    err.printf(
                            "%s: the topology (consumer group %s) has not consumed the import's samples within %d s"
                                    + " in %d of %d partitions (%s); are the topology and this command configured alike? The"
                                    + " samples stay on %s and will be summed, late or dead-lettered when it reads them%n",
                            label,
                            group,
                            awaiting.timeoutSeconds,
                            behind.size(),
                            lastOffsets.size(),
                            describe(behind, lastOffsets),
                            topics.entranceCounts());
                    return 1;
                }
                outcome = audit.collect(Duration.ofSeconds(60));
                outcome.late().forEach(f -> report(err, reported, label + ": late: " + f));
                outcome.rejected().forEach(f -> report(err, reported, label + ": rejected: " + f));
            }
        }
        printMoreProblems(err, label, reported);
        printSummary(totals, finished, topics, withheld, outcome);
        ImportCsvCommand.warnOutsideLimits(err, label, "samples", limits, outsideLimits);
        if (outcome != null && !outcome.late().isEmpty()) {
            err.printf(
                    "%s: %,d samples came later than their hour's correction horizon and went to %s, not summed."
                            + " The topology closes an hour of a hive once that hive's own samples have passed the"
                            + " hour's end plus the grace period, activity.window.grace.ms = %s, and corrects it with"
                            + " later samples until they are activity.correction.horizon.ms = %s past that; so a"
                            + " hive's history older than that before its newest sample in %s is late. Import a"
                            + " hive's history before its live samples, or into a topology of its own"
                            + " (docs/commands.md, import-counts: 'Historical counts').%n",
                    label,
                    outcome.late().size(),
                    topics.activityLate(),
                    TimeLimits.describe(Duration.ofMillis(cfg.getLong(IngestConfig.ACTIVITY_GRACE_MS))),
                    TimeLimits.describe(Duration.ofMillis(cfg.getLong(IngestConfig.ACTIVITY_CORRECTION_HORIZON_MS))),
                    topics.entranceCounts());
        }
        if (samples.isEmpty()) {
            return explainNoSamples(err, label, totals, layout.events != null);
        }
        long sent = samples.size()
                - withheld.values().stream().mapToLong(Long::longValue).sum();
        if (!samples.isEmpty()
                && (sent == 0
                        || (outcome != null
                                && outcome.late().size() + outcome.rejected().size() == sent))) {
            err.printf("%s: no sample was summed%n", label);
            return 3;
        }
        long problems = totals.stream()
                        .mapToLong(CountLogParser.FileTotals::rejectedRows)
                        .sum()
                + finished.conflicts()
                + finished.rejectedPassages()
                + (samples.size() - sent)
                + (outcome == null
                        ? 0
                        : outcome.late().size() + outcome.rejected().size());
        return strict && problems > 0 ? 3 : 0;
    }

    /**
     * Explains an input that gave no sample and decides the exit code: 0 when it has no data rows
     * (nothing to import, as {@code import-csv}), 3 when lines were rejected; when every rejected line's
     * count (or direction) cells were empty it says so, since an empty cell is no count, not 0.
     *
     * @param err       where to print, not null
     * @param label     the file's name, or "N files"
     * @param totals    each file's totals, not null
     * @param eventLogs whether the layout is an event log
     * @return the exit code
     */
    static int explainNoSamples(
            PrintWriter err, String label, List<CountLogParser.FileTotals> totals, boolean eventLogs) {
        long rows = totals.stream().mapToLong(CountLogParser.FileTotals::rows).sum();
        if (rows == 0) {
            err.println(ImportCsvCommand.noDataRows(label));
            return 0;
        }
        long rejected = totals.stream()
                .mapToLong(CountLogParser.FileTotals::rejectedRows)
                .sum();
        long empty =
                totals.stream().mapToLong(CountLogParser.FileTotals::emptyRows).sum();
        String cells = eventLogs ? "direction cell" : "count cells";
        if (empty > 0 && empty == rejected && rejected == rows) {
            err.printf(
                    "%s: every line's %s %s empty (%d lines): an empty cell is no count, not 0 (a counter that"
                            + " saw no bee writes 0), so every line was rejected and nothing was sent%n",
                    label, cells, eventLogs ? "was" : "were", rows);
            return 3;
        }
        err.printf(
                "%s: no sample could be read: %d of %d lines rejected (each reported above%s); check --time-column,"
                        + " --time-format, --zone and the count or direction columns%n",
                label, rejected, rows, empty == 0 ? "" : "; " + empty + " of them with an empty " + cells);
        return 3;
    }

    private void printMoreProblems(PrintWriter err, String label, long[] reported) {
        if (reported[0] > input.maxReported) {
            err.printf(
                    "%s: %d more problems not shown (--max-reported %d)%n",
                    label, reported[0] - input.maxReported, input.maxReported);
        }
    }

    private void report(PrintWriter err, long[] reported, String problem) {
        if (reported[0]++ < input.maxReported) {
            err.println(problem);
        }
    }

    private void printSummary(
            List<CountLogParser.FileTotals> totals,
            CountLogParser.Finished finished,
            Topics topics,
            java.util.SortedMap<RejectReason, Long> withheld,
            ImportAudit.Outcome outcome) {
        PrintWriter out = spec.commandLine().getOut();
        for (int f = 0; f < totals.size(); f++) {
            CountLogParser.FileTotals t = totals.get(f);
            StringBuilder line = new StringBuilder(CsvFileOptions.name(input.files.get(f)))
                    .append(": ")
                    .append(t.rows())
                    .append(" rows read");
            if (layout.events != null) {
                line.append(", ").append(t.passages()).append(" passages counted");
            }
            line.append(", ").append(t.rejectedRows()).append(" rows rejected");
            if (t.resolvedTimes() > 0) {
                line.append(", ")
                        .append(t.resolvedTimes())
                        .append(" daylight-saving times resolved (--dst ")
                        .append(input.dst.trim())
                        .append(')');
            }
            if (input.commentPrefix != null) {
                line.append(", ").append(t.commentLines()).append(" comment lines skipped");
            }
            out.println(line);
        }
        String label = input.files.size() > 1 ? input.files.size() + " files" : CsvFileOptions.name(input.files.get(0));
        StringBuilder line = new StringBuilder(label)
                .append(": ")
                .append(finished.samples().size()
                        - withheld.values().stream().mapToLong(Long::longValue).sum())
                .append(" samples produced to ")
                .append(topics.entranceCounts());
        if (layout.events != null) {
            line.append(" (passages counted per hive in ")
                    .append(layout.events.bucketSeconds)
                    .append(" s buckets");
            if (finished.rejectedPassages() > 0) {
                line.append("; ")
                        .append(finished.rejectedPassages())
                        .append(" passages in buckets over the limit" + " of a sample not sent");
            }
            line.append(')');
        } else {
            line.append(", ")
                    .append(finished.duplicates())
                    .append(" exact duplicates, ")
                    .append(finished.conflicts())
                    .append(" conflicting duplicates");
        }
        long samples = finished.samples().size();
        long notSent = withheld.values().stream().mapToLong(Long::longValue).sum();
        if (notSent > 0) {
            line.append(", ")
                    .append(notSent)
                    .append(" more not sent: the topology would dead-letter them (")
                    .append(ImportCsvCommand.describe(withheld))
                    .append(')');
            samples -= notSent;
        }
        out.println(line);
        if (outcome != null) {
            long late = outcome.late().size();
            long rejected = outcome.rejected().size();
            out.printf(
                    "%s: the topology consumed all %d samples: %d summed, %d late (on %s)," + " %d rejected (on %s)%n",
                    label,
                    samples,
                    samples - late - rejected,
                    late,
                    topics.activityLate(),
                    rejected,
                    topics.deadLetter());
        } else if (!awaiting.await && samples > 0) {
            out.printf(
                    "%s: not followed through the topology; --await reports which samples"
                            + " were summed, late or rejected%n",
                    label);
        }
    }

    private static String describe(Map<TopicPartition, Long> behind, Map<TopicPartition, Long> lastOffsets) {
        return String.join(
                        ", ",
                        behind.entrySet().stream()
                                .sorted(Map.Entry.comparingByKey(
                                        java.util.Comparator.comparing(TopicPartition::toString)))
                                .limit(5)
                                .map(e -> e.getKey() + " committed " + (e.getValue() < 0 ? "nothing" : e.getValue())
                                        + ", last sample at " + lastOffsets.get(e.getKey()))
                                .toList())
                + (behind.size() > 5 ? ", ..." : "");
    }
}
