package io.apiary.ingest.cli;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.importer.CsvReadingParser;
import io.apiary.ingest.importer.DuplicateReadings;
import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.importer.ImportAudit;
import io.apiary.ingest.importer.KafkaReachability;
import io.apiary.ingest.importer.SensorColumn;
import io.apiary.ingest.importer.SensorColumnSpec;
import io.apiary.ingest.importer.SensorMapping;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.topology.IngestTopology;
import io.apiary.ingest.topology.TopologySettings;
import io.apiary.ingest.validation.Rejection;
import io.apiary.ingest.validation.TelemetryValidator;
import io.apiary.ingest.validation.TimeLimits;
import io.apiary.schema.TelemetryReading;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code import-csv}: replays a CSV of readings into the telemetry topic as a gateway would (key
 * hive id, Avro single-object encoding), from the wide format (a column per sensor) or, with
 * {@code --sensor-column} and {@code --value-column}, the long format (a line per reading,
 * {@link CsvReadingParser.LongFormat}). Every row or cell it cannot read is reported on stderr
 * with its line number, and so is every conflicting duplicate ({@link DuplicateReadings}); each
 * column's (or sensor name's) sensor id follows {@link SensorMapping}, and the mapping is printed
 * before anything is sent.
 */
@Command(
        name = "import-csv",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Replays a CSV of sensor readings into the gateway telemetry topic: a column per sensor, or"
                + " (with --sensor-column and --value-column) a line per reading.",
        footer = {
            "",
            "Example (the UrBAN Montreal file, on a dev stack started with 'devstack'):",
            "  ingest-app import-csv --file ingest-app/src/main/resources/data/urban-montreal/sensor_2021.csv \\",
            "    --time-column Date --hive-column 'Tag number' \\",
            "    --sensor temperature=TEMPERATURE:degC --sensor humidity=HUMIDITY:%%RH \\",
            "    --config /tmp/apiary-devstack-.../apiary-devstack.properties",
            "",
            "Long format (lines 'time,sensor,value,unit', one hive, two temperature probes, a scale in g or kg):",
            "  ingest-app import-csv --file long.csv --time-column time --hive-id hive-7 \\",
            "    --sensor-column sensor --value-column value --unit-column unit \\",
            "    --sensor T1=TEMPERATURE:degC --sensor T2=TEMPERATURE:degC --sensor weight=WEIGHT:kg --config ...",
            "",
            "The topology validates what arrives: for readings older than its maximum age (default 90 days) it",
            "must run with a larger validation.max.age.ms, as the devstack settings file has. The importer",
            "warns when the readings fall outside the limits its own configuration gives."
        })
public final class ImportCsvCommand implements Callable<Integer> {

    @Mixin
    CsvFileOptions input;

    @Option(
            names = "--sensor",
            required = true,
            paramLabel = "COLUMN=TYPE:UNIT[:SENSOR_ID]",
            description = {
                "A sensor column, e.g. temperature=TEMPERATURE:degC or temp_in=TEMPERATURE:degC:inside;"
                        + " in the long format (--sensor-column) COLUMN is a sensor name of that column and UNIT"
                        + " the unit of its values where no --unit-column gives one. Repeatable. Without SENSOR_ID,"
                        + " the only column (or name) of a type gets sensor id 'default' and several of one type each"
                        + " get an id made from the column name (or sensor name). A UNIT of the same quantity as one"
                        + " the pipeline takes is converted to it (weight=WEIGHT:g to kg, degF or K to degC, m/s to"
                        + " mm/s)."
            })
    List<String> sensors;

    /** The long format: one line per reading, naming its sensor. */
    static final class LongFormatOptions {
        @Option(
                names = "--sensor-column",
                required = true,
                paramLabel = "NAME",
                description = "Long format (one line per reading): header of the column naming each line's sensor,"
                        + " e.g. sensor, name, _field; --sensor maps those names. Lines of a name no --sensor maps"
                        + " are not read and are reported, once per name with their count.")
        String sensorColumn;

        @Option(
                names = "--value-column",
                required = true,
                paramLabel = "NAME",
                description = "Long format: header of the column with each line's value, e.g. value, _value.")
        String valueColumn;

        @Option(
                names = "--unit-column",
                paramLabel = "NAME",
                description = "Long format: header of the column with each line's unit (e.g. g on some lines, kg on"
                        + " others), converted to the unit of the line's --sensor; an empty cell is the --sensor's"
                        + " UNIT; a unit of another quantity rejects the line. Without it, every value is in the"
                        + " --sensor's UNIT.")
        String unitColumn;
    }

