package io.apiary.ingest.cli;

import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.RejectReason;
import io.apiary.ingest.gateway.CsvReadingParser;
import io.apiary.ingest.gateway.DuplicateReadings;
import io.apiary.ingest.gateway.GatewayProducer;
import io.apiary.ingest.gateway.KafkaReachability;
import io.apiary.ingest.gateway.ReadingTimeParser;
import io.apiary.ingest.gateway.SensorColumn;
import io.apiary.ingest.gateway.SensorColumnSpec;
import io.apiary.ingest.gateway.SensorMapping;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.topology.IngestTopology;
import io.apiary.ingest.topology.TopologySettings;
import io.apiary.ingest.validation.Rejection;
import io.apiary.ingest.validation.TimeLimits;
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
 * hive id, Avro single-object encoding). Every row or cell it cannot read is reported on stderr
 * with its line number, and so is every conflicting duplicate ({@link DuplicateReadings}); each
 * column's sensor id follows {@link SensorMapping}, and the mapping is printed before anything is sent.
 */
@Command(name = "import-csv", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replays a CSV of sensor readings into the gateway telemetry topic.",
        footer = {"", "Example (the UrBAN Montreal file, on a dev stack started with 'devstack'):",
                "  ingest-app import-csv --file ingest-app/src/main/resources/data/urban-montreal/sensor_2021.csv \\",
                "    --time-column Date --hive-column 'Tag number' \\",
                "    --sensor temperature=TEMPERATURE:degC --sensor humidity=HUMIDITY:%%RH \\",
                "    --config /tmp/apiary-devstack-.../apiary-devstack.properties",
                "",
                "The topology validates what arrives: for readings older than its maximum age (default 90 days) it",
                "must run with a larger validation.max.age.ms, as the devstack settings file has. The importer",
                "warns when the readings fall outside the limits its own configuration gives."})
public final class ImportCsvCommand implements Callable<Integer> {

    @Option(names = "--file", required = true, paramLabel = "CSV", description = "The CSV file, with a header line.")
    Path file;

    @Option(names = "--time-column", required = true, paramLabel = "NAME", description = "Header of the time column.")
    String timeColumn;

    @Option(names = "--time-format", defaultValue = "yyyy-MM-dd HH:mm:ss[XXX]", paramLabel = "FORMAT",
            description = {"iso, epoch-ms, epoch-s (decimal fractions allowed, cut to milliseconds), elapsed-ms,"
                    + " elapsed-s, elapsed-min, elapsed-h (since --time-start), or a java.time pattern, read"
                    + " strictly: a date that does not exist is an error (default: ${DEFAULT-VALUE})."})
    String timeFormat;

    @Option(names = "--time-start", paramLabel = "TIME",
            description = "The start that elapsed-* times count from: ISO-8601, with an offset or read in --zone,"
                    + " e.g. 2021-06-01T08:00:00+02:00.")
    String timeStart;

    @Option(names = "--dst", defaultValue = "reject", paramLabel = "RESOLUTION",
            description = {"Local times that a daylight-saving change in --zone makes missing (spring) or"
                    + " ambiguous (autumn): reject (report the row, default), earlier (the offset before the change:"
                    + " the first of two instants), later (the offset after it: the second), or infer (an ambiguous"
                    + " time from the file's order: the second instant once the hive's times went back; a missing"
                    + " time is rejected). Each one resolved is reported with its line too."})
    String dst;

    @Option(names = "--zone", defaultValue = "UTC", paramLabel = "ZONE",
            description = "Zone of times written without an offset, e.g. UTC, -05:00, America/Montreal "
                    + "(default: ${DEFAULT-VALUE}).")
    ZoneId zone;

    /** Exactly one source of hive ids. */
    static final class HiveOptions {
        @Option(names = "--hive-column", required = true, paramLabel = "NAME",
                description = "Header of the hive id column.")
        String column;

        @Option(names = "--hive-id", required = true, paramLabel = "ID",
                description = "The hive id of every row, for a file of one hive without a hive column.")
        String id;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    HiveOptions hive;

    @Option(names = "--comment-prefix", paramLabel = "CHAR",
            description = "Skip lines that start with this character, before the header too, e.g. '#'.")
    String commentPrefix;