    @ArgGroup(exclusive = false, multiplicity = "0..1")
    LongFormatOptions longFormat;

    @Option(
            names = "--duplicate-check-limit",
            paramLabel = "N",
            description = "Distinct (hive, sensor, time) keys the duplicate check holds, about 27 to 54 bytes each;"
                    + " past it, readings of new keys are not checked (and a warning says from which line on);"
                    + " 0 turns the check off (default: ${DEFAULT-VALUE}).")
    long duplicateCheckLimit = DuplicateReadings.DEFAULT_LIMIT;

    @Option(
            names = "--missing-values",
            split = ",",
            paramLabel = "VALUE",
            description = "Values that mean \"no reading\", read like an empty cell: counted as missing, not sent,"
                    + " not rejected; comma-separated, e.g. --missing-values -100,-99.9,-999,9999,NA,nan. A number"
                    + " matches the same number in any form (-100 matches -100.0); text matches ignoring case. A marker"
                    + " inside a column's accepted range is warned of at the start; the summary counts each marker's"
                    + " cells.")
    List<String> missingValues = List.of();

    @Option(
            names = "--strict",
            description = "Exit with code 3 if any row or cell was rejected (a reading the topology would dead-letter"
                    + " included; in the long format, a line of a sensor name no --sensor maps too), any conflicting"
                    + " duplicate found, or (with --await) any reading dead-lettered (without it: only if rows were read"
                    + " and none gave a reading because rows or cells were rejected; a file of no data rows, or of"
                    + " missing values only, exits 0).")
    boolean strict;

    @Mixin
    AwaitOptions awaiting;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CsvReadingParser parser;
        List<SensorColumn> columns;
        DuplicateReadings duplicates;
        Path file;
        try {
            file = input.singleFile("import-csv");
            columns = SensorMapping.resolve(
                    sensors.stream().map(SensorColumnSpec::parse).toList());
            input.requireMaxReported();
            awaiting.check();
            duplicates = new DuplicateReadings(duplicateCheckLimit);
            parser = new CsvReadingParser(
                    input.timeColumn,
                    input.timeParser(),
                    input.hiveSource(file),
                    columns,
                    input.gatewayId,
                    input.delimiterChar(),
                    input.commentMarker(),
                    longFormat == null
                            ? null
                            : new CsvReadingParser.LongFormat(
                                    longFormat.sensorColumn, longFormat.valueColumn, longFormat.unitColumn));
            parser.missingValues(missingValues);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        CsvFileOptions.requireReadable(file);
        boolean hasData;
        try (Reader header = Files.newBufferedReader(file, input.charset)) {
            hasData = parser.checkHeader(header);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), CsvFileOptions.name(file) + ": " + e.getMessage(), e);
        }
        PrintWriter err = spec.commandLine().getErr();
        String name = CsvFileOptions.name(file);
        if (!hasData) {
            err.println(noDataRows(name));
            return 0;
        }
        int maxReported = input.maxReported;
        parser.mapping().forEach(sensor -> err.println(name + ": " + sensor));
        IngestConfig cfg = config.load();
        TopologySettings topology = TopologySettings.from(cfg);
        parser.missingValuesInRange(topology.sensorRanges())
                .forEach(warning -> err.println(name + ": warning: " + warning));
        KafkaReachability.require(cfg.kafkaClientSettings(), Duration.ofSeconds(30));
        Topics topics = cfg.topics();
        long[] reported = {0};
        Consumer<Object> report = problem -> {
            if (reported[0]++ < maxReported) {
                err.println(name + ": " + problem);
            }
        };
        TimeLimits limits = topology.timeLimits(IngestTopology.TELEMETRY_RETENTION);
        TelemetryValidator validator = topology.telemetryValidator();
        long startedAt = System.currentTimeMillis();
        long[] outsideLimits = {0, 0}; // expired, from the future
        SortedMap<RejectReason, Long> withheld = new TreeMap<>();
        ImportAudit audit = awaiting.await
                ? ImportAudit.begin(
                        cfg.kafkaClientSettings(),
                        null,
                        topics.deadLetter(),
                        bytes -> describe(topics.telemetryTopic()
                                .valueSerde()
                                .deserializer()
                                .deserialize(topics.telemetry(), bytes)),
                        Duration.ofSeconds(30))
                : null;
        String runId =
                audit != null ? audit.runId() : java.util.UUID.randomUUID().toString();
        CsvReadingParser.Totals totals;
        Map<TopicPartition, Long> lastOffsets;
        try (GatewayProducer producer = new GatewayProducer(
                        cfg.kafkaClientSettings(), topics.telemetryTopic(), topics.entranceCountsTopic());
                Reader reader = Files.newBufferedReader(file, input.charset)) {
            totals = parser.parseWithLines(
                    reader,
                    (reading, line) -> {
                        Rejection refused = withMargin(
                                validator.check(reading.getHiveId(), reading, startedAt),
                                limits,
                                "reading_time",
                                reading.getReadingTime().toEpochMilli(),
                                startedAt);
                        if (refused != null) {
                            withheld.merge(refused.reason(), 1L, Long::sum);
                            countOutsideLimits(refused, outsideLimits);
                            throw new CsvReadingParser.RejectedReading("not sent, the topology would dead-letter it ("
                                    + refused.reason() + "): " + refused.message());
                        }
                        try {
                            producer.send(reading, ImportAudit.headers(runId, Long.toString(line)));
                        } catch (RecordTooLargeException e) {
                            throw new CsvReadingParser.RejectedReading(e.getMessage());
                        }
                        DuplicateReadings.Conflict conflict = duplicates.offer(reading, line);
                        if (conflict != null) {
                            report.accept(conflict);
                        }
                    },
                    report::accept);
            producer.flush();
            lastOffsets = producer.lastOffsets();
        }
        if (reported[0] > maxReported) {
            err.printf(
                    "%s: %d more problems and conflicts not shown (--max-reported %d)%n",
                    name, reported[0] - maxReported, maxReported);
        }
        long withheldTotal =
                withheld.values().stream().mapToLong(Long::longValue).sum();
        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                "%s: %d rows read, %d readings produced to %s, %d rows and %d cells rejected%s, %d cells missing%s,"
                        + " %d exact duplicates, %d conflicting duplicates%s%n",
                name,
                totals.rows(),
                totals.readings(),
                topics.telemetry(),
                totals.rejectedRows(),
                totals.rejectedCells(),
                rejectedReasons(totals, withheldTotal, withheld),
                totals.missingCells(),
                missingMarkers(totals, parser.missingValueMatches()),
                duplicates.duplicates(),
                duplicates.conflicts(),
                (totals.resolvedTimes() == 0
                                ? ""
                                : ", " + totals.resolvedTimes() + " daylight-saving times resolved (--dst "
                                        + input.dst.trim() + ")")
                        + (input.commentPrefix == null ? "" : ", " + totals.commentLines() + " comment lines skipped"));
        warn(err, name, duplicates, limits, outsideLimits);
        if (totals.readings() == 0) {
            return explainNoReadings(err, name, totals, parser.missingValueMatches());
        }
        long deadLettered = 0;
        if (audit != null && totals.readings() > 0) {
            String group = cfg.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
            Map<TopicPartition, Long> behind =
                    audit.awaitConsumed(group, lastOffsets, Duration.ofSeconds(awaiting.timeoutSeconds));
            if (!behind.isEmpty()) {
                err.printf(
                        "%s: the topology (consumer group %s) has not consumed the import's readings within %d s in %d"
                                + " of %d partitions; are the topology and this command configured alike? The readings"
                                + " stay on %s and will be stored or dead-lettered when it reads them%n",
                        name, group, awaiting.timeoutSeconds, behind.size(), lastOffsets.size(), topics.telemetry());
                return 1;
            }
            ImportAudit.Outcome outcome = audit.collect(Duration.ofSeconds(60));
            long[] shown = {0};
            outcome.rejected().forEach(f -> {
                if (shown[0]++ < maxReported) {
                    err.println(name + ": dead-lettered: " + f);
                }
            });
            deadLettered = outcome.rejected().size();
            out.printf(
                    "%s: the topology consumed all %d readings: %d passed to the sink, %d dead-lettered (on %s)%n",
                    name, totals.readings(), totals.readings() - deadLettered, deadLettered, topics.deadLetter());
        }
        return strict && (totals.rejectedRows() + totals.rejectedCells() + duplicates.conflicts() + deadLettered) > 0
                ? 3
                : 0;
    }

    /**
     * How long after an import the topology may read its records, for the maximum age: a record that
     * would expire within it is not sent, since the topology checks the age with its own, later clock.
     */
    static final Duration AGE_MARGIN = Duration.ofHours(1);

    /**
     * A validator's verdict on a record, with the age checked as the topology will check it later:
     * a record that the maximum age reaches within {@link #AGE_MARGIN} is refused too.
     *
     * @param verdict   the validator's verdict at {@code now}, or null
     * @param limits    the topology's time limits under the importer's configuration, not null
     * @param field     the event time's field name, for the message
     * @param eventTime the record's event time, ms
     * @param now       the wall clock the validator used, ms
     * @return the verdict, or null when the record is accepted with the margin too
     */
    static Rejection withMargin(Rejection verdict, TimeLimits limits, String field, long eventTime, long now) {
        if (verdict != null) {
            return verdict;
        }
        Rejection later = limits.check(field, eventTime, now + AGE_MARGIN.toMillis());
        if (later == null || later.reason() != RejectReason.EXPIRED_TIMESTAMP) {
            return null;
        }
        return new Rejection(
                RejectReason.EXPIRED_TIMESTAMP,
                later.message() + "; it would be, within " + TimeLimits.describe(AGE_MARGIN)
                        + ", by the time the topology reads it");
    }

    /**
     * Counts a rejection of the time limits: [0] older than the maximum age, [1] from the future.
     *
     * @param rejection     a validator's rejection, not null
     * @param outsideLimits the two counts, not null
     */
    static void countOutsideLimits(Rejection rejection, long[] outsideLimits) {
        if (rejection.reason() == RejectReason.EXPIRED_TIMESTAMP) {
            outsideLimits[0]++;
        } else if (rejection.reason() == RejectReason.FUTURE_TIMESTAMP) {
            outsideLimits[1]++;
        }
    }

    /**
     * What a header-only file is told: a file of no data rows is not rejected input (an export of a
     * period without data), so the command ends with 0 without sending anything.
     *
     * @param name the file's name
     * @return the line for stderr
     */
    static String noDataRows(String name) {
        return name + ": the file has no data rows (a header and nothing after it but comment or blank lines):"
                + " nothing to import, nothing was sent";
    }

    /**
     * The reasons of the rejected values that are not the parser's plain refusals, for the summary
     * line: values a double cannot hold, then readings the topology would dead-letter.
     *
     * @param totals        the parse's totals, not null
     * @param withheldTotal readings withheld for the validator
     * @param withheld      those per reason, not null
     * @return e.g. {@code  (values a double cannot hold: 1 too large, 2 too small; 3 readings the topology
     *         would dead-letter, not sent: OUT_OF_RANGE 3)}, or empty
     */
    static String rejectedReasons(
            CsvReadingParser.Totals totals, long withheldTotal, SortedMap<RejectReason, Long> withheld) {
        List<String> parts = new java.util.ArrayList<>();
        if (totals.tooLarge() + totals.tooSmall() > 0) {
            parts.add("values a double cannot hold: " + totals.tooLarge() + " too large, " + totals.tooSmall()
                    + " too small");
        }
        if (withheldTotal > 0) {
            parts.add(withheldTotal + " readings the topology would dead-letter, not sent: " + describe(withheld));
        }
        return parts.isEmpty() ? "" : " (" + String.join("; ", parts) + ")";
    }

    /**
     * @param totals  the parse's totals, not null
     * @param matches the cells each missing-value marker matched, not null
     * @return for the summary line, e.g. {@code  (2 empty; --missing-values '0' 5, 'NA' 0)}; empty without markers
     */
    static String missingMarkers(CsvReadingParser.Totals totals, Map<String, Long> matches) {
        if (matches.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder(" (")
                .append(totals.missingCells() - sum(matches))
                .append(" empty; --missing-values");
        String[] separator = {" "};
        matches.forEach((marker, n) -> {
            text.append(separator[0]).append('\'').append(marker).append("' ").append(n);
            separator[0] = ", ";
        });
        return text.append(')').toString();
    }

    private static long sum(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Explains a file that gave no reading and decides the exit code: 3 when rows or values were
     * rejected (nothing could be read), 0 when there was nothing to read (no data rows, or every sensor
     * value missing: neither is a problem of the input, see docs/commands.md).
     *
     * @param err     where to print, not null
     * @param name    the file's name
     * @param totals  the parse's totals, with no reading, not null
     * @param matches the cells each missing-value marker matched, not null
     * @return the exit code
     */
    static int explainNoReadings(
            PrintWriter err, String name, CsvReadingParser.Totals totals, Map<String, Long> matches) {
        long rejected = totals.rejectedRows() + totals.rejectedCells();
        if (totals.rows() == 0) {
            err.println(noDataRows(name));
            return 0;
        }
        long markers = sum(matches);
        String missing = totals.missingCells() + " cells missing (" + (totals.missingCells() - markers) + " empty, "
                + markers + " matching a --missing-values marker)";
        if (rejected == 0) {
            err.printf(
                    "%s: every sensor cell was missing: %s in %d rows, so the file holds no reading and nothing was"
                            + " sent; nothing was rejected either. If the readings are in other columns, check --sensor;"
                            + " if a marker matched real readings, check --missing-values%n",
                    name, missing, totals.rows());
            return 0;
        }
        err.printf(
                "%s: no reading could be read: %d rows and %d cells rejected (each reported above)%s; check"
                        + " --time-column, --time-format, --zone and --sensor%n",
                name, totals.rejectedRows(), totals.rejectedCells(), totals.missingCells() == 0 ? "" : ", " + missing);
        return 3;
    }

    /**
     * @param counts records per reason code, not null
     * @return e.g. {@code OUT_OF_RANGE 3, EXPIRED_TIMESTAMP 2}, in the reasons' order
     */
    static String describe(SortedMap<RejectReason, Long> counts) {
        StringBuilder text = new StringBuilder();
        counts.forEach((reason, n) -> text.append(text.length() == 0 ? "" : ", ")
                .append(reason)
                .append(' ')
                .append(n));
        return text.toString();
    }

    /**
     * @param reading a reading, not null
     * @return the reading described for a person, e.g. {@code hive h-1 HUMIDITY/default at 2021-06-01T10:00:00Z:
     *         103.5 %RH}
     */
    static String describe(TelemetryReading reading) {
        return "hive " + reading.getHiveId() + " " + reading.getSensorType() + "/" + reading.getSensorId() + " at "
                + reading.getReadingTime() + ": " + reading.getValue() + " " + reading.getUnit();
    }

    private static void warn(
            PrintWriter err, String name, DuplicateReadings duplicates, TimeLimits limits, long[] outsideLimits) {
        if (duplicates.conflicts() > 0) {
            err.printf(
                    "%s: %,d conflicting duplicates: readings of one hive, sensor and time with different values;"
                            + " both of each were sent, and %s keeps one of them whole, the same one in any order%n",
                    name, duplicates.conflicts(), TableNames.HIVE_TELEMETRY);
        }
        if (duplicates.partial() != null) {
            err.printf("%s: warning: %s (--duplicate-check-limit)%n", name, duplicates.partial());
        }
        warnOutsideLimits(err, name, "readings", limits, outsideLimits);
    }

    /**
     * Explains the records not sent because the topology would dead-letter them for their time under the
     * importer's configuration.
     *
     * @param err           where to print, not null
     * @param name          the file's name
     * @param what          what the records are, plural ("readings", "samples")
     * @param limits        the topology's time limits under this configuration, not null
     * @param outsideLimits records older than the maximum age, then records too far ahead of the clock
     */
    static void warnOutsideLimits(PrintWriter err, String name, String what, TimeLimits limits, long[] outsideLimits) {
        if (outsideLimits[0] > 0) {
            err.printf(
                    "%s: %,d of the %s are older than the maximum age of %s that a topology with this"
                            + " configuration accepts (it would dead-letter them as EXPIRED_TIMESTAMP); they were not sent."
                            + " To replay history, give the topology and this command a larger validation.max.age.ms (ms;"
                            + " e.g. --set validation.max.age.ms=%d for 20 years; the devstack settings file has it).%n",
                    name,
                    outsideLimits[0],
                    what,
                    TimeLimits.describe(limits.maxAge()),
                    Duration.ofDays(365 * 20).toMillis());
        }
        if (outsideLimits[1] > 0) {
            err.printf(
                    "%s: %,d of the %s are more than %s ahead of this machine's clock; the topology would"
                            + " dead-letter them as FUTURE_TIMESTAMP (validation.max.future.skew.ms), so they were not sent;"
                            + " check --zone.%n",
                    name, outsideLimits[1], what, TimeLimits.describe(limits.maxFutureSkew()));
        }
    }
}