    @Option(names = "--sensor", required = true, paramLabel = "COLUMN=TYPE:UNIT[:SENSOR_ID]",
            description = {"A sensor column, e.g. temperature=TEMPERATURE:degC or temp_in=TEMPERATURE:degC:inside."
                    + " Repeatable. Without SENSOR_ID, the only column of a type gets sensor id 'default' and"
                    + " several columns of one type each get an id made from the column name. A UNIT of the same"
                    + " quantity as one the pipeline takes is converted to it (weight=WEIGHT:g to kg, degF or K to"
                    + " degC, m/s to mm/s)."})
    List<String> sensors;

    @Option(names = "--gateway-id", defaultValue = "csv-import", paramLabel = "ID",
            description = "Gateway id given to the readings (default: ${DEFAULT-VALUE}).")
    String gatewayId;

    @Option(names = "--delimiter", defaultValue = ",", paramLabel = "CHAR",
            description = "Field delimiter: one character, or \\t or tab for a tab (default: ${DEFAULT-VALUE}).")
    String delimiter;

    @Option(names = "--charset", defaultValue = "UTF-8", paramLabel = "NAME",
            description = "Character set of the file, e.g. UTF-8, ISO-8859-1, windows-1252 (default: ${DEFAULT-VALUE}).")
    Charset charset;

    @Option(names = "--max-reported", defaultValue = "1000", paramLabel = "N",
            description = "Problems and conflicting duplicates printed one by one before only counting them"
                    + " (default: ${DEFAULT-VALUE}).")
    int maxReported;

    @Option(names = "--duplicate-check-limit", paramLabel = "N",
            description = "Distinct (hive, sensor, time) keys the duplicate check holds, about 27 to 54 bytes each;"
                    + " past it, readings of new keys are not checked (and a warning says from which line on);"
                    + " 0 turns the check off (default: ${DEFAULT-VALUE}).")
    long duplicateCheckLimit = DuplicateReadings.DEFAULT_LIMIT;

    @Option(names = "--strict", description = "Exit with code 3 if any row or cell was rejected or any conflicting"
            + " duplicate found (without it: only if no reading at all could be read).")
    boolean strict;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    private char delimiterChar() {
        if ("\\t".equals(delimiter) || "tab".equalsIgnoreCase(delimiter)) {
            return '\t';
        }
        if (delimiter.length() != 1) {
            throw new IllegalArgumentException("--delimiter must be one character, \\t or tab, was '" + delimiter + "'");
        }
        return delimiter.charAt(0);
    }

    private ReadingTimeParser.DstResolution dstResolution() {
        for (ReadingTimeParser.DstResolution r : ReadingTimeParser.DstResolution.values()) {
            if (r.name().equalsIgnoreCase(dst.trim())) {
                return r;
            }
        }
        throw new IllegalArgumentException("--dst must be reject, earlier, later or infer, was '" + dst + "'");
    }

    private Character commentMarker() {
        if (commentPrefix == null) {
            return null;
        }
        if (commentPrefix.length() != 1) {
            throw new IllegalArgumentException("--comment-prefix must be one character, was '" + commentPrefix + "'");
        }
        return commentPrefix.charAt(0);
    }

    @Override
    public Integer call() throws Exception {
        CsvReadingParser parser;
        List<SensorColumn> columns;
        DuplicateReadings duplicates;
        try {
            columns = SensorMapping.resolve(sensors.stream().map(SensorColumnSpec::parse).toList());
            if (maxReported < 0) {
                throw new IllegalArgumentException("--max-reported must not be negative, was " + maxReported);
            }
            duplicates = new DuplicateReadings(duplicateCheckLimit);
            ReadingTimeParser.DstResolution resolution = dstResolution();
            ReadingTimeParser times = new ReadingTimeParser(timeFormat, zone, resolution, timeStart == null ? null
                    : new ReadingTimeParser("iso", zone, resolution == ReadingTimeParser.DstResolution.INFER
                            ? ReadingTimeParser.DstResolution.REJECT : resolution, null).parse(timeStart));
            parser = new CsvReadingParser(timeColumn, times, hive.id != null
                    ? CsvReadingParser.HiveSource.fixed(hive.id) : CsvReadingParser.HiveSource.column(hive.column),
                    columns, gatewayId, delimiterChar(), commentMarker());
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            throw new ParameterException(spec.commandLine(), e instanceof java.time.DateTimeException
                    ? "--time-start: " + e.getMessage() : e.getMessage(), e);
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException("Cannot read " + file.toAbsolutePath() + ": "
                    + (Files.exists(file) ? (Files.isDirectory(file) ? "it is a folder" : "permission denied")
                    : "no such file"));
        }
        try (Reader header = Files.newBufferedReader(file, charset)) {
            parser.checkHeader(header);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), file.getFileName() + ": " + e.getMessage(), e);
        }
        PrintWriter err = spec.commandLine().getErr();
        String name = file.getFileName().toString();
        columns.forEach(column -> err.println(name + ": " + column.describe()));
        IngestConfig cfg = config.load();
        KafkaReachability.require(cfg.kafkaClientSettings(), Duration.ofSeconds(30));
        Topics topics = cfg.topics();
        long[] reported = {0};
        Consumer<Object> report = problem -> {
            if (reported[0]++ < maxReported) {
                err.println(name + ": " + problem);
            }
        };
        TimeLimits limits = TopologySettings.from(cfg).timeLimits(IngestTopology.TELEMETRY_RETENTION);
        long startedAt = System.currentTimeMillis();
        long[] outsideLimits = {0, 0}; // expired, from the future
        CsvReadingParser.Totals totals;
        try (GatewayProducer producer = new GatewayProducer(cfg.kafkaClientSettings(), topics.telemetryTopic(),
                topics.entranceCountsTopic());
             Reader reader = Files.newBufferedReader(file, charset)) {
            totals = parser.parseWithLines(reader, (reading, line) -> {
                Rejection time = limits.check("reading_time", reading.getReadingTime().toEpochMilli(), startedAt);
                if (time != null) {
                    outsideLimits[time.reason() == RejectReason.FUTURE_TIMESTAMP ? 1 : 0]++;
                }
                try {
                    producer.send(reading);
                } catch (RecordTooLargeException e) {
                    throw new CsvReadingParser.RejectedReading(e.getMessage());
                }
                DuplicateReadings.Conflict conflict = duplicates.offer(reading, line);
                if (conflict != null) {
                    report.accept(conflict);
                }
            }, report::accept);
            producer.flush();
        }
        if (reported[0] > maxReported) {
            err.printf("%s: %d more problems and conflicts not shown (--max-reported %d)%n", name,
                    reported[0] - maxReported, maxReported);
        }
        spec.commandLine().getOut().printf("%s: %d rows read, %d readings produced to %s, %d rows and %d cells"
                + " rejected, %d exact duplicates, %d conflicting duplicates%s%n", name, totals.rows(), totals.readings(),
                topics.telemetry(), totals.rejectedRows(), totals.rejectedCells(), duplicates.duplicates(),
                duplicates.conflicts(), (totals.resolvedTimes() == 0 ? ""
                        : ", " + totals.resolvedTimes() + " daylight-saving times resolved (--dst " + dst.trim() + ")")
                        + (commentPrefix == null ? "" : ", " + totals.commentLines() + " comment lines skipped"));
        warn(err, name, duplicates, limits, outsideLimits);
        if (totals.rows() > 0 && totals.readings() == 0) {
            err.printf("%s: no reading could be read; check --time-column, --time-format, --zone and --sensor%n", name);
            return 3;
        }
        return strict && (totals.rejectedRows() + totals.rejectedCells() + duplicates.conflicts()) > 0 ? 3 : 0;
    }

    private static void warn(PrintWriter err, String name, DuplicateReadings duplicates, TimeLimits limits,
            long[] outsideLimits) {
        if (duplicates.conflicts() > 0) {
            err.printf("%s: %,d conflicting duplicates: readings of one hive, sensor and time with different values;"
                    + " both of each were sent, and %s keeps one of them whole, the same one in any order%n",
                    name, duplicates.conflicts(), TableNames.HIVE_TELEMETRY);
        }
        if (duplicates.partial() != null) {
            err.printf("%s: warning: %s (--duplicate-check-limit)%n", name, duplicates.partial());
        }
        if (outsideLimits[0] > 0) {
            err.printf("%s: warning: %,d of the readings are older than the maximum age of %s that a topology with this"
                    + " configuration accepts; it will dead-letter them as EXPIRED_TIMESTAMP. To replay history, run"
                    + " the topology with a larger validation.max.age.ms (ms; e.g. --set validation.max.age.ms=%d for"
                    + " 20 years; the devstack settings file has it).%n", name, outsideLimits[0],
                    TimeLimits.describe(limits.maxAge()), Duration.ofDays(365 * 20).toMillis());
        }
        if (outsideLimits[1] > 0) {
            err.printf("%s: warning: %,d of the readings are more than %s ahead of this machine's clock; the topology"
                    + " will dead-letter them as FUTURE_TIMESTAMP (validation.max.future.skew.ms); check --zone.%n",
                    name, outsideLimits[1], TimeLimits.describe(limits.maxFutureSkew()));
        }
    }
}
